"""*Why First?* one decision at a time: a batch of game states in arrays, stepped in Numba.

Where :class:`~racedeck.kernels.why_first.WhyFirstBatch` plays whole games in one loop, this
kernel keeps every game of a batch as a row of two arrays and moves each one decision on at a
time, so that a learner (:mod:`racedeck.rl.vector`) or a search can choose every action:

>>> import numpy as np
>>> from racedeck.games.why_first import WhyFirstConfig
>>> from racedeck.kernels.batch import StateBatch
>>> from racedeck.kernels.why_first_states import kernel
>>> states = StateBatch(kernel(WhyFirstConfig(players=4)), batch=3)
>>> states.deal(np.array([1, 2, 3], dtype=np.uint64))   # as new_initial_state(1), (2), (3)
>>> states.current_player().tolist()
[0, 0, 0]
>>> mask = states.legal_mask()                  # one row per game, one column per action
>>> states.apply(mask.argmax(axis=1))           # each game's first legal action

**The engine's rules, decision for decision.** A row holds exactly what
:class:`~racedeck.games.why_first.WhyFirstState` holds, in numbers: seed *s* deals as
``WhyFirst.new_initial_state(s)`` (the engine's own shuffle, reproduced bit for bit by
:mod:`racedeck.kernels.why_first`); the seat to act is the one the engine's drivers ask (the
lowest seat still to commit in a round, WF-4; the owner of the highest white number still to
move in the tactical variant, WF-10); the legal actions are the engine's, numbered by the
game's action encoding (:mod:`racedeck.games.why_first.encoding`); rounds nobody decides
(the last card of a stage, WF-5; Leo's cards, WF-9) and the stage's scoring (WF-6) happen
inside :func:`apply`. The differential tests step the engine beside the kernel
and compare every legal mask, observation and result.

**Observations** are the game's float32 encoding (:mod:`racedeck.rl.observations.why_first`),
made here from the row's public part and the observing seat's own cards only — what that
seat's view holds, nothing more: the tests compare it with the encoder of the seat's view at
every step.

Layout: ``ints`` (int64) and ``bits`` (uint64, a hand or a set of cards as a bit per white
number) have one row per game; :class:`Layout` says where each field lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.kernels.batch import StepKernel
from racedeck.kernels.why_first import (
    _ONE,
    WhyFirstBatch,
    _card_bit,
    _clamp,
    _heuristic_commit,
    _heuristic_move,
    _heuristic_place,
    _highest_card,
    _jit,
    _lowest_card,
    _nth,
    _second_distinct,
    _shuffle,
    _shuffle32,
    shuffle_plan,
)

__all__ = [
    "COMMIT",
    "MOVE",
    "OVER",
    "WHOLE_GAMES",
    "Layout",
    "Tables",
    "apply",
    "current_player",
    "heuristic_action",
    "kernel",
    "legal",
    "observe",
    "reset_one",
    "rewards",
    "scratch",
]

WHOLE_GAMES = WhyFirstBatch
"""The game's whole-game batch (simulation): ``racedeck compile`` compiles it with the rest."""

Tables = tuple[
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.uint64],
    NDArray[np.int64],
    tuple[Any, ...],
]
"""What the rules read besides a row: :attr:`Layout.tables` and a batch's scratch for the
heuristic (:func:`scratch`: the functions make no array, see
:func:`racedeck.kernels.six_day_race._njit`)."""

COMMIT = 0
"""Phase: seats commit a card face down (base game: and a target)."""
MOVE = 1
"""Phase (tactical variant): revealed cards move figures, highest white number first."""
OVER = 2
"""Phase: the last stage is scored."""

# Fixed places in a row of ``ints``.
_PHASE, _STAGE, _ROUND, _PENDING, _MOVES, _LEO_LEFT = 0, 1, 2, 3, 4, 5
_FIXED = 6
# Fixed places in a row of ``bits``.
_RNG, _REVEALED, _QUEUE = 0, 1, 2
_HANDS = 3

# Places in the configuration vector ``cfg`` (see Layout.cfg).
(
    C_N,
    C_F,
    C_TACTICAL,
    C_LOW,
    C_HIGH,
    C_STAGES,
    C_HAND,
    C_CARDS,
    C_VALUES,
    C_LEO,
    C_TRACK,
    C_LARGEST,
    C_OBS,
    C_ACTIONS,
    C_POS,
    C_TOT,
    C_CCARD,
    C_CTGT,
    C_LCARD,
    C_LTGT,
    C_OWNER,
    C_DECK,
    C_INTS,
    C_BITS,
) = range(24)


@dataclass(frozen=True)
class Layout:
    """Where a configuration's fields live in a row, and the tables its rules read."""

    cfg: NDArray[np.int64]
    """Sizes and offsets, indexed by the ``C_*`` constants."""
    values: NDArray[np.int64]
    """``values[c - 1]``: the value of card ``c`` (its white number)."""
    rank: NDArray[np.int64]
    """``rank[c - 1]``: the place of card ``c``'s value among the deck's distinct values."""
    counts: NDArray[np.int64]
    """How many cards of the deck have each distinct value (lowest value first)."""
    top: NDArray[np.int64]
    bottom: NDArray[np.int64]
    limit: NDArray[np.uint64]
    """The deck's shuffle plan (:func:`racedeck.kernels.why_first.shuffle_plan`)."""
    distinct: NDArray[np.int64]
    """The deck's distinct values, lowest first."""

    @property
    def tables(self) -> tuple[Any, ...]:
        """What every kernel function reads but a batch's scratch: ``(cfg, values, rank,
        counts, top, bottom, limit, distinct)``."""
        return (
            self.cfg,
            self.values,
            self.rank,
            self.counts,
            self.top,
            self.bottom,
            self.limit,
            self.distinct,
        )

    @classmethod
    def of(cls, config: WhyFirstConfig) -> Layout:
        """The layout of ``config`` (validated)."""
        config.validate()
        n = config.players
        leo = config.has_leo
        f = n + (1 if leo else 0)
        tactical = config.variant == "tactical"
        cards = len(config.card_values)
        distinct = sorted(set(config.card_values))
        d = len(distinct)
        hand = cards if tactical else d
        commit = cards if tactical else d + f
        slot = 2 + f + (1 if tactical else 0)
        obs = n + 2 + 2 + f + f + n + n + 1 + hand + commit + hand + f * slot
        obs += f if tactical else 0
        actions = cards + f if tactical else d * f
        cfg = np.zeros(24, np.int64)
        cfg[C_N], cfg[C_F], cfg[C_TACTICAL] = n, f, int(tactical)
        cfg[C_LOW], cfg[C_HIGH] = config.track_min, config.track_max
        cfg[C_STAGES], cfg[C_HAND], cfg[C_CARDS], cfg[C_VALUES] = (
            config.stages,
            config.hand_size,
            cards,
            d,
        )
        cfg[C_LEO] = int(leo)
        cfg[C_TRACK] = max(-config.track_min, config.track_max)
        cfg[C_LARGEST] = max(abs(v) for v in config.card_values)
        cfg[C_OBS], cfg[C_ACTIONS] = obs, actions
        at = _FIXED
        for key, size in (
            (C_POS, f),
            (C_TOT, f),
            (C_CCARD, n),
            (C_CTGT, n),
            (C_LCARD, f),
            (C_LTGT, f),
            (C_OWNER, cards + 1),
            (C_DECK, cards),
        ):
            cfg[key] = at
            at += size
        cfg[C_INTS] = at
        cfg[C_BITS] = _HANDS + n
        values = np.array(config.card_values, np.int64)
        rank = np.searchsorted(np.array(distinct), values).astype(np.int64)
        counts = np.array([config.card_values.count(v) for v in distinct], np.int64)
        top, bottom, limit = shuffle_plan(cards)
        return cls(cfg, values, rank, counts, top, bottom, limit, np.array(distinct, np.int64))


# -- the rules ------------------------------------------------------------------------------------


@_jit(inline=True)
def _popcount(m: np.uint64) -> int:
    k = 0
    while m:
        m &= m - _ONE
        k += 1
    return k


@_jit()
def _start_stage(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    cfg: NDArray[np.int64],
    top: NDArray[np.int64],
    bottom: NDArray[np.int64],
    limit: NDArray[np.uint64],
) -> None:
    """WF-3: figures back to 0, the whole deck shuffled, hands dealt in seat order (Leo's
    face-down cards next), and the first round's commits asked."""
    n, f, h, cards = cfg[C_N], cfg[C_F], cfg[C_HAND], cfg[C_CARDS]
    for k in range(f):
        ints[i, cfg[C_POS] + k] = 0
        ints[i, cfg[C_LCARD] + k] = 0
        ints[i, cfg[C_LTGT] + k] = -1
    deck = ints[i, cfg[C_DECK] : cfg[C_DECK] + cards]
    for k in range(cards):
        deck[k] = k + 1
    st = bits[i, _RNG]
    # The WF-2 deck has its own shuffle, whose divisions are by constants.
    st = _shuffle32(deck, st) if cards == 32 else _shuffle(deck, st, top, bottom, limit)
    bits[i, _RNG] = st
    for s in range(n):
        m = np.uint64(0)
        for k in range(h):
            m |= _card_bit(deck[s * h + k])
        bits[i, _HANDS + s] = m
        ints[i, cfg[C_CCARD] + s] = 0
        ints[i, cfg[C_CTGT] + s] = -1
    ints[i, _ROUND] = 0
    ints[i, _LEO_LEFT] = h - 1 if cfg[C_LEO] else 0
    bits[i, _REVEALED] = 0
    bits[i, _QUEUE] = 0
    ints[i, _PHASE] = COMMIT
    ints[i, _PENDING] = (1 << n) - 1


@_jit()
def _reveal(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    cfg: NDArray[np.int64],
    values: NDArray[np.int64],
) -> None:
    """Every commit turned up (and Leo's top card but in the last round, WF-9). The base game
    moves each figure by the sum of its cards, clamped once (WF-4); the tactical variant
    queues the cards by white number instead (WF-10)."""
    n, f, h = cfg[C_N], cfg[C_F], cfg[C_HAND]
    tactical = cfg[C_TACTICAL] == 1
    revealed = bits[i, _REVEALED]
    queue = np.uint64(0)
    for s in range(n):
        c = ints[i, cfg[C_CCARD] + s]
        bits[i, _HANDS + s] ^= _card_bit(c)
        revealed |= _card_bit(c)
        queue |= _card_bit(c)
        ints[i, cfg[C_OWNER] + c] = s
        ints[i, cfg[C_LCARD] + s] = c
        ints[i, cfg[C_LTGT] + s] = -1 if tactical else ints[i, cfg[C_CTGT] + s]
    if f > n:
        if ints[i, _ROUND] < h - 1:
            left = ints[i, _LEO_LEFT]
            c = ints[i, cfg[C_DECK] + n * h + left - 1]  # his cards are played from the top
            ints[i, _LEO_LEFT] = left - 1
            revealed |= _card_bit(c)
            queue |= _card_bit(c)
            ints[i, cfg[C_OWNER] + c] = n
            ints[i, cfg[C_LCARD] + n] = c
            ints[i, cfg[C_LTGT] + n] = n  # known at once: his card moves him
        else:
            ints[i, cfg[C_LCARD] + n] = 0
            ints[i, cfg[C_LTGT] + n] = -1
    bits[i, _REVEALED] = revealed
    if tactical:
        bits[i, _QUEUE] = queue
        ints[i, _PHASE] = MOVE
        return
    low, high = cfg[C_LOW], cfg[C_HIGH]
    for fig in range(f):
        net = 0
        for who in range(f):
            c = ints[i, cfg[C_LCARD] + who]
            if c and ints[i, cfg[C_LTGT] + who] == fig:
                net += values[c - 1]
        if net:
            p = cfg[C_POS] + fig
            ints[i, p] = _clamp(ints[i, p] + net, low, high)


@_jit()
def _move(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    cfg: NDArray[np.int64],
    values: NDArray[np.int64],
    c: int,
    fig: int,
) -> None:
    """WF-10: card ``c`` leaves the queue and moves figure ``fig``, clamped at once."""
    bits[i, _QUEUE] ^= _card_bit(c)
    p = cfg[C_POS] + fig
    ints[i, p] = _clamp(ints[i, p] + values[c - 1], cfg[C_LOW], cfg[C_HIGH])
    for who in range(cfg[C_F]):
        if ints[i, cfg[C_LCARD] + who] == c:
            ints[i, cfg[C_LTGT] + who] = fig


@_jit()
def _moves_asked(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    cfg: NDArray[np.int64],
    values: NDArray[np.int64],
) -> bool:
    """Move Leo's cards at the head of the queue (they move Leo, WF-9); True when a seat's
    card is next, its owner now asked."""
    n = cfg[C_N]
    while bits[i, _QUEUE]:
        c = _highest_card(bits[i, _QUEUE])
        owner = ints[i, cfg[C_OWNER] + c]
        if owner != n:
            ints[i, _PENDING] = 1 << owner
            return True
        _move(ints, bits, i, cfg, values, c, n)
    return False


@_jit()
def _score_stage(ints: NDArray[np.int64], i: int, cfg: NDArray[np.int64]) -> None:
    """WF-6: the figures on the second-farthest distinct space score its number."""
    f = cfg[C_F]
    pos = cfg[C_POS]
    found, space = _second_distinct(ints[i, pos : pos + f])
    if found:
        for k in range(f):
            if ints[i, pos + k] == space:
                ints[i, cfg[C_TOT] + k] += space


@_jit()
def _after_round(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    cfg: NDArray[np.int64],
    values: NDArray[np.int64],
    top: NDArray[np.int64],
    bottom: NDArray[np.int64],
    limit: NDArray[np.uint64],
) -> None:
    """A round is over: on to the next one, through every round nobody decides (the last
    card of a stage, WF-5), the stages' scoring and the next deal, until a seat is asked or
    the game is over."""
    n, h = cfg[C_N], cfg[C_HAND]
    tactical = cfg[C_TACTICAL] == 1
    while True:
        ints[i, _ROUND] += 1
        for s in range(n):
            ints[i, cfg[C_CCARD] + s] = 0
            ints[i, cfg[C_CTGT] + s] = -1
        if ints[i, _ROUND] == h:
            _score_stage(ints, i, cfg)
            ints[i, _STAGE] += 1
            if ints[i, _STAGE] == cfg[C_STAGES]:
                ints[i, _PHASE] = OVER
                ints[i, _PENDING] = 0
                bits[i, _QUEUE] = 0
                return
            _start_stage(ints, bits, i, cfg, top, bottom, limit)
            return
        if ints[i, _ROUND] < h - 1:
            ints[i, _PHASE] = COMMIT
            ints[i, _PENDING] = (1 << n) - 1
            return
        # WF-5: one card left each, played for everyone (base game: onto oneself).
        for s in range(n):
            ints[i, cfg[C_CCARD] + s] = _lowest_card(bits[i, _HANDS + s])
            ints[i, cfg[C_CTGT] + s] = -1 if tactical else s
        _reveal(ints, bits, i, cfg, values)
        if tactical and _moves_asked(ints, bits, i, cfg, values):
            return


@_jit(cache=True)
def reset_one(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, seed: np.uint64, t: Tables
) -> None:
    """Row ``i`` becomes ``WhyFirst.new_initial_state(seed)``."""
    ints[i, :] = 0
    bits[i, :] = 0
    bits[i, _RNG] = seed
    cfg, _, _, _, top, bottom, limit, _, _ = t
    _start_stage(ints, bits, i, cfg, top, bottom, limit)


@_jit(inline=True)
def _seat_to_act(ints: NDArray[np.int64], i: int) -> int:
    """The seat the engine's drivers ask next in row ``i`` (-1 once the game is over)."""
    pending = ints[i, _PENDING]
    if pending == 0:
        return -1
    s = 0
    while not pending >> s & 1:
        s += 1
    return s


@_jit(cache=True)
def current_player(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """The seat the engine's drivers ask next in row ``i`` (-1 once the game is over): the
    lowest seat still to commit in a round (WF-4), the owner of the card to move (WF-10)."""
    return _seat_to_act(ints, i)


@_jit(cache=True)
def legal(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.bool_]
) -> int:
    """The legal actions of the seat to act in row ``i``, as a mask over the encoding's
    actions (``out``, one row); their number."""
    cfg, _, rank, _, _, _, _, _, _ = t
    out[:] = False
    s = _seat_to_act(ints, i)
    if s < 0:
        return 0
    f, cards = cfg[C_F], cfg[C_CARDS]
    if ints[i, _PHASE] == MOVE:
        for fig in range(f):
            out[cards + fig] = True
        return int(f)
    hand = bits[i, _HANDS + s]
    k = 0
    while hand:
        c = _lowest_card(hand)
        hand ^= _card_bit(c)
        if cfg[C_TACTICAL]:
            out[c - 1] = True
            k += 1
        else:
            base = rank[c - 1] * f
            if not out[base]:
                for fig in range(f):
                    out[base + fig] = True
                k += f
    return k


@_jit(cache=True)
def apply(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, action: int, t: Tables
) -> None:
    """The seat to act in row ``i`` takes ``action`` (legal: unchecked), and the game runs on
    to the next decision or its end."""
    cfg, values, rank, _, top, bottom, limit, _, _ = t
    s = _seat_to_act(ints, i)
    f, cards = cfg[C_F], cfg[C_CARDS]
    ints[i, _MOVES] += 1
    if ints[i, _PHASE] == MOVE:
        _move(ints, bits, i, cfg, values, _highest_card(bits[i, _QUEUE]), action - cards)
        if not _moves_asked(ints, bits, i, cfg, values):
            _after_round(ints, bits, i, cfg, values, top, bottom, limit)
        return
    if cfg[C_TACTICAL]:
        ints[i, cfg[C_CCARD] + s] = action + 1
    else:
        r = action // f
        hand = bits[i, _HANDS + s]
        c = _lowest_card(hand)  # the value is played from the lowest white number holding it
        while rank[c - 1] != r:
            hand ^= _card_bit(c)
            c = _lowest_card(hand)
        ints[i, cfg[C_CCARD] + s] = c
        ints[i, cfg[C_CTGT] + s] = action - r * f
    pending = ints[i, _PENDING] & ~(1 << s)
    ints[i, _PENDING] = pending
    if pending:
        return
    _reveal(ints, bits, i, cfg, values)
    if cfg[C_TACTICAL] and _moves_asked(ints, bits, i, cfg, values):
        return
    _after_round(ints, bits, i, cfg, values, top, bottom, limit)


@_jit(cache=True)
def rewards(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.float32]
) -> None:
    """Each seat's share of the win in row ``i`` once it is over (WF-7: the second-highest
    distinct total wins, all when all are equal; Leo counts, WF-9), else zeros."""
    cfg = t[0]
    n, f = cfg[C_N], cfg[C_F]
    out[:] = 0.0
    if ints[i, _PHASE] != OVER:
        return
    tot = cfg[C_TOT]
    found, target = _second_distinct(ints[i, tot : tot + f])
    if not found:  # all equal: everyone wins
        target = ints[i, tot]
    won = 0
    for k in range(f):
        if ints[i, tot + k] == target:
            won += 1
    for s in range(n):
        if ints[i, tot + s] == target:
            out[s] = 1.0 / won


@_jit(inline=True)
def _put(out: NDArray[np.float32], at: int, x: float) -> int:
    out[at] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x
    return at + 1


@_jit(cache=True)
def observe(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: Tables,
    out: NDArray[np.float32],
) -> None:
    """``seat``'s observation of row ``i`` (``out``, one row): the encoding of
    :mod:`racedeck.rl.observations.why_first`, from the public fields and ``seat``'s own hand
    and commit only."""
    cfg, values, rank, counts, _, _, _, _, _ = t
    n, f, h = cfg[C_N], cfg[C_F], cfg[C_HAND]
    cards, d, stages = cfg[C_CARDS], cfg[C_VALUES], cfg[C_STAGES]
    tactical = cfg[C_TACTICAL] == 1
    track = float(cfg[C_TRACK])
    largest = float(cfg[C_LARGEST])
    out[:] = 0.0
    at = 0
    out[at + seat] = 1.0
    at += n
    phase = ints[i, _PHASE]
    if phase != OVER:
        out[at + phase] = 1.0
    at += 2
    at = _put(out, at, ints[i, _STAGE] / stages)
    at = _put(out, at, ints[i, _ROUND] / h)
    for k in range(f):
        at = _put(out, at, ints[i, cfg[C_POS] + k] / track if track > 0 else 0.0)
    for k in range(f):
        scale = stages * track
        at = _put(out, at, ints[i, cfg[C_TOT] + k] / scale if scale > 0 else 0.0)
    for s in range(n):
        out[at + s] = 1.0 if ints[i, cfg[C_CCARD] + s] else 0.0
    at += n
    for s in range(n):
        at = _put(out, at, _popcount(bits[i, _HANDS + s]) / h)
    at = _put(out, at, ints[i, _LEO_LEFT] / h)
    hand = bits[i, _HANDS + seat]
    mine = ints[i, cfg[C_CCARD] + seat]
    if tactical:
        m = hand
        while m:
            c = _lowest_card(m)
            m ^= _card_bit(c)
            out[at + c - 1] = 1.0
        at += cards
        if mine:
            out[at + mine - 1] = 1.0
        at += cards
        m = bits[i, _REVEALED]
        while m:
            c = _lowest_card(m)
            m ^= _card_bit(c)
            out[at + c - 1] = 1.0
        at += cards
    else:
        m = hand
        while m:
            c = _lowest_card(m)
            m ^= _card_bit(c)
            out[at + rank[c - 1]] += 1.0
        for r in range(d):
            out[at + r] = min(1.0, out[at + r] / h)
        at += d
        if mine:
            out[at + rank[mine - 1]] = 1.0
            out[at + d + ints[i, cfg[C_CTGT] + seat]] = 1.0
        at += d + f
        m = bits[i, _REVEALED]
        while m:
            c = _lowest_card(m)
            m ^= _card_bit(c)
            out[at + rank[c - 1]] += 1.0
        for r in range(d):
            out[at + r] = out[at + r] / counts[r]
        at += d
    for who in range(f):
        c = ints[i, cfg[C_LCARD] + who]
        if c:
            out[at] = 1.0
            _put(out, at + 1, values[c - 1] / largest)
            target = ints[i, cfg[C_LTGT] + who]
            if target >= 0:
                out[at + 2 + target] = 1.0
            if tactical:
                _put(out, at + 2 + f, c / cards)
        at += 2 + f + (1 if tactical else 0)
    if tactical:
        m = bits[i, _QUEUE]
        while m:
            c = _lowest_card(m)
            m ^= _card_bit(c)
            out[at + ints[i, cfg[C_OWNER] + c]] = 1.0


@_jit(cache=True)
def heuristic_action(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    mask: NDArray[np.bool_],
    count: int,
    t: Tables,
    streams: NDArray[np.uint64],
) -> int:
    """The action :class:`~racedeck.bots.why_first.WhyFirstHeuristicBot` would take for the
    seat to act in row ``i``: the same evaluation of each legal action and the same tolerance
    for ties (:mod:`racedeck.kernels.why_first`), one of the best drawn from ``streams[i]``.
    ``mask`` and ``count`` are unused (the shape every policy has)."""
    cfg, values, rank, _, _, _, _, distinct, work = t
    tmp, best, vals, held, pol, script, no_table = work
    s = _seat_to_act(ints, i)
    f, cards = cfg[C_F], cfg[C_CARDS]
    low, high = cfg[C_LOW], cfg[C_HIGH]
    stages_left = cfg[C_STAGES] - ints[i, _STAGE] - 1
    pos = ints[i, cfg[C_POS] : cfg[C_POS] + f]
    tot = ints[i, cfg[C_TOT] : cfg[C_TOT] + f]
    hand = bits[i, _HANDS + s]
    h = _popcount(hand)
    pol[0] = streams[i]
    pol[2] = 0  # no spare half-word from another game's draw (see why_first._pick)
    if ints[i, _PHASE] == MOVE:
        c = _highest_card(bits[i, _QUEUE])
        fig = _heuristic_move(
            pos, tot, tmp, s, values[c - 1], h, low, high, stages_left, best, pol, False, script, 0
        )
        action = cards + fig
    elif cfg[C_TACTICAL]:
        rest = hand
        for k in range(h):
            c = _lowest_card(rest)
            vals[k] = values[c - 1]
            rest ^= _card_bit(c)
        at = _heuristic_commit(
            pos, tot, tmp, s, vals, h, low, high, stages_left, best, pol, False, script, 0
        )
        rest = hand
        for _ in range(at):
            rest ^= _card_bit(_lowest_card(rest))
        action = _lowest_card(rest) - 1
    else:
        # The bot reads values only: which ranks the hand holds, and how many of each.
        held[s, :] = 0
        m = 0
        rest = hand
        while rest:
            c = _lowest_card(rest)
            rest ^= _card_bit(c)
            held[s, rank[c - 1]] += 1
            m |= 1 << rank[c - 1]
        a = _heuristic_place(
            pos, tot, tmp, s, m, held, distinct, no_table, no_table[0], False, h, low, high,
            stages_left, best, pol, False, script, 0,
        )  # fmt: skip
        di = a // f
        r = _nth(m, di, no_table, False)
        action = r * f + (a - di * f)
    streams[i] = pol[0]
    return int(action)


# -- the kernel -----------------------------------------------------------------------------------


def scratch(config: WhyFirstConfig) -> tuple[Any, ...]:
    """The heuristic's working arrays for one batch: ``(tmp, best, vals, held, pol, script,
    no_table)`` (:func:`heuristic_action`)."""
    n, hand = config.players, config.hand_size
    f = n + (1 if config.has_leo else 0)
    return (
        np.zeros(f, np.int64),
        np.zeros(max(hand * f, f), np.int64),
        np.zeros(hand, np.int64),
        np.zeros((n, len(set(config.card_values))), np.int64),
        np.zeros(4, np.uint64),
        np.zeros((1, 1), np.uint32),
        np.zeros((1, 1), np.int64),
    )


def kernel(config: WhyFirstConfig) -> StepKernel:
    """The step kernel of ``config`` (:class:`~racedeck.kernels.batch.StepKernel`)."""
    lay = Layout.of(config)
    cfg = lay.cfg
    return StepKernel(
        players=int(cfg[C_N]),
        num_actions=int(cfg[C_ACTIONS]),
        observation_size=int(cfg[C_OBS]),
        arrays=lambda batch: (
            np.zeros((batch, int(cfg[C_INTS])), np.int64),
            np.zeros((batch, int(cfg[C_BITS])), np.uint64),
            (*lay.tables, scratch(config)),
        ),
        reset_one=reset_one,
        current_player=current_player,
        legal=legal,
        apply=apply,
        observe=observe,
        rewards=rewards,
        heuristic_action=heuristic_action,
    )
