"""The compiled search's iterations, a template made per game by
:func:`racedeck.kernels.loops.compiled_loops` (see :mod:`racedeck.kernels.search`).

The names below the imports stand for one game's functions (its step kernel's and its
:class:`~racedeck.kernels.search_kernel.SearchKernel`'s); each game gets this module's code
with its own functions in their places, compiled and cached under that game's name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from racedeck.kernels.batch import random_action
from racedeck.kernels.search_tree import FULL, child, mix, select

__all__ = ["LOOPS"]

LOOPS = ("run",)
"""The functions compiled per game, in this order."""

# The game's functions (placeholders: the template is never called as it stands).
current_player: Any = None
legal: Any = None
apply: Any = None
heuristic_action: Any = None
redeal: Any = None
group: Any = None
horizon: Any = None
estimate: Any = None
values: Any = None


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
    """Up to ``iterations`` search iterations from row 0 for seat ``me``; how many ran."""
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
                    a = select(ekeys, eids, stats, used, base, mask, edges, actions, c, streams, 1)
                    if edges[0] >= 0 and steps < longest:
                        path[steps, 0] = edges[0]
                        path[steps, 1] = p
                        steps += 1
                    apply(ints, bits, 1, a, t)
                h = mix(h, a + 1)  # the actions only, as the Python search keys a child
                chosen += 1
                if g < 0:
                    break  # the others see this choice: they decide in the next node
            if chosen == 0:
                continue  # only forced decisions: the same node decides next
            nxt = child(ckeys, cjoint, cids, used, node, h)
            if nxt == FULL or steps == longest:
                break  # no room for a node: play out from here
            if nxt < 0:
                nxt = -nxt - 1
                expanded = True
            node = nxt
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
