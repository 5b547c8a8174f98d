"""*Six Day Race* search playouts: ride the race out as the heuristic would, value the
series standings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from racedeck.bots.six_day_race import SixDayRaceHeuristicBot
from racedeck.bots.why_first import sigmoid
from racedeck.core.game import Game

__all__ = ["FAST_SEARCH_ITERATIONS", "PLAYOUT", "SEARCH_ITERATIONS", "SixDayRacePlayout"]


class SixDayRacePlayout:
    """Stop when the race ends; value each seat by how far it leads the best rival in the
    series standings (SD-11: laps lost first, then points).

    Riders in the playout play as the heuristic bot would: random cards waste the slipstream
    and the rider change so badly (the heuristic beats random play 95% of the time) that a
    random playout says little about what a move is worth.
    """

    LAP = 40.0
    """Points a lost lap is worth in the estimate: more than any one race pays."""

    depth: int | None = None

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.races: int = game.config.races  # type: ignore[attr-defined]
        self.seats = game.num_players
        self._riders = [SixDayRaceHeuristicBot(game, seat, seat) for seat in range(self.seats)]

    def horizon(self, state: Any) -> Hashable:
        """The race in progress."""
        return state.race  # type: ignore[no-any-return]

    def estimate(self, state: Any) -> list[float]:
        """A sigmoid of (my standing − the best other standing), wider with races to come."""
        laps, points = self.game.standings(state)  # type: ignore[attr-defined]
        score = [float(p) - self.LAP * lost for p, lost in zip(points, laps, strict=True)]
        spread = 4.0 + 12.0 * max(0, self.races - state.race)
        out = []
        for seat in range(self.seats):
            best_other = max(s for i, s in enumerate(score) if i != seat)
            out.append(sigmoid((score[seat] - best_other) / spread))
        return out

    def policy(self, state: Any, seat: int, legal: Sequence[Any]) -> Any | None:
        """The heuristic bot's card, from ``seat``'s view of the playout's world."""
        return self._riders[seat].act(self.game.observe(state, seat))


PLAYOUT = SixDayRacePlayout
"""The game's playout (its ``playouts`` plugin)."""

SEARCH_ITERATIONS = 60
"""Iterations per move of a plain ``search`` bot: each playout rides a whole race with the
heuristic, so fewer fit in well under a second (``benchmarks/search_speed.py``)."""

FAST_SEARCH_ITERATIONS = 6_000
"""Iterations per move of a plain ``fastsearch`` bot: about the time ``search`` takes at its
default (compiled, the heuristic's playouts run about 120 times as many a second)."""
