"""The compiled search's tree in arrays: edges and children in open-addressing hash tables.

An *edge* is one seat's statistics for one action at one node — visits, reward sum and
availability (ISMCTS: how often the action was legal when the seat chose there) — found by the
key (node, seat, action); a *child* is the node a node's decision group leads to, found by the
node and a hash of the group's joint choice. :class:`Tree` holds both tables and grows them
between compiled runs; the functions here are the compiled lookups and the UCB choice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from racedeck.kernels.splitmix import below
from racedeck.kernels.why_first import _jit

__all__ = ["FULL", "Tree", "child", "edge", "find_edge", "mix", "select"]

_EMPTY = np.int64(-1)


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
        none, fresh = np.zeros_like(self.ekeys, np.uint64), np.zeros_like(bigger.ekeys, np.uint64)
        _rehash(self.ekeys, none, self.eids, bigger.ekeys, fresh, bigger.eids)
        bigger.stats[:edges] = self.stats[:edges]
        _rehash(self.ckeys, self.cjoint, self.cids, bigger.ckeys, bigger.cjoint, bigger.cids)
        bigger.used[:] = self.used
        return bigger


@_jit(inline=True)
def _slot(key: np.int64, size: int) -> np.int64:
    z = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((z ^ (z >> np.uint64(29))) & np.uint64(size - 1))


@_jit(cache=True)
def _rehash(
    keys: NDArray[np.int64],
    joint: NDArray[np.uint64],
    ids: NDArray[np.int64],
    new_keys: NDArray[np.int64],
    new_joint: NDArray[np.uint64],
    new_ids: NDArray[np.int64],
) -> None:
    """Every entry of a table moved into a larger one (``joint``: the children's joint-choice
    hashes; all zero for the edges, whose slot is their key's alone)."""
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
def edge(
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
def find_edge(keys: NDArray[np.int64], ids: NDArray[np.int64], key: np.int64) -> int:
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


FULL = -(1 << 62)


@_jit(cache=True)
def child(
    keys: NDArray[np.int64],
    joint: NDArray[np.uint64],
    ids: NDArray[np.int64],
    used: NDArray[np.int64],
    node: int,
    h: np.uint64,
) -> int:
    """The child of ``node`` for the joint choice ``h``; a new node is returned as ``-id - 1``,
    and :data:`FULL` when the tree has no room for one (a guard, as in :func:`edge`)."""
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
                return FULL
            used[1] = c + 1
            keys[s] = key
            joint[s] = h
            ids[s] = c
            return int(-c - 1)
        s = (s + 1) & (size - 1)


@_jit(inline=True)
def mix(h: np.uint64, x: int) -> np.uint64:
    """``h`` with ``x`` mixed in: the hash of a group's joint choice, one action at a time."""
    z = (h ^ np.uint64(x)) * np.uint64(0x9E3779B97F4A7C15)
    return z ^ (z >> np.uint64(31))


@_jit(cache=True)
def select(
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
        e = edge(keys, ids, stats, used, base + a)
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
