"""A batch simulator of *Why First?*: many whole games per call, compiled with Numba.

>>> from racedeck.games.why_first import WhyFirstConfig
>>> from racedeck.kernels.why_first import WhyFirstBatch
>>> batch = WhyFirstBatch(WhyFirstConfig(players=4))
>>> result = batch.play(100_000, seed=7)                   # uniformly random seats
>>> result.totals.shape, result.winners.shape
((100000, 4), (100000, 4))

The rules are those of :class:`~racedeck.games.why_first.WhyFirst` under any configuration it
accepts: every player count (WF-11), the two-player game with Leo (WF-9, whose figure comes last),
the tactical variant (WF-10), any track, deck, hand size and number of stages. Games run one after
another inside one compiled loop, each in a few hundred bytes of scratch memory.

**Same deals as the engine.** Game ``i`` with seed ``seeds[i]`` is dealt exactly as
``WhyFirst.new_initial_state(seeds[i])`` deals it: the deck is shuffled by the engine's own
generator (:class:`racedeck.core.rng.Rng`, SplitMix64 with its grouped Fisher–Yates shuffle),
reproduced here bit for bit. :meth:`WhyFirstBatch.play` with a whole number instead of an array
gives game ``i`` the seed ``derive_seed(seed, i)``, as :func:`racedeck.sim.simulate.simulate` does.

**Choices.** Every decision picks an index into the engine's own list of legal actions
(:meth:`WhyFirst.legal_actions`, same order): base game, distinct values in hand lowest first,
times every figure (a value is played from the lowest white number that has it); tactical, the
cards of the hand in white-number order, then any figure for a revealed card. A seat's policy is

- ``"random"``: an index uniform among the legal ones (``RandomBot``'s choice);
- ``"heuristic"``: the legal actions that :class:`~racedeck.bots.why_first.WhyFirstHeuristicBot`
  rates best (same evaluation, same tie rule), one of them uniformly.

Random draws come from each game's own SplitMix64 stream seeded with ``derive_seed(seed, 1)``
(32 bits per draw, exact by rejection), never from the deal's stream. With ``choices`` (scripted
play) decision ``k`` of game ``i`` uses ``choices[i, k]`` instead: a random seat takes index
``choices[i, k] % len(legal)``, a heuristic seat the tie ``choices[i, k] % len(best)``. Decisions
are numbered in the engine's asking order — seats ascending in a commit round, then the tactical
moves in white-number order — and only real decisions count (the automatic last round of WF-5
and Leo's cards ask nobody). That is what the differential tests drive the engine with.

**Results** (:class:`BatchResult`): every figure's total (WF-6), the winners (WF-7: every figure
on the second-highest distinct total; all when all are equal; Leo can win) and, on request, the
points of every stage and every decision.

**Speed** (``benchmarks/why_first_batch.py``, one core, a quiet machine): about 700,000 random
4-player games a second, about 1.07 million with two players and Leo, about 210,000 tactical, about
19,000 with heuristic seats (two ``exp`` per legal action) — over a hundred times the engine's fast
path, ten times a NumPy batch of the same games. Memory is not what bounds it: a game lives in a
few hundred bytes of scratch arrays in the first-level cache and writes 20 bytes of results. About
a fifth of a game is the engine's deal (five shuffles whose 31 mixed-radix digits come from a chain
of divisions, by constants for the WF-2 deck: :func:`_shuffle32`), a sixth the policy's random
draws (SplitMix64 words cut in two), and the rest the rules themselves, whose branches depend on
random cards. Base-game hands are a count per distinct value plus a bit set of the values held,
with tables for a hand's number of values and its ``k``-th value, so that a choice needs no loop
over the cards; tactical hands and reveals are bit sets of white numbers, ordered by bit scans."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros as _leading_zeros
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numpy.typing import NDArray

from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.kernels.whole_games import (
    HEURISTIC,
    POLICIES,
    RANDOM,
    batch_seeds,
    policy_codes,
    script_of,
    win_shares,
)

__all__ = [
    "DECK32_PLAN",
    "HEURISTIC",
    "POLICIES",
    "RANDOM",
    "BatchResult",
    "WhyFirstBatch",
    "shuffle_plan",
]


_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(inline: bool = False, cache: bool = False) -> Callable[[_F], _F]:
    """``numba.njit``, seen by the type checker as the plain function it compiles."""
    return cast(Callable[[_F], _F], numba.njit(inline="always" if inline else "never", cache=cache))


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_GROUP_LIMIT = 1 << 56  # racedeck.core.rng: a grouped draw is rejected less than 1/256 of the time
_MASK64 = (1 << 64) - 1
_TIE = 1e-12  # WhyFirstHeuristicBot's tie tolerance


def shuffle_plan(n: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.uint64]]:
    """The engine's shuffle of ``n`` items as arrays ``(top, bottom, limit)``: each group of
    Fisher–Yates steps ``top .. bottom + 1`` is cut from one 64-bit draw below ``limit``
    (as :meth:`racedeck.core.rng.Rng.shuffle` does)."""
    tops, bottoms, limits = [], [], []
    i = n - 1
    while i > 0:
        radix, k = 1, i
        while k > 0 and radix * (k + 1) <= _GROUP_LIMIT:
            radix *= k + 1
            k -= 1
        tops.append(i)
        bottoms.append(k)
        limits.append((1 << 64) - ((1 << 64) % radix))
        i = k
    return (
        np.array(tops, dtype=np.int64),
        np.array(bottoms, dtype=np.int64),
        np.array(limits, dtype=np.uint64),
    )


# -- the compiled kernel -------------------------------------------------------------------------
# Scalars are kept in uint64 where they are RNG words (Numba turns a uint64/int64 mix into floats).


@_jit(inline=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@_jit(inline=True)
def _derive(seed: np.uint64, p: np.uint64) -> np.uint64:
    """``derive_seed(seed, p)`` of :mod:`racedeck.core.rng`."""
    return _mix(_mix(seed + _GAMMA * (p + _ONE)))


@_jit(inline=True)
def _pick(
    n: int, pol: NDArray[np.uint64], scripted: bool, choices: NDArray[np.uint32], b: int
) -> int:
    """An index in ``[0, n)``: the next scripted choice, or a uniform draw from the policy stream.

    ``pol`` holds the stream's state, a spare 32-bit half of the last word, whether it is
    spare, and the number of scripted choices used.
    """
    if scripted:
        k = pol[3]
        pol[3] = k + _ONE
        return int(np.int64(choices[b, k]) % n)
    un = np.uint64(n)
    while True:
        if pol[2]:
            r = pol[1] >> _S32
            pol[2] = 0
        else:
            pol[0] += _GAMMA
            x = _mix(pol[0])
            pol[1] = x
            pol[2] = 1
            r = x & _LOW32
        m = r * un  # Lemire's multiply-shift; rejection keeps it exactly uniform
        low = m & _LOW32
        if low >= un or low >= ((_LOW32 - un + _ONE) % un):
            return int(np.int64(m >> _S32))


@_jit(inline=True)
def _sigmoid(x: float) -> float:
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return float(1.0 / (1.0 + np.exp(-x)))


@_jit(inline=True)
def _clamp(p: int, low: int, high: int) -> int:
    return low if p < low else high if p > high else p


@_jit(inline=True)
def _second_distinct(v: NDArray[np.int64]) -> tuple[bool, int]:
    """The highest value of ``v`` below its highest, and whether there is one: the space that
    scores (WF-6, on the positions) and the total that wins (WF-7, on the totals)."""
    first = v[0]
    for j in range(1, v.shape[0]):
        if v[j] > first:
            first = v[j]
    second = 0
    found = False
    for j in range(v.shape[0]):
        p = v[j]
        if p < first and (not found or p > second):
            second = p
            found = True
    return found, int(second)


@_jit()
def _value_of_move(
    pos: NDArray[np.int64],
    tot: NDArray[np.int64],
    tmp: NDArray[np.int64],
    me: int,
    value: int,
    target: int,
    last: int,
    has_last: bool,
    low: int,
    high: int,
    stages_left: int,
    rounds_left: int,
) -> float:
    """``WhyFirstHeuristicBot._value_of_move``: the chance to finish second if this card moved
    ``target`` (and, with ``has_last``, the last card ``last`` then moved ``me``, WF-5)."""
    figures = pos.shape[0]
    for f in range(figures):
        tmp[f] = pos[f]
    tmp[target] = _clamp(tmp[target] + value, low, high)
    if has_last:
        tmp[me] = _clamp(tmp[me] + last, low, high)
    found, space = _second_distinct(tmp)
    # WF-6 on the predicted positions, then the bot's smooth "second at the end" (WF-7).
    best = -(1 << 62)
    second = -(1 << 62)
    mine = 0
    for f in range(figures):
        t = tot[f] + (space if found and tmp[f] == space else 0)
        if f == me:
            mine = t
        elif t > best:
            second = best
            best = t
        elif t > second:
            second = t
    spread = 0.75 + 2.5 * stages_left + 0.5 * rounds_left
    return _sigmoid((mine - second) / spread) * _sigmoid((best - mine) / spread)


@_jit(inline=True)
def _consider(
    value: float, i: int, best_value: float, best: NDArray[np.int64], nbest: int
) -> tuple[float, int]:
    """The bot's tie rule: a clearly better value starts a new list, a value within the
    tolerance of the first best joins it."""
    if value > best_value + _TIE:
        best[0] = i
        return value, 1
    if abs(value - best_value) <= _TIE:
        best[nbest] = i
        return best_value, nbest + 1
    return best_value, nbest


_L0 = np.uint64(18443025064848384000)
_L1 = np.uint64(18378547253434368000)
_L2 = np.uint64(18446744073709551600)
DECK32_PLAN = ((31, 20, int(_L0)), (20, 5, int(_L1)), (5, 0, int(_L2)))
"""``shuffle_plan(32)`` (the WF-2 deck), written out in :func:`_shuffle32`."""


@_jit(inline=True)
def _steps(deck: NDArray[np.int64], x: np.uint64, top: int, bottom: int) -> None:
    for i in range(top, bottom, -1):
        d = np.uint64(i + 1)
        j = np.int64(x % d)
        x = x // d
        c = deck[i]
        deck[i] = deck[j]
        deck[j] = c


@_jit(inline=True)
def _word(st: np.uint64, limit: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next word of the stream below ``limit`` (the shuffle's rejection), and the state."""
    while True:
        st += _GAMMA
        x = _mix(st)
        if x < limit:
            return st, x


@_jit(inline=True)
def _shuffle32(deck: NDArray[np.int64], st: np.uint64) -> np.uint64:
    """``Rng.shuffle`` of 32 cards. The step bounds are literals so that, unrolled, every
    division is by a constant (a multiplication): twice as fast as :func:`_shuffle`."""
    st, x = _word(st, _L0)
    _steps(deck, x, 31, 20)
    st, x = _word(st, _L1)
    _steps(deck, x, 20, 5)
    st, x = _word(st, _L2)
    _steps(deck, x, 5, 0)
    return st


@_jit(inline=True)
def _shuffle(
    deck: NDArray[np.int64],
    st: np.uint64,
    top: NDArray[np.int64],
    bottom: NDArray[np.int64],
    limit: NDArray[np.uint64],
) -> np.uint64:
    """``Rng.shuffle`` of any deck, by its plan (:func:`shuffle_plan`)."""
    for g in range(top.shape[0]):
        st, x = _word(st, limit[g])
        _steps(deck, x, top[g], bottom[g])
    return st


@_jit(inline=True)
def _ones(m: int, ones: NDArray[np.int64], tables: bool) -> int:
    """How many values a hand's mask holds: by table for a small deck, else bit by bit."""
    if tables:
        return int(ones[m])
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@_jit(inline=True)
def _nth(m: int, k: int, kth: NDArray[np.int64], tables: bool) -> int:
    """The ``k``-th lowest value (its place in ``distinct``) of a hand's mask."""
    if tables:
        return int(kth[m, k])
    for _ in range(k):
        m &= m - 1
    r = 0
    while not m & 1:
        m >>= 1
        r += 1
    return r


@_jit()
def _heuristic_place(
    pos: NDArray[np.int64],
    tot: NDArray[np.int64],
    tmp: NDArray[np.int64],
    s: int,
    m: int,
    count: NDArray[np.int64],
    distinct: NDArray[np.int64],
    kth: NDArray[np.int64],
    ones: NDArray[np.int64],
    tables: bool,
    h: int,
    low: int,
    high: int,
    stages_left: int,
    best: NDArray[np.int64],
    pol: NDArray[np.uint64],
    scripted: bool,
    choices: NDArray[np.uint32],
    b: int,
) -> int:
    """The heuristic bot's place (its index among the legal actions) in the base game."""
    figures = pos.shape[0]
    best_value = -np.inf
    nbest = 0
    nd = _ones(m, ones, tables)
    for di in range(nd):
        r = _nth(m, di, kth, tables)
        lastv = 0
        if h == 2:  # the card left after this one: the same value, or the other one
            lastv = distinct[r if count[s, r] == 2 else _nth(m, 1 - di, kth, tables)]
        for t in range(figures):
            value = _value_of_move(
                pos, tot, tmp, s, distinct[r], t, lastv, h == 2, low, high, stages_left, h - 1
            )
            best_value, nbest = _consider(value, di * figures + t, best_value, best, nbest)
    if nbest == 1 and not scripted:
        return int(best[0])
    return int(best[_pick(nbest, pol, scripted, choices, b)])


_NONE = np.uint64(0)
# The processor's bit scans (Numba intrinsics), typed for the checker.
_trailing = cast(Callable[[np.uint64], int], _trailing_zeros)
_leading = cast(Callable[[np.uint64], int], _leading_zeros)


@_jit(inline=True)
def _card_bit(c: int) -> np.uint64:
    """Card ``c``'s bit in a set of cards."""
    return _ONE << np.uint64(c - 1)


@_jit(inline=True)
def _lowest_card(m: np.uint64) -> int:
    """The lowest white number in a non-empty set of cards."""
    return int(_trailing(m)) + 1


@_jit(inline=True)
def _highest_card(m: np.uint64) -> int:
    """The highest white number in a non-empty set of cards."""
    return 64 - int(_leading(m))


@_jit()
def _heuristic_commit(
    pos: NDArray[np.int64],
    tot: NDArray[np.int64],
    tmp: NDArray[np.int64],
    s: int,
    vals: NDArray[np.int64],
    h: int,
    low: int,
    high: int,
    stages_left: int,
    best: NDArray[np.int64],
    pol: NDArray[np.uint64],
    scripted: bool,
    choices: NDArray[np.uint32],
    b: int,
) -> int:
    """The heuristic bot's commit in the tactical variant: the card (its place in the hand,
    whose values are ``vals``) whose best figure to move gives the best chance."""
    figures = pos.shape[0]
    best_value = -np.inf
    nbest = 0
    for i in range(h):
        lastv = vals[1 - i] if h == 2 else 0  # the card left after this one
        value = -np.inf
        for t in range(figures):
            v = _value_of_move(
                pos, tot, tmp, s, vals[i], t, lastv, h == 2, low, high, stages_left, h - 1
            )
            if v > value:
                value = v
        best_value, nbest = _consider(value, i, best_value, best, nbest)
    if nbest == 1 and not scripted:
        return int(best[0])
    return int(best[_pick(nbest, pol, scripted, choices, b)])


@_jit()
def _heuristic_move(
    pos: NDArray[np.int64],
    tot: NDArray[np.int64],
    tmp: NDArray[np.int64],
    o: int,
    value: int,
    left: int,
    low: int,
    high: int,
    stages_left: int,
    best: NDArray[np.int64],
    pol: NDArray[np.uint64],
    scripted: bool,
    choices: NDArray[np.uint32],
    b: int,
) -> int:
    """The heuristic bot's figure for its revealed card (tactical variant); ``left`` cards in
    hand (the move phase counts no last card, as the bot does not)."""
    figures = pos.shape[0]
    best_value = -np.inf
    nbest = 0
    for f in range(figures):
        v = _value_of_move(pos, tot, tmp, o, value, f, 0, False, low, high, stages_left, left)
        best_value, nbest = _consider(v, f, best_value, best, nbest)
    if nbest == 1 and not scripted:
        return int(best[0])
    return int(best[_pick(nbest, pol, scripted, choices, b)])


@_jit(cache=True)
def _run(
    seeds: NDArray[np.uint64],
    n: int,
    figures: int,
    tactical: bool,
    low: int,
    high: int,
    stages: int,
    hand: int,
    values: NDArray[np.int64],
    top: NDArray[np.int64],
    bottom: NDArray[np.int64],
    limit: NDArray[np.uint64],
    ones: NDArray[np.int64],
    kth: NDArray[np.int64],
    tables: bool,
    policies: NDArray[np.int64],
    scripted: bool,
    choices: NDArray[np.uint32],
    record: bool,
    totals_out: NDArray[np.int32],
    winners_out: NDArray[np.bool_],
    stage_out: NDArray[np.int32],
    taken_out: NDArray[np.int16],
) -> None:
    ncards = values.shape[0]
    leo = figures > n
    # Base game: a hand is what the engine's legal actions depend on, the values it holds
    # (WF-2: white numbers mean nothing there): a count per distinct value and the list of
    # the distinct values held, lowest first, which is the engine's order of legal actions.
    distinct = np.unique(values)
    rank = np.searchsorted(distinct, values)  # card c - 1 -> its value's place in `distinct`
    nvals = distinct.shape[0]
    count = np.zeros((n, nvals), np.int64)
    mask = np.zeros(n, np.int64)  # bit r: value distinct[r] is in the hand
    # Tactical variant: the cards themselves, bit c - 1 for card c, so that the hand's order
    # (the engine's order of legal commits) and the reveal's order (highest white number
    # first, WF-10) are the order of the bits.
    cards = np.zeros(n, np.uint64)
    owner = np.zeros(ncards + 1, np.int64)
    hv = np.empty(hand, np.int64)
    size = np.empty(n, np.int64)
    deck = np.empty(ncards, np.int64)
    pos = np.zeros(figures, np.int64)
    tot = np.zeros(figures, np.int64)
    net = np.zeros(figures, np.int64)
    tmp = np.zeros(figures, np.int64)
    pol = np.zeros(4, np.uint64)
    best = np.empty(max(hand * figures, figures), np.int64)
    for b in range(seeds.shape[0]):
        seed = seeds[b]
        st = seed  # Rng(seed): the deal's stream
        pol[0] = _derive(seed, _ONE)
        pol[2] = 0
        pol[3] = 0
        dk = 0  # decisions so far
        for f in range(figures):
            tot[f] = 0
        for stage in range(stages):
            # WF-3: the whole deck shuffled, hands dealt in seat order, Leo's four next.
            for i in range(ncards):
                deck[i] = i + 1
            # The WF-2 deck has its own shuffle, whose divisions are by constants.
            st = _shuffle32(deck, st) if ncards == 32 else _shuffle(deck, st, top, bottom, limit)
            for s in range(n):
                base = s * hand
                size[s] = hand
                if tactical:
                    cm = _NONE
                    for i in range(hand):
                        cm |= _card_bit(deck[base + i])
                    cards[s] = cm
                else:
                    m = 0
                    for i in range(hand):
                        r = rank[deck[base + i] - 1]
                        count[s, r] += 1
                        m |= 1 << r
                    mask[s] = m
            for f in range(figures):
                pos[f] = 0
            stages_left = stages - stage - 1
            for rnd in range(hand):
                last_round = rnd == hand - 1
                leo_card = deck[n * hand + hand - 2 - rnd] if leo and not last_round else 0
                if not tactical:
                    for f in range(figures):
                        net[f] = 0
                    for s in range(n):
                        h = size[s]
                        m = mask[s]
                        if last_round:  # WF-5: the last card goes on oneself
                            r = _nth(m, 0, kth, tables)
                            net[s] += distinct[r]
                            count[s, r] = 0
                            mask[s] = 0
                            continue
                        nd = _ones(m, ones, tables)
                        if policies[s] == RANDOM and not scripted:
                            di = _pick(nd, pol, scripted, choices, b)
                            t = _pick(figures, pol, scripted, choices, b)
                        else:
                            if policies[s] == RANDOM:
                                a = _pick(nd * figures, pol, scripted, choices, b)
                            else:
                                a = _heuristic_place(
                                    pos,
                                    tot,
                                    tmp,
                                    s,
                                    m,
                                    count,
                                    distinct,
                                    kth,
                                    ones,
                                    tables,
                                    h,
                                    low,
                                    high,
                                    stages_left,
                                    best,
                                    pol,
                                    scripted,
                                    choices,
                                    b,
                                )
                            di = a // figures
                            t = a - di * figures
                        if record:
                            taken_out[b, dk] = di * figures + t
                        dk += 1
                        r = _nth(m, di, kth, tables)
                        net[t] += distinct[r]
                        c = count[s, r] - 1
                        count[s, r] = c
                        mask[s] = m ^ (np.int64(c == 0) << r)
                        size[s] = h - 1
                    if leo_card:  # WF-9: Leo flips his top card onto himself
                        net[n] += values[leo_card - 1]
                    for f in range(figures):  # WF-4: the sum moves the figure, clamped once
                        pos[f] = min(max(pos[f] + net[f], low), high)
                else:
                    revealed = _NONE
                    for s in range(n):
                        h = size[s]
                        cm = cards[s]
                        if last_round:
                            at = 0
                        elif policies[s] == RANDOM:
                            at = _pick(h, pol, scripted, choices, b)
                        else:
                            rest = cm
                            for i in range(h):
                                hv[i] = values[_lowest_card(rest) - 1]
                                rest &= rest - _ONE
                            at = _heuristic_commit(
                                pos, tot, tmp, s, hv, h, low, high, stages_left,
                                best, pol, scripted, choices, b,
                            )  # fmt: skip
                        if not last_round:
                            if record:
                                taken_out[b, dk] = at
                            dk += 1
                        for _ in range(at):
                            cm &= cm - _ONE
                        c = _lowest_card(cm)
                        cards[s] = cards[s] ^ _card_bit(c)
                        owner[c] = s
                        revealed |= _card_bit(c)
                        size[s] = h - 1
                    if leo_card:
                        owner[leo_card] = n
                        revealed |= _card_bit(leo_card)
                    while revealed:  # WF-10: highest white number moves first
                        c = _highest_card(revealed)
                        revealed ^= _card_bit(c)
                        o = owner[c]
                        v = values[c - 1]
                        if o == n:  # Leo's card moves Leo
                            t = n
                        elif policies[o] == RANDOM:
                            t = _pick(figures, pol, scripted, choices, b)
                        else:
                            t = _heuristic_move(
                                pos, tot, tmp, o, v, size[o], low, high, stages_left,
                                best, pol, scripted, choices, b,
                            )  # fmt: skip
                        if o != n:
                            if record:
                                taken_out[b, dk] = t
                            dk += 1
                        pos[t] = min(max(pos[t] + v, low), high)  # WF-10: clamped at once
            # WF-6: the figures on the second-farthest distinct space score its number.
            # WF-6 here and WF-7 below are written out, not _second_distinct: measured, the loop
            # ran about a tenth slower with the call.
            first = pos[0]
            for f in range(1, figures):
                if pos[f] > first:
                    first = pos[f]
            space = 0
            found = False
            for f in range(figures):
                p = pos[f]
                if p < first and (not found or p > space):
                    space = p
                    found = True
            if found:
                for f in range(figures):
                    if pos[f] == space:
                        tot[f] += space
                        if record:
                            stage_out[b, stage, f] = space
        # WF-7: the second-highest distinct total wins; all win when all are equal.
        first = tot[0]
        for f in range(1, figures):
            if tot[f] > first:
                first = tot[f]
        target = first
        found = False
        for f in range(figures):
            t = tot[f]
            if t < first and (not found or t > target):
                target = t
                found = True
        for f in range(figures):
            totals_out[b, f] = tot[f]
            winners_out[b, f] = tot[f] == target


# -- the Python face ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """What a batch of games came to; row ``i`` is game ``i``, columns are figures (Leo last).

    ``totals`` (int32, games × figures): every figure's points (WF-6); ``winners`` (bool, same
    shape): the winners (WF-7); ``seeds`` (uint64): each game's deal seed. Recorded only when
    asked for (else ``None``): ``stage_points`` (int32, games × stages × figures), each stage's
    points, and ``decisions`` (int16, games × :attr:`WhyFirstBatch.max_decisions`), every
    decision's index into the legal actions of the moment, in asking order, −1 after the last.
    """

    seeds: NDArray[np.uint64]
    totals: NDArray[np.int32]
    winners: NDArray[np.bool_]
    stage_points: NDArray[np.int32] | None
    decisions: NDArray[np.int16] | None

    @property
    def games(self) -> int:
        """Number of games."""
        return int(self.seeds.shape[0])

    def win_shares(self) -> NDArray[np.float64]:
        """Each figure's share of the wins, a shared win split equally (as the engine's
        simulation summaries count them)."""
        return win_shares(self.winners)


class WhyFirstBatch:
    """Plays many games of one configuration at once (see the module docstring)."""

    def __init__(self, config: WhyFirstConfig) -> None:
        config.validate()
        self.config = config
        self.players = config.players
        self.figures = config.players + (1 if config.has_leo else 0)
        self.tactical = config.variant == "tactical"
        self._values = np.array(config.card_values, dtype=np.int64)
        self._plan = shuffle_plan(len(config.card_values))
        self._ones, self._kth, self._tables = _mask_tables(len(set(config.card_values)))

    @property
    def max_decisions(self) -> int:
        """Most decisions one game asks for: the columns ``choices`` needs."""
        cfg = self.config
        commits = cfg.stages * (cfg.hand_size - 1) * cfg.players
        moves = cfg.stages * cfg.hand_size * cfg.players if self.tactical else 0
        return commits + moves

    def seeds(self, games: int, seed: int) -> NDArray[np.uint64]:
        """``derive_seed(seed, i)`` for ``i < games``: the seeds of a simulation's games."""
        return _seeds(np.uint64(seed & _MASK64), games)

    def play(
        self,
        games: int | Sequence[int] | NDArray[np.uint64],
        seed: int = 0,
        policies: str | Sequence[str] = "random",
        choices: NDArray[np.uint32] | None = None,
        record: bool = False,
    ) -> BatchResult:
        """Play whole games.

        ``games``: how many (game ``i`` is dealt by ``derive_seed(seed, i)``), or the deal
        seeds themselves. ``policies``: one policy name for every seat or one per seat
        (:data:`POLICIES`). ``choices`` (games × at least :attr:`max_decisions`, uint32):
        scripted play instead of random draws. ``record``: also keep each stage's points and
        every decision (:class:`BatchResult`).
        """
        seeds = batch_seeds(games, seed, self.seeds)
        count = int(seeds.shape[0])
        codes = policy_codes(policies, self.players)
        scripted = choices is not None
        script = script_of(choices, count, self.max_decisions)
        cfg = self.config
        totals = np.zeros((count, self.figures), dtype=np.int32)
        winners = np.zeros((count, self.figures), dtype=np.bool_)
        rows = count if record else 1
        stages = np.zeros((rows, cfg.stages, self.figures), np.int32)
        taken = np.full((rows, self.max_decisions), -1, np.int16)
        top, bottom, limit = self._plan
        _run(
            seeds,
            cfg.players,
            self.figures,
            self.tactical,
            cfg.track_min,
            cfg.track_max,
            cfg.stages,
            cfg.hand_size,
            self._values,
            top,
            bottom,
            limit,
            self._ones,
            self._kth,
            self._tables,
            codes,
            scripted,
            script,
            record,
            totals,
            winners,
            stages,
            taken,
        )
        return BatchResult(
            seeds, totals, winners, stages if record else None, taken if record else None
        )


_MOST_TABLE_VALUES = 10  # 1024 masks: the tables stay in the first-level cache


def _mask_tables(values: int) -> tuple[NDArray[np.int64], NDArray[np.int64], bool]:
    """For a deck of at most ten distinct values, every hand mask's number of values and its
    ``k``-th lowest value, so a base-game choice looks them up instead of counting bits."""
    if values > _MOST_TABLE_VALUES:
        return np.zeros(1, np.int64), np.zeros((1, 1), np.int64), False
    masks = 1 << values
    ones = np.zeros(masks, np.int64)
    kth = np.zeros((masks, values), np.int64)
    for m in range(masks):
        held = [r for r in range(values) if m >> r & 1]
        ones[m] = len(held)
        kth[m, : len(held)] = held
    return ones, kth, True


@_jit(cache=True)
def _seeds(seed: np.uint64, games: int) -> NDArray[np.uint64]:
    """``derive_seed(seed, i)`` for every ``i < games``."""
    out = np.empty(games, np.uint64)
    for i in range(games):
        out[i] = _derive(seed, np.uint64(i))
    return out
