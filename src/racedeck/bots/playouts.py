"""Where a search playout may stop early, and what the position is then worth, per game.

A uniformly random playout to the very end of a long game says little: a *Six Day Race*
series is six races of random cards, and the winner of a random *Why First?* game is decided by
stages the current decision hardly touches. A :class:`Playout` cuts the playout when its
``horizon`` changes (the stage or race in progress ends) and values the position there with a
smooth estimate of each seat's chance to win — the same estimates the heuristic bots use.
Games without one play out to the end.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from racedeck.bots.six_day_race import SixDayRaceHeuristicBot
from racedeck.bots.why_first import second_place_chance, sigmoid
from racedeck.core.game import Game

__all__ = [
    "Playout",
    "SetbackPlayout",
    "SixDayRacePlayout",
    "WhyFirstPlayout",
    "playout_for",
]


class Playout(Protocol):
    """How far a playout goes and how its end is valued."""

    depth: int | None
    """At most this many playout decisions before :meth:`estimate` (``None``: no limit)."""

    def horizon(self, state: Any) -> Hashable:
        """A mark that changes when the playout should stop (e.g. the stage number)."""
        ...

    def estimate(self, state: Any) -> list[float]:
        """Each seat's value of a non-final ``state``, in ``[0, 1]``."""
        ...

    def policy(self, state: Any, seat: int, legal: Sequence[Any]) -> Any | None:
        """The playout's action for ``seat``, or ``None`` for a uniformly random one."""
        ...


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


_PLAYOUTS: dict[str, type[WhyFirstPlayout] | type[SixDayRacePlayout] | type[SetbackPlayout]] = {
    "why-first": WhyFirstPlayout,
    "six-day-race": SixDayRacePlayout,
    "setback": SetbackPlayout,
}


def playout_for(game: Game[Any, Any, Any]) -> Playout | None:
    """The game's :class:`Playout`, or ``None`` to play out to the end."""
    factory = _PLAYOUTS.get(game.spec.id)
    return factory(game) if factory is not None else None
