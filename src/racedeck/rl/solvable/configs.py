"""The named small configurations: a racedeck game and options small enough to solve, and
the deals that start it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.rl.solvable.deals import Deal
from racedeck.rl.solvable.setback import setback_deals
from racedeck.rl.solvable.six_day_race import first_player_deals
from racedeck.rl.solvable.why_first import why_first_deals

__all__ = ["CONFIGS", "SolvableConfig", "find_config"]


@dataclass(frozen=True)
class SolvableConfig:
    """A small configuration of one game, with the chance outcomes that start it."""

    name: str
    """The configuration's name (``why-first-duel-2`` …)."""
    game_id: str
    """The racedeck game."""
    options: dict[str, Any]
    """The game's options (the rest take the game's defaults)."""
    summary: str
    """The configuration in a few words."""
    deal: Callable[[Game[Any, Any, Any]], list[Deal]] = field(repr=False)
    """Every deal of the engine made with :attr:`options`, with its probability."""
    restriction: str = ""
    """What the configuration fixes beyond the game's options, if anything."""
    iterations: int = 200
    """CFR+ iterations that bring it close to an equilibrium (``scripts/solve.py``)."""

    def engine(self) -> Game[Any, Any, Any]:
        """The racedeck game under :attr:`options`."""
        return make(self.game_id, **self.options)


CONFIGS: tuple[SolvableConfig, ...] = (
    SolvableConfig(
        name="why-first-duel-2",
        game_id="why-first",
        options={
            "players": 2,
            "stages": 1,
            "hand_size": 2,
            "card_values": (-2, -1, 1, 1, 2, 3),
        },
        summary=(
            "Why First?, two players and Leo, one stage, hands of two from a six-card deck "
            "(-2 -1 +1 +1 +2 +3; Leo gets one card, one card stays out)"
        ),
        deal=why_first_deals,
    ),
    SolvableConfig(
        name="why-first-duel-3",
        game_id="why-first",
        options={
            "players": 2,
            "stages": 1,
            "hand_size": 3,
            "card_values": (-1, -1, 1, 1, 1, 2, 2, 2),
        },
        summary=(
            "Why First?, two players and Leo, one stage, hands of three from an eight-card "
            "deck (-1 -1 +1 +1 +1 +2 +2 +2; Leo gets the last two)"
        ),
        deal=why_first_deals,
        iterations=100,
    ),
    SolvableConfig(
        name="six-day-race-sprint",
        game_id="six-day-race",
        options={
            "players": 2,
            "races": 1,
            "line": 7,
            "sprints": (3,),
            "rider_change": 4,
            "crash": 5,
            "green_small": (1, 1, 1, 0, 0, 0, 0),
            "grey_low": (4, 0, 0),
            "grey_high": (4, 0, 0),
            "change_draw_small": (1, 0),
        },
        summary=(
            "Six Day Race, two players with two riders each, one race to a line at 7 with a "
            "sprint at 3, FAHRERWECHSEL at 4, STURZ at 5, every rider's hand 1 2 3, a rider "
            "change draws a single 1"
        ),
        deal=first_player_deals,
        restriction=(
            "the grey decks hold only 1s (deck 1-3) and 4s (deck 4-6), so a rider change "
            "(SD-6) draws no chance: the only chance is who goes first (SD-4)"
        ),
    ),
    SolvableConfig(
        name="setback-sprint",
        game_id="setback",
        options={
            "players": 2,
            "rows": 1,
            "hand_size": 2,
            "deck": (("MOVE+1", 9), ("MOVE+2", 1), ("BLOCK", 2)),
        },
        summary=(
            "Setback, two players, two lanes of one row, hands of two from a twelve-card deck "
            "(MOVE+1 x9, MOVE+2, BLOCK x2): two cards on the board, four in hand, six in the "
            "draw pile"
        ),
        restriction=(
            "the board is fixed to two MOVE+1 cards (public anyway, SB-1); the hands, the "
            "draw pile's order and the first player are dealt as the engine deals them given "
            "that board. The draw pile is long enough that no history reshuffles the "
            "discards (SB-3), which would be chance after the deal"
        ),
        deal=partial(setback_deals, board=(("MOVE+1", "MOVE+1"),)),
        iterations=100,
    ),
)
"""Every named small configuration."""


def find_config(name: str) -> SolvableConfig:
    """The configuration called ``name``; :class:`ValueError` naming the known ones."""
    for config in CONFIGS:
        if config.name == name:
            return config
    known = ", ".join(c.name for c in CONFIGS)
    raise ValueError(f"no small configuration {name!r}; known: {known}")
