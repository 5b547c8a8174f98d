"""Where a search playout may stop early, and what the position is then worth, per game.

A uniformly random playout to the very end of a long game says little: a *Six Day Race*
series is six races of random cards, and the winner of a random *Why First?* game is decided by
stages the current decision hardly touches. A :class:`Playout` cuts the playout when its
``horizon`` changes (the stage or race in progress ends) and values the position there with a
smooth estimate of each seat's chance to win — the same estimates the heuristic bots use.
Each game offers its playout in the module it names for the ``playouts`` face
(``PLAYOUT``, made with the game, ``SEARCH_ITERATIONS``, the default search budget, and
``FAST_SEARCH_ITERATIONS``, the compiled search's); games without one play out to the end.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from racedeck.core.game import Game
from racedeck.plugins import optional_plugin

__all__ = [
    "FALLBACK_ITERATIONS",
    "Playout",
    "fast_search_iterations",
    "playout_for",
    "search_iterations",
]

FALLBACK_ITERATIONS = 300
"""Iterations per move of a plain ``search`` bot in a game that names no default."""


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


def playout_for(game: Game[Any, Any, Any]) -> Playout | None:
    """The game's :class:`Playout`, or ``None`` to play out to the end."""
    module = optional_plugin(game.spec.id, "playouts")
    factory = getattr(module, "PLAYOUT", None)
    return factory(game) if factory is not None else None


def search_iterations(game_id: str) -> int:
    """Iterations per move of a plain ``search`` bot in ``game_id``."""
    module = optional_plugin(game_id, "playouts")
    return int(getattr(module, "SEARCH_ITERATIONS", FALLBACK_ITERATIONS))


def fast_search_iterations(game_id: str) -> int:
    """Iterations per move of a plain ``fastsearch`` bot in ``game_id`` (20 times
    :func:`search_iterations` where the game names none)."""
    module = optional_plugin(game_id, "playouts")
    named = getattr(module, "FAST_SEARCH_ITERATIONS", None)
    return int(named) if named is not None else 20 * search_iterations(game_id)
