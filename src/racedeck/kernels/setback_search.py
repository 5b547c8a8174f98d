"""*Setback* for the compiled search: the :class:`~racedeck.kernels.search_kernel.SearchKernel` on
its step kernel (:mod:`racedeck.kernels.setback_steps`).

- :func:`load` writes an engine :class:`~racedeck.games.setback.state.SetbackState` into a row,
  its RNG's state included, so the row plays on exactly as the engine does (same seat asked,
  legal actions, observations, draws and reshuffles), BLOCK windows too: who is still asked,
  who answered BLOCK, the stack (SB-9 amended twice).
- :func:`redeal` is :meth:`Setback.sample_state <racedeck.games.setback.rules.Setback.sample_state>`
  (:class:`~racedeck.games.setback.sampler.SetbackSampler`) on a row: the other hands and the draw
  pile from one shuffle of the unseen cards, who is still asked in a window and what the others
  answered from coins, and the row's RNG, drawn in the sampler's order from the SplitMix64 stream
  ``streams[i]``. The stream's steps are :class:`racedeck.core.rng.Rng`'s, so with
  ``streams[i] = x`` the row becomes ``sample_state(view, Rng(x))`` card for card — up to which
  deck index stands for which card of one name, which the rules never read — and the stream
  ends where that ``Rng`` ends. (The unseen cards are listed before the shuffle as the sampler
  lists them, by name in the deck's order; hands then keep the kernel's order, by card index,
  which for a deck listing each name once is the sampler's too.)
- :func:`group`: -1 outside a BLOCK window; inside, the move number at which the window opened
  (the row's ``window_move``), the same for all its answers, which are the game's only
  concealed decisions (:meth:`Setback.conceals`, SB-9 amended again), and larger than the
  window before it, which took at least one answer.
- :func:`horizon`, :func:`estimate`, :func:`values`: :class:`~racedeck.bots.setback_playout.\
SetbackPlayout` (no horizon: its depth, six decisions a player, cuts the playout; a sigmoid of
  each seat's lead in rows) and :func:`racedeck.bots.search.rewards` of the finished game.

The step kernel asks every seat that may answer a window in seating order from the player on
turn, a seat without a BLOCK too: it then has one legal action, ``Pass`` (SB-9 amended), the
engine's :meth:`Setback.forced_action`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.games.setback import Setback
from racedeck.games.setback.cards import DeckIndex
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.encoding import action_encoding
from racedeck.games.setback.state import SetbackState
from racedeck.kernels import setback as sb
from racedeck.kernels import setback_steps
from racedeck.kernels.search_kernel import SearchKernel
from racedeck.kernels.why_first import _mix

__all__ = ["estimate", "group", "horizon", "load", "redeal", "search_kernel", "values"]

Tables = tuple[Any, ...]
"""The step kernel's tables (:data:`racedeck.kernels.setback_steps.Tables`), then ``order`` (the
deck's cards in the order the sampler lists unseen cards) and ``mark`` (scratch, one a card)."""

_ORDER, _MARK = 12, 13  # the search's tables after the step kernel's twelve

_PHASES = {
    "board": sb.BOARD,
    "hand": sb.HAND,
    "window": sb.WINDOW,
    "step": sb.STEP,
    "over": sb.OVER,
}
_SOURCES = {"": sb.SRC_NONE, "board": sb.SRC_BOARD, "hand": sb.SRC_HAND}
_CONTEXTS = {"all": sb.C_ALL, "place": sb.C_PLACE, "join": sb.C_JOIN}

_SPREAD = 1.5  # SetbackPlayout.SPREAD
_RANK_WEIGHT = 0.2  # racedeck.bots.search.RANK_WEIGHT
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)


def search_kernel(config: SetbackConfig) -> SearchKernel:
    """The search kernel of ``config`` (see the module docstring)."""
    step = setback_steps.kernel(config)
    cards = config.card_types()
    d = len(cards)
    # The sampler lists unseen cards by name, names in the order the deck first lists them
    # (its dict of names), each name's cards by index.
    first: dict[str, int] = {}
    for t in cards:
        first.setdefault(t.name, len(first))
    order = np.array(sorted(range(d), key=lambda c: (first[cards[c].name], c)), np.int64)
    arrays = step.arrays

    def search_arrays(games: int) -> tuple[NDArray[np.int64], NDArray[np.uint64], Tables]:
        ints, bits, tables = arrays(games)
        return ints, bits, (*tables, order, np.zeros(d, np.int64))

    index = DeckIndex(cards)

    def load_state(
        state: SetbackState, ints_row: NDArray[np.int64], bits_row: NDArray[np.uint64], t: Tables
    ) -> None:
        load(index, state, ints_row, bits_row, t)

    encoding = action_encoding(Setback(config))
    return SearchKernel(
        step=dataclasses.replace(step, arrays=search_arrays),
        load=load_state,
        redeal=redeal,
        group=group,
        horizon=horizon,
        estimate=estimate,
        values=values,
        encode=encoding.index,
        decode=encoding.action,
        depth=6 * config.players,
        playout_heuristic=False,
    )


def load(
    index: DeckIndex,
    state: SetbackState,
    ints_row: NDArray[np.int64],
    bits_row: NDArray[np.uint64],
    tables: Tables,
) -> None:
    """Write the engine's ``state`` of a game whose deck ``index`` knows into one row
    (``ints_row``; ``bits_row`` is unused; the search kernel's ``load`` is this with the
    configuration's ``index``): every
    field the rules read, the RNG's state bit for bit, a window's asked seats, answered
    BLOCKs and stack (SB-9). A row loaded inside a window names the window by the move number
    now (``window_move``: a state does not say when its window opened)."""
    k = tables[0]
    s = ints_row
    n = int(k[sb.K_N])
    s[:] = 0
    s[sb.F_MOVE] = state.move
    s[sb.F_PHASE] = _PHASES[state.phase]
    s[sb.F_CURRENT] = state.current
    s[sb.F_WINNER] = state.winner
    s[sb.F_SOURCE] = _SOURCES[state.source]
    s[sb.F_HAND_PLAYED] = state.hand_played
    s[sb.F_NONFREE] = int(state.nonfree_played)
    s[sb.F_ROWS] = state.rows
    s[sb.F_LANES] = state.lanes
    s[sb.F_ROWS_REMOVED] = state.rows_removed
    s[sb.F_RNG] = np.uint64(state.rng.state).view(np.int64)
    s[sb.F_NDRAW] = len(state.draw)
    s[sb.F_NDISCARD] = len(state.discard)
    s[k[sb.S_DRAW] : k[sb.S_DRAW] + len(state.draw)] = state.draw
    s[k[sb.S_DISCARD] : k[sb.S_DISCARD] + len(state.discard)] = state.discard
    s[sb.F_ASKED] = sum(1 << q for q in state.asked)
    s[sb.F_BLOCKERS] = sum(1 << q for q in state.blockers)
    if state.stack:
        declared = state.stack[0]
        play = declared["play"]
        s[sb.F_DECL_BY] = declared["by"]
        s[sb.F_DECL_CARD] = declared["card"]
        s[sb.F_DECL_TID] = index.id_of[play.card]
        s[sb.F_DECL_TARGET] = play.target
        s[sb.F_DECL_LANE] = play.lane
        s[sb.F_DECL_OTHER] = play.other
        s[sb.F_DECL_MODE] = sb._MODES[play.mode]
        s[sb.F_NBLOCKS] = len(state.stack) - 1
        for j, item in enumerate(state.stack[1:]):
            s[k[sb.S_BLOCK_BY] + j] = item["by"]
            s[k[sb.S_BLOCK_CARD] + j] = item["card"]
    if state.phase == "window":
        s[sb.F_WINDOW_MOVE] = state.move
    ctx = state.context
    if ctx:
        s[sb.F_CTX] = _CONTEXTS[ctx["kind"]]
        s[sb.F_CTX_PLAYER] = ctx["player"]
        s[sb.F_CTX_AMOUNT] = ctx.get("amount", 0)
        s[sb.F_CTX_LANE] = ctx.get("lane", 0)
        left = ctx.get("left", [])
        s[sb.F_CTX_NLEFT] = len(left)
        s[sb.F_CTX_LEFT : sb.F_CTX_LEFT + len(left)] = left
    for r, cards in enumerate(state.grid):
        at = k[sb.S_GRID] + r * sb._ML
        s[at : at + len(cards)] = cards
    hand_cap, skip_cap, ranks = k[sb.K_HAND_CAP], k[sb.K_SKIP_CAP], k[sb.K_RANKS]
    for q in range(n):
        s[k[sb.S_ROW] + q] = state.row[q]
        s[k[sb.S_LANE] + q] = state.lane[q]
        s[k[sb.S_SPENT] + q] = int(state.skip_spent[q])
        hand = state.hands[q]
        s[k[sb.S_NHAND] + q] = len(hand)
        at = k[sb.S_HANDS] + q * hand_cap
        s[at : at + len(hand)] = hand  # in the engine's order (sorted): the rules rely on it
        for c in hand:
            rank = k[k[sb.K_T_RANK] + c]
            s[k[sb.S_HCOUNT] + q * ranks + rank] += 1
            s[k[sb.S_HMASK] + q] |= 1 << int(rank)
        skips = state.skip_cards[q]
        s[k[sb.S_NSKIP] + q] = len(skips)
        at = k[sb.S_SKIPS] + q * skip_cap
        s[at : at + len(skips)] = skips


@sb._jit(cache=True)
def redeal(
    ints: NDArray[np.int64],
    bits: NDArray[np.uint64],
    i: int,
    seat: int,
    t: Tables,
    streams: NDArray[np.uint64],
) -> None:
    """Deal row ``i``'s secrets hidden from ``seat`` afresh from the stream ``streams[i]``, as
    :meth:`SetbackSampler.sample` draws them: one shuffle of the unseen cards (the other hands,
    then the draw pile, sizes kept), in a window who of the others is still asked (a coin each,
    drawn again while nobody would be) and what those who answered answered (a coin each: BLOCK
    if heads and the new hand holds one, SB-9 amended again), then the row's RNG. ``seat``'s
    own hand, asked state and answer, and everything public, stay."""
    k, order, mark = t[0], t[_ORDER], t[_MARK]
    s = ints[i]
    n, d = k[sb.K_N], k[sb.K_D]
    hand_cap, ranks = k[sb.K_HAND_CAP], k[sb.K_RANKS]
    dr = k[sb.S_DRAW]
    for c in range(d):
        mark[c] = 0
    for q in range(n):
        if q == seat:
            continue
        h = k[sb.S_HANDS] + q * hand_cap
        for j in range(s[k[sb.S_NHAND] + q]):
            mark[s[h + j]] = 1
    for j in range(s[sb.F_NDRAW]):
        mark[s[dr + j]] = 1
    # The unseen cards into the draw pile's room, listed as the sampler lists them.
    m = 0
    for x in range(d):
        c = order[x]
        if mark[c]:
            s[dr + m] = c
            m += 1
    st = sb.shuffle_with(k, s, dr, m, streams[i])
    pos = 0
    for q in range(n):  # the other hands, seat by seat, from the front of the shuffled cards
        if q == seat:
            continue
        size = s[k[sb.S_NHAND] + q]
        s[k[sb.S_NHAND] + q] = 0
        s[k[sb.S_HMASK] + q] = 0
        for r in range(ranks):
            s[k[sb.S_HCOUNT] + q * ranks + r] = 0
        h = k[sb.S_HANDS] + q * hand_cap
        for j in range(size):
            c = s[dr + pos + j]
            x = j
            while x > 0 and s[h + x - 1] > c:  # hands are kept sorted by card index
                s[h + x] = s[h + x - 1]
                x -= 1
            s[h + x] = c
            sb._count_card(k, s, q, c, 1)
        s[k[sb.S_NHAND] + q] = size
        pos += size
    for j in range(m - pos):  # the rest, in shuffled order, is the draw pile (top last)
        s[dr + j] = s[dr + pos + j]
    if s[sb.F_PHASE] == sb.WINDOW:
        # Who may answer this window (sb._open_window): all but the seat whose BLOCK is on
        # top, and the declarer only as self_block allows.
        nb = s[sb.F_NBLOCKS]
        if nb > 0:
            exclude = s[k[sb.S_BLOCK_BY] + nb - 1]
        else:
            own = k[sb.K_SELF_BLOCK]
            may = own == sb.SELF_ALL or (own == sb.SELF_BOARD and s[sb.F_SOURCE] == sb.SRC_BOARD)
            exclude = -1 if may else s[sb.F_DECL_BY]
        me_asked = (s[sb.F_ASKED] >> seat) & 1
        me_blocked = (s[sb.F_BLOCKERS] >> seat) & 1
        asked = 0
        while True:
            st += _GAMMA
            coins = _mix(st)
            asked = 0
            for q in range(n):
                if q == seat:
                    if me_asked:
                        asked |= 1 << q
                elif q != exclude and (coins >> np.uint64(q)) & _ONE:
                    asked |= 1 << q
            if asked:
                break
        st += _GAMMA
        coins = _mix(st)
        blockers = 0
        for q in range(n):
            if (asked >> q) & 1 or q == exclude:
                continue
            if q == seat:
                if me_blocked:
                    blockers |= 1 << q
            elif (coins >> np.uint64(q)) & _ONE and sb._has_block(k, s, q):
                blockers |= 1 << q
        s[sb.F_ASKED] = asked
        s[sb.F_BLOCKERS] = blockers
    st += _GAMMA
    s[sb.F_RNG] = np.int64(_mix(st))  # chance to come: Rng(rng.next_u64())
    streams[i] = st


@sb._jit(cache=True)
def group(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """-1 unless row ``i`` waits for a BLOCK window's answers (the only concealed decisions,
    SB-9); then the move number at which the window opened, one number for all its answers."""
    s = ints[i]
    if s[sb.F_PHASE] != sb.WINDOW:
        return -1
    return int(s[sb.F_WINDOW_MOVE])


@sb._jit(cache=True)
def horizon(ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables) -> int:
    """Always 0: only the playout's depth cuts it (``SetbackPlayout.horizon``)."""
    return 0


@sb._jit(cache=True)
def estimate(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.float64]
) -> None:
    """``SetbackPlayout.estimate``: each seat's sigmoid of its row minus the best other row,
    over 1.5 rows (START is row -1)."""
    k = t[0]
    s = ints[i]
    n = k[sb.K_N]
    sr = k[sb.S_ROW]
    for q in range(n):
        best = -(1 << 62)
        for o in range(n):
            if o != q and s[sr + o] > best:
                best = s[sr + o]
        x = (s[sr + q] - best) / _SPREAD
        # racedeck.bots.why_first.sigmoid: flat beyond 30 either way.
        if x < -30.0:
            out[q] = 0.0
        elif x > 30.0:
            out[q] = 1.0
        else:
            out[q] = 1.0 / (1.0 + np.exp(-x))


@sb._jit(cache=True)
def values(
    ints: NDArray[np.int64], bits: NDArray[np.uint64], i: int, t: Tables, out: NDArray[np.float64]
) -> None:
    """``rewards(Setback.outcome(state), players)`` of the finished game in row ``i``: a share
    of 0.8 for each winner (rank 1), plus 0.2 scaled by how many ranks it finished above last."""
    k, scores, ranks = t[0], t[5], t[6]
    n = k[sb.K_N]
    sb._returns(k, ints[i], scores, ranks)
    won = 0
    for q in range(n):
        if ranks[q] == 1:
            won += 1
    spread = max(1, n - 1)
    share = (1.0 - _RANK_WEIGHT) / won
    for q in range(n):
        r = _RANK_WEIGHT * (n - ranks[q]) / spread
        if ranks[q] == 1:
            r += share
        out[q] = r
