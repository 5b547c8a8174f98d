"""*Six Day Race* as a step kernel (:class:`~racedeck.kernels.batch.StepKernel`): the compiled
rules of :mod:`racedeck.kernels.six_day_race` in the shape every game's kernel has, and the
game's observation encoding compiled.

The rules are that module's own functions (``reset_one``, ``legal``, ``apply`` …), called on
the named views of a batch's rows (:class:`~racedeck.kernels.six_day_race.SixDayRaceStates`,
made for the batch by :meth:`~racedeck.kernels.six_day_race.SixDayRaceBatch.new_states`).
:func:`observe` writes the encoding of :mod:`racedeck.rl.observations.six_day_race` from the
public fields and the observing player's own riders' hands only — what that player's view holds
(the grey decks' order and the other riders' hands are never read): the differential tests
compare it with the encoder of the seat's view at every decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.kernels import six_day_race as sdr
from racedeck.kernels.batch import StepKernel, put_clipped

__all__ = ["WHOLE_GAMES", "kernel", "observation_size"]

WHOLE_GAMES = sdr.SixDayRaceBatch
"""The game's whole-game batch (simulation): ``racedeck compile`` compiles it with the rest."""

# The observation's scales (racedeck.rl.observations.six_day_race), in `consts`.
_MOST_CARDS, _GREEN_DEALT, _LOW_SIZE, _HIGH_SIZE, _MOST_LAPS, _MOST_POINTS, _SPRINTS = range(7)

Tables = tuple[Any, ...]
"""``(params, states, consts, acts, scores, pol, best, script)``: the configuration, the batch's
named views, the observation's scales, and scratch for the legal actions, the bot's scores, its
stream, its best cards and an empty script (these functions make no array: see
:func:`racedeck.kernels.six_day_race._njit`)."""


def _consts(cfg: SixDayRaceConfig) -> NDArray[np.int64]:
    riders = cfg.rider_count
    sprints = len(cfg.sprints)
    per_race = max(cfg.finish_points, default=0) + sprints * max(cfg.sprint_points, default=0)
    out = np.zeros(7, np.int64)
    out[_MOST_CARDS] = max(sum(cfg.green_counts), sum(cfg.change_draw), 1)
    out[_GREEN_DEALT] = riders * sum(cfg.green_counts)
    out[_LOW_SIZE] = sum(cfg.grey_low)
    out[_HIGH_SIZE] = sum(cfg.grey_high)
    out[_MOST_LAPS] = cfg.max_laps_lost * cfg.races
    out[_MOST_POINTS] = per_race * cfg.races * cfg.riders_per_player
    out[_SPRINTS] = sprints
    return out


def observation_size(cfg: SixDayRaceConfig) -> int:
    """The length of the encoding for ``cfg``."""
    n, r, v, per = cfg.players, cfg.rider_count, sdr.ACTIONS, cfg.riders_per_player
    return n + 2 + r * 4 + per * v + r + 2 + 13 + r * v + r + len(cfg.sprints) * r + r * 3 + n * 2


@sdr._njit(cache=True)
def reset_one(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, seed: np.uint64, t: Tables
) -> None:
    """Game ``i`` becomes ``SixDayRace.new_initial_state(seed)``."""
    sdr.reset_one(t[0], t[1], i, seed)


@sdr._njit(cache=True)
def current_player(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """The player of the rider on turn (SD-4, SD-12), -1 once the series is over."""
    return sdr.current_player(t[0], t[1], i)


@sdr._njit(cache=True)
def legal(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, mask: NDArray[np.bool_]
) -> int:
    """The distinct values of the moving rider's hand, as a mask over the 7 card values."""
    mask[:] = False
    acts = t[3]
    count = sdr.legal(t[1], i, acts)
    for k in range(count):
        mask[acts[k]] = True
    return int(count)


@sdr._njit(cache=True)
def apply(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, action: int, t: Tables
) -> None:
    """The rider on turn plays the card of value ``action + 1``; the series runs on to the next
    decision or its end."""
    sdr.apply(t[0], t[1], i, action)


@sdr._njit(cache=True)
def rewards(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.float32]
) -> None:
    """Each winner's share of the win once the series is over (SD-11), else 0."""
    share = t[4]
    sdr.returns(t[0], t[1], i, share)
    for a in range(out.shape[0]):
        out[a] = share[a]


@sdr._njit(cache=True)
def heuristic_action(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    mask: NDArray[np.bool_],
    count: int,
    t: Tables,
    streams: NDArray[np.uint64],
) -> int:
    """:class:`~racedeck.bots.six_day_race.SixDayRaceHeuristicBot`'s card (its scores and
    ties, :mod:`racedeck.kernels.six_day_race`), a tie drawn from ``streams[i]``."""
    p, s, _, acts, scores, pol, best, script = t
    count = sdr.legal(s, i, acts)
    pol[0] = streams[i]
    pol[2] = 0  # no spare half-word from another game's draw
    a = sdr._heuristic_pick(p, s, i, acts, count, scores, best, pol, False, script, 0)
    streams[i] = pol[0]
    return int(acts[a])


@sdr._njit(cache=True)
def observe(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: Tables,
    out: NDArray[np.float32],
) -> None:
    """``seat``'s observation of game ``i`` (``out``, one row): the encoding of
    :mod:`racedeck.rl.observations.six_day_race`, field by field in its order."""
    p, s, c = t[0], t[1], t[2]
    n, riders, per = p.players, p.riders, p.per
    sc = s.scalars
    most = float(c[_MOST_CARDS])
    out[:] = 0.0
    at = 0
    out[at + seat] = 1.0
    at += n
    put_clipped(out, at, sc[i, sdr.RACE] / p.races)
    out[at + 1] = 1.0 if sc[i, sdr.QUEUE_LEN] >= 0 else 0.0  # the final turns (SD-9)
    at += 2
    for r in range(riders):
        put_clipped(out, at + r, s.positions[i, r] / p.line if p.line > 0 else 0.0)
    at += riders
    for r in range(riders):
        out[at + r] = 1.0 if s.crashed[i, r] else 0.0
    at += riders
    current = sc[i, sdr.CURRENT]
    if current >= 0:
        out[at + current] = 1.0
    at += riders
    for r in range(riders):
        out[at + r] = 1.0 if r % n == seat else 0.0
    at += riders
    for k in range(per):
        r = seat + k * n
        for v in range(1, 8):
            put_clipped(out, at + v - 1, s.hands[i, r, v] / most)
        at += 7
    for r in range(riders):
        put_clipped(out, at + r, s.hand_sizes[i, r] / most)
    at += riders
    low, high = max(c[_LOW_SIZE], 1), max(c[_HIGH_SIZE], 1)
    put_clipped(out, at, sc[i, sdr.LOW_LEFT] / low)
    put_clipped(out, at + 1, sc[i, sdr.HIGH_LEFT] / high)
    at += 2
    green = max(c[_GREEN_DEALT], 1)
    for v in range(1, 8):
        put_clipped(out, at + v - 1, s.green_discards[i, v] / green)
    at += 7
    for k in range(sc[i, sdr.LOW_DISCARDS]):
        out[at + s.low_discards[i, k] - 1] += 1.0
    for v in range(3):
        put_clipped(out, at + v, out[at + v] / low)
    at += 3
    for k in range(sc[i, sdr.HIGH_DISCARDS]):
        out[at + s.high_discards[i, k] - 4] += 1.0
    for v in range(3):
        put_clipped(out, at + v, out[at + v] / high)
    at += 3
    for r in range(riders):
        for v in range(1, 8):
            put_clipped(out, at + v - 1, s.played[i, r, v] / most)
        at += 7
    for r in range(riders):
        out[at + r] = 1.0 if s.drawn[i, r, 0] >= 0 else 0.0  # had its rider change (SD-6)
    at += riders
    for k in range(c[_SPRINTS]):
        for place in range(s.sprint_counts[i, k]):
            put_clipped(out, at + s.sprint_order[i, k, place], (place + 1) / riders)
        at += riders
    for place in range(sc[i, sdr.FINISHED]):
        put_clipped(out, at + s.finishers[i, place], (place + 1) / riders)
    at += riders
    if sc[i, sdr.QUEUE_LEN] >= 0:
        for k in range(sc[i, sdr.QUEUE_HEAD], sc[i, sdr.QUEUE_LEN]):
            out[at + s.queue[i, k]] = 1.0
    at += riders
    for place in range(riders):
        put_clipped(out, at + s.order[i, place], (place + 1) / riders)
    at += riders
    for a in range(n):
        put_clipped(out, at + a, s.laps[i, a] / max(c[_MOST_LAPS], 1))
    at += n
    for a in range(n):
        put_clipped(out, at + a, (s.points[i, a] / p.scale) / max(c[_MOST_POINTS], 1))


def kernel(config: SixDayRaceConfig) -> StepKernel:
    """The step kernel of ``config``."""
    batch = sdr.SixDayRaceBatch(config)
    params = batch.params
    consts = _consts(config)

    def arrays(games: int) -> tuple[NDArray[np.int64], NDArray[np.uint64], Tables]:
        states = batch.new_states(games)
        scratch = (
            np.zeros(8, np.int64),
            np.zeros(8, np.float64),
            np.zeros(4, np.uint64),
            np.zeros(8, np.int64),
            np.zeros((1, 1), np.uint32),
        )
        return states.ints, states.bits, (params, states, consts, *scratch)

    return StepKernel(
        players=config.players,
        num_actions=sdr.ACTIONS,
        observation_size=observation_size(config),
        arrays=arrays,
        reset_one=reset_one,
        current_player=current_player,
        legal=legal,
        apply=apply,
        observe=observe,
        rewards=rewards,
        heuristic_action=heuristic_action,
    )
