"""*Why First?* for the compiled search: a state loaded into a row, its secrets dealt afresh as
the game's sampler deals them, the concealed rounds, and the playout's values
(:class:`~racedeck.kernels.search_kernel.SearchKernel` over
:mod:`racedeck.kernels.why_first_states`).

**Redeal** (:func:`redeal`) is :mod:`racedeck.games.why_first.sampler` on a row: every card not
in the seat's hand and not revealed this stage — the other hands, Leo's face-down pile (WF-9),
the cards left out of the deal (WF-3) — is shuffled and dealt again in the same sizes, in seat
order and then Leo's pile, as the sampler deals its shuffled unseen cards; each other seat that
has committed this round (WF-4: only *who* has is public) commits afresh one of its legal
actions, drawn uniformly as the sampler draws it; and the row's RNG, which deals the next
stages, is reseeded from the stream. The row's ``deck`` field is the shuffle's room: past the
deal it holds only Leo's pile, which the deal writes back in place.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.why_first import WhyFirst
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.games.why_first.encoding import action_encoding
from racedeck.games.why_first.state import COMMIT as ENGINE_COMMIT
from racedeck.games.why_first.state import MOVE as ENGINE_MOVE
from racedeck.games.why_first.state import WhyFirstState
from racedeck.kernels import why_first_states as wf
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.splitmix import below, next_u64
from racedeck.kernels.why_first import (
    _card_bit,
    _jit,
    _lowest_card,
    _second_distinct,
    _sigmoid,
)

__all__ = ["estimate", "group", "horizon", "load", "redeal", "search_kernel", "values"]

_RANK_WEIGHT = 0.2  # racedeck.bots.search.RANK_WEIGHT


def load(
    state: WhyFirstState, ints: NDArray[np.int64], bits: NDArray[np.uint64], t: tuple[Any, ...]
) -> None:
    """Write ``state`` into one row (``ints`` and ``bits``: the row's two arrays) as
    :mod:`racedeck.kernels.why_first_states` keeps it."""
    cfg = t[0]
    n, f, h = int(cfg[wf.C_N]), int(cfg[wf.C_F]), int(cfg[wf.C_HAND])
    tactical = bool(cfg[wf.C_TACTICAL])
    ints[:] = 0
    bits[:] = 0
    ints[wf._PHASE] = (
        wf.COMMIT
        if state.phase == ENGINE_COMMIT
        else wf.MOVE
        if state.phase == ENGINE_MOVE
        else wf.OVER
    )
    ints[wf._STAGE], ints[wf._ROUND] = state.stage, state.round
    ints[wf._PENDING] = sum(1 << p for p in state.pending)
    ints[wf._MOVES] = state.move
    ints[wf._LEO_LEFT] = len(state.leo_cards)
    bits[wf._RNG] = np.uint64(state.rng.state)
    for k in range(f):
        ints[cfg[wf.C_POS] + k] = state.positions[k]
        ints[cfg[wf.C_TOT] + k] = state.totals[k]
        ints[cfg[wf.C_LTGT] + k] = -1
    for s in range(n):
        hand = 0
        for c in state.hands[s]:
            hand |= 1 << (c - 1)
        bits[wf._HANDS + s] = np.uint64(hand)
        commit = state.commits[s]
        ints[cfg[wf.C_CTGT] + s] = -1
        if commit is not None:
            if tactical:
                ints[cfg[wf.C_CCARD] + s] = commit
            else:
                ints[cfg[wf.C_CCARD] + s], ints[cfg[wf.C_CTGT] + s] = commit
    revealed = 0
    for c in state.revealed:
        revealed |= 1 << (c - 1)
    bits[wf._REVEALED] = np.uint64(revealed)
    for by, c, target in state.last_reveal:
        ints[cfg[wf.C_LCARD] + by] = c
        ints[cfg[wf.C_LTGT] + by] = -1 if target is None else target
        ints[cfg[wf.C_OWNER] + c] = by
    queue = 0
    for c, owner in state.move_queue:
        queue |= 1 << (c - 1)
        ints[cfg[wf.C_OWNER] + c] = owner
    bits[wf._QUEUE] = np.uint64(queue)
    # Leo plays his pile from its end (the engine pops it), the kernel from deck[n*h + left - 1].
    for k, c in enumerate(state.leo_cards):
        ints[cfg[wf.C_DECK] + n * h + k] = c


@_jit(cache=True)
def redeal(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: wf.Tables,
    streams: NDArray[np.uint64],
) -> None:
    """Row ``i``'s secrets hidden from ``seat`` drawn afresh from ``streams[i]``, as
    :mod:`racedeck.games.why_first.sampler` draws them (see the module docstring)."""
    cfg, _, rank, _, _, _, _, _, _ = t
    n, f, h, cards = cfg[wf.C_N], cfg[wf.C_F], cfg[wf.C_HAND], cfg[wf.C_CARDS]
    deck = cfg[wf.C_DECK]
    seen = bits[i, wf._HANDS + seat] | bits[i, wf._REVEALED]
    unseen = 0
    for c in range(1, cards + 1):
        if not seen & _card_bit(c):
            ints[i, deck + unseen] = c
            unseen += 1
    for k in range(unseen - 1, 0, -1):  # Fisher-Yates: every order equally likely
        j = below(streams, i, k + 1)
        c = ints[i, deck + k]
        ints[i, deck + k] = ints[i, deck + j]
        ints[i, deck + j] = c
    at = 0
    for s in range(n):
        if s == seat:
            continue
        size = wf._popcount(bits[i, wf._HANDS + s])
        hand = np.uint64(0)
        for k in range(size):
            hand |= _card_bit(ints[i, deck + at + k])
        bits[i, wf._HANDS + s] = hand
        at += size
    left = ints[i, wf._LEO_LEFT]
    for k in range(left - 1, -1, -1):  # backwards: the pile may overlap where it is read
        ints[i, deck + n * h + k] = ints[i, deck + at + k]
    if ints[i, wf._PHASE] == wf.COMMIT:
        pending = ints[i, wf._PENDING]
        for s in range(n):
            if s == seat or pending >> s & 1:
                continue
            hand = bits[i, wf._HANDS + s]
            if cfg[wf.C_TACTICAL]:
                k = below(streams, i, wf._popcount(hand))
                for _ in range(k):
                    hand ^= _card_bit(_lowest_card(hand))
                ints[i, cfg[wf.C_CCARD] + s] = _lowest_card(hand)
            else:
                # A value in hand, its lowest white number (the engine's card), and a target.
                distinct = 0
                m = hand
                last = -1
                while m:
                    c = _lowest_card(m)
                    m ^= _card_bit(c)
                    if rank[c - 1] != last:
                        distinct += 1
                        last = rank[c - 1]
                k = below(streams, i, distinct)
                m = hand
                last = -1
                while m:
                    c = _lowest_card(m)
                    m ^= _card_bit(c)
                    if rank[c - 1] != last:
                        last = rank[c - 1]
                        if k == 0:
                            ints[i, cfg[wf.C_CCARD] + s] = c
                            break
                        k -= 1
                ints[i, cfg[wf.C_CTGT] + s] = below(streams, i, f)
    bits[i, wf._RNG] = next_u64(streams, i)


@_jit(cache=True)
def group(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: wf.Tables) -> int:
    """The round's commits are one concealed group (WF-4): the stage and round while seats
    commit, -1 while the tactical variant's revealed cards move (those moves are seen)."""
    if ints[i, wf._PHASE] != wf.COMMIT:
        return -1
    return int(ints[i, wf._STAGE] * 64 + ints[i, wf._ROUND])


@_jit(cache=True)
def horizon(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: wf.Tables) -> int:
    """The stage in progress (:class:`racedeck.bots.why_first_playout.WhyFirstPlayout`)."""
    return int(ints[i, wf._STAGE])


@_jit(cache=True)
def estimate(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    t: wf.Tables,
    out: NDArray[np.float64],
) -> None:
    """Each seat's chance that its total ends second, as
    :meth:`~racedeck.bots.why_first_playout.WhyFirstPlayout.estimate` puts it
    (:func:`~racedeck.bots.why_first.second_place_chance`, WF-7)."""
    cfg = t[0]
    n, f = cfg[wf.C_N], cfg[wf.C_F]
    tot = cfg[wf.C_TOT]
    spread = 0.75 + 2.5 * (cfg[wf.C_STAGES] - ints[i, wf._STAGE])
    for s in range(n):
        # The best and second-best totals of the others (with repeats, as sorted() keeps).
        best = -(1 << 62)
        second = -(1 << 62)
        for k in range(f):
            if k == s:
                continue
            x = ints[i, tot + k]
            if x > best:
                second = best
                best = x
            elif x > second:
                second = x
        mine = ints[i, tot + s]
        out[s] = _sigmoid((mine - second) / spread) * _sigmoid((best - mine) / spread)


@_jit(cache=True)
def values(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    t: wf.Tables,
    out: NDArray[np.float64],
) -> None:
    """Each seat's reward of the finished game, as :func:`racedeck.bots.search.rewards` gives
    it: a share of the win (WF-7: the second-highest distinct total; all when all are equal)
    and the rank bonus of WF-8's order (winners, then the highest total, then the rest)."""
    cfg = t[0]
    n, f = cfg[wf.C_N], cfg[wf.C_F]
    tot = cfg[wf.C_TOT]
    totals = ints[i, tot : tot + f]
    found, second = _second_distinct(totals)
    highest = totals[0]
    for k in range(f):
        highest = max(highest, totals[k])
    won = 0
    for k in range(f):
        if not found or totals[k] == second:
            won += 1
    spread = max(1, f - 1)
    for s in range(n):
        # WF-8's place: the winners 0, the highest total 1, any other its place by total.
        better = 0
        if found:
            mine = _place(totals, totals[s], second, highest)
            for k in range(f):
                if _place(totals, totals[k], second, highest) < mine:
                    better += 1
        r = _RANK_WEIGHT * (f - (1 + better)) / spread
        if not found or totals[s] == second:
            r += (1.0 - _RANK_WEIGHT) / won
        out[s] = r


@_jit(inline=True)
def _place(totals: NDArray[np.int64], x: int, second: int, highest: int) -> int:
    """A total's index in WF-8's order of distinct totals: second, highest, then descending."""
    if x == second:
        return 0
    if x == highest:
        return 1
    above = 0  # distinct totals above x
    for k in range(totals.shape[0]):
        y = totals[k]
        if y > x:
            first = True
            for j in range(k):
                if totals[j] == y:
                    first = False
                    break
            if first:
                above += 1
    return above


@cache
def search_kernel(config: WhyFirstConfig) -> SearchKernel:
    """The compiled search's face of ``config`` (one per configuration and process)."""
    encoding = action_encoding(WhyFirst(config))
    return SearchKernel(
        step=wf.kernel(config),
        load=load,
        redeal=redeal,
        group=group,
        horizon=horizon,
        estimate=estimate,
        values=values,
        encode=encoding.index,
        decode=encoding.action,
    )
