"""Information-set MCTS on compiled states: :class:`racedeck.bots.search.SearchBot`'s search,
every iteration in Numba.

The search is the Python bot's, step for step (single-observer ISMCTS, Cowling, Powley &
Whitehouse 2012): each iteration takes a *determinization* of the bot's view — the view's
state with every secret dealt afresh (:attr:`SearchKernel.redeal`, distributed as the game's
sampler) — walks one shared tree with it, selecting by UCB1 with availability counts, adds one
node, plays out with the game's playout (to its horizon or depth) and backs the values up.
Simultaneous and concealed decisions (:attr:`SearchKernel.group`: the commits of a round of
*Why First?*, the answers of a Setback BLOCK window) are searched as such: every seat of the
group chooses from the same node with its own statistics (decoupled UCT), and the group's
joint choice leads to the child. A decision with one legal action inside a concealed group is
forced (an SB-9 pass without a BLOCK): it takes no node, as the Python search takes a forced
action; a playout's depth counts a concealed group as one decision, as the Python search
counts one sweep of the seats it asks. One difference, by design: ties between equally
visited root actions go to the lower action index.

The tree lives in arrays (:class:`Tree`): edges (node, seat, action) and children (node, the
group's joint choice) in two open-addressing hash tables, their statistics beside them. The
search sees only what the bot's view holds: the root row is loaded from one state the view
allows (``game.sample_state``), and every iteration starts from it redealt from the bot's seat.

>>> import racedeck
>>> from racedeck.kernels.search import KernelSearch
>>> game = racedeck.make("why-first", players=4)
>>> state = game.new_initial_state(7)
>>> view = game.observe(state, 0)
>>> search = KernelSearch(game)
>>> action = search.choose(view, seed=1, iterations=200)
>>> action in view.legal_actions
True
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from racedeck.core.game import Game
from racedeck.core.rng import Rng, derive_seed
from racedeck.kernels import search_loop
from racedeck.kernels.loops import compiled_loops
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.search_tree import Tree, find_edge
from racedeck.plugins import optional_plugin

__all__ = ["KernelSearch", "Tree", "search_kernel", "search_kernel_games"]

EXPLORATION = 0.7
"""The UCB constant (the Python search's default)."""

# -- the compiled search ---------------------------------------------------------------------------


def _search_loop(functions: dict[str, Any]) -> Callable[..., int]:
    """The compiled iterations (:mod:`racedeck.kernels.search_loop`) for one game's
    functions, cached like the kernels (:func:`racedeck.kernels.loops.compiled_loops`)."""
    run: Callable[..., int] = compiled_loops(search_loop, functions)["run"]
    return run


# -- the driver -----------------------------------------------------------------------------------


def search_kernel_games() -> tuple[str, ...]:
    """The ids of the games the compiled search plays (those naming a ``search_kernel``)."""
    from racedeck.core.registry import available_games, get_spec

    return tuple(g for g in available_games() if "search_kernel" in get_spec(g).plugins)


def search_kernel(game: Game[Any, Any, Any]) -> SearchKernel:
    """The :class:`SearchKernel` of ``game``'s configuration; :class:`LookupError` for a game
    without one."""
    return _search_kernel(game.spec.id, game.cfg)  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=64)
def _search_kernel(game_id: str, cfg: Any) -> SearchKernel:
    """One configuration's kernel, made once a process: making it builds the rules' tables
    (25 ms for Setback, as long as a hundred iterations), and a bot is made every game (a
    trainer's or a server's opponents); the kernel is read only, every search has its own
    arrays (:attr:`StepKernel.arrays`). A failure is not cached."""
    module = optional_plugin(game_id, "search_kernel")
    if module is None:
        raise LookupError(
            f"{game_id} has no compiled search yet "
            f"(games with one: {', '.join(search_kernel_games())})"
        )
    made: SearchKernel = module.search_kernel(cfg)
    return made


class KernelSearch:
    """The compiled search for one game and configuration: :meth:`choose` an action for a view.

    ``exploration`` is the UCB constant; ``chunk`` iterations run between the driver's checks
    of the clock and of the tree's room; ``kernel`` replaces the game's own
    :class:`SearchKernel` (the tests give a wrong one to see the comparisons fail).
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        exploration: float = EXPLORATION,
        chunk: int = 64,
        kernel: SearchKernel | None = None,
    ) -> None:
        self.game = game
        self.kernel = sk = kernel or search_kernel(game)
        step = sk.step
        self.ints, self.bits, self.tables = step.arrays(2)  # row 0: the root, row 1: the work
        self.streams = np.zeros(2, np.uint64)
        self.chunk = chunk
        a = step.num_actions
        self.mask = np.zeros(a, np.bool_)
        self.edges = np.zeros(a, np.int64)
        self.actions = np.zeros(a, np.int64)
        self.path = np.zeros((4096, 2), np.int64)
        self.values = np.zeros(step.players, np.float64)
        # Room an iteration may take: one node, and edges for every legal action of every seat
        # of every node on its path (a generous bound, checked between iterations).
        self.settings = np.array(
            [
                step.players,
                a,
                sk.depth,
                int(sk.playout_heuristic),
                min(4 * a * step.players + 64, 1 << 16),
                2,
            ],
            np.int64,
        )
        self.exploration = exploration
        self._run = _search_loop(
            {
                "current_player": step.current_player,
                "legal": step.legal,
                "apply": step.apply,
                "heuristic_action": step.heuristic_action or _no_heuristic,
                "redeal": sk.redeal,
                "group": sk.group,
                "horizon": sk.horizon,
                "estimate": sk.estimate,
                "values": sk.values,
            }
        )
        self.last_iterations = 0
        """How many iterations the latest :meth:`choose` ran."""
        self.tree: Tree | None = None
        # Compile (or load from the cache) now, not in a timed decision:
        # the iterations, the tree's growth, the root's reading.
        warm = Tree.empty(1024, 1024).roomy(1 << 11, 1 << 11)
        self._search(warm, me=0, iterations=0)
        find_edge(warm.ekeys, warm.eids, np.int64(0))

    def choose(
        self,
        view: Any,
        seed: int,
        iterations: int = 0,
        millis: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Any:
        """The most visited of ``view``'s legal actions after ``iterations`` iterations, or
        after ``millis`` milliseconds of ``clock`` (seconds) when given. With an iteration
        budget the choice is a function of the view and ``seed``."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        sk = self.kernel
        state = self.game.sample_state(view, Rng(derive_seed(seed, 0)))
        sk.load(state, self.ints[0], self.bits[0], self.tables)
        self.streams[1] = np.uint64(derive_seed(seed, 1))
        margin_edges, margin_nodes = int(self.settings[4]), int(self.settings[5])
        # Room for a few thousand iterations; the tree grows as a search needs more.
        start = min(iterations, 4096) if millis is None else 4096
        tree = Tree.empty(8 * start, 2 * start)
        deadline = None if millis is None else clock() + millis / 1000.0
        done = 0
        while True:
            want = self.chunk if deadline is not None else iterations - done
            if deadline is None and want <= 0:
                break
            tree = tree.roomy(margin_edges, margin_nodes)
            done += self._search(tree, view.seat, want)
            if deadline is not None and clock() >= deadline:
                break
        self.last_iterations = done
        self.tree = tree
        return legal[self._most_visited(tree, view.seat, [sk.encode(a) for a in legal])]

    def _search(self, tree: Tree, me: int, iterations: int) -> int:
        """Up to ``iterations`` iterations from the root row for seat ``me`` (fewer when
        ``tree`` needs room first); how many ran."""
        done: int = self._run(
            self.ints,
            self.bits,
            self.tables,
            me,
            iterations,
            self.settings,
            self.exploration,
            self.streams,
            tree.ekeys,
            tree.eids,
            tree.stats,
            tree.ckeys,
            tree.cjoint,
            tree.cids,
            tree.used,
            self.mask,
            self.edges,
            self.actions,
            self.path,
            self.values,
        )
        return done

    def root_visits(self, seat: int, indices: list[int]) -> list[float]:
        """The visits of the latest root's edges of ``seat`` for the action ``indices``."""
        tree = self.tree
        assert tree is not None
        actions = int(self.settings[1])
        out = []
        for a in indices:
            e = find_edge(tree.ekeys, tree.eids, np.int64(seat * actions + a))
            out.append(float(tree.stats[e, 0]) if e >= 0 else 0.0)
        return out

    def root_means(self, seat: int, indices: list[int]) -> list[float]:
        """The mean reward of the latest search's iterations through each of ``seat``'s root
        edges of the action ``indices`` (0 for an edge never tried)."""
        tree = self.tree
        assert tree is not None
        actions = int(self.settings[1])
        out = []
        for a in indices:
            e = find_edge(tree.ekeys, tree.eids, np.int64(seat * actions + a))
            visits = float(tree.stats[e, 0]) if e >= 0 else 0.0
            out.append(float(tree.stats[e, 1]) / visits if visits else 0.0)
        return out

    def root_value(self, seat: int, indices: list[int]) -> float:
        """The mean reward of the latest search's iterations through ``seat``'s root edges of
        the action ``indices``."""
        tree = self.tree
        assert tree is not None
        actions = int(self.settings[1])
        visits = rewards = 0.0
        for a in indices:
            e = find_edge(tree.ekeys, tree.eids, np.int64(seat * actions + a))
            if e >= 0:
                visits += float(tree.stats[e, 0])
                rewards += float(tree.stats[e, 1])
        return rewards / visits if visits else 0.0

    def _most_visited(self, tree: Tree, seat: int, indices: list[int]) -> int:
        visits = self.root_visits(seat, indices)
        # The most visited; ties to the lower action index.
        return max(range(len(indices)), key=lambda k: (visits[k], -indices[k]))


@numba.njit
def _no_heuristic(ints: Any, bits: Any, i: int, mask: Any, count: int, t: Any, streams: Any) -> int:
    """Stands in for a game without a compiled heuristic (playouts are then random)."""
    return -1
