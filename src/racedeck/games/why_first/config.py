"""Configuration of *Why First?*: every *(config)* value of the WF rulings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from racedeck.core.errors import InvalidConfig
from racedeck.core.spec import GameConfig, option

__all__ = [
    "DEFAULT_CARD_VALUES",
    "MAX_CARDS",
    "MAX_HAND",
    "MAX_STAGES",
    "MAX_TRACK",
    "MAX_VALUE",
    "VARIANTS",
    "WhyFirstConfig",
]


def _default_card_values() -> tuple[int, ...]:
    # WF-2: white number -> value, proposed table. Index i holds the value of card number i+1.
    by_value = {
        5: range(32, 31, -1),
        4: range(31, 28, -1),
        -4: range(28, 27, -1),
        3: range(27, 23, -1),
        -3: range(23, 20, -1),
        2: range(20, 15, -1),
        -2: range(15, 11, -1),
        1: range(11, 5, -1),
        -1: range(5, 0, -1),
    }
    table = [0] * 32
    for value, numbers in by_value.items():
        for number in numbers:
            table[number - 1] = value
    return tuple(table)


DEFAULT_CARD_VALUES = _default_card_values()
"""WF-2: values of the cards with white numbers 1..32 (index 0 is card 1)."""

VARIANTS = ("base", "tactical")
"""Rule variants: the base game and the tactical variant (WF-10)."""

# Bounds on what a configuration may ask for, so that every accepted game ends and stays small
# (a stranger's configuration reaches the engine through a server or a record).
MAX_STAGES = 20
"""Most stages a game may have (WF-7 plays 5)."""
MAX_HAND = 21
"""Most cards per hand: two players and Leo need ``3 * hand_size - 1`` cards of at most 64."""
MAX_TRACK = 64
"""Farthest a track end may lie from the start space (WF-1 uses −12 and 16)."""
MAX_CARDS = 64
"""Most cards a deck may hold (WF-2 has 32)."""
MAX_VALUE = 16
"""Largest absolute card value (WF-2 goes from −4 to +5)."""


@dataclass(frozen=True)
class WhyFirstConfig(GameConfig):
    """Options of *Why First?*. Two players play with the imaginary Leo (WF-9)."""

    # The player range is the spec's (WF-11), checked with its own message.
    players: int = option(4, "Number of players, 2 (with Leo) to 6 (WF-11).")
    variant: str = option(
        "base",
        "The base game, or the tactical variant: cards are revealed in the order of their "
        "small white numbers (WF-10).",
        choices=VARIANTS,
    )
    track_min: int = option(-12, "The lowest space of the track (WF-1).", min=-MAX_TRACK, max=0)
    track_max: int = option(16, "The highest space of the track (WF-1).", min=0, max=MAX_TRACK)
    stages: int = option(5, "Stages in a game (WF-7).", min=1, max=MAX_STAGES)
    hand_size: int = option(
        5, "Cards dealt at each stage; a stage has as many rounds (WF-3).", min=2, max=MAX_HAND
    )
    card_values: tuple[int, ...] = option(
        DEFAULT_CARD_VALUES,
        "The value of each card, by its small white number; none may be 0 (WF-2).",
        min=-MAX_VALUE,
        max=MAX_VALUE,
        max_items=MAX_CARDS,
    )

    @property
    def has_leo(self) -> bool:
        """True in the two-player game, where Leo joins as a third figure (WF-9)."""
        return self.players == 2

    def validate(self) -> None:
        """Reject configurations the rules cannot be played with."""
        # Each option alone has been checked by its declaration (type and bounds); what is
        # left are the checks across options, repeated here for configs built directly.
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        if not self.track_min <= 0 <= self.track_max:
            raise ValueError(
                "the track must contain the start space 0 (track_min <= 0 <= track_max)"
            )
        if self.stages < 1:
            raise ValueError("stages must be at least 1")
        if self.hand_size < 2:
            raise ValueError("hand_size must be at least 2 (the last card round is automatic)")
        if any(type(v) is not int or v == 0 for v in self.card_values):
            raise InvalidConfig(
                "why-first: option card_values is not allowed: every card value must be a "
                f"non-zero integer (allowed: a list of integers, -{MAX_VALUE} to {MAX_VALUE}, "
                "not 0)",
                option="card_values",
            )
        needed = self.players * self.hand_size + (self.hand_size - 1 if self.has_leo else 0)
        if needed > len(self.card_values):
            raise InvalidConfig(
                f"why-first: option hand_size={self.hand_size} is not allowed with "
                f"players={self.players}: {self.players} players need {needed} cards per stage, "
                f"the deck has {len(self.card_values)} (card_values)",
                option="hand_size",
            )

    def value_counts(self) -> Counter[int]:
        """How many cards of each value the deck holds."""
        return Counter(self.card_values)
