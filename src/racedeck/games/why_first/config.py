"""Configuration of *Why First?*: every *(config)* value of the WF rulings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from racedeck.core.spec import GameConfig

__all__ = ["DEFAULT_CARD_VALUES", "VARIANTS", "WhyFirstConfig"]


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


@dataclass(frozen=True)
class WhyFirstConfig(GameConfig):
    """Options of *Why First?*. Two players play with the imaginary Leo (WF-9)."""

    players: int = field(default=4, metadata={"help": "number of players, 2 (with Leo) to 6"})
    variant: str = field(
        default="base", metadata={"help": "base, or tactical (white-number order, WF-10)"}
    )
    track_min: int = field(default=-12, metadata={"help": "lowest space (WF-1)"})
    track_max: int = field(default=16, metadata={"help": "highest space (WF-1)"})
    stages: int = field(default=5, metadata={"help": "stages per game (WF-7)"})
    hand_size: int = field(
        default=5, metadata={"help": "cards dealt per stage = card rounds per stage (WF-3)"}
    )
    card_values: tuple[int, ...] = field(
        default=DEFAULT_CARD_VALUES,
        metadata={"help": "value of each card by white number 1..N (WF-2)"},
    )

    @property
    def has_leo(self) -> bool:
        """True in the two-player game, where Leo joins as a third figure (WF-9)."""
        return self.players == 2

    def validate(self) -> None:
        """Reject configurations the rules cannot be played with."""
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
        if any(not isinstance(v, int) or v == 0 for v in self.card_values):
            raise ValueError("card_values must be non-zero integers")
        needed = self.players * self.hand_size + (self.hand_size - 1 if self.has_leo else 0)
        if needed > len(self.card_values):
            raise ValueError(
                f"{self.players} players need {needed} cards per stage, "
                f"the deck has {len(self.card_values)}"
            )

    def value_counts(self) -> Counter[int]:
        """How many cards of each value the deck holds."""
        return Counter(self.card_values)
