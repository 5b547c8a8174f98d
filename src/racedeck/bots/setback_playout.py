"""*Setback* search playouts: a few turns of random play, valued by the lead in rows."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from racedeck.bots.why_first import sigmoid
from racedeck.core.game import Game

__all__ = ["FAST_SEARCH_ITERATIONS", "PLAYOUT", "SEARCH_ITERATIONS", "SetbackPlayout"]


class SetbackPlayout:
    """Stop after a few turns of random play; value each seat by its lead in rows.

    The first token to reach FINISH wins, so how many rows a token leads the best other token
    by is what a position is worth; a short playout keeps that reading close to the decision
    and leaves time for more of them.
    """

    SPREAD = 1.5
    """Rows of lead that make a seat's estimate about three times its rival's."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.seats = game.num_players
        self.depth: int | None = 6 * game.num_players

    def horizon(self, state: Any) -> Hashable:
        """Never changes: the playout is cut by :attr:`depth`."""
        return 0

    def estimate(self, state: Any) -> list[float]:
        """A sigmoid of (my row − the best other row)."""
        row = state.row
        out = []
        for seat in range(self.seats):
            best_other = max(r for i, r in enumerate(row) if i != seat)
            out.append(sigmoid((row[seat] - best_other) / self.SPREAD))
        return out

    def policy(self, state: Any, seat: int, legal: Sequence[Any]) -> Any | None:
        """Random playouts."""
        return None


PLAYOUT = SetbackPlayout
"""The game's playout (its ``playouts`` plugin)."""

SEARCH_ITERATIONS = 100
"""Iterations per move of a plain ``search`` bot: well under a second per move on one core
(``benchmarks/search_speed.py``)."""

FAST_SEARCH_ITERATIONS = 2_000
"""Iterations per move of a plain ``fastsearch`` bot: about the time ``search`` takes at its
default (the compiled search runs about 20 times as many a second)."""
