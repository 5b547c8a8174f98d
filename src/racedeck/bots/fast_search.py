"""The search bot on compiled states: :class:`~racedeck.bots.search.SearchBot`'s search, tens
of times more iterations in the same time.

``fastsearch`` plays exactly as ``search`` decides — information-set MCTS over
determinizations of its own view, concealed decisions searched as simultaneous ones, the
game's playouts and values — with every iteration in compiled code
(:mod:`racedeck.kernels.search`). Its default budget
(:func:`~racedeck.bots.playouts.fast_search_iterations`) gives it about the time per move the
Python search takes at its own default (``benchmarks/search_speed.py`` measures both), so it
searches far more in that time; ``fastsearch@20000`` and ``fastsearch@100ms`` set a budget as
for ``search``. Games without a compiled search do not offer it.
"""

from __future__ import annotations

from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.playouts import fast_search_iterations
from racedeck.bots.search import SearchBudget
from racedeck.core.game import Game
from racedeck.core.registry import get_spec
from racedeck.core.rng import derive_seed

__all__ = ["FastSearchBot", "has_fast_search"]


def has_fast_search(game_id: str) -> bool:
    """Whether ``game_id`` has a compiled search (its ``search_kernel`` plugin)."""
    return "search_kernel" in get_spec(game_id).plugins


class FastSearchBot(Bot):
    """Information-set MCTS on compiled states; ``budget`` in iterations or milliseconds.

    With an iteration budget the bot is reproducible: the same seed and views give the same
    moves. The compiled search loads from Numba's cache (``racedeck compile``), or compiles on
    the first bot of a process (a minute on a fresh checkout).
    """

    name = "fastsearch"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        seed: int,
        budget: SearchBudget | None = None,
        exploration: float = 0.7,
    ) -> None:
        super().__init__(game, seat, seed)
        from racedeck.kernels.search import KernelSearch  # Numba loads with the first one

        self.budget = budget or SearchBudget(fast_search_iterations(game.spec.id))
        self.search = KernelSearch(game, exploration=exploration)
        self._moves = 0

    @property
    def last_iterations(self) -> int:
        """How many iterations the latest decision ran (for measurements)."""
        return self.search.last_iterations

    def act(self, view: Any) -> Any:
        """Search from determinizations of ``view`` and return the most visited action."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        self._moves += 1
        budget = self.budget
        return self.search.choose(
            view,
            seed=derive_seed(self.seed, self._moves),
            iterations=budget.iterations,
            millis=budget.millis,
        )
