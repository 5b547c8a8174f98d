"""*Why First?* search playouts: stop when the stage ends, value the chance to finish second."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from racedeck.bots.why_first import second_place_chance
from racedeck.core.game import Game

__all__ = ["FAST_SEARCH_ITERATIONS", "PLAYOUT", "SEARCH_ITERATIONS", "WhyFirstPlayout"]


class WhyFirstPlayout:
    """Stop when the stage ends; value each seat's chance that its total ends second (WF-7)."""

    depth: int | None = None

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.stages: int = game.config.stages  # type: ignore[attr-defined]
        self.seats = game.num_players

    def horizon(self, state: Any) -> Hashable:
        """The stage in progress."""
        return state.stage  # type: ignore[no-any-return]

    def estimate(self, state: Any) -> list[float]:
        """:func:`~racedeck.bots.why_first.second_place_chance` of every seat's total, with a
        spread that grows with the stages still to play."""
        totals = state.totals
        spread = 0.75 + 2.5 * (self.stages - state.stage)
        return [second_place_chance(totals, seat, spread) for seat in range(self.seats)]

    def policy(self, state: Any, seat: int, legal: Sequence[Any]) -> Any | None:
        """Random playouts: a stage is short, and random cards are cheap."""
        return None


PLAYOUT = WhyFirstPlayout
"""The game's playout (its ``playouts`` plugin)."""

SEARCH_ITERATIONS = 500
"""Iterations per move of a plain ``search`` bot: well under a second per move on one core
(``benchmarks/search_speed.py``)."""

FAST_SEARCH_ITERATIONS = 10_000
"""Iterations per move of a plain ``fastsearch`` bot: about the time ``search`` takes at its
default (the compiled search runs about 20 times as many a second)."""
