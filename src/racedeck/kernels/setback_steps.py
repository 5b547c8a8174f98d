"""*Setback* as a step kernel (:class:`~racedeck.kernels.batch.StepKernel`): the compiled rules
of :mod:`racedeck.kernels.setback` in the shape every game's kernel has, and the game's
observation encoding compiled.

A game is one row of the kernel's ``int64`` states (the ``bits`` rows are unused). The rules are
that module's own functions on the row; :func:`observe` writes the encoding of
:mod:`racedeck.rl.observations.setback` from the public fields and the observing player's own
hand only — what that player's view holds: never another hand, the draw pile's order, who is
asked in a BLOCK window or who has answered (SB-9 amended twice). The differential tests compare
it with the encoder of the seat's view at every decision.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.setback import Setback
from racedeck.games.setback.cards import DeckIndex
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.encoding import action_encoding
from racedeck.kernels import setback as sb
from racedeck.kernels.batch import StepKernel, put_clipped

__all__ = ["WHOLE_GAMES", "kernel", "observation_size"]

WHOLE_GAMES = sb.SetbackBatch
"""The game's whole-game batch (simulation): ``racedeck compile`` compiles it with the rest."""

# The observation's sizes and scales (racedeck.rl.observations.setback), in `consts`.
_KINDS, _ROWS0, _MAX_LANES, _DECK, _SKIPS, _BLOCKS, _HAND, _MOST_HELD = range(8)

Tables = tuple[Any, ...]
"""``(k, consts, in_deck, buf, out, scores, ranks, worth, vals, best, pol, none)``: the
kernel's table, the observation's sizes, each type's count in the deck, the heuristic's card
worths, and scratch (these functions make no array)."""

_WINDOW = 2  # the kernel's phases: board, hand, window, step, over


def observation_size(cfg: SetbackConfig) -> int:
    """The length of the encoding for ``cfg``."""
    n, k = cfg.players, len(DeckIndex(cfg.card_types()).types)
    size = n + n + 5 + 2 + cfg.rows * cfg.max_lanes * k + 2
    size += n * (cfg.rows + 3 + cfg.max_lanes) + k + n + 1 + k + 2 * n + 2
    return size + 2 + n + k + n


@sb._jit(cache=True)
def reset_one(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, seed: np.uint64, t: Tables
) -> None:
    """Game ``i`` becomes ``Setback.new_initial_state(seed)``, run to its first decision."""
    sb._reset(t[0], ints[i], seed, t[3])


@sb._jit(cache=True)
def current_player(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """The seat asked now (in a BLOCK window, the first still asked in seating order from the
    player on turn), -1 once the game is over."""
    return int(sb._current(t[0], ints[i]))


@sb._jit(cache=True)
def legal(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, mask: NDArray[np.bool_]
) -> int:
    """The engine's legal actions of the seat asked, as a mask over the action encoding."""
    mask[:] = False
    if sb._current(t[0], ints[i]) < 0:
        return 0
    out = t[4]
    count = sb._legal(t[0], ints[i], out)
    for a in range(count):
        mask[out[a]] = True
    return int(count)


@sb._jit(cache=True)
def apply(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, action: int, t: Tables
) -> None:
    """The seat asked takes ``action``; the game runs on to the next decision or its end."""
    sb._apply(t[0], ints[i], action, t[3])


@sb._jit(cache=True)
def rewards(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.float32]
) -> None:
    """Each winner's share of the win once the game is over (rank 1: the first at FINISH, or
    everyone farthest after ``max_moves``), else 0."""
    out[:] = 0.0
    if sb._current(t[0], ints[i]) >= 0:
        return
    ranks = t[6]
    sb._returns(t[0], ints[i], t[5], ranks)
    won = 0
    for q in range(out.shape[0]):
        if ranks[q] == 1:
            won += 1
    for q in range(out.shape[0]):
        if ranks[q] == 1:
            out[q] = 1.0 / won


@sb._jit(cache=True)
def heuristic_action(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    mask: NDArray[np.bool_],
    count: int,
    t: Tables,
    streams: NDArray[np.uint64],
) -> int:
    """:class:`~racedeck.bots.setback.SetbackHeuristicBot`'s choice (its scores and ties, and
    its BLOCK-or-pass answer in a window: :mod:`racedeck.kernels.setback`), a tie drawn from
    ``streams[i]``."""
    k, acts = t[0], t[4]
    w, vals, best, pol, none = t[7], t[8], t[9], t[10], t[11]
    nl = sb._legal(k, ints[i], acts)
    pol[0] = streams[i]
    pol[2] = 0  # no spare half-word from another game's draw
    a = sb._heuristic(k, w, ints[i], acts, nl, vals, best, pol, False, 0, none)
    streams[i] = pol[0]
    return int(acts[a])


@sb._jit(cache=True)
def observe(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: Tables,
    out: NDArray[np.float32],
) -> None:
    """``seat``'s observation of game ``i`` (``out``, one row): the encoding of
    :mod:`racedeck.rl.observations.setback`, field by field in its order."""
    k, c, in_deck = t[0], t[1], t[2]
    s = ints[i]
    n = k[sb.K_N]
    kinds, rows0, lanes0 = c[_KINDS], c[_ROWS0], c[_MAX_LANES]
    hand_tid = k[sb.K_T_HAND_TID]
    out[:] = 0.0
    at = 0
    out[at + seat] = 1.0
    at += n
    phase = s[sb.F_PHASE]
    if phase != sb.OVER:
        out[at + s[sb.F_CURRENT]] = 1.0
    at += n
    out[at + phase] = 1.0
    at += 5
    source = s[sb.F_SOURCE]
    if source == sb.SRC_BOARD or source == sb.SRC_HAND:
        out[at + source - 1] = 1.0
    at += 2
    rows, lanes = s[sb.F_ROWS], s[sb.F_LANES]
    for r in range(rows0):
        for ln in range(lanes0):
            if r < rows and ln < lanes:
                card = s[k[sb.S_GRID] + r * sb._ML + ln]
                out[at + k[hand_tid + card]] = 1.0
            at += kinds
    put_clipped(out, at, s[sb.F_ROWS_REMOVED] / rows0)
    put_clipped(out, at + 1, lanes / lanes0)
    at += 2
    for q in range(n):
        row, lane = s[k[sb.S_ROW] + q], s[k[sb.S_LANE] + q]
        place = 0 if row < 0 else rows0 + 1 if row >= rows else row + 1
        out[at + place] = 1.0
        at += rows0 + 2
        if 0 <= row < rows and 0 <= lane < lanes0:
            out[at + lane] = 1.0
        at += lanes0
        on_board = 0 <= row < rows and lane >= 0
        if on_board and k[k[sb.K_T_IS_BLOCK] + s[k[sb.S_GRID] + row * sb._ML + lane]]:
            out[at] = 1.0  # on a BLOCK: protected (SB-5, SB-9)
        at += 1
    cap = k[sb.K_HAND_CAP]
    for j in range(s[k[sb.S_NHAND] + seat]):
        card = s[k[sb.S_HANDS] + seat * cap + j]
        out[at + k[hand_tid + card]] += 1.0
    for j in range(kinds):
        put_clipped(out, at + j, out[at + j] / c[_HAND])
    at += kinds
    for q in range(n):
        put_clipped(out, at + q, s[k[sb.S_NHAND] + q] / c[_MOST_HELD])
    at += n
    put_clipped(out, at, s[sb.F_NDRAW] / c[_DECK])
    at += 1
    for j in range(s[sb.F_NDISCARD]):
        out[at + k[hand_tid + s[k[sb.S_DISCARD] + j]]] += 1.0
    for j in range(kinds):
        put_clipped(out, at + j, out[at + j] / in_deck[j] if in_deck[j] else 0.0)
    at += kinds
    for q in range(n):
        put_clipped(out, at + q, s[k[sb.S_NSKIP] + q] / max(c[_SKIPS], 1))
    at += n
    for q in range(n):
        out[at + q] = 1.0 if s[k[sb.S_SPENT] + q] else 0.0
    at += n
    put_clipped(out, at, s[sb.F_HAND_PLAYED] / c[_HAND])
    out[at + 1] = 1.0 if s[sb.F_NONFREE] else 0.0
    window = phase == _WINDOW  # a declared card is on the stack only while its window is open
    out[at + 2] = 1.0 if window else 0.0
    at += 3
    if window:
        put_clipped(out, at, s[sb.F_NBLOCKS] / max(c[_BLOCKS], 1))
    at += 1
    if window:
        out[at + s[sb.F_DECL_BY]] = 1.0
        out[at + n + s[sb.F_DECL_TID]] = 1.0
        target = s[sb.F_DECL_TARGET]
        if 0 <= target < n:
            out[at + n + kinds + target] = 1.0


def kernel(config: SetbackConfig) -> StepKernel:
    """The step kernel of ``config``."""
    batch = sb.SetbackBatch(config)
    table, worth = batch.tables, batch.worth
    cards = config.card_types()
    types = DeckIndex(cards).types
    named = Counter(t.name for t in cards)
    in_deck = np.array([named[t.name] for t in types], np.int64)
    consts = np.zeros(8, np.int64)
    consts[_KINDS], consts[_ROWS0], consts[_MAX_LANES] = len(types), config.rows, config.max_lanes
    consts[_DECK] = len(cards)
    consts[_SKIPS] = sum(1 for t in cards if t.kind == "SKIP")
    consts[_BLOCKS] = sum(1 for t in cards if t.kind == "BLOCK")
    consts[_HAND], consts[_MOST_HELD] = config.hand_size, config.hand_size + config.draw_count
    n = config.players

    def arrays(games: int) -> tuple[NDArray[np.int64], NDArray[np.uint64], Tables]:
        most = batch.max_legal
        scratch = (
            np.zeros(most, np.int64),
            np.zeros(most, np.int64),
            np.zeros(n, np.int64),
            np.zeros(n, np.int64),
            worth,
            np.zeros(most, np.float64),
            np.zeros(most, np.int64),
            np.zeros(4, np.uint64),
            np.zeros((1, 1), np.uint32),
        )
        return batch.new_states(games), np.zeros((games, 1), np.uint64), (
            table, consts, in_deck, *scratch,
        )  # fmt: skip

    return StepKernel(
        players=n,
        num_actions=_num_actions(config),
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


def _num_actions(config: SetbackConfig) -> int:
    return action_encoding(Setback(config)).num_distinct_actions
