"""*Six Day Race* for the compiled search (:class:`~racedeck.kernels.search_kernel.SearchKernel`):
its step kernel (:mod:`racedeck.kernels.six_day_race_steps`), an engine state loaded into a row,
the sampler's determinization compiled, and the playout's horizon and values.

**Loading** (:func:`load_state`) writes every field of a
:class:`~racedeck.games.six_day_race.SixDayRaceState` into the step kernel's row: hands and
played cards as counts by value (a hand is all green or all grey, SD-6, so a value names one kind
of card), the grey decks and discards in pile order, the final turns still owed (SD-9), the
series totals (points in the kernel's units of ``1 / params.scale``) and the state's generator,
so that the row then plays on exactly as the engine, later shuffles included (SD-3, SD-11).

**Redealing** (:func:`redeal`) is :class:`~racedeck.games.six_day_race.sampler.SixDayRaceSampler`
in compiled code, draw for draw: the unseen grey cards of each deck — the deck itself and the
grey hands of the other seats' changed riders (SD-6) — are laid out by value, lowest first,
shuffled by the engine's :meth:`~racedeck.core.rng.Rng.shuffle` from the stream ``streams[i]``
(deck 1–3 first), dealt to those riders in rider order (their 1–3 cards from the front of the
first pile, their 4–6 cards from the front of the second), the rest staying the decks in the
shuffled order; then the row's generator is reseeded with the stream's next output. A stream
standing at ``k`` thus gives the very state ``game.sample_state(view, Rng(k))`` gives, loaded.
Green hands are no secret (SD-2: every rider starts a race with the same one and plays face up),
so they stay as they are, as do the seat's own hands and everything public.

Nothing in *Six Day Race* is concealed as it is played (cards go face up, SD-4), so
:func:`group` is always -1. The playout (``SixDayRacePlayout``) rides out the race in progress
(:func:`horizon`), its riders choosing as the heuristic does (``playout_heuristic``), and values
a position by a sigmoid of each seat's lead in the standings (:func:`estimate`, SD-11); a
finished series is worth :func:`racedeck.bots.search.rewards` (:func:`values`). The bots'
constants are written again here (kernels import the rules only, ``tests/test_layers.py``); the
tests hold them to the bots' numbers.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.six_day_race import SixDayRace, SixDayRaceState
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.games.six_day_race.encoding import action_encoding
from racedeck.kernels import six_day_race as sdr
from racedeck.kernels import six_day_race_steps
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.why_first import _GAMMA, _mix

__all__ = [
    "estimate",
    "group",
    "horizon",
    "load_state",
    "redeal",
    "search_kernel",
    "values",
]

# SixDayRacePlayout's and racedeck.bots.search's constants (see the module docstring).
_LAP = 40.0
"""Points a lost lap is worth in the estimate (``SixDayRacePlayout.LAP``)."""
_SPREAD_BASE = 4.0
_SPREAD_PER_RACE = 12.0
_RANK_WEIGHT = 0.2
"""What the finishing rank adds to a finished game's value (``search.RANK_WEIGHT``)."""
_FLAT = 30.0
"""Beyond ±this the sigmoid is flat (``why_first.sigmoid``)."""

Tables = tuple[Any, ...]
"""The step kernel's tables (:data:`racedeck.kernels.six_day_race_steps.Tables`)."""


# -- loading ------------------------------------------------------------------------------------


def _counts(cards: Any) -> list[int]:
    """Cards (engine codes) as counts by value, index 0 unused."""
    out = [0] * 8
    for c in cards:
        out[c % 10] += 1
    return out


def load_state(
    batch: sdr.SixDayRaceBatch,
    state: SixDayRaceState,
    ints_row: NDArray[np.int64],
    bits_row: NDArray[np.uint64],
) -> None:
    """Write ``state`` into one row (``ints_row``, ``bits_row``) of ``batch``'s states."""
    p = batch.params
    one = batch.new_states(1)  # the row's layout, named; copied into the row at the end
    over = state.is_terminal
    sc = one.scalars[0]
    sc[sdr.RACE] = state.race
    sc[sdr.TURN] = state.turn
    sc[sdr.CURRENT] = -1 if over else state.current
    # The kernel keeps the final turns (SD-9) as a queue and a head: the ones still owed first.
    queue = state.final_queue
    sc[sdr.QUEUE_HEAD] = 0
    sc[sdr.QUEUE_LEN] = -1 if queue is None else len(queue)
    if queue:
        one.queue[0, : len(queue)] = queue
    sc[sdr.FINISHED] = len(state.finishers)
    one.finishers[0, : len(state.finishers)] = state.finishers
    for deck, discards, left, dis, pile, pile_discards in (
        (state.deck_low, state.discard_low, sdr.LOW_LEFT, sdr.LOW_DISCARDS, one.low_deck,
         one.low_discards),
        (state.deck_high, state.discard_high, sdr.HIGH_LEFT, sdr.HIGH_DISCARDS, one.high_deck,
         one.high_discards),
    ):  # fmt: skip
        sc[left] = len(deck)
        sc[dis] = len(discards)
        pile[0, : len(deck)] = [c % 10 for c in deck]  # top last, as the engine's piles
        pile_discards[0, : len(discards)] = [c % 10 for c in discards]  # in discard order
    sc[sdr.CARDS] = sum(len(h) for h in state.hands)
    sc[sdr.MOVE] = state.move
    sc[sdr.OVER] = 1 if over else 0
    one.rng[0] = np.uint64(state.rng.state)
    one.positions[0] = state.positions
    one.crashed[0] = [1 if c else 0 for c in state.crashed]
    one.order[0] = state.order
    for r in range(batch.riders):
        one.hands[0, r] = _counts(state.hands[r])
        one.hand_sizes[0, r] = len(state.hands[r])
        one.played[0, r] = _counts(state.played[r])
        drawn = state.drawn[r]
        one.drawn[0, r] = (-1, -1) if drawn is None else drawn
    if state.results:  # the last scored race's places (the kernel's reorder reads them, SD-11)
        one.places[0] = [result.place for result in state.results[-1]]
    one.green_discards[0] = _counts(state.discard_green)
    for k, crossed in enumerate(state.sprint_order):  # SD-8
        one.sprint_counts[0, k] = len(crossed)
        one.sprint_order[0, k, : len(crossed)] = crossed
    one.laps[0] = state.laps
    for a, text in enumerate(state.points):
        units = Fraction(text) * p.scale  # exact: every shared place divides the scale (SD-9)
        if units.denominator != 1:
            raise ValueError(f"points {text} are not a whole number of 1/{p.scale}")
        one.points[0, a] = units.numerator
    ints_row[:] = one.ints[0]
    bits_row[:] = one.bits[0]


# -- redealing ----------------------------------------------------------------------------------


@sdr._njit(inline=True)
def _unseen(
    p: sdr.SixDayRaceParams,
    s: sdr.SixDayRaceStates,
    i: int,
    seat: int,
    deck: NDArray[np.int64],
    left: int,
    v: int,
) -> int:
    """How many grey cards of value ``v`` ``seat`` does not see: in the deck, or in the hand
    of another seat's rider that has changed (SD-6; a green rider holds no grey card)."""
    count = 0
    for k in range(left):
        if deck[k] == v:
            count += 1
    for r in range(p.riders):
        if r % p.players != seat and s.drawn[i, r, 0] >= 0:
            count += s.hands[i, r, v]
    return count


@sdr._njit(inline=True)
def _lay_out(
    p: sdr.SixDayRaceParams,
    s: sdr.SixDayRaceStates,
    i: int,
    seat: int,
    deck: NDArray[np.int64],
    left: int,
    lowest: int,
    st: np.uint64,
) -> np.uint64:
    """The unseen cards of one grey deck (values ``lowest`` … ``lowest + 2``) laid out in
    ``deck``, lowest value first as the sampler lists them, and shuffled as it shuffles them;
    returns the stream's state. (They fit: the deck's row holds the whole deck.)"""
    c0 = _unseen(p, s, i, seat, deck, left, lowest)
    c1 = _unseen(p, s, i, seat, deck, left, lowest + 1)
    c2 = _unseen(p, s, i, seat, deck, left, lowest + 2)
    at = 0
    for v, c in ((lowest, c0), (lowest + 1, c1), (lowest + 2, c2)):
        for _ in range(c):
            deck[at] = v
            at += 1
    return sdr._shuffle(p, deck, at, st)


@sdr._njit(inline=True)
def _close(deck: NDArray[np.int64], dealt: int, left: int) -> None:
    """What was not dealt becomes the deck, in the shuffled order (top last); the rest of the
    row is cleared, as a loaded row has it."""
    for k in range(left):
        deck[k] = deck[dealt + k]
    for k in range(left, deck.shape[0]):
        deck[k] = 0


@sdr._njit(cache=True)
def redeal(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: Tables,
    streams: NDArray[np.uint64],
) -> None:
    """Deal game ``i``'s secrets hidden from ``seat`` afresh from ``streams[i]``, as
    ``SixDayRaceSampler`` does (see the module docstring): the other seats' grey hands (SD-6),
    both grey decks' order (SD-3) and the generator of the chance to come."""
    p, s = t[0], t[1]
    sc = s.scalars
    low_deck, high_deck = s.low_deck[i], s.high_deck[i]
    low_left, high_left = sc[i, sdr.LOW_LEFT], sc[i, sdr.HIGH_LEFT]
    st = streams[i]
    st = _lay_out(p, s, i, seat, low_deck, low_left, 1, st)
    st = _lay_out(p, s, i, seat, high_deck, high_left, 4, st)
    at_low = 0
    at_high = 0
    for r in range(p.riders):
        if r % p.players == seat or s.drawn[i, r, 0] < 0:
            continue
        # As many of each deck's cards as the rider holds: public, the draw less the plays.
        low = s.hands[i, r, 1] + s.hands[i, r, 2] + s.hands[i, r, 3]
        high = s.hands[i, r, 4] + s.hands[i, r, 5] + s.hands[i, r, 6]
        for v in range(1, 7):
            s.hands[i, r, v] = 0
        for k in range(low):
            s.hands[i, r, low_deck[at_low + k]] += 1
        for k in range(high):
            s.hands[i, r, high_deck[at_high + k]] += 1
        at_low += low
        at_high += high
    _close(low_deck, at_low, low_left)
    _close(high_deck, at_high, high_left)
    # The sampler sets the next regular turn to follow the rider on turn (SD-4); where the
    # row's differs (during the final turns, SD-9) it is read no more this race.
    current = sc[i, sdr.CURRENT]
    turn = 0
    if current >= 0:
        while s.order[i, turn] != current:
            turn += 1
        turn = (turn + 1) % p.riders
    sc[i, sdr.TURN] = turn
    st += _GAMMA  # the sampler's Rng(rng.next_u64()): the chance to come
    s.rng[i] = _mix(st)
    streams[i] = st


# -- the playout --------------------------------------------------------------------------------


@sdr._njit(cache=True)
def group(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """-1: every card is played face up, seen as it is played (SD-4, ``Game.conceals``)."""
    return -1


@sdr._njit(cache=True)
def horizon(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """The race in progress (``SixDayRacePlayout.horizon``): a playout rides it out."""
    return int(t[1].scalars[i, sdr.RACE])


@sdr._njit(inline=True)
def _sigmoid(x: float) -> float:
    """``racedeck.bots.why_first.sigmoid``: the logistic function, flat beyond ±30."""
    if x < -_FLAT:
        return 0.0
    if x > _FLAT:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


@sdr._njit(cache=True)
def estimate(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    t: Tables,
    out: NDArray[np.float64],
) -> None:
    """``SixDayRacePlayout.estimate``: per seat a sigmoid of its standing (points less 40 a
    lost lap, SD-11) less the best other seat's, over a spread that widens with the races to
    come."""
    p, s = t[0], t[1]
    n = p.players
    spread = _SPREAD_BASE + _SPREAD_PER_RACE * max(0, p.races - s.scalars[i, sdr.RACE])
    for a in range(n):
        mine = s.points[i, a] / p.scale - _LAP * s.laps[i, a]
        best = -np.inf
        for b in range(n):
            if b != a:
                # Both whole numbers below 2**53: the quotient rounds as the engine's Fraction.
                best = max(best, s.points[i, b] / p.scale - _LAP * s.laps[i, b])
        out[a] = _sigmoid((mine - best) / spread)


@sdr._njit(inline=True)
def _rank(p: sdr.SixDayRaceParams, s: sdr.SixDayRaceStates, i: int, a: int) -> int:
    """Player ``a``'s rank in the series (SD-11), as :func:`racedeck.kernels.six_day_race.
    standings` gives it."""
    la = s.laps[i, a] if p.races > 1 else 0
    rank = 1
    for b in range(p.players):
        lb = s.laps[i, b] if p.races > 1 else 0
        if lb < la or (lb == la and s.points[i, b] > s.points[i, a]):
            rank += 1
    return rank


@sdr._njit(cache=True)
def values(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    t: Tables,
    out: NDArray[np.float64],
) -> None:
    """``racedeck.bots.search.rewards`` of the finished series: a share of the win split
    among the winners, and up to 0.2 by rank (SD-11); all 0 before the end."""
    p, s = t[0], t[1]
    n = p.players
    if s.scalars[i, sdr.OVER] == 0:
        for a in range(n):
            out[a] = 0.0
        return
    winners = 0
    for a in range(n):
        if _rank(p, s, i, a) == 1:
            winners += 1
    share = (1.0 - _RANK_WEIGHT) / winners
    spread = max(1, n - 1)
    for a in range(n):
        rank = _rank(p, s, i, a)
        r = _RANK_WEIGHT * (n - rank) / spread  # in the order rewards() computes it
        if rank == 1:
            r += share
        out[a] = r


# -- the face -----------------------------------------------------------------------------------


def search_kernel(config: SixDayRaceConfig) -> SearchKernel:
    """What the compiled search needs of ``config`` (see the module docstring)."""
    step = six_day_race_steps.kernel(config)
    batch = sdr.SixDayRaceBatch(config)
    encoding = action_encoding(SixDayRace(config))

    def load(
        state: Any, ints_row: NDArray[np.int64], bits_row: NDArray[np.uint64], tables: Tables
    ) -> None:
        """The engine ``state`` as the step kernel's row (:func:`load_state`)."""
        load_state(batch, state, ints_row, bits_row)

    def encode(action: Any) -> int:
        """``PlayCard(v)``'s index, ``v - 1``, the step kernel's action id."""
        return encoding.index(action)

    def decode(index: int) -> Any:
        """The ``PlayCard`` of an action id."""
        return encoding.action(index)

    return SearchKernel(
        step=step,
        load=load,
        redeal=redeal,
        group=group,
        horizon=horizon,
        estimate=estimate,
        values=values,
        encode=encode,
        decode=decode,
        depth=-1,
        playout_heuristic=True,
    )
