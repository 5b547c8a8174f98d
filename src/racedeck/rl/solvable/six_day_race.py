"""*Six Day Race*'s small configurations: two players racing two riders each (SD-12) over one
short race.

Every rider starts with the same green hand (SD-2), and every card played is seen, so once the
race has begun nothing is hidden: the one chance event is who goes first (SD-4, the table's
``random_first``). The grey decks (SD-3) are chance too, when a rider change (SD-6) draws from
them; a small configuration here gives each grey deck cards of one value only, so a draw
holds no chance and needs no chance node.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from racedeck.core.game import Game
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.rl.solvable.configuration import SolvableConfig
from racedeck.rl.solvable.deals import Deal

__all__ = ["first_player_deals"]

SEEDS = 1000
"""Engine seeds tried for a start with each player first (one in ``players`` has it)."""


def first_player_deals(engine: Game[Any, Any, Any]) -> list[Deal]:
    """One start per first player, each of probability ``1 / players`` (SD-4)."""
    config = engine.config
    if not isinstance(config, SixDayRaceConfig):
        raise ValueError(f"not a Six Day Race game: {engine.spec.id}")
    if config.races != 1:
        raise ValueError("only one-race games are enumerated (later races are reseated, SD-11)")
    for name, deck in (("grey_low", config.grey_low), ("grey_high", config.grey_high)):
        if sum(1 for k in deck if k) > 1:
            # A draw from a deck of mixed values is chance after the root.
            raise ValueError(f"{name} must hold cards of one value at most, got {list(deck)}")
    n = engine.num_players
    firsts = range(n) if config.random_first else range(1)
    starts: dict[int, Any] = {}
    for seed in range(SEEDS):
        state = engine.new_initial_state(seed)
        starts.setdefault(state.order[0] % n, state)
        if all(f in starts for f in firsts):
            break
    names = engine.seat_names()
    return [Deal(Fraction(1, len(firsts)), f"{names[f]} goes first", starts[f]) for f in firsts]


CONFIGS: tuple[SolvableConfig, ...] = (
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
)
"""This game's named small configurations (its ``solvable`` plugin)."""
