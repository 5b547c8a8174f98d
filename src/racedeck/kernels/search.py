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

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from racedeck.core.game import Game
from racedeck.core.rng import Rng, derive_seed
from racedeck.kernels.batch import random_action
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.splitmix import below
from racedeck.kernels.why_first import _jit
from racedeck.plugins import optional_plugin

__all__ = ["KernelSearch", "Tree", "search_kernel", "search_kernel_games"]

EXPLORATION = 0.7
"""The UCB constant (the Python search's default)."""

_EMPTY = np.int64(-1)
_FILL = 0.5  # hash tables grow before they are half full


# -- the tree -------------------------------------------------------------------------------------


@dataclass
class Tree:
    """The search tree in arrays, grown by the Python driver between compiled runs.

    ``ekeys``/``eids``: the edge table ((node, seat, action) packed into one key → edge id);
    ``stats[e]``: an edge's visits, reward sum and availability; ``ckeys``/``cjoint``/
    ``cids``: the child table ((node, the group's joint-choice hash) → child node);
    ``used``: edges, nodes.
    """

    ekeys: NDArray[np.int64]
    eids: NDArray[np.int64]
    stats: NDArray[np.float64]
    ckeys: NDArray[np.int64]
    cjoint: NDArray[np.uint64]
    cids: NDArray[np.int64]
    used: NDArray[np.int64]

    @classmethod
    def empty(cls, edges: int, nodes: int) -> Tree:
        """Room for about ``edges`` edges and ``nodes`` nodes (powers of two, at least 1024)."""
        e = 1 << max(10, int(edges - 1).bit_length())
        c = 1 << max(10, int(nodes - 1).bit_length())
        return cls(
            np.full(2 * e, _EMPTY, np.int64),
            np.zeros(2 * e, np.int64),
            np.zeros((e, 3), np.float64),
            np.full(2 * c, _EMPTY, np.int64),
            np.zeros(2 * c, np.uint64),
            np.zeros(2 * c, np.int64),
            np.array([0, 1], np.int64),  # node 0 is the root
        )

    def roomy(self, margin_edges: int, margin_nodes: int) -> Tree:
        """This tree, or a larger copy when fewer than the margins are left before a table is
        half full (the compiled run stops before it would pass that)."""
        edges, nodes = int(self.used[0]), int(self.used[1])
        if edges + margin_edges <= self.stats.shape[0] and nodes + margin_nodes <= (
            self.ckeys.shape[0] // 2
        ):
            return self
        bigger = Tree.empty(
            max(2 * self.stats.shape[0], edges + 2 * margin_edges),
            max(self.ckeys.shape[0], 2 * (nodes + margin_nodes)),
        )
        _rehash(self.ekeys, self.eids, bigger.ekeys, bigger.eids)
        bigger.stats[:edges] = self.stats[:edges]
        _rehash_children(
            self.ckeys, self.cjoint, self.cids, bigger.ckeys, bigger.cjoint, bigger.cids
        )
        bigger.used[:] = self.used
        return bigger


@_jit(inline=True)
def _slot(key: np.int64, size: int) -> np.int64:
    z = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((z ^ (z >> np.uint64(29))) & np.uint64(size - 1))


@_jit(cache=True)
def _rehash(
    keys: NDArray[np.int64],
    ids: NDArray[np.int64],
    new_keys: NDArray[np.int64],
    new_ids: NDArray[np.int64],
) -> None:
    size = new_keys.shape[0]
    for k in range(keys.shape[0]):
        if keys[k] != _EMPTY:
            s = _slot(keys[k], size)
            while new_keys[s] != _EMPTY:
                s = (s + 1) & (size - 1)
            new_keys[s] = keys[k]
            new_ids[s] = ids[k]


@_jit(cache=True)
def _rehash_children(
    keys: NDArray[np.int64],
    joint: NDArray[np.uint64],
    ids: NDArray[np.int64],
    new_keys: NDArray[np.int64],
    new_joint: NDArray[np.uint64],
    new_ids: NDArray[np.int64],
) -> None:
    size = new_keys.shape[0]
    for k in range(keys.shape[0]):
        if keys[k] != _EMPTY:
            s = _slot(keys[k] ^ np.int64(joint[k] & np.uint64(0x7FFFFFFFFFFFFFFF)), size)
            while new_keys[s] != _EMPTY:
                s = (s + 1) & (size - 1)
            new_keys[s] = keys[k]
            new_joint[s] = joint[k]
            new_ids[s] = ids[k]


@_jit(cache=True)
def _edge(
    keys: NDArray[np.int64],
    ids: NDArray[np.int64],
    stats: NDArray[np.float64],
    used: NDArray[np.int64],
    key: np.int64,
) -> int:
    """The edge of ``key``, made (zero statistics) when new; -1 when the tree has no room for
    it (the driver grows the tree between runs, so this is only a guard)."""
    size = keys.shape[0]
    s = _slot(key, size)
    while True:
        k = keys[s]
        if k == key:
            return int(ids[s])
        if k == _EMPTY:
            e = used[0]
            if e >= stats.shape[0]:
                return -1
            used[0] = e + 1
            keys[s] = key
            ids[s] = e
            stats[e, 0] = 0.0
            stats[e, 1] = 0.0
            stats[e, 2] = 0.0
            return int(e)
        s = (s + 1) & (size - 1)


@_jit(cache=True)
def _find_edge(keys: NDArray[np.int64], ids: NDArray[np.int64], key: np.int64) -> int:
    """The edge of ``key``, -1 when there is none."""
    size = keys.shape[0]
    s = _slot(key, size)
    while True:
        k = keys[s]
        if k == key:
            return int(ids[s])
        if k == _EMPTY:
            return -1
        s = (s + 1) & (size - 1)


_FULL = -(1 << 62)


@_jit(cache=True)
def _child(
    keys: NDArray[np.int64],
    joint: NDArray[np.uint64],
    ids: NDArray[np.int64],
    used: NDArray[np.int64],
    node: int,
    h: np.uint64,
) -> int:
    """The child of ``node`` for the joint choice ``h``; a new node is returned as ``-id - 1``,
    and :data:`_FULL` when the tree has no room for one (a guard, as in :func:`_edge`)."""
    size = keys.shape[0]
    key = np.int64(node)
    s = _slot(key ^ np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF)), size)
    while True:
        k = keys[s]
        if k == key and joint[s] == h:
            return int(ids[s])
        if k == _EMPTY:
            c = used[1]
            if c >= size // 2:
                return _FULL
            used[1] = c + 1
            keys[s] = key
            joint[s] = h
            ids[s] = c
            return int(-c - 1)
        s = (s + 1) & (size - 1)


@_jit(inline=True)
def _mix(h: np.uint64, x: int) -> np.uint64:
    z = (h ^ np.uint64(x)) * np.uint64(0x9E3779B97F4A7C15)
    return z ^ (z >> np.uint64(31))


@_jit(cache=True)
def _select(
    keys: NDArray[np.int64],
    ids: NDArray[np.int64],
    stats: NDArray[np.float64],
    used: NDArray[np.int64],
    base: np.int64,
    mask: NDArray[np.bool_],
    edges: NDArray[np.int64],
    actions: NDArray[np.int64],
    c: float,
    streams: NDArray[np.uint64],
    i: int,
) -> int:
    """UCB1 over the legal actions of ``mask`` at one (node, seat) — ``base`` is its packed key
    — with availability counts (an arm is judged against the times it could have been chosen);
    untried actions first, one drawn uniformly from ``streams[i]``. Returns the action and
    leaves its edge in ``edges[0]`` (-1 if the tree had no room for it)."""
    legal = 0
    untried = 0
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        e = _edge(keys, ids, stats, used, base + a)
        if e >= 0:
            stats[e, 2] += 1.0
        if e < 0 or stats[e, 0] == 0.0:
            untried += 1
        edges[legal] = e
        actions[legal] = a
        legal += 1
    if untried:
        k = below(streams, i, untried) if untried > 1 else 0
        for j in range(legal):
            e = edges[j]
            if e < 0 or stats[e, 0] == 0.0:
                if k == 0:
                    a = actions[j]
                    edges[0] = e
                    return int(a)
                k -= 1
    best = -1.0
    pick = 0
    for j in range(legal):
        e = edges[j]
        n = stats[e, 0]
        value = stats[e, 1] / n + c * np.sqrt(np.log(stats[e, 2]) / n)
        if value > best:
            best = value
            pick = j
    a = actions[pick]
    edges[0] = edges[pick]
    return int(a)


# -- the compiled search ---------------------------------------------------------------------------


@cache
def _search_loop(
    current_player: Any,
    legal: Any,
    apply: Any,
    heuristic_action: Any,
    redeal: Any,
    group: Any,
    horizon: Any,
    estimate: Any,
    values: Any,
) -> Callable[..., int]:
    """The compiled iterations for one game's functions (compiled once per process and game on
    the first call, like :func:`racedeck.kernels.batch.batch_functions`)."""
    flags: dict[str, Any] = {"_nrt": False}  # the loop makes no array (see batch_functions)
    jit = numba.njit(**flags)

    @jit
    def run(  # type: ignore[no-untyped-def]
        ints,
        bits,
        t,
        me,
        iterations,
        settings,
        c,
        streams,
        ekeys,
        eids,
        stats,
        ckeys,
        cjoint,
        cids,
        used,
        mask,
        edges,
        actions,
        path,
        vals,
    ):
        # settings: players, actions, playout depth (-1: none), heuristic playouts (0/1), and
        # the room in edges and nodes an iteration is given (see KernelSearch); c: UCB's.
        players, num_actions, depth, guided = settings[0], settings[1], settings[2], settings[3]
        edge_margin, node_margin = settings[4], settings[5]
        longest = path.shape[0]
        edge_room = stats.shape[0]
        node_room = ckeys.shape[0] // 2
        width = ints.shape[1]
        done = 0
        while done < iterations:
            if used[0] + edge_margin > edge_room or used[1] + node_margin > node_room:
                break  # the driver grows the tree and calls again
            for k in range(width):
                ints[1, k] = ints[0, k]
            for k in range(bits.shape[1]):
                bits[1, k] = bits[0, k]
            redeal(ints, bits, 1, me, t, streams)
            # The playout stops where the root's horizon ends (its stage, its race), however
            # far the tree reaches, as in the Python search.
            mark = horizon(ints, bits, 1, t)
            node = 0
            steps = 0
            expanded = False
            # Selection and expansion: descend while the tree has the node, add one new node.
            while not expanded:
                p = current_player(ints, bits, 1, t)
                if p < 0:
                    break
                g = group(ints, bits, 1, t)
                h = np.uint64(0)
                chosen = 0
                while True:
                    p = current_player(ints, bits, 1, t)
                    if p < 0 or group(ints, bits, 1, t) != g:
                        break
                    count = legal(ints, bits, 1, t, mask)
                    if count == 1:
                        a = 0
                        while not mask[a]:
                            a += 1
                        apply(ints, bits, 1, a, t)
                        if g >= 0:
                            continue  # forced, inside a concealed group: no choice, no node
                    else:
                        base = np.int64((node * players + p) * num_actions)
                        a = _select(
                            ekeys, eids, stats, used, base, mask, edges, actions, c, streams, 1
                        )
                        if edges[0] >= 0 and steps < longest:
                            path[steps, 0] = edges[0]
                            path[steps, 1] = p
                            steps += 1
                        apply(ints, bits, 1, a, t)
                    h = _mix(h, a + 1)  # the actions only, as the Python search keys a child
                    chosen += 1
                    if g < 0:
                        break  # the others see this choice: they decide in the next node
                if chosen == 0:
                    continue  # only forced decisions: the same node decides next
                child = _child(ckeys, cjoint, cids, used, node, h)
                if child == _FULL or steps == longest:
                    break  # no room for a node: play out from here
                if child < 0:
                    child = -child - 1
                    expanded = True
                node = child
            # Playout: the game's playout policy, or random, to its horizon or depth. A
            # concealed group counts as one decision, as the Python search counts a sweep of
            # the seats it asks.
            decisions = 0
            last = -2
            while True:
                p = current_player(ints, bits, 1, t)
                if p < 0 or horizon(ints, bits, 1, t) != mark:
                    break
                g = group(ints, bits, 1, t)
                count = legal(ints, bits, 1, t, mask)
                if g < 0 or (count > 1 and g != last):
                    # A decision, or a concealed group's first real choice (its forced
                    # decisions count for nothing, as the Python search's forced actions).
                    if decisions == depth:
                        break
                    decisions += 1
                    last = g
                if count == 1:
                    a = 0
                    while not mask[a]:
                        a += 1
                elif guided:
                    a = heuristic_action(ints, bits, 1, mask, count, t, streams)
                else:
                    a = random_action(streams, 1, mask, count)
                apply(ints, bits, 1, a, t)
            if current_player(ints, bits, 1, t) < 0:
                values(ints, bits, 1, t, vals)
            else:
                estimate(ints, bits, 1, t, vals)
            for k in range(steps):
                e = path[k, 0]
                stats[e, 0] += 1.0
                stats[e, 1] += vals[path[k, 1]]
            done += 1
        return done

    return run  # type: ignore[no-any-return]


# -- the driver -----------------------------------------------------------------------------------


def search_kernel_games() -> tuple[str, ...]:
    """The ids of the games the compiled search plays (those naming a ``search_kernel``)."""
    from racedeck.core.registry import available_games, get_spec

    return tuple(g for g in available_games() if "search_kernel" in get_spec(g).plugins)


def search_kernel(game: Game[Any, Any, Any]) -> SearchKernel:
    """The :class:`SearchKernel` of ``game``'s configuration; :class:`LookupError` for a game
    without one."""
    module = optional_plugin(game.spec.id, "search_kernel")
    if module is None:
        raise LookupError(
            f"{game.spec.id} has no compiled search yet "
            f"(games with one: {', '.join(search_kernel_games())})"
        )
    made: SearchKernel = module.search_kernel(game.cfg)  # type: ignore[attr-defined]
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
            step.current_player,
            step.legal,
            step.apply,
            step.heuristic_action or _no_heuristic,
            sk.redeal,
            sk.group,
            sk.horizon,
            sk.estimate,
            sk.values,
        )
        self.last_iterations = 0
        """How many iterations the latest :meth:`choose` ran."""
        self.tree: Tree | None = None
        # Compile now (a few seconds the first time in a process), not in a timed decision:
        # the iterations, the tree's growth, the root's reading.
        warm = Tree.empty(1024, 1024).roomy(1 << 11, 1 << 11)
        self._search(warm, me=0, iterations=0)
        _find_edge(warm.ekeys, warm.eids, np.int64(0))

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
            e = _find_edge(tree.ekeys, tree.eids, np.int64(seat * actions + a))
            out.append(float(tree.stats[e, 0]) if e >= 0 else 0.0)
        return out

    def root_value(self, seat: int, indices: list[int]) -> float:
        """The mean reward of the latest search's iterations through ``seat``'s root edges of
        the action ``indices``."""
        tree = self.tree
        assert tree is not None
        actions = int(self.settings[1])
        visits = rewards = 0.0
        for a in indices:
            e = _find_edge(tree.ekeys, tree.eids, np.int64(seat * actions + a))
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
