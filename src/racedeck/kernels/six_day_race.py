"""A compiled kernel of *Six Day Race*: whole series, or one decision at a time, in Numba.

>>> from racedeck.games.six_day_race import SixDayRaceConfig
>>> from racedeck.kernels.six_day_race import SixDayRaceBatch
>>> batch = SixDayRaceBatch(SixDayRaceConfig(players=4))
>>> result = batch.play(10_000, seed=7)                    # uniformly random seats
>>> result.points.shape, result.winners.shape
((10000, 4), (10000, 4))

The rules are those of :class:`~racedeck.games.six_day_race.SixDayRace` under any configuration it
accepts: 2 to 8 players with one or two riders each (SD-12), any track (line, sprint lines,
FAHRERWECHSEL and STURZ spaces, SD-1), green hands and grey decks of any make-up (SD-2, SD-3, a
grey deck that runs out refilled from its own discards and shuffled), any draw at a rider change
(SD-6), any sprint and finish points (SD-8, SD-9, shared places split exactly), laps lost
(SD-10), series of any length with the seats reordered between races by either two-rider rule
(SD-11 as amended, SD-12), with or without a random first player (SD-4).

**Same deals as the engine.** Game ``i`` with seed ``seeds[i]`` starts exactly as
``SixDayRace.new_initial_state(seeds[i])``: the state's own generator
(:class:`racedeck.core.rng.Rng`, SplitMix64 with its grouped Fisher–Yates shuffle) is reproduced
bit for bit and drawn in the engine's order — the first player (SD-4), both grey decks at every
race's start, a deck refilled from its discards (SD-3). :meth:`SixDayRaceBatch.play` with a whole
number instead of an array gives game ``i`` the seed ``derive_seed(seed, i)``, as
:func:`racedeck.sim.simulate.simulate` does.

**Choices.** A decision is asked of the player of the rider on turn (SD-4), in the engine's
order, and picks an index into the engine's legal actions (:meth:`SixDayRace.legal_actions`):
the distinct values in that rider's hand, lowest first. As action ids of the fixed action space
(:mod:`racedeck.games.six_day_race.encoding`) a card of value ``v`` is ``v - 1``. A seat's policy
is

- ``"random"``: an index uniform among the legal ones (``RandomBot``'s choice);
- ``"heuristic"``: the cards that :class:`~racedeck.bots.six_day_race.SixDayRaceHeuristicBot`
  scores best (same evaluation in the same floating-point steps, same tie tolerance), one of
  them uniformly.

Random draws come from each game's own SplitMix64 stream seeded with ``derive_seed(seed, 1)``
(32 bits per draw, exact by rejection), never from the game's generator, exactly as in
:mod:`racedeck.kernels.why_first`. With ``choices`` (scripted play) decision ``k`` of game ``i``
uses ``choices[i, k]`` instead: a random seat takes index ``choices[i, k] % len(legal)``, a
heuristic seat the tie ``choices[i, k] % len(best)``. That is what the differential tests drive
the engine with.

**Stepping.** The whole-series loop is built from functions a batch stepper or a search can call
one decision at a time, on a state held in NumPy arrays with one row per game
(:class:`SixDayRaceStates`, made by :meth:`SixDayRaceBatch.new_states`) and the configuration in
:class:`SixDayRaceParams`: :func:`reset_one`, :func:`legal`, :func:`current_player`,
:func:`apply`, :func:`is_over`, :func:`returns`, :func:`standings` and :func:`heuristic_scores`.
They are compiled functions (``numba.njit``), callable from Python and inlined into other
compiled code. A game's whole state is one row of an int64 array and one of a uint64 array (the
state's fields are views into them), so a game is saved or restored by copying two rows. The
state holds everything a view shows (hands, played cards, discards, decks, sprint crossings,
finishers, the final turns still owed) so that observations can be encoded from it.

**Results** (:class:`BatchResult`): every player's laps lost (SD-10, SD-11) and points (SD-8,
SD-9, the engine's exact fractions as floats, as ``Outcome.scores`` has them), the ranks and
winners of SD-11 (fewest laps lost, then most points, a one-race game on points alone) and, on
request, every decision.

**Speed** (``benchmarks/six_day_race_batch.py``, one core of a shared machine): about 32,000
random 4-player series of six races a second (24 million decisions; the engine's fast path plays
about 420, so some 75 times as many), 190,000 one-race games, 10,000 series with heuristic seats.
A decision costs about 40 nanoseconds: the legal values are a scan of seven counts, the
slipstream (SD-5) a scan of the riders' positions, the turn order a ring over the riders, and
nothing is counted by reference (see :func:`_njit`). Points are kept as whole numbers in units
of ``1 / lcm(1 … riders)``, so that shared finish places (SD-9) split exactly without fractions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.kernels.whole_games import (
    HEURISTIC,
    POLICIES,
    RANDOM,
    batch_seeds,
    policy_codes,
    script_of,
    win_shares,
)

# The generator's helpers are the Why First? kernel's (the same SplitMix64 and policy stream).
# Numba's cache of this module does not see a change to them there: after one, touch this file.
from racedeck.kernels.why_first import _GAMMA, _ONE, _derive, _mix, _pick, _seeds

__all__ = [
    "ACTIONS",
    "CARDS",
    "CURRENT",
    "FINISHED",
    "HEURISTIC",
    "HIGH_DISCARDS",
    "HIGH_LEFT",
    "LOW_DISCARDS",
    "LOW_LEFT",
    "MOVE",
    "OVER",
    "POLICIES",
    "QUEUE_HEAD",
    "QUEUE_LEN",
    "RACE",
    "RANDOM",
    "TURN",
    "BatchResult",
    "SixDayRaceBatch",
    "SixDayRaceParams",
    "SixDayRaceStates",
    "apply",
    "current_player",
    "heuristic_scores",
    "is_over",
    "legal",
    "reset_one",
    "returns",
    "shuffle_plans",
    "standings",
]

ACTIONS = 7
"""Size of the action space: card values 1..7 are action ids 0..6 (``encoding.HIGHEST_VALUE``)."""

_MASK64 = (1 << 64) - 1
_GROUP_LIMIT = 1 << 56  # racedeck.core.rng: a grouped draw is rejected less than 1/256 of the time
_TIE = 1e-9  # SixDayRaceHeuristicBot's tie tolerance
# SixDayRaceHeuristicBot's constants, written again: kernels import the rules only, never the
# bots (tests/test_layers.py); the differential tests hold them to the bot's choices.
_MEAN_LOW = 2.0
_MEAN_HIGH = 5.0
_CRASH_COST = 3.5
_BIG_CARD = 7

_F = TypeVar("_F", bound=Callable[..., Any])


def _njit(inline: bool = False, cache: bool = False) -> Callable[[_F], _F]:
    """``numba.njit`` without reference counting (Numba's ``_nrt=False``), seen by the type
    checker as the plain function it compiles.

    These functions only read and write arrays they are given, never make or return one, so
    they need no reference counts; with them, every array taken out of the state's tuple cost
    an atomic increment and decrement, which made a decision four times slower.
    """
    flags: dict[str, Any] = {"_nrt": False}  # (a flag Numba's typing stubs do not list)
    jit = numba.njit(inline="always" if inline else "never", cache=cache, **flags)
    return cast(Callable[[_F], _F], jit)


# Columns of SixDayRaceStates.scalars.
RACE = 0
"""Scalar column: races finished so far (SD-11)."""
TURN = 1
"""Scalar column: index in ``order`` of the next regular turn (SD-4)."""
CURRENT = 2
"""Scalar column: the rider on turn, −1 once the series is over."""
QUEUE_HEAD = 3
"""Scalar column: how many of the final turns (``queue``) have been given (SD-9)."""
QUEUE_LEN = 4
"""Scalar column: how many final turns are owed, −1 before anyone crossed the line (SD-9)."""
FINISHED = 5
"""Scalar column: riders over the line (the first entries of ``finishers``)."""
LOW_LEFT = 6
"""Scalar column: cards in the grey deck 1–3 (its top is the last)."""
HIGH_LEFT = 7
"""Scalar column: cards in the grey deck 4–6."""
LOW_DISCARDS = 8
"""Scalar column: cards in the grey discard pile 1–3."""
HIGH_DISCARDS = 9
"""Scalar column: cards in the grey discard pile 4–6."""
CARDS = 10
"""Scalar column: cards in all hands (the race ends when none are left, SD-9)."""
MOVE = 11
"""Scalar column: actions applied so far (the engine's ``move``)."""
OVER = 12
"""Scalar column: 1 once the last race is scored."""
_SCALARS = 13


class SixDayRaceParams(NamedTuple):
    """One configuration, as the compiled functions read it (see :meth:`SixDayRaceBatch.params`).

    Points tables are padded with zeros to one entry per rider (a place beyond a table pays
    nothing, SD-8, SD-9); hands are counts indexed by card value (index 0 unused); ``plan_*``
    are the engine's shuffle plans of every deck size a grey deck can have.
    """

    players: int
    per: int
    riders: int
    races: int
    line: int
    rider_change: int
    crash: int
    sprints: NDArray[np.int64]
    sprint_points: NDArray[np.int64]
    finish_points: NDArray[np.int64]
    lap_spaces: int
    max_laps: int
    green: NDArray[np.int64]
    green_cards: int
    draw_low: int
    draw_high: int
    low_deck: NDArray[np.int64]
    high_deck: NDArray[np.int64]
    random_first: bool
    best_rule: bool
    scale: int
    point_value: float
    change_bonus: float
    plan_groups: NDArray[np.int64]
    plan_top: NDArray[np.int64]
    plan_bottom: NDArray[np.int64]
    plan_limit: NDArray[np.uint64]


class SixDayRaceStates(NamedTuple):
    """Games in progress, one row per game (the engine's :class:`SixDayRaceState`, in arrays).

    A game's whole state is its row of ``ints`` and of ``bits``: every other field is a view
    into them (:meth:`SixDayRaceBatch.new_states`), so copying those two rows saves or restores
    a game, e.g. for a search. ``scalars`` has the columns :data:`RACE` … :data:`OVER`; ``rng``
    is the state's generator. Per rider: ``positions``, ``hands`` and ``played`` (counts by
    value, index 0 unused), ``hand_sizes``, ``drawn`` (cards from deck 1–3 and 4–6 at its rider
    change, −1 before, SD-6), ``crashed`` (0 or 1, SD-7), ``order`` (this race's turn order,
    SD-4, SD-12), ``queue`` (the final turns, SD-9), ``finishers`` (crossing order), ``places``
    (the last scored race's finish places). Decks are piles whose top is the last card;
    ``green_discards`` counts by value. ``sprint_order[g, k]`` lists the riders over sprint line
    ``k`` in crossing order, ``sprint_counts`` how many (SD-8). Per player: ``laps`` and
    ``points`` over the series, the points in units of ``1 / params.scale``.
    """

    ints: NDArray[np.int64]
    bits: NDArray[np.uint64]
    scalars: NDArray[np.int64]
    rng: NDArray[np.uint64]
    positions: NDArray[np.int64]
    hands: NDArray[np.int64]
    hand_sizes: NDArray[np.int64]
    played: NDArray[np.int64]
    drawn: NDArray[np.int64]
    crashed: NDArray[np.int64]
    order: NDArray[np.int64]
    queue: NDArray[np.int64]
    finishers: NDArray[np.int64]
    places: NDArray[np.int64]
    low_deck: NDArray[np.int64]
    high_deck: NDArray[np.int64]
    low_discards: NDArray[np.int64]
    high_discards: NDArray[np.int64]
    green_discards: NDArray[np.int64]
    sprint_order: NDArray[np.int64]
    sprint_counts: NDArray[np.int64]
    laps: NDArray[np.int64]
    points: NDArray[np.int64]


# -- the generator --------------------------------------------------------------------------------


@_njit(inline=True)
def _below(st: np.uint64, n: int) -> tuple[np.uint64, int]:
    """``Rng.below(n)``: the next state and a uniform integer in ``[0, n)``."""
    un = np.uint64(n)
    rest = (np.uint64(0) - un) % un  # 2**64 % n
    while True:
        st += _GAMMA
        x = _mix(st)
        if rest == 0 or x < np.uint64(0) - rest:
            return st, int(np.int64(x % un))


@_njit(inline=True)
def _shuffle(p: SixDayRaceParams, deck: NDArray[np.int64], n: int, st: np.uint64) -> np.uint64:
    """``Rng.shuffle`` of the first ``n`` cards of ``deck``; returns the generator's state."""
    for g in range(p.plan_groups[n]):
        limit = p.plan_limit[n, g]
        while True:  # a limit of 0 stands for 2**64: nothing to reject
            st += _GAMMA
            x = _mix(st)
            if limit == 0 or x < limit:
                break
        for i in range(p.plan_top[n, g], p.plan_bottom[n, g], -1):
            d = np.uint64(i + 1)
            j = np.int64(x % d)
            x = x // d
            c = deck[i]
            deck[i] = deck[j]
            deck[j] = c
    return st


# -- a race -------------------------------------------------------------------------------------


@_njit(cache=True)
def _start_race(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> None:
    """A race's start, the players in ``order[i, :players]`` (SD-11): hands, decks, places."""
    n, riders = p.players, p.riders
    for k in range(1, p.per):  # SD-12: seats interleave A1 B1 C1 A2 B2 C2
        for j in range(n):
            s.order[i, k * n + j] = s.order[i, j] + k * n
    for r in range(riders):
        s.positions[i, r] = 0
        s.hand_sizes[i, r] = p.green_cards
        s.crashed[i, r] = 0
        s.drawn[i, r, 0] = -1
        s.drawn[i, r, 1] = -1
        for v in range(8):
            s.hands[i, r, v] = p.green[v]  # SD-2: the same green hand for every rider
            s.played[i, r, v] = 0
    for v in range(8):
        s.green_discards[i, v] = 0
    sc = s.scalars
    sc[i, TURN] = 0
    sc[i, CURRENT] = -1
    sc[i, QUEUE_HEAD] = 0
    sc[i, QUEUE_LEN] = -1
    sc[i, FINISHED] = 0
    sc[i, CARDS] = riders * p.green_cards
    # SD-3: both grey decks fresh, shuffled 1-3 first, as the engine does.
    nl, nh = p.low_deck.shape[0], p.high_deck.shape[0]
    for c in range(nl):
        s.low_deck[i, c] = p.low_deck[c]
    for c in range(nh):
        s.high_deck[i, c] = p.high_deck[c]
    st = s.rng[i]
    st = _shuffle(p, s.low_deck[i], nl, st)
    st = _shuffle(p, s.high_deck[i], nh, st)
    s.rng[i] = st
    sc[i, LOW_LEFT] = nl
    sc[i, HIGH_LEFT] = nh
    sc[i, LOW_DISCARDS] = 0
    sc[i, HIGH_DISCARDS] = 0
    for k in range(s.sprint_counts.shape[1]):
        s.sprint_counts[i, k] = 0


@_njit(inline=True)
def _score_race(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> None:
    """Scores the race (SD-8, SD-9, SD-10) into the series totals and ``places``."""
    riders, n, scale = p.riders, p.players, p.scale
    nfin = s.scalars[i, FINISHED]
    for r in range(riders):
        s.places[i, r] = 0
    for k in range(nfin):  # SD-9: the crossers first, in crossing order
        r = s.finishers[i, k]
        s.places[i, r] = k + 1
        s.points[i, r % n] += p.finish_points[k] * scale
    for r in range(riders):
        if s.places[i, r] != 0:
            continue
        # The others by distance to the line; riders tied on it share the best of their places
        # and split those places' points equally (exact: scale is a multiple of the group).
        at = s.positions[i, r]
        ahead = 0
        group = 0
        for q in range(riders):
            if 0 < s.places[i, q] <= nfin:  # crossed (the others' places are above nfin)
                continue
            if s.positions[i, q] > at:
                ahead += 1
            elif s.positions[i, q] == at:
                group += 1
        place = nfin + 1 + ahead
        total = 0
        for k in range(place - 1, place - 1 + group):
            total += p.finish_points[k]
        s.places[i, r] = place
        s.points[i, r % n] += total * (scale // group)
        # SD-10: a lap per lap_spaces spaces short of the line, at most max_laps.
        s.laps[i, r % n] += min(p.max_laps, max(0, p.line - at) // p.lap_spaces)
    for k in range(s.sprint_counts.shape[1]):  # SD-8: the k-th over a sprint line
        for j in range(s.sprint_counts[i, k]):
            s.points[i, s.sprint_order[i, k, j] % n] += p.sprint_points[j] * scale


@_njit(inline=True)
def _next_order(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> None:
    """SD-11 as amended: the next race's players into ``order[i, :players]``. Last place first
    (a two-rider player by the sum or the best of its places, SD-12), ties to more laps lost
    over the series so far, then the previous order. ``queue`` holds the keys meanwhile."""
    n = p.players
    key = s.queue[i]  # free between races
    for j in range(n):
        pl = s.order[i, j]  # the first n riders of an order are the players themselves
        best = s.places[i, pl]
        total = best
        for k in range(1, p.per):
            q = s.places[i, pl + k * n]
            total += q
            best = min(best, q)
        key[pl] = best if p.best_rule else total
    for j in range(1, n):  # insertion sort: stable, so ties keep the previous order
        pl = s.order[i, j]
        m = j
        while m > 0:
            o = s.order[i, m - 1]
            if key[o] < key[pl] or (key[o] == key[pl] and s.laps[i, o] < s.laps[i, pl]):
                s.order[i, m] = o
                m -= 1
            else:
                break
        s.order[i, m] = pl


@_njit(cache=True)
def _end_race(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> bool:
    """The race is over: it is scored (SD-8 to SD-10) and the next dealt with the seats
    reordered (SD-11); returns whether that was the series' last race. (Once a race: not
    inlined into the turns, which keeps the compiled turn small.)"""
    sc = s.scalars
    _score_race(p, s, i)
    race = sc[i, RACE] + 1
    sc[i, RACE] = race
    if race == p.races:
        sc[i, OVER] = 1
        sc[i, CURRENT] = -1
        return True
    _next_order(p, s, i)
    _start_race(p, s, i)
    return False


@_njit(inline=True)
def _next_turn(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> None:
    """The engine's ``_next_turn``: the next rider with a turn, scoring races as they end."""
    sc = s.scalars
    riders = p.riders
    while True:
        if sc[i, QUEUE_LEN] >= 0:  # SD-9: the final turns, one each
            h = sc[i, QUEUE_HEAD]
            if h == sc[i, QUEUE_LEN]:
                ended = True
                r = -1
            else:
                ended = False
                r = s.queue[i, h]
                sc[i, QUEUE_HEAD] = h + 1
        elif sc[i, CARDS] == 0:  # SD-9: no rider has cards left
            ended = True
            r = -1
        else:
            ended = False
            t = sc[i, TURN]
            r = s.order[i, t]
            sc[i, TURN] = t + 1 if t + 1 < riders else 0
        if ended:
            if _end_race(p, s, i):
                return
            continue
        if s.crashed[i, r]:
            s.crashed[i, r] = 0  # SD-7: this turn is the one lost
            continue
        if s.hand_sizes[i, r] == 0:
            continue  # SD-4: a rider without cards passes
        sc[i, CURRENT] = r
        return


# -- the stepping functions ---------------------------------------------------------------------


@_njit(cache=True)
def reset_one(p: SixDayRaceParams, s: SixDayRaceStates, i: int, seed: np.uint64) -> None:
    """Row ``i`` becomes ``SixDayRace.new_initial_state(seed)`` (``seed`` a ``np.uint64``, the
    seed's 64 bits): the first player drawn (SD-4), the first race dealt, the first rider on
    turn."""
    s.rng[i] = seed
    sc = s.scalars
    sc[i, RACE] = 0
    sc[i, MOVE] = 0
    sc[i, OVER] = 0
    for pl in range(p.players):
        s.laps[i, pl] = 0
        s.points[i, pl] = 0
    first = 0
    if p.random_first:
        st, first = _below(s.rng[i], p.players)
        s.rng[i] = st
    for j in range(p.players):
        s.order[i, j] = (first + j) % p.players
    _start_race(p, s, i)
    _next_turn(p, s, i)


@_njit(inline=True, cache=True)
def is_over(s: SixDayRaceStates, i: int) -> bool:
    """Whether game ``i``'s series is over."""
    return bool(s.scalars[i, OVER] != 0)


@_njit(inline=True, cache=True)
def current_player(p: SixDayRaceParams, s: SixDayRaceStates, i: int) -> int:
    """The seat asked to act in game ``i`` (the player of the rider on turn, SD-12), −1 at the
    end."""
    r = s.scalars[i, CURRENT]
    return -1 if r < 0 else int(r % p.players)


@_njit(inline=True, cache=True)
def legal(s: SixDayRaceStates, i: int, out: NDArray[np.int64]) -> int:
    """The engine's legal actions of game ``i`` as action ids into ``out`` (at least
    :data:`ACTIONS` long), in its order (the distinct values of the moving rider's hand, lowest
    first); returns how many. None once the series is over."""
    r = s.scalars[i, CURRENT]
    if r < 0:
        return 0
    count = 0
    for v in range(1, 8):
        if s.hands[i, r, v] > 0:
            out[count] = v - 1
            count += 1
    return count


@_njit(inline=True)
def _discard(s: SixDayRaceStates, i: int, r: int, v: int) -> None:
    """A card of value ``v`` from rider ``r``'s hand goes to its discard pile."""
    if s.drawn[i, r, 0] < 0:  # still the green hand (SD-6 discards it whole)
        s.green_discards[i, v] += 1
    elif v <= 3:
        d = s.scalars[i, LOW_DISCARDS]
        s.low_discards[i, d] = v
        s.scalars[i, LOW_DISCARDS] = d + 1
    else:
        d = s.scalars[i, HIGH_DISCARDS]
        s.high_discards[i, d] = v
        s.scalars[i, HIGH_DISCARDS] = d + 1


@_njit(cache=True)
def _draw(
    p: SixDayRaceParams,
    s: SixDayRaceStates,
    i: int,
    r: int,
    count: int,
    deck: NDArray[np.int64],
    discards: NDArray[np.int64],
    left: int,
    dis: int,
) -> int:
    """Rider ``r`` draws up to ``count`` cards from a grey deck (whose columns are ``left`` and
    ``dis``); SD-3: an empty deck is refilled from its own discards, shuffled. Returns how many
    were drawn."""
    sc = s.scalars
    drawn = 0
    for _ in range(count):
        m = sc[i, left]
        if m == 0:
            m = sc[i, dis]
            if m == 0:
                break
            for c in range(m):
                deck[c] = discards[c]
            sc[i, dis] = 0
            s.rng[i] = _shuffle(p, deck, m, s.rng[i])
        v = deck[m - 1]
        sc[i, left] = m - 1
        s.hands[i, r, v] += 1
        drawn += 1
    return drawn


@_njit(inline=True, cache=True)
def apply(p: SixDayRaceParams, s: SixDayRaceStates, i: int, action: int) -> None:
    """The rider on turn in game ``i`` plays the card of action id ``action`` (a legal one, as
    the engine's ``apply_unchecked``): it moves with the slipstream (SD-5), may cross sprint
    lines (SD-8) and the line (SD-9), change riders (SD-6) or crash (SD-7); then the next rider
    with a turn is found, races being scored and the next dealt on the way (SD-9, SD-11)."""
    sc = s.scalars
    v = action + 1
    r = sc[i, CURRENT]
    riders = p.riders
    s.hands[i, r, v] -= 1
    s.hand_sizes[i, r] -= 1
    sc[i, CARDS] -= 1
    s.played[i, r, v] += 1
    sc[i, MOVE] += 1
    _discard(s, i, r, v)
    start = s.positions[i, r]
    first = start + v
    others = 0
    for q in range(riders):  # SD-5: the other riders on the first space reached (never the
        if s.positions[i, q] == first:  # mover itself: a card moves at least one space)
            others += 1
    dest = first
    if others > 0 and first != p.rider_change and first != p.crash:
        dest = first + others * v
    s.positions[i, r] = dest
    for k in range(p.sprints.shape[0]):
        line = p.sprints[k]
        if start < line <= dest:  # SD-8: the crossing order at each sprint line
            c = s.sprint_counts[i, k]
            s.sprint_order[i, k, c] = r
            s.sprint_counts[i, k] = c + 1
    if dest >= p.line:
        f = sc[i, FINISHED]
        s.finishers[i, f] = r
        sc[i, FINISHED] = f + 1
        if sc[i, QUEUE_LEN] < 0:
            # SD-9: every other rider gets exactly one more turn, in seat order.
            at = 0
            while s.order[i, at] != r:
                at += 1
            for j in range(1, riders):
                s.queue[i, j - 1] = s.order[i, (at + j) % riders]
            sc[i, QUEUE_HEAD] = 0
            sc[i, QUEUE_LEN] = riders - 1
    elif dest == p.rider_change:
        # SD-6: the whole hand is discarded (lowest first, the engine's hand order), then
        # cards are drawn from deck 1-3 and deck 4-6.
        for w in range(1, 8):
            for _ in range(s.hands[i, r, w]):
                _discard(s, i, r, w)
            s.hands[i, r, w] = 0
        sc[i, CARDS] -= s.hand_sizes[i, r]
        low = _draw(
            p, s, i, r, p.draw_low, s.low_deck[i], s.low_discards[i], LOW_LEFT, LOW_DISCARDS
        )
        high = _draw(
            p, s, i, r, p.draw_high, s.high_deck[i], s.high_discards[i], HIGH_LEFT, HIGH_DISCARDS
        )
        s.drawn[i, r, 0] = low
        s.drawn[i, r, 1] = high
        s.hand_sizes[i, r] = low + high
        sc[i, CARDS] += low + high
    elif dest == p.crash:
        s.crashed[i, r] = 1  # SD-7
    _next_turn(p, s, i)


@_njit(inline=True, cache=True)
def standings(p: SixDayRaceParams, s: SixDayRaceStates, i: int, ranks: NDArray[np.int64]) -> None:
    """SD-11: every player's rank into ``ranks`` — fewest laps lost, then most points (a
    one-race game on points alone); ties share a rank (1, 1, 3), as ``series_ranks``."""
    n = p.players
    for a in range(n):
        la = s.laps[i, a] if p.races > 1 else 0
        rank = 1
        for b in range(n):
            lb = s.laps[i, b] if p.races > 1 else 0
            if lb < la or (lb == la and s.points[i, b] > s.points[i, a]):
                rank += 1
        ranks[a] = rank


@_njit(cache=True)
def _standings(p: SixDayRaceParams, s: SixDayRaceStates, i: int, ranks: NDArray[np.int64]) -> None:
    """:func:`standings`, not inlined (once a game)."""
    standings(p, s, i, ranks)


@_njit(inline=True, cache=True)
def returns(p: SixDayRaceParams, s: SixDayRaceStates, i: int, out: NDArray[np.float64]) -> None:
    """Every player's reward into ``out``, as the learning environments give it: a winner's
    share ``1 / len(winners)`` (SD-11), else 0; all 0 before the end."""
    n = p.players
    winners = 0
    for a in range(n):
        out[a] = 0.0
        if s.scalars[i, OVER] != 0 and _first(p, s, i, a):
            winners += 1
    for a in range(n):
        if winners and _first(p, s, i, a):
            out[a] = 1.0 / winners


@_njit(inline=True)
def _first(p: SixDayRaceParams, s: SixDayRaceStates, i: int, a: int) -> bool:
    """Whether nobody ranks before player ``a`` (SD-11)."""
    la = s.laps[i, a] if p.races > 1 else 0
    for b in range(p.players):
        lb = s.laps[i, b] if p.races > 1 else 0
        if lb < la or (lb == la and s.points[i, b] > s.points[i, a]):
            return False
    return True


@_njit(inline=True, cache=True)
def heuristic_scores(
    p: SixDayRaceParams,
    s: SixDayRaceStates,
    i: int,
    actions: NDArray[np.int64],
    count: int,
    out: NDArray[np.float64],
) -> None:
    """``SixDayRaceHeuristicBot._score`` of each of the ``count`` legal ``actions`` into
    ``out``, in the bot's very floating-point steps (so its ties are the bot's ties)."""
    sc = s.scalars
    r = sc[i, CURRENT]
    riders = p.riders
    start = s.positions[i, r]
    size = s.hand_sizes[i, r]
    total = 0
    for w in range(1, 8):
        total += w * s.hands[i, r, w]
    last_turn = sc[i, QUEUE_LEN] >= 0
    for a in range(count):
        v = actions[a] + 1
        first = start + v
        others = 0
        for q in range(riders):
            if q != r and s.positions[i, q] == first:
                others += 1
        dest = first
        if others > 0 and first != p.rider_change and first != p.crash:
            dest = first + others * v
        score = float(dest - first)  # the slipstream bonus (SD-5)
        if last_turn:
            score += dest  # the last move: every space counts (SD-9)
        for k in range(p.sprints.shape[0]):
            line = p.sprints[k]
            if start < line <= dest:  # (a place beyond the table pays 0: adding 0.0 is exact)
                score += p.point_value * p.sprint_points[s.sprint_counts[i, k]]
        if dest >= p.line:
            score += p.point_value * p.finish_points[sc[i, FINISHED]]
            score += 4.0  # no laps lost
        elif dest == p.rider_change:
            score += p.change_bonus - (total - v)
        elif dest == p.crash:
            score -= _CRASH_COST
        if v == _BIG_CARD and not score > 0 and size > 1:
            score -= 1.0  # keep the 7 for a move where it counts
        else:
            score += 0.1 * v
        out[a] = score


@_njit(cache=True)
def _heuristic_pick(
    p: SixDayRaceParams,
    s: SixDayRaceStates,
    i: int,
    actions: NDArray[np.int64],
    count: int,
    scores: NDArray[np.float64],
    best: NDArray[np.int64],
    pol: NDArray[np.uint64],
    scripted: bool,
    choices: NDArray[np.uint32],
    b: int,
) -> int:
    """The heuristic bot's choice, as an index into ``actions``: one of the cards scoring
    within the tolerance of the best, in legal order, uniformly."""
    heuristic_scores(p, s, i, actions, count, scores)
    top = scores[0]
    for a in range(1, count):
        top = max(top, scores[a])
    nbest = 0
    for a in range(count):
        if scores[a] >= top - _TIE:
            best[nbest] = a
            nbest += 1
    if nbest == 1 and not scripted:
        return int(best[0])
    return int(best[_pick(nbest, pol, scripted, choices, b)])


# -- whole games ----------------------------------------------------------------------------------


@_njit(cache=True)
def _run(
    p: SixDayRaceParams,
    s: SixDayRaceStates,
    seeds: NDArray[np.uint64],
    policies: NDArray[np.int64],
    scripted: bool,
    choices: NDArray[np.uint32],
    record: bool,
    laps_out: NDArray[np.int32],
    points_out: NDArray[np.float64],
    ranks_out: NDArray[np.int8],
    winners_out: NDArray[np.bool_],
    decisions_out: NDArray[np.int64],
    taken_out: NDArray[np.int8],
    seats_out: NDArray[np.int8],
    legal_out: NDArray[np.uint8],
    acts: NDArray[np.int64],
    scores: NDArray[np.float64],
    best: NDArray[np.int64],
    ranks: NDArray[np.int64],
    pol: NDArray[np.uint64],
) -> None:
    """Plays game after game in row 0 of ``s`` (one game's state, which stays in the
    first-level cache); the last five arrays are scratch."""
    n = p.players
    for b in range(seeds.shape[0]):
        seed = seeds[b]
        reset_one(p, s, 0, seed)
        pol[0] = _derive(seed, _ONE)  # the policy's own stream, never the game's generator
        pol[2] = 0
        pol[3] = 0
        dk = 0
        while s.scalars[0, OVER] == 0:
            count = legal(s, 0, acts)
            seat = s.scalars[0, CURRENT] % n
            if policies[seat] == RANDOM:
                a = _pick(count, pol, scripted, choices, b)
            else:
                a = _heuristic_pick(p, s, 0, acts, count, scores, best, pol, scripted, choices, b)
            if record:
                taken_out[b, dk] = a
                seats_out[b, dk] = seat
                m = 0
                for k in range(count):
                    m |= 1 << acts[k]
                legal_out[b, dk] = m
            dk += 1
            apply(p, s, 0, acts[a])
        decisions_out[b] = dk
        _standings(p, s, 0, ranks)
        for pl in range(n):
            laps_out[b, pl] = s.laps[0, pl]
            points_out[b, pl] = s.points[0, pl] / p.scale
            ranks_out[b, pl] = ranks[pl]
            winners_out[b, pl] = ranks[pl] == 1


# -- the Python face ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """What a batch of series came to; row ``i`` is game ``i``, columns are players.

    ``laps`` (int32): laps lost over the series (SD-10, SD-11); ``points`` (float64): points
    over the series (SD-8, SD-9), equal to the engine's ``Outcome.scores``; ``ranks`` (int8) and
    ``winners`` (bool): SD-11 (fewest laps lost, then most points, a one-race game on points;
    shared ranks); ``moves`` (int64): the decisions each game asked for; ``seeds`` (uint64):
    each game's seed. Recorded only when asked for (else ``None``), games ×
    :attr:`SixDayRaceBatch.max_decisions`, in asking order: ``decisions`` (int8), every
    decision's index into the legal actions of the moment, −1 after the last; ``seats`` (int8),
    the seat asked, −1 after the last; ``legal`` (uint8), the legal actions as a bit set of
    action ids (bit ``v - 1`` for a card of value ``v``), 0 after the last.
    """

    seeds: NDArray[np.uint64]
    laps: NDArray[np.int32]
    points: NDArray[np.float64]
    ranks: NDArray[np.int8]
    winners: NDArray[np.bool_]
    moves: NDArray[np.int64]
    decisions: NDArray[np.int8] | None
    seats: NDArray[np.int8] | None
    legal: NDArray[np.uint8] | None

    @property
    def games(self) -> int:
        """Number of games."""
        return int(self.seeds.shape[0])

    def win_shares(self) -> NDArray[np.float64]:
        """Each player's share of the wins, a shared win split equally (as the engine's
        simulation summaries count them)."""
        return win_shares(self.winners)


class SixDayRaceBatch:
    """Plays many series of one configuration (see the module docstring)."""

    def __init__(self, config: SixDayRaceConfig) -> None:
        config.validate()
        self.config = config
        self.players = config.players
        self.riders = config.rider_count
        self._params = _params(config)

    @property
    def params(self) -> SixDayRaceParams:
        """The configuration as the compiled functions read it."""
        return self._params

    @property
    def max_decisions(self) -> int:
        """Most decisions one series asks for (every rider plays its green hand and its rider
        change's draw in every race, as ``encoding.action_encoding`` counts): the columns
        ``choices`` needs."""
        cfg = self.config
        return cfg.races * self.riders * (sum(cfg.green_counts) + sum(cfg.change_draw))

    def seeds(self, games: int, seed: int) -> NDArray[np.uint64]:
        """``derive_seed(seed, i)`` for ``i < games``: the seeds of a simulation's games."""
        return _seeds(np.uint64(seed & _MASK64), games)

    def new_states(self, games: int) -> SixDayRaceStates:
        """Room for ``games`` games (rows to :func:`reset_one` before use): one row of ``ints``
        and one of ``bits`` per game, every other field a view into them."""
        p, cfg = self._params, self.config
        riders, n = self.riders, self.players
        low, high = max(1, p.low_deck.shape[0]), max(1, p.high_deck.shape[0])
        lines = max(1, len(cfg.sprints))
        shapes: dict[str, tuple[int, ...]] = {
            "scalars": (_SCALARS,),
            "positions": (riders,),
            "hands": (riders, 8),
            "hand_sizes": (riders,),
            "played": (riders, 8),
            "drawn": (riders, 2),
            "crashed": (riders,),
            "order": (riders,),
            "queue": (riders,),
            "finishers": (riders,),
            "places": (riders,),
            "low_deck": (low,),
            "high_deck": (high,),
            "low_discards": (low,),
            "high_discards": (high,),
            "green_discards": (8,),
            "sprint_order": (lines, riders),
            "sprint_counts": (lines,),
            "laps": (n,),
            "points": (n,),
        }
        width = sum(math.prod(shape) for shape in shapes.values())
        ints = np.zeros((games, width), np.int64)
        bits = np.zeros((games, 1), np.uint64)
        views: dict[str, NDArray[np.int64]] = {}
        at = 0
        for name, shape in shapes.items():
            size = math.prod(shape)
            views[name] = ints[:, at : at + size].reshape((games, *shape))
            at += size
        return SixDayRaceStates(ints=ints, bits=bits, rng=bits[:, 0], **views)

    def compile_stepping(self) -> None:
        """Compile the stepping functions called from Python (Numba's cache keeps them:
        ``racedeck compile``): one game stepped to its end with each of them, in a batch of
        two (a batch of one has other array types, contiguous views)."""
        p, s = self._params, self.new_states(2)
        acts = np.zeros(ACTIONS, np.int64)
        scores = np.zeros(ACTIONS, np.float64)
        reset_one(p, s, 0, np.uint64(0))
        while not is_over(s, 0):
            current_player(p, s, 0)
            count = legal(s, 0, acts)
            heuristic_scores(p, s, 0, acts, count, scores)
            apply(p, s, 0, int(acts[0]))
        standings(p, s, 0, np.zeros(self.players, np.int64))
        returns(p, s, 0, np.zeros(self.players, np.float64))

    def play(
        self,
        games: int | Sequence[int] | NDArray[np.uint64],
        seed: int = 0,
        policies: str | Sequence[str] = "random",
        choices: NDArray[np.uint32] | None = None,
        record: bool = False,
    ) -> BatchResult:
        """Play whole series.

        ``games``: how many (game ``i`` is dealt by ``derive_seed(seed, i)``), or the seeds
        themselves. ``policies``: one policy name for every seat or one per seat
        (:data:`POLICIES`). ``choices`` (games × at least :attr:`max_decisions`, uint32):
        scripted play instead of random draws. ``record``: also keep every decision
        (:class:`BatchResult`).
        """
        seeds = batch_seeds(games, seed, self.seeds)
        count = int(seeds.shape[0])
        codes = policy_codes(policies, self.players)
        scripted = choices is not None
        script = script_of(choices, count, self.max_decisions)
        n = self.players
        laps = np.zeros((count, n), np.int32)
        points = np.zeros((count, n), np.float64)
        ranks = np.zeros((count, n), np.int8)
        winners = np.zeros((count, n), np.bool_)
        moves = np.zeros(count, np.int64)
        shape = (count, self.max_decisions) if record else (1, 1)
        taken = np.full(shape, -1, np.int8)
        asked = np.full(shape, -1, np.int8)
        masks = np.zeros(shape, np.uint8)
        _run(
            self._params,
            self.new_states(1),
            seeds,
            codes,
            scripted,
            script,
            record,
            laps,
            points,
            ranks,
            winners,
            moves,
            taken,
            asked,
            masks,
            np.zeros(ACTIONS, np.int64),
            np.zeros(ACTIONS, np.float64),
            np.zeros(ACTIONS, np.int64),
            np.zeros(n, np.int64),
            np.zeros(4, np.uint64),
        )
        if not record:
            return BatchResult(seeds, laps, points, ranks, winners, moves, None, None, None)
        return BatchResult(seeds, laps, points, ranks, winners, moves, taken, asked, masks)


def shuffle_plans(
    most: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.uint64]]:
    """The engine's shuffle plans of every deck size up to ``most``: per size its number of
    groups, and each group's Fisher–Yates steps ``top .. bottom + 1`` cut from one 64-bit draw
    below its limit (as :meth:`racedeck.core.rng.Rng.shuffle` does; a limit of 2**64, where
    nothing is rejected, is written 0)."""
    plans = []
    for n in range(most + 1):
        groups = []
        i = n - 1
        while i > 0:
            radix, k = 1, i
            while k > 0 and radix * (k + 1) <= _GROUP_LIMIT:
                radix *= k + 1
                k -= 1
            groups.append((i, k, ((1 << 64) - ((1 << 64) % radix)) & _MASK64))
            i = k
        plans.append(groups)
    width = max(1, max(len(g) for g in plans))
    count = np.array([len(g) for g in plans], np.int64)
    top = np.zeros((most + 1, width), np.int64)
    bottom = np.zeros((most + 1, width), np.int64)
    limit = np.zeros((most + 1, width), np.uint64)
    for n, groups in enumerate(plans):
        for g, (t, b, lim) in enumerate(groups):
            top[n, g], bottom[n, g], limit[n, g] = t, b, lim
    return count, top, bottom, limit


def _padded(points: Sequence[int], riders: int) -> NDArray[np.int64]:
    """A points table with one entry per place a rider can take (0 beyond the rules' list)."""
    out = np.zeros(riders, np.int64)
    k = min(len(points), riders)
    out[:k] = points[:k]
    return out


def _params(cfg: SixDayRaceConfig) -> SixDayRaceParams:
    """The configuration as the compiled functions read it."""
    riders = cfg.rider_count
    low = np.array([v for v, k in enumerate(cfg.grey_low, 1) for _ in range(k)], np.int64)
    high = np.array([v for v, k in enumerate(cfg.grey_high, 4) for _ in range(k)], np.int64)
    groups, top, bottom, limit = shuffle_plans(max(low.shape[0], high.shape[0]))
    green = np.zeros(8, np.int64)
    green[1:] = cfg.green_counts
    draw_low, draw_high = cfg.change_draw
    return SixDayRaceParams(
        players=cfg.players,
        per=cfg.riders_per_player,
        riders=riders,
        races=cfg.races,
        line=cfg.line,
        rider_change=cfg.rider_change,
        crash=cfg.crash,
        sprints=np.array(cfg.sprints, np.int64),
        sprint_points=_padded(cfg.sprint_points, riders),
        finish_points=_padded(cfg.finish_points, riders),
        lap_spaces=cfg.lap_spaces,
        max_laps=cfg.max_laps_lost,
        green=green,
        green_cards=int(green.sum()),
        draw_low=draw_low,
        draw_high=draw_high,
        low_deck=low,
        high_deck=high,
        random_first=cfg.random_first,
        best_rule=cfg.two_rider_order == "best",
        scale=math.lcm(*range(1, riders + 1)),  # every group of tied riders divides it (SD-9)
        point_value=2.0 if cfg.races == 1 else 0.6,  # the heuristic bot's weight of points
        change_bonus=draw_low * _MEAN_LOW + draw_high * _MEAN_HIGH,
        plan_groups=groups,
        plan_top=top,
        plan_bottom=bottom,
        plan_limit=limit,
    )
