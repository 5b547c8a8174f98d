"""A compiled kernel of *Setback*: game states as rows of an array, stepped by Numba functions.

>>> from racedeck.games.setback import SetbackConfig
>>> from racedeck.kernels.setback import SetbackBatch
>>> batch = SetbackBatch(SetbackConfig(players=4))
>>> result = batch.play(10_000, seed=7)                    # uniformly random seats
>>> result.scores.shape, result.winners.shape
((10000, 4), (10000, 4))

The rules are those of :class:`~racedeck.games.setback.Setback` under any configuration it
accepts: every player count (SB-11), any deck (SB-2, with FREE cards and the Board Action forms
of SB-3), any rows and lanes (SB-1) and REVAMP bounds (SB-6), hand size and draw count (SB-3,
SB-6), rows removable (SB-8), ``self_block`` and the BLOCK window exactly as the engine runs it
now (SB-9 amended twice: every seat that could answer is asked, BLOCK in hand or not; the
answers are concealed, and of several BLOCKs the first in seating order after the answered
player's is played), ``edge_bump`` (SB-7) and the ``max_moves`` bound, which ends a game where
it stands and ranks it by progress as the engine does.

**Same deals as the engine.** Game ``i`` with seed ``seeds[i]`` is dealt exactly as
``Setback.new_initial_state(seeds[i])`` deals it, and every later shuffle of the discards
(SB-3) draws from the same stream: the engine's generator (:class:`racedeck.core.rng.Rng`,
SplitMix64 with its grouped Fisher–Yates shuffle) is reproduced bit for bit, for a pile of any
size. :meth:`SetbackBatch.play` with a whole number instead of an array gives game ``i`` the
seed ``derive_seed(seed, i)``, as :func:`racedeck.sim.simulate.simulate` does.

**Actions** are the indices of :func:`racedeck.games.setback.encoding.action_encoding` (the
fixed action space a learning environment masks). :func:`legal` lists the engine's
``legal_actions`` of the seat asked, as such ids and in the engine's order; a decision picks an
index into that list. Decisions come in the engine's asking order: the player on turn, the
player whose card resolves, and in a BLOCK window every asked seat in seating order from the
player on turn (the answers are simultaneous, SB-9, so any order gives the same state; a seat
without a BLOCK is asked too and can only pass). A seat's policy is

- ``"random"``: an index uniform among the legal ones (``RandomBot``'s choice);
- ``"heuristic"``: the legal actions that :class:`~racedeck.bots.setback.SetbackHeuristicBot`
  scores best (same evaluation in the same floating-point order, same ``1e-9`` tie rule), one
  of them uniformly; in a window its deterministic BLOCK-or-pass answer.

Random draws come from each game's own SplitMix64 stream seeded with ``derive_seed(seed, 1)``
(32 bits per draw, exact by rejection), never from the game's own stream; a decision with one
legal action draws nothing. With ``choices`` (scripted play) decision ``k`` of game ``i`` uses
``choices[i, k]`` instead: a random seat takes index ``choices[i, k] % len(legal)``, a heuristic
seat the tie ``choices[i, k] % len(best)`` (a window answer ignores its column). That is what
the differential tests drive the engine with.

**Stepping.** A game's whole state is one row of an ``int64`` array (:attr:`SetbackBatch.width`
columns; the layout, fixed by the configuration, is described by :data:`FIELDS` and the ``S_*``
offsets kept in the configuration's table ``k``), so that a batch stepper or a search can hold
many games, copy one by copying its row, and call the compiled functions on rows:

- :func:`reset_one` ``(k, states, i, seed)``: deal game ``i`` as the engine's
  ``new_initial_state(seed)``;
- :func:`current_player` ``(k, states, i)``: the seat asked now (-1 once the game is over);
- :func:`legal` ``(k, states, i, out) -> count``: the legal action ids, in order, into ``out``
  (at least :attr:`SetbackBatch.max_legal` long);
- :func:`apply` ``(k, states, i, action)``: the asked seat takes a legal action (as the engine's
  ``apply_unchecked``: unchecked, in place), then the game runs on to the next decision;
- :func:`is_over` and :func:`returns` ``(k, states, i, out)``: the engine's scores (progress)
  and ranks; :func:`heuristic_scores` the heuristic bot's score of every legal action.

``k`` is :attr:`SetbackBatch.tables`, an ``int64`` array of the configuration's constants,
deck tables, action-id tables and shuffle plans (``K_*`` indices); ``w`` (heuristic only) is
:attr:`SetbackBatch.worth`. The control flow of a turn (declare, window, resolve, steps, the
next turn) is a loop of operations rather than the engine's chain of calls, so that it runs
until the next decision without recursion.

**Results** (:class:`SetbackResult`): each seat's progress (the engine's scores), ranks and
winners as :meth:`Setback.outcome` computes them, the seat that reached FINISH first (-1 when
``max_moves`` ended the game), the number of accepted actions and, on request, every decision.

**Speed** (``benchmarks/setback_batch.py``, one core of a shared machine, CPU time): about
78,000 random 4-player games a second (224 decisions each, three in four of them a BLOCK
window's answer), 110,000 with two players, 58,000 with six, 12,700 with heuristic seats:
about 50 times the engine's fast path (49 to 54 times over runs, as the machine's load moved
both). A state row takes about 6.4 KB (4 players, the rulebook's deck), read and written in
place. What made it fast: the rules' functions allocate nothing and compile without Numba's
reference counts (counting every array argument in and out of every call cost a third of a
game), the play loop works on views without counts, a BLOCK window's answers are taken in one
pass, hands keep a bit set of their card types (no loop over the cards to know what can be
played or whether a BLOCK is held), and the seat after a given one is found by bit scans,
never by a division. What is left is spread over the rules: the legal declarations (a
quarter), resolution and turn flow (a third), the play loop and the deal; the calls between
the rules' functions pass every array as seven words, and putting more of them in line cost
more compilation than it gained.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic
from numba.np.numpy_support import carray
from numpy.typing import NDArray

from racedeck.games.setback.cards import DeckIndex
from racedeck.games.setback.config import MAX_LANES, SetbackConfig
from racedeck.games.setback.encoding import declaration_forms
from racedeck.kernels.whole_games import (
    HEURISTIC,
    POLICIES,
    RANDOM,
    batch_seeds,
    policy_codes,
    script_of,
    win_shares,
)
from racedeck.kernels.why_first import _derive, _mix, _pick, _seeds, _trailing

__all__ = [
    "FIELDS",
    "HEURISTIC",
    "POLICIES",
    "RANDOM",
    "SetbackBatch",
    "SetbackResult",
    "apply",
    "current_player",
    "heuristic_scores",
    "is_over",
    "legal",
    "reset_one",
    "returns",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_types: Any = types  # Numba's type constructors, untyped
_int = cast(Callable[[int], int], np.int64)
"""A whole number as a run-time ``int64``: Numba compiles a function once for every literal
argument it is called with (``f(0)`` and ``f(n)`` would be two compilations)."""


def _jit(inline: bool = False, cache: bool = False, owns: bool = False) -> Callable[[_F], _F]:
    """``numba.njit``, seen by the type checker as the plain function it compiles.

    Integer division by zero is not checked (``error_model="numpy"``): no divisor here can be
    zero. Only a function that ``owns`` arrays (allocates them) uses Numba's reference counts:
    the rules only read and write arrays they are given, and counting every array argument in
    and out of every call cost a third of a game."""
    options: dict[str, Any] = {"error_model": "numpy", "_nrt": owns}
    return cast(
        Callable[[_F], _F],
        numba.njit(inline="always" if inline else "never", cache=cache, **options),
    )


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_MASK64 = (1 << 64) - 1
_GROUP_LIMIT = 1 << 56  # racedeck.core.rng: a grouped draw is rejected less than 1/256 of the time
_TIE = 1e-9  # SetbackHeuristicBot: actions within this of the best are all best

# -- codes ---------------------------------------------------------------------------------------
# Phases (racedeck.games.setback.state).
BOARD, HAND, WINDOW, STEP, OVER = 0, 1, 2, 3, 4
# Card kinds.
MOVE, FOE, ALL, SHIFT, TRADE, CUT, DRAW, REVAMP, SKIP, BLOCK = range(10)
_KINDS = ("MOVE", "FOE", "ALL", "SHIFT", "TRADE", "CUT", "DRAW", "REVAMP", "SKIP", "BLOCK")
# What a resolving card asks for (the engine's ``context``).
C_NONE, C_ALL, C_PLACE, C_JOIN = 0, 1, 2, 3
# Where a declared card comes from (the engine's ``source``).
SRC_NONE, SRC_BOARD, SRC_HAND = 0, 1, 2
# Action classes of the decode table.
A_PLAY, A_END, A_DISCARD, A_BLOCK, A_PASS, A_STEP = range(6)
# REVAMP modes.
M_NONE, M_ADD_LEFT, M_ADD_RIGHT, M_REMOVE = range(4)
_MODES = {"": M_NONE, "add-left": M_ADD_LEFT, "add-right": M_ADD_RIGHT, "remove": M_REMOVE}
# Sideways bumps off the board (SB-7) and own actions one may BLOCK (SB-9).
EDGE_BACKWARD, EDGE_FORWARD = 0, 1
SELF_BOARD, SELF_ALL, SELF_NONE = 0, 1, 2
# Directions of a move or a bump (SB-7).
D_FORWARD, D_BACKWARD, D_LEFT, D_RIGHT = 0, 1, 2, 3
# The operations a turn is made of; each returns the next (the engine's chain of tail calls).
OP_DONE, OP_START_TURN, OP_BEGIN_HAND, OP_CONTINUE_HAND = 0, 1, 2, 3
OP_END_TURN, OP_END_TURN_NO_DRAW, OP_OPEN_WINDOW, OP_CLOSE_WINDOW = 4, 5, 6, 7
OP_AFTER_EFFECT, OP_NEXT_STEP = 8, 9

# -- the state row: scalars first, then blocks at offsets kept in the table ----------------------
F_MOVE = 0  # accepted actions (the engine's move number)
F_PHASE = 1
F_CURRENT = 2  # the player on turn
F_WINNER = 3  # first to reach FINISH, -1
F_SOURCE = 4
F_HAND_PLAYED = 5
F_NONFREE = 6  # the turn's non-FREE card is played (SB-3)
F_ROWS = 7  # rows now (SB-8 removes some)
F_LANES = 8  # lanes now (REVAMP, SB-6)
F_ROWS_REMOVED = 9
F_RNG = 10  # the game's SplitMix64 state, its 64 bits as an int64
F_NDRAW = 11
F_NDISCARD = 12
F_ASKED = 13  # bit q: seat q is still asked in the open window
F_BLOCKERS = 14  # bit q: seat q answered BLOCK (concealed until the last answer, SB-9)
F_NBLOCKS = 15  # BLOCKs played on the stack above the declared action
F_DECL_BY = 16  # the declared action: who, which card, its type and its fields
F_DECL_CARD = 17
F_DECL_TID = 18
F_DECL_TARGET = 19
F_DECL_LANE = 20
F_DECL_OTHER = 21
F_DECL_MODE = 22
F_CTX = 23  # C_*: what the resolving card asks
F_CTX_PLAYER = 24
F_CTX_AMOUNT = 25
F_CTX_LANE = 26
F_CTX_NLEFT = 27
F_CTX_LEFT = 28  # up to 6 tokens still to move or place, in order
# The move number at which the open BLOCK window opened (or a row was loaded inside it): it
# names the window, so a search can tell its concealed answers (SB-9) from the next window's.
F_WINDOW_MOVE = 34
_SCALARS = 35

FIELDS = (
    "move",
    "phase",
    "current",
    "winner",
    "source",
    "hand_played",
    "nonfree_played",
    "rows",
    "lanes",
    "rows_removed",
    "rng",
    "draw_count",
    "discard_count",
    "asked_mask",
    "blockers_mask",
    "blocks",
    "decl_by",
    "decl_card",
    "decl_type",
    "decl_target",
    "decl_lane",
    "decl_other",
    "decl_mode",
    "ctx_kind",
    "ctx_player",
    "ctx_amount",
    "ctx_lane",
    "ctx_count",
    "ctx_left[6]",
    "window_move",
)
"""The scalar columns of a state row, in order; blocks follow at the table's ``S_*`` offsets:
per seat ``row``, ``lane`` (-1 on START), ``skip_spent``, hand size and SKIP pile size; the grid
(``rows × MAX_LANES``, card indices), the hands (sorted card indices, a fixed capacity each), the
SKIP piles, the draw and discard piles (top last), the BLOCKs on the stack (seat, card), and per
seat the bit set of hand types held and the count of each (kept with the hands)."""

# Table ``k``: constants of the configuration.
K_N = 0
K_D = 1
K_ROWS0 = 2
K_LANES0 = 3
K_MIN_LANES = 4
K_MAX_LANES = 5
K_HAND = 6
K_DRAW_COUNT = 7
K_ROWS_REMOVABLE = 8
K_SELF_BLOCK = 9
K_EDGE = 10
K_MAX_MOVES = 11
K_STEP_BASE = 12
K_END_ID = 13
K_BELOW_LIMIT = 14  # Rng.below(players)'s rejection limit, 0 for 2**64
K_PLAN_GROUPS = 15  # most groups of a shuffle plan
K_HAND_CAP = 16
K_SKIP_CAP = 17
K_BLOCK_CAP = 18
K_WIDTH = 19
# ... and offsets of its tables ...
K_T_HAND_TID = 20  # card -> type id from hand
K_T_BOARD_TID = 21  # card -> type id as a Board Action (SB-3)
K_T_IS_BLOCK = 22  # card -> 1 for a BLOCK
K_T_KIND = 23  # type id -> kind
K_T_AMOUNT = 24
K_T_FREE = 25
K_T_BASE = 26  # type id -> its first action id
K_T_DECODE = 27  # action id -> (class, type id, target, lane, other, mode), 6 columns
K_T_PLAN_N = 28  # pile size m -> groups of its shuffle
K_T_PLAN = 29  # m -> groups (top, bottom, limit bits)
# ... and of the state row's blocks.
S_ROW = 30
S_LANE = 31
S_SPENT = 32
S_NHAND = 33
S_NSKIP = 34
S_GRID = 35
S_HANDS = 36
S_SKIPS = 37
S_DRAW = 38
S_DISCARD = 39
S_BLOCK_BY = 40
S_BLOCK_CARD = 41
S_HMASK = 42  # per seat: bit r, the hand holds a card of hand type rank r
S_HCOUNT = 43  # per seat and rank: how many cards of that hand type
K_T_RANK = 44  # card -> the rank of its hand type among the deck's hand types (by type id)
K_T_RANK_TID = 45  # rank -> type id
K_BLOCK_RANKS = 46  # bits of the BLOCK ranks
K_PLAYABLE_RANKS = 47  # bits of every rank but BLOCK (SB-3, SB-9)
K_FREE_RANKS = 48  # bits of the FREE ranks but BLOCK: playable after the non-FREE card (SB-3)
K_RANKS = 49
_HEADER = 56

_ML = MAX_LANES  # the grid's row stride


# -- the configuration's tables ------------------------------------------------------------------


def _plan(m: int) -> list[tuple[int, int, int]]:
    """``Rng.shuffle``'s groups for ``m`` items: (top, bottom, limit as int64 bits, 0 = 2**64)."""
    out = []
    i = m - 1
    while i > 0:
        radix, k = 1, i
        while k > 0 and radix * (k + 1) <= _GROUP_LIMIT:
            radix *= k + 1
            k -= 1
        limit = ((1 << 64) - ((1 << 64) % radix)) & _MASK64
        out.append((i, k, limit - (1 << 64) if limit >= 1 << 63 else limit))
        i = k
    return out


def _action_tables(cfg: SetbackConfig, index: DeckIndex) -> tuple[list[int], list[list[int]]]:
    """Each type id's first action id, and every action id's decoded fields, from the
    encoding's own forms (:func:`racedeck.games.setback.encoding.declaration_forms`)."""
    n, ml = cfg.players, cfg.max_lanes
    bases: list[int] = []
    decode: list[list[int]] = []
    for tid, t in enumerate(index.types):
        bases.append(len(decode))
        for play in declaration_forms(t, n, ml):
            decode.append([A_PLAY, tid, play.target, play.lane, play.other, _MODES[play.mode]])
    decode += [[A_END, -1, -1, -1, -1, 0], [A_DISCARD, -1, -1, -1, -1, 0]]
    decode += [[A_BLOCK, -1, -1, -1, -1, 0], [A_PASS, -1, -1, -1, -1, 0]]
    decode += [[A_STEP, -1, token, lane, -1, 0] for token in range(n) for lane in range(-1, ml)]
    return bases, decode


def build_tables(cfg: SetbackConfig) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The table ``k`` of a configuration (constants, deck and action tables, shuffle plans,
    the state row's layout) and ``w``, each card's worth to the heuristic bot."""
    cfg.validate()
    types = cfg.card_types()
    index = DeckIndex(types)
    n, d = cfg.players, len(types)
    bases, decode = _action_tables(cfg, index)
    plans = [_plan(m) for m in range(d + 1)]
    groups = max(1, max(len(p) for p in plans))
    skip_cap = max(1, sum(1 for t in types if t.kind == "SKIP"))
    block_cap = max(1, sum(1 for t in types if t.kind == "BLOCK"))
    hand_cap = d
    head = np.zeros(_HEADER, np.int64)
    body: list[int] = []

    def table(slot: int, values: Sequence[int]) -> None:
        head[slot] = _HEADER + len(body)
        body.extend(int(v) for v in values)

    table(K_T_HAND_TID, index.hand_id)
    table(K_T_BOARD_TID, index.board_id)
    table(K_T_IS_BLOCK, [int(b) for b in index.is_block])
    table(K_T_KIND, [_KINDS.index(kind) for kind in index.kind])
    table(K_T_AMOUNT, index.amount)
    table(K_T_FREE, [int(f) for f in index.free])
    table(K_T_BASE, bases)
    table(K_T_DECODE, [v for row in decode for v in row])
    table(K_T_PLAN_N, [len(p) for p in plans])
    # A deck names 40 cards at most (SB-2's option), so a hand's types fit in one word's bits.
    ranked = sorted(set(index.hand_id))
    table(K_T_RANK, [ranked.index(tid) for tid in index.hand_id])
    table(K_T_RANK_TID, ranked)
    kinds = [index.kind[tid] for tid in ranked]
    head[K_BLOCK_RANKS] = sum(1 << r for r, kind in enumerate(kinds) if kind == "BLOCK")
    head[K_PLAYABLE_RANKS] = sum(1 << r for r, kind in enumerate(kinds) if kind != "BLOCK")
    head[K_FREE_RANKS] = sum(
        1 << r for r, tid in enumerate(ranked) if kinds[r] != "BLOCK" and index.free[tid]
    )
    head[K_RANKS] = len(ranked)
    flat: list[int] = []
    for p in plans:
        for g in range(groups):
            flat += list(p[g]) if g < len(p) else [0, 0, 0]
    table(K_T_PLAN, flat)
    below = ((1 << 64) - ((1 << 64) % n)) & _MASK64
    head[K_N] = n
    head[K_D] = d
    head[K_ROWS0] = cfg.rows
    head[K_LANES0] = cfg.start_lanes
    head[K_MIN_LANES] = cfg.min_lanes
    head[K_MAX_LANES] = cfg.max_lanes
    head[K_HAND] = cfg.hand_size
    head[K_DRAW_COUNT] = cfg.draw_count
    head[K_ROWS_REMOVABLE] = cfg.rows_removable
    head[K_SELF_BLOCK] = ("board", "all", "none").index(cfg.self_block)
    head[K_EDGE] = ("backward", "forward").index(cfg.edge_bump)
    head[K_MAX_MOVES] = cfg.max_moves
    head[K_STEP_BASE] = len(decode) - n * (cfg.max_lanes + 1)
    head[K_END_ID] = bases[-1] + len(declaration_forms(index.types[-1], n, cfg.max_lanes))
    head[K_BELOW_LIMIT] = below - (1 << 64) if below >= 1 << 63 else below
    head[K_PLAN_GROUPS] = groups
    head[K_HAND_CAP] = hand_cap
    head[K_SKIP_CAP] = skip_cap
    head[K_BLOCK_CAP] = block_cap
    at = _SCALARS
    for slot, size in (
        (S_ROW, n),
        (S_LANE, n),
        (S_SPENT, n),
        (S_NHAND, n),
        (S_NSKIP, n),
        (S_GRID, cfg.rows * _ML),
        (S_HANDS, n * hand_cap),
        (S_SKIPS, n * skip_cap),
        (S_DRAW, d),
        (S_DISCARD, d),
        (S_BLOCK_BY, block_cap),
        (S_BLOCK_CARD, block_cap),
        (S_HMASK, n),
        (S_HCOUNT, n * len(ranked)),
    ):
        head[slot] = at
        at += size
    head[K_WIDTH] = at
    k = np.concatenate([head, np.array(body, np.int64)])
    worth = np.array([_card_worth(t.kind, t.amount) for t in types], np.float64)
    return k, worth


_WORTH = {"SKIP": -2.0, "BLOCK": 1.0, "DRAW": 0.7, "FOE": 0.4, "CUT": 0.4, "TRADE": 0.3}


def _card_worth(kind: str, amount: int) -> float:
    """``racedeck.bots.setback.card_worth``: what standing on a card is worth to its token's
    player (its Board Action, SB-3). Written out again, as kernels do not import the bots; the
    tests hold the two equal."""
    if kind == "MOVE":
        return float(amount)
    if kind == "ALL":
        return 0.3 * amount
    return _WORTH.get(kind, 0.1)


# -- small facts ---------------------------------------------------------------------------------


@_jit(inline=True)
def _on_block(k: NDArray[np.int64], s: NDArray[np.int64], q: int) -> bool:
    """``Setback.on_block``: ``q``'s token stands on a BLOCK card (SB-5, SB-9)."""
    r = s[k[S_ROW] + q]
    ln = s[k[S_LANE] + q]
    if r < 0 or ln < 0 or r >= s[F_ROWS]:
        return False
    return bool(k[k[K_T_IS_BLOCK] + s[k[S_GRID] + r * _ML + ln]] != 0)


@_jit(inline=True)
def _has_block(k: NDArray[np.int64], s: NDArray[np.int64], q: int) -> bool:
    return bool(s[k[S_HMASK] + q] & k[K_BLOCK_RANKS] != 0)


@_jit(inline=True)
def _count_card(k: NDArray[np.int64], s: NDArray[np.int64], p: int, c: int, d: int) -> None:
    """Card ``c`` comes into (``d = 1``) or leaves (``d = -1``) ``p``'s hand: its type counts."""
    r = k[k[K_T_RANK] + c]
    at = k[S_HCOUNT] + p * k[K_RANKS] + r
    m = s[at] + d
    s[at] = m
    bit = 1 << r
    if m:
        s[k[S_HMASK] + p] |= bit
    else:
        s[k[S_HMASK] + p] &= ~bit


@_jit()
def _shuffle(k: NDArray[np.int64], s: NDArray[np.int64], at: int, m: int) -> None:
    """``Rng.shuffle`` of the ``m`` cards at ``s[at:]``, drawing from the game's stream."""
    s[F_RNG] = np.int64(shuffle_with(k, s, at, m, np.uint64(s[F_RNG])))


@_jit()
def shuffle_with(
    k: NDArray[np.int64], a: NDArray[np.int64], at: int, m: int, st: np.uint64
) -> np.uint64:
    """``Rng(st).shuffle`` of the ``m`` cards at ``a[at:]``; the generator's new state (a
    game's own shuffle draws from its row's RNG, a search's redeal from its stream)."""
    plan = k[K_T_PLAN] + m * k[K_PLAN_GROUPS] * 3
    for g in range(k[k[K_T_PLAN_N] + m]):
        top = k[plan + 3 * g]
        bottom = k[plan + 3 * g + 1]
        limit = np.uint64(k[plan + 3 * g + 2])
        while True:
            st += _GAMMA
            x = _mix(st)
            if limit == _ZERO or x < limit:
                break
        for i in range(top, bottom, -1):
            dv = np.uint64(i + 1)
            j = np.int64(x % dv)
            x = x // dv
            c = a[at + i]
            a[at + i] = a[at + j]
            a[at + j] = c
    return st


@_jit(inline=True)
def _discard(k: NDArray[np.int64], s: NDArray[np.int64], card: int) -> None:
    s[k[S_DISCARD] + s[F_NDISCARD]] = card
    s[F_NDISCARD] += 1


@_jit(inline=True)
def _refill(k: NDArray[np.int64], s: NDArray[np.int64]) -> bool:
    """SB-3: an empty draw pile becomes the discards, shuffled; False when there are none."""
    m = s[F_NDISCARD]
    if m == 0:
        return False
    dr, di = k[S_DRAW], k[S_DISCARD]
    for j in range(m):
        s[dr + j] = s[di + j]
    s[F_NDRAW] = m
    s[F_NDISCARD] = 0
    _shuffle(k, s, dr, m)
    return True


@_jit(inline=True)
def _draw_cards(k: NDArray[np.int64], s: NDArray[np.int64], p: int, count: int) -> None:
    """Draw up to ``count`` cards into ``p``'s hand, refilling the pile on the way (SB-3);
    the hand stays sorted by card index, as the engine sorts it."""
    h = k[S_HANDS] + p * k[K_HAND_CAP]
    nh = k[S_NHAND] + p
    for _ in range(count):
        if s[F_NDRAW] == 0 and not _refill(k, s):
            break
        s[F_NDRAW] -= 1
        c = s[k[S_DRAW] + s[F_NDRAW]]
        j = s[nh]
        while j > 0 and s[h + j - 1] > c:
            s[h + j] = s[h + j - 1]
            j -= 1
        s[h + j] = c
        s[nh] += 1
        _count_card(k, s, p, c, 1)


@_jit(inline=True)
def _remove_from_hand(k: NDArray[np.int64], s: NDArray[np.int64], p: int, j: int) -> int:
    """Take the ``j``-th card out of ``p``'s hand and return it."""
    h = k[S_HANDS] + p * k[K_HAND_CAP]
    nh = k[S_NHAND] + p
    c = s[h + j]
    for x in range(j, s[nh] - 1):
        s[h + x] = s[h + x + 1]
    s[nh] -= 1
    _count_card(k, s, p, c, -1)
    return int(c)


# -- movement (racedeck.games.setback.movement) --------------------------------------------------


@_jit()
def _place(
    k: NDArray[np.int64],
    s: NDArray[np.int64],
    q: int,
    row: int,
    lane: int,
    direction: int,
    transit: int,
    edge: int,
) -> None:
    """``movement.place``: put ``q`` on ``(row, lane)``; the earlier occupant is bumped one card
    in ``direction`` (SB-7), which may chain, reach FINISH or fall to START. ``transit``: the
    tokens an ALL card has yet to move, as bits (they cannot be bumped, SB-5)."""
    n = k[K_N]
    sr, sl, sp = k[S_ROW], k[S_LANE], k[S_SPENT]
    while True:
        other = -1
        for o in range(n):
            if o != q and s[sr + o] == row and s[sl + o] == lane and not (transit >> o) & 1:
                other = o
                break
        s[sr + q] = row
        s[sl + q] = lane
        s[sp + q] = 0  # SB-10: a new arrival arms a board SKIP again
        if other < 0:
            return
        # bump(other, direction)
        q = other
        row = s[sr + q]
        lane = s[sl + q]
        if direction in (D_LEFT, D_RIGHT):
            lane += -1 if direction == D_LEFT else 1
            if not 0 <= lane < s[F_LANES]:
                lane = s[sl + q]  # off the side: backward or forward a row (edge_bump)
                direction = D_FORWARD if edge == EDGE_FORWARD else D_BACKWARD
        if direction == D_FORWARD:
            row += 1
        elif direction == D_BACKWARD:
            row -= 1
        if row >= s[F_ROWS]:
            _finish(k, s, q)
            return
        if row < 0:
            s[sr + q] = -1  # to START
            s[sl + q] = -1
            return


@_jit(inline=True)
def _finish(k: NDArray[np.int64], s: NDArray[np.int64], q: int) -> None:
    """``q`` reached FINISH; the first to get there wins (SB-4, SB-5)."""
    s[k[S_ROW] + q] = s[F_ROWS]
    s[k[S_LANE] + q] = -1
    if s[F_WINNER] < 0:
        s[F_WINNER] = q


@_jit()
def _move_by(
    k: NDArray[np.int64], s: NDArray[np.int64], q: int, amount: int, entry: int, transit: int
) -> None:
    """``movement.move_by`` (SB-4): only the destination matters; past the last row is FINISH,
    below the first START; a plus move from START enters ``entry``; a minus one there is
    nothing."""
    r = s[k[S_ROW] + q]
    if r < 0:
        if amount <= 0:
            return
        row, lane = amount - 1, entry
    else:
        row, lane = r + amount, s[k[S_LANE] + q]
    if row >= s[F_ROWS]:
        _finish(k, s, q)
    elif row < 0:
        s[k[S_ROW] + q] = -1
        s[k[S_LANE] + q] = -1
    else:
        # The engine's move_by leaves edge_bump at its default: forward and backward bumps
        # never go sideways, so it is never read.
        d = D_FORWARD if amount > 0 else D_BACKWARD
        _place(k, s, q, row, lane, d, transit, _int(EDGE_BACKWARD))


# -- declarations (racedeck.games.setback.declarations) ------------------------------------------


@_jit(inline=True)
def _pair(n: int, a: int, b: int) -> int:
    """The place of the ordered pair ``(a, b)``, ``a != b``, in the encoding's TRADE/CUT forms."""
    return a * (n - 1) + (b if b < a else b - 1)


@_jit(inline=True)
def _row_full(k: NDArray[np.int64], s: NDArray[np.int64], r: int) -> bool:
    c = 0
    for q in range(k[K_N]):
        if s[k[S_ROW] + q] == r:
            c += 1
    return bool(c >= s[F_LANES])


@_jit()
def _options(
    k: NDArray[np.int64], s: NDArray[np.int64], p: int, tid: int, out: NDArray[np.int64], c: int
) -> int:
    """Append the declarations of type ``tid`` by ``p`` (``Declarations.options``, same order)
    to ``out`` from ``c`` on; return the new count."""
    n = k[K_N]
    kind = k[k[K_T_KIND] + tid]
    amount = k[k[K_T_AMOUNT] + tid]
    base = k[k[K_T_BASE] + tid]
    ml = k[K_MAX_LANES]
    sr, sl = k[S_ROW], k[S_LANE]
    lanes = s[F_LANES]
    rows = s[F_ROWS]
    start = c
    if kind == MOVE:
        if s[sr + p] < 0 and amount > 0:  # entering from START: the lane is chosen (SB-4)
            for ln in range(lanes):
                out[c] = base + 1 + ln
                c += 1
        else:
            out[c] = base
            c += 1
        return c
    if kind == FOE:
        for q in range(n):
            if q == p:
                continue
            if amount > 0 and s[sr + q] < 0:  # FAQ 2: its player picks the entry lane
                for ln in range(lanes):
                    out[c] = base + n + q * ml + ln
                    c += 1
            else:
                out[c] = base + q
                c += 1
        return c
    if kind == SKIP:
        for q in range(n):
            if q != p:
                out[c] = base + q
                c += 1
        return c
    if kind in (ALL, DRAW, BLOCK):  # BLOCK: never declared
        out[c] = base
        return c + 1
    # SB-9: tokens on BLOCK cannot be moved by others (their own player may).
    fixed = 0
    if kind != REVAMP:
        for q in range(n):
            if q != p and _on_block(k, s, q):
                fixed |= 1 << q
    if kind == SHIFT:
        for q in range(n):
            r = s[sr + q]
            if r < 0 or (fixed >> q) & 1:
                continue
            for x in range(lanes):
                if x != s[sl + q]:
                    out[c] = base + 1 + q * ml + x
                    c += 1
    elif kind == TRADE:
        # Own token with each other, then every pair of others (list_declarations' order).
        for b in range(n):
            if b != p:
                c = _trade_one(k, s, fixed, p, b, base, c, out)
        for a in range(n):
            for b in range(a + 1, n):
                if a != p and b != p:
                    c = _trade_one(k, s, fixed, a, b, base, c, out)
    elif kind == CUT:
        for q in range(n):
            if (fixed >> q) & 1:
                continue
            rq, lq = s[sr + q], s[sl + q]
            for x in range(n):
                rx = s[sr + x]
                if x != q and rx >= 0 and rx + 1 < rows and (rq != rx + 1 or lq != s[sl + x]):
                    out[c] = base + 1 + _pair(n, q, x)
                    c += 1
    else:  # REVAMP
        if lanes < ml and s[F_NDRAW] + s[F_NDISCARD] >= rows:
            out[c] = base + 1
            out[c + 1] = base + 2
            c += 2
        if lanes > k[K_MIN_LANES]:
            full = False
            for r in range(rows):
                if _row_full(k, s, r):
                    full = True
                    break
            if not full:
                for ln in range(lanes):
                    out[c] = base + 3 + ln
                    c += 1
    if c == start:  # SB-6: no legal target, played for no effect (FAQ 4)
        out[c] = base
        c += 1
    return c


@_jit(inline=True)
def _trade_one(
    k: NDArray[np.int64],
    s: NDArray[np.int64],
    fixed: int,
    a: int,
    b: int,
    base: int,
    c: int,
    out: NDArray[np.int64],
) -> int:
    if ((fixed >> a) | (fixed >> b)) & 1:
        return c
    sr, sl = k[S_ROW], k[S_LANE]
    if s[sr + a] == s[sr + b] and s[sl + a] == s[sl + b]:
        return c  # both on START (or one card): nothing to trade
    out[c] = base + 1 + _pair(k[K_N], a, b)
    return c + 1


@_jit()
def _hand_options(
    k: NDArray[np.int64], s: NDArray[np.int64], p: int, out: NDArray[np.int64]
) -> int:
    """``Setback._hand_options``: every card type in hand but BLOCK (only FREE ones after the
    non-FREE card, SB-3), by type id, then ``end`` or, for a hand of BLOCKs only, ``discard``."""
    held = s[k[S_HMASK] + p]
    if not held:
        return 0
    c = _int(0)  # not a literal: one compiled _options serves every call
    # The playable types, by rank, which is type id order (the engine sorts the ids).
    m = np.uint64(held & (k[K_FREE_RANKS] if s[F_NONFREE] else k[K_PLAYABLE_RANKS]))
    playable = m != _ZERO
    tids = k[K_T_RANK_TID]
    while m:
        r = np.int64(_trailing(m))
        m &= m - _ONE
        c = _options(k, s, p, k[tids + r], out, c)
    if s[F_HAND_PLAYED]:
        out[c] = k[K_END_ID]
        c += 1
    elif not playable and not held & ~k[K_BLOCK_RANKS]:
        out[c] = k[K_END_ID] + 1  # SB-3: a hand of BLOCKs only discards one
        c += 1
    return c


@_jit()
def _step_options(k: NDArray[np.int64], s: NDArray[np.int64], out: NDArray[np.int64]) -> int:
    """``Setback._step_options``: the choices of a resolving ALL, REVAMP placement or join."""
    ctx = s[F_CTX]
    sb = k[K_STEP_BASE]
    stride = k[K_MAX_LANES] + 1
    sr, sl = k[S_ROW], k[S_LANE]
    lanes = s[F_LANES]
    c = 0
    if ctx == C_ALL:
        for j in range(s[F_CTX_NLEFT]):
            q = s[F_CTX_LEFT + j]
            if s[sr + q] < 0:
                for ln in range(lanes):
                    out[c] = sb + q * stride + ln + 1
                    c += 1
            else:
                out[c] = sb + q * stride
                c += 1
        return c
    if ctx == C_PLACE:
        q = s[F_CTX_LEFT]
        for ln in range(lanes):
            taken = False
            for o in range(k[K_N]):
                if o != q and s[sr + o] == s[sr + q] and s[sl + o] == ln:
                    taken = True
                    break
            if not taken:
                out[c] = sb + q * stride + ln + 1
                c += 1
        return c
    p = s[F_CTX_PLAYER]  # join the new lane, or not
    out[0] = sb + p * stride + s[F_CTX_LANE] + 1
    out[1] = sb + p * stride
    return 2


# -- turn flow, the window, resolution (racedeck.games.setback.rules) ---------------------------


@_jit(inline=True)
def _declare(
    s: NDArray[np.int64],
    p: int,
    source: int,
    card: int,
    tid: int,
    target: int,
    lane: int,
    other: int,
    mode: int,
) -> int:
    s[F_SOURCE] = source
    s[F_DECL_BY] = p
    s[F_DECL_CARD] = card
    s[F_DECL_TID] = tid
    s[F_DECL_TARGET] = target
    s[F_DECL_LANE] = lane
    s[F_DECL_OTHER] = other
    s[F_DECL_MODE] = mode
    s[F_NBLOCKS] = 0
    return OP_OPEN_WINDOW


@_jit()
def _start_turn(k: NDArray[np.int64], s: NDArray[np.int64], buf: NDArray[np.int64]) -> int:
    p = s[F_CURRENT]
    s[F_HAND_PLAYED] = 0
    s[F_NONFREE] = 0
    nsk = k[S_NSKIP] + p
    if s[nsk]:
        # SB-10: a SKIP in front of the player: discarding it is the whole turn.
        at = k[S_SKIPS] + p * k[K_SKIP_CAP]
        _discard(k, s, s[at])
        for j in range(s[nsk] - 1):
            s[at + j] = s[at + j + 1]
        s[nsk] -= 1
        return OP_END_TURN_NO_DRAW
    r = s[k[S_ROW] + p]
    if r < 0:
        return OP_BEGIN_HAND
    card = s[k[S_GRID] + r * _ML + s[k[S_LANE] + p]]
    board = k[k[K_T_BOARD_TID] + card]  # SB-3: as if played from hand, FREE disregarded
    kind = k[k[K_T_KIND] + board]
    if kind == SKIP:
        if not s[k[S_SPENT] + p]:
            # SB-10: once per arrival on the card; a Board Action, so it may be BLOCKed.
            s[k[S_SPENT] + p] = 1
            return _declare(s, p, SRC_BOARD, card, board, -1, -1, -1, M_NONE)
        return OP_BEGIN_HAND
    if kind == BLOCK:
        return OP_BEGIN_HAND  # a BLOCK under a token only protects it
    # One declaration only: declared without asking (the engine's own shortcut). A MOVE under
    # a token (not on START), an ALL or a DRAW has one form; a FOE has one per opponent.
    if kind in (MOVE, ALL, DRAW):
        return _declare_id(k, s, p, SRC_BOARD, card, k[k[K_T_BASE] + board])
    if kind == FOE and k[K_N] > 2:
        s[F_PHASE] = BOARD
        return OP_DONE
    if _options(k, s, p, board, buf, _int(0)) == 1:
        return _declare_id(k, s, p, SRC_BOARD, card, buf[0])
    s[F_PHASE] = BOARD
    return OP_DONE


@_jit(inline=True)
def _most_options(k: NDArray[np.int64]) -> int:
    return int(k[K_STEP_BASE] + k[K_N] * (k[K_MAX_LANES] + 1))


@_jit(inline=True)
def _declare_id(
    k: NDArray[np.int64], s: NDArray[np.int64], p: int, source: int, card: int, action: int
) -> int:
    d = k[K_T_DECODE] + 6 * action
    return _declare(s, p, source, card, k[d + 1], k[d + 2], k[d + 3], k[d + 4], k[d + 5])


@_jit(inline=True)
def _continue_hand(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    held = s[k[S_HMASK] + s[F_CURRENT]]
    # SB-3: any card but BLOCK; only FREE ones once the non-FREE card has been played.
    playable = held & (k[K_FREE_RANKS] if s[F_NONFREE] else k[K_PLAYABLE_RANKS]) != 0
    if playable or (held and not s[F_HAND_PLAYED]):
        s[F_PHASE] = HAND
        return OP_DONE
    return OP_END_TURN


@_jit(inline=True)
def _end_turn(k: NDArray[np.int64], s: NDArray[np.int64], draw: bool) -> int:
    p = s[F_CURRENT]
    if draw:
        # SB-3 Draw Action: up to the hand size, or one when already holding that many.
        nh = s[k[S_NHAND] + p]
        hs = k[K_HAND]
        _draw_cards(k, s, p, 1 if nh >= hs else hs - nh)
    s[F_CURRENT] = 0 if p + 1 == k[K_N] else p + 1
    s[F_SOURCE] = SRC_NONE
    return OP_START_TURN


@_jit(inline=True)
def _open_window(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    """SB-9 amended: a window asks everyone who could answer, BLOCK in hand or not: all but
    the seat whose BLOCK is on top, and the declarer only as ``self_block`` allows."""
    n = k[K_N]
    if s[F_NBLOCKS] > 0:
        exclude = s[k[S_BLOCK_BY] + s[F_NBLOCKS] - 1]
    else:
        own = k[K_SELF_BLOCK]
        may = own == SELF_ALL or (own == SELF_BOARD and s[F_SOURCE] == SRC_BOARD)
        exclude = -1 if may else s[F_DECL_BY]
    s[F_ASKED] = ((1 << n) - 1) & ~(0 if exclude < 0 else 1 << exclude)
    s[F_BLOCKERS] = 0
    s[F_PHASE] = WINDOW
    s[F_WINDOW_MOVE] = s[F_MOVE]
    return OP_DONE


@_jit(inline=True)
def _answer(k: NDArray[np.int64], s: NDArray[np.int64], q: int, block: bool) -> int:
    """SB-9 amended again: ``q``'s answer is only noted; when the last is in, the first BLOCKer
    in seating order after the answered player plays its BLOCK (the others keep theirs)."""
    s[F_ASKED] &= ~(1 << q)
    if block:
        s[F_BLOCKERS] |= 1 << q
    if s[F_ASKED]:
        return OP_DONE
    return _window_answered(k, s)


@_jit(inline=True)
def _window_answered(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    """The window's last answer is in: close it, or play the BLOCK that comes first."""
    blockers = s[F_BLOCKERS]
    s[F_BLOCKERS] = 0
    if not blockers:
        return OP_CLOSE_WINDOW
    n = k[K_N]
    nb = s[F_NBLOCKS]
    answered = s[k[S_BLOCK_BY] + nb - 1] if nb else s[F_DECL_BY]
    # The first BLOCKer after the answered seat in seating order, that seat itself last.
    b = _first_from(blockers, answered + 1 if answered + 1 < n else 0)
    # Its first BLOCK card in hand order; a BLOCK played out of turn is not replaced (SB-9).
    h = k[S_HANDS] + b * k[K_HAND_CAP]
    j = 0
    while not k[k[K_T_IS_BLOCK] + s[h + j]]:
        j += 1
    card = _remove_from_hand(k, s, b, j)
    s[k[S_BLOCK_BY] + nb] = b
    s[k[S_BLOCK_CARD] + nb] = card
    s[F_NBLOCKS] = nb + 1
    return OP_OPEN_WINDOW  # SB-9: a BLOCK can be blocked in a window of its own


@_jit(inline=True)
def _close_window(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    nb = s[F_NBLOCKS]
    for j in range(nb):
        _discard(k, s, s[k[S_BLOCK_CARD] + j])
    s[F_NBLOCKS] = 0
    s[F_ASKED] = 0
    if nb & 1:  # the last BLOCK played resolves first: an odd number cancels
        if s[F_SOURCE] == SRC_HAND:
            _discard(k, s, s[F_DECL_CARD])  # a cancelled board card stays on the board
        return OP_AFTER_EFFECT
    return _resolve(k, s)


@_jit()
def _resolve(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    p = s[F_DECL_BY]
    tid = s[F_DECL_TID]
    target = s[F_DECL_TARGET]
    lane = s[F_DECL_LANE]
    kind = k[k[K_T_KIND] + tid]
    amount = k[k[K_T_AMOUNT] + tid]
    from_hand = s[F_SOURCE] == SRC_HAND
    sr, sl = k[S_ROW], k[S_LANE]
    placed_skip = kind == SKIP and from_hand and not _on_block(k, s, target)
    if from_hand and not placed_skip:
        _discard(k, s, s[F_DECL_CARD])
    if kind == MOVE:
        _move_by(k, s, p, amount, lane, _int(0))
    elif kind == FOE:
        if not _on_block(k, s, target):
            _move_by(k, s, target, amount, lane, _int(0))
    elif kind == ALL:
        # SB-5: every token not on BLOCK moves; a minus move leaves START tokens out.
        c = 0
        for q in range(k[K_N]):
            if not _on_block(k, s, q) and not (s[sr + q] < 0 and amount < 0):
                s[F_CTX_LEFT + c] = q
                c += 1
        s[F_CTX] = C_ALL
        s[F_CTX_PLAYER] = p
        s[F_CTX_AMOUNT] = amount
        s[F_CTX_NLEFT] = c
        return OP_NEXT_STEP
    elif kind == SHIFT:
        if target >= 0:
            d = D_RIGHT if lane > s[sl + target] else D_LEFT
            _place(k, s, target, s[sr + target], lane, d, _int(0), k[K_EDGE])
    elif kind == TRADE:
        if target >= 0:
            b = s[F_DECL_OTHER]
            r, ln = s[sr + target], s[sl + target]
            s[sr + target], s[sl + target] = s[sr + b], s[sl + b]
            s[sr + b], s[sl + b] = r, ln
            s[k[S_SPENT] + target] = 0
            s[k[S_SPENT] + b] = 0
    elif kind == CUT:
        if target >= 0:
            x = s[F_DECL_OTHER]
            # SB-6: an occupant is bumped forward whichever way the cut goes.
            row, lane = s[sr + x] + 1, s[sl + x]
            _place(k, s, target, row, lane, _int(D_FORWARD), _int(0), k[K_EDGE])
    elif kind == DRAW:
        _draw_cards(k, s, p, k[K_DRAW_COUNT])
    elif kind == REVAMP:
        mode = s[F_DECL_MODE]
        if mode in (M_ADD_LEFT, M_ADD_RIGHT):
            return _add_lane(k, s, p, mode == M_ADD_LEFT)
        if mode == M_REMOVE:
            return _remove_lane(k, s, p, lane)
    elif kind == SKIP and not from_hand:
        return OP_END_TURN_NO_DRAW  # SB-10: the board SKIP is the whole turn
    elif placed_skip:  # a SKIP from hand, before its target (SB-10)
        nsk = k[S_NSKIP] + target
        s[k[S_SKIPS] + target * k[K_SKIP_CAP] + s[nsk]] = s[F_DECL_CARD]
        s[nsk] += 1
    # Called here rather than through the loop of operations: the commonest path after a
    # window, and a branch of its own predicts better than the loop's shared dispatch.
    return _after_effect(k, s)


@_jit()
def _after_effect(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    s[F_CTX] = C_NONE
    s[F_CTX_NLEFT] = 0
    if s[F_WINNER] >= 0:
        s[F_PHASE] = OVER
        return OP_DONE
    # SB-8: once every token has passed row 1, it goes (at most rows_removable rows).
    n = k[K_N]
    sr = k[S_ROW]
    g = k[S_GRID]
    while s[F_ROWS_REMOVED] < k[K_ROWS_REMOVABLE] and s[F_ROWS] > 1:
        low = s[sr]
        for q in range(1, n):
            low = min(low, s[sr + q])
        if low <= 0:
            break
        lanes = s[F_LANES]
        for ln in range(lanes):
            _discard(k, s, s[g + ln])
        rows = s[F_ROWS]
        for r in range(1, rows):
            for ln in range(lanes):
                s[g + (r - 1) * _ML + ln] = s[g + r * _ML + ln]
        s[F_ROWS] = rows - 1
        s[F_ROWS_REMOVED] += 1
        for q in range(n):
            s[sr + q] -= 1
    if s[F_SOURCE] == SRC_BOARD:
        return OP_BEGIN_HAND
    return _continue_hand(k, s)  # (as in _resolve)


@_jit()
def _add_lane(k: NDArray[np.int64], s: NDArray[np.int64], p: int, left: bool) -> int:
    """REVAMP adds a lane at an edge (SB-6), a card per row from the draw pile."""
    rows, lanes = s[F_ROWS], s[F_LANES]
    g = k[S_GRID]
    index = 0 if left else lanes
    for r in range(rows):
        if s[F_NDRAW] == 0:
            _refill(k, s)  # enough cards was checked when REVAMP was declared
        s[F_NDRAW] -= 1
        card = s[k[S_DRAW] + s[F_NDRAW]]
        for ln in range(lanes, index, -1):
            s[g + r * _ML + ln] = s[g + r * _ML + ln - 1]
        s[g + r * _ML + index] = card
    s[F_LANES] = lanes + 1
    if left:
        for q in range(k[K_N]):
            rq = s[k[S_ROW] + q]
            if 0 <= rq < rows:
                s[k[S_LANE] + q] += 1
    s[F_CTX] = C_JOIN
    s[F_CTX_PLAYER] = p
    s[F_CTX_LANE] = index
    return OP_NEXT_STEP


@_jit()
def _remove_lane(k: NDArray[np.int64], s: NDArray[np.int64], p: int, lane: int) -> int:
    """REVAMP removes a lane (SB-6); its tokens, in row order, wait to be placed."""
    rows, lanes = s[F_ROWS], s[F_LANES]
    g = k[S_GRID]
    sr, sl = k[S_ROW], k[S_LANE]
    for r in range(rows):
        _discard(k, s, s[g + r * _ML + lane])
        for ln in range(lane, lanes - 1):
            s[g + r * _ML + ln] = s[g + r * _ML + ln + 1]
    s[F_LANES] = lanes - 1
    n = k[K_N]
    c = 0
    for r in range(rows):  # a lane holds one token a row at most: by row is sorted
        for q in range(n):
            if s[sr + q] == r and s[sl + q] == lane:
                s[F_CTX_LEFT + c] = q
                c += 1
    for q in range(n):
        if s[sr + q] >= 0 and s[sl + q] > lane:
            s[sl + q] -= 1
    for j in range(c):
        s[sl + s[F_CTX_LEFT + j]] = -1  # off the board until placed; its row is kept
    s[F_CTX] = C_PLACE
    s[F_CTX_PLAYER] = p
    s[F_CTX_NLEFT] = c
    return OP_NEXT_STEP


@_jit(inline=True)
def _next_step(k: NDArray[np.int64], s: NDArray[np.int64], buf: NDArray[np.int64]) -> int:
    ctx = s[F_CTX]
    if ctx in (C_ALL, C_PLACE) and s[F_CTX_NLEFT] == 0:
        return OP_AFTER_EFFECT
    if _step_options(k, s, buf) == 1:
        return _take_step(k, s, buf[0])
    s[F_PHASE] = STEP
    return OP_DONE


@_jit()
def _take_step(k: NDArray[np.int64], s: NDArray[np.int64], action: int) -> int:
    d = k[K_T_DECODE] + 6 * action
    q = k[d + 2]
    lane = k[d + 3]
    ctx = s[F_CTX]
    sr, sl = k[S_ROW], k[S_LANE]
    if ctx == C_ALL:
        _ctx_remove(s, q)
        _move_by(k, s, q, s[F_CTX_AMOUNT], lane, _ctx_bits(s))
        if s[F_WINNER] >= 0:
            # SB-5: every token still moves; the first to reach FINISH has won, so the rest
            # move in seat order (entering lane 1) without asking.
            while s[F_CTX_NLEFT]:
                o = s[F_CTX_LEFT]
                _ctx_remove(s, o)
                _move_by(k, s, o, s[F_CTX_AMOUNT], _int(0), _ctx_bits(s))
            return OP_AFTER_EFFECT
        return OP_NEXT_STEP
    if ctx == C_PLACE:
        _ctx_remove(s, q)
        s[sl + q] = lane
        s[k[S_SPENT] + q] = 0
        return OP_NEXT_STEP
    if lane >= 0:  # join the new lane
        r = s[sr + q]
        row = _int(0) if r < 0 else r
        _place(k, s, q, row, lane, _int(D_FORWARD), _int(0), _int(EDGE_BACKWARD))
    return OP_AFTER_EFFECT


@_jit(inline=True)
def _ctx_remove(s: NDArray[np.int64], q: int) -> None:
    c = s[F_CTX_NLEFT]
    j = 0
    while s[F_CTX_LEFT + j] != q:
        j += 1
    for x in range(j, c - 1):
        s[F_CTX_LEFT + x] = s[F_CTX_LEFT + x + 1]
    s[F_CTX_NLEFT] = c - 1


@_jit(inline=True)
def _ctx_bits(s: NDArray[np.int64]) -> int:
    bits = _int(0)
    for j in range(s[F_CTX_NLEFT]):
        bits |= 1 << s[F_CTX_LEFT + j]
    return bits


@_jit()
def _run_ops(k: NDArray[np.int64], s: NDArray[np.int64], op: int, buf: NDArray[np.int64]) -> None:
    """Run the turn's operations until a decision is asked for or the game is over (``buf``:
    scratch for lists of options, :func:`_most_options` long)."""
    while op != OP_DONE:
        if op == OP_START_TURN:
            op = _start_turn(k, s, buf)
        elif op == OP_BEGIN_HAND:
            s[F_SOURCE] = SRC_NONE
            op = OP_CONTINUE_HAND
        elif op == OP_CONTINUE_HAND:
            op = _continue_hand(k, s)
        elif op == OP_END_TURN:
            op = _end_turn(k, s, True)
        elif op == OP_END_TURN_NO_DRAW:
            op = _end_turn(k, s, False)
        elif op == OP_OPEN_WINDOW:
            op = _open_window(k, s)
        elif op == OP_CLOSE_WINDOW:
            op = _close_window(k, s)
        elif op == OP_AFTER_EFFECT:
            op = _after_effect(k, s)
        else:
            op = _next_step(k, s, buf)


# -- the stepping interface ----------------------------------------------------------------------


@_jit()
def _reset(
    k: NDArray[np.int64], s: NDArray[np.int64], seed: np.uint64, buf: NDArray[np.int64]
) -> None:
    for j in range(s.shape[0]):
        s[j] = 0
    n, d = k[K_N], k[K_D]
    s[F_RNG] = np.int64(seed)
    s[F_WINNER] = -1
    s[F_ROWS] = k[K_ROWS0]
    s[F_LANES] = k[K_LANES0]
    dr = k[S_DRAW]
    for j in range(d):
        s[dr + j] = j
    _shuffle(k, s, dr, d)
    top = d
    g = k[S_GRID]
    for r in range(k[K_ROWS0]):  # SB-1: the board, row by row, from the top of the deck
        for ln in range(k[K_LANES0]):
            top -= 1
            s[g + r * _ML + ln] = s[dr + top]
    s[F_NDRAW] = top
    for q in range(n):
        s[k[S_ROW] + q] = -1
        s[k[S_LANE] + q] = -1
        _draw_cards(k, s, q, k[K_HAND])  # the deal, sorted as the engine sorts it
    # SB-3: a random first player, Rng.below(players).
    st = np.uint64(s[F_RNG])
    limit = np.uint64(k[K_BELOW_LIMIT])
    while True:
        st += _GAMMA
        x = _mix(st)
        if limit == _ZERO or x < limit:
            break
    s[F_RNG] = np.int64(st)
    s[F_CURRENT] = np.int64(x % np.uint64(n))
    _run_ops(k, s, _int(OP_START_TURN), buf)


@_jit(cache=True, owns=True)
def reset_one(k: NDArray[np.int64], states: NDArray[np.int64], i: int, seed: np.uint64) -> None:
    """Deal game ``i`` (row ``i`` of ``states``) as ``Setback.new_initial_state(seed)`` and run
    it to its first decision."""
    _reset(k, states[i], seed, np.empty(_most_options(k), np.int64))


@_jit(inline=True)
def _ones(mask: int) -> int:
    c = 0
    while mask:
        mask &= mask - 1
        c += 1
    return c


@_jit(inline=True)
def _first_from(mask: int, q: int) -> int:
    """The first seat of a non-empty bit set in seating order from seat ``q`` (bit scans: a
    division by the number of seats would cost more than the rest of a window answer)."""
    m = np.uint64(mask)
    high = m >> np.uint64(q)
    if high:
        return int(q + np.int64(_trailing(high)))
    return int(np.int64(_trailing(m)))


@_jit(inline=True)
def _current(k: NDArray[np.int64], s: NDArray[np.int64]) -> int:
    ph = s[F_PHASE]
    if ph == OVER:
        return -1
    if ph == WINDOW:
        return _first_from(s[F_ASKED], s[F_CURRENT])
    if ph == STEP:
        return int(s[F_CTX_PLAYER])
    return int(s[F_CURRENT])


@_jit(cache=True)
def current_player(k: NDArray[np.int64], states: NDArray[np.int64], i: int) -> int:
    """The seat game ``i`` asks now: the engine's ``pending[0]`` (in a BLOCK window, the first
    still asked in seating order from the player on turn); -1 once the game is over."""
    return _current(k, states[i])


@_jit()
def _legal(k: NDArray[np.int64], s: NDArray[np.int64], out: NDArray[np.int64]) -> int:
    ph = s[F_PHASE]
    if ph == OVER:
        return 0
    p = _current(k, s)
    if ph == WINDOW:
        # SB-9 amended: everyone who could answer is asked; without a BLOCK, only to pass.
        pass_id = k[K_END_ID] + 3
        if _has_block(k, s, p):
            out[0] = pass_id - 1
            out[1] = pass_id
            return 2
        out[0] = pass_id
        return 1
    if ph == STEP:
        return _step_options(k, s, out)
    if ph == BOARD:
        r, ln = s[k[S_ROW] + p], s[k[S_LANE] + p]
        board = k[k[K_T_BOARD_TID] + s[k[S_GRID] + r * _ML + ln]]
        return _options(k, s, p, board, out, _int(0))
    return _hand_options(k, s, p, out)


@_jit(cache=True)
def legal(k: NDArray[np.int64], states: NDArray[np.int64], i: int, out: NDArray[np.int64]) -> int:
    """Write the legal actions of game ``i``'s asked seat into ``out`` (action ids of the
    encoding, in the order of the engine's ``legal_actions``); return how many."""
    return _legal(k, states[i], out)


@_jit()
def _apply(k: NDArray[np.int64], s: NDArray[np.int64], action: int, buf: NDArray[np.int64]) -> None:
    p = _current(k, s)
    s[F_MOVE] += 1
    d = k[K_T_DECODE] + 6 * action
    cls = k[d]
    ph = s[F_PHASE]
    if ph == WINDOW:
        op = _answer(k, s, p, cls == A_BLOCK)
    elif ph == STEP:
        op = _take_step(k, s, action)
    elif ph == BOARD:
        r, ln = s[k[S_ROW] + p], s[k[S_LANE] + p]
        op = _declare_id(k, s, p, SRC_BOARD, s[k[S_GRID] + r * _ML + ln], action)
    elif cls == A_PLAY:
        tid = k[d + 1]
        h = k[S_HANDS] + p * k[K_HAND_CAP]
        j = 0
        while k[k[K_T_HAND_TID] + s[h + j]] != tid:  # its first card of that type
            j += 1
        card = _remove_from_hand(k, s, p, j)
        s[F_HAND_PLAYED] += 1
        if not k[k[K_T_FREE] + tid]:
            s[F_NONFREE] = 1
        op = _declare_id(k, s, p, SRC_HAND, card, action)
    elif cls == A_DISCARD:
        _discard(k, s, _remove_from_hand(k, s, p, s[k[S_NHAND] + p] - 1))
        op = OP_END_TURN
    else:
        op = OP_END_TURN
    _run_ops(k, s, op, buf)
    _check_length(k, s)


@_jit(inline=True)
def _check_length(k: NDArray[np.int64], s: NDArray[np.int64]) -> None:
    """The ``max_moves`` bound, after every accepted action: the game ends where it stands.
    The cards of an open window go to the discards (a board card stays on the board);
    BLOCKs answered but not played stay in their owners' hands."""
    if s[F_MOVE] >= k[K_MAX_MOVES] and s[F_PHASE] != OVER:
        if s[F_PHASE] == WINDOW:
            if s[F_SOURCE] == SRC_HAND:
                _discard(k, s, s[F_DECL_CARD])
            for j in range(s[F_NBLOCKS]):
                _discard(k, s, s[k[S_BLOCK_CARD] + j])
        s[F_NBLOCKS] = 0
        s[F_ASKED] = 0
        s[F_BLOCKERS] = 0
        s[F_CTX] = C_NONE
        s[F_CTX_NLEFT] = 0
        s[F_PHASE] = OVER


@_jit(cache=True, owns=True)
def apply(k: NDArray[np.int64], states: NDArray[np.int64], i: int, action: int) -> None:
    """Game ``i``'s asked seat (:func:`current_player`) takes ``action``, one of its legal ids
    (unchecked, as ``apply_unchecked``); the game runs on to the next decision, and ends at
    ``max_moves`` accepted actions at the latest."""
    _apply(k, states[i], action, np.empty(_most_options(k), np.int64))


@_jit(cache=True)
def is_over(k: NDArray[np.int64], states: NDArray[np.int64], i: int) -> bool:
    """Whether game ``i`` is over (a token reached FINISH, or ``max_moves``)."""
    return bool(states[i][F_PHASE] == OVER)


@_jit()
def _returns(
    k: NDArray[np.int64], s: NDArray[np.int64], scores: NDArray[np.int64], ranks: NDArray[np.int64]
) -> int:
    n = k[K_N]
    rows = s[F_ROWS]
    w = s[F_WINNER]
    for q in range(n):
        r = s[k[S_ROW] + q]
        scores[q] = rows + 1 if r >= rows or q == w else r + 1
    # Setback.outcome: the winner first, the rest by progress; after max_moves, by progress.
    for q in range(n):
        key = (0 if q == w else 2 + rows - scores[q]) if w >= 0 else -scores[q]
        rank = 1
        for o in range(n):
            ko = (0 if o == w else 2 + rows - scores[o]) if w >= 0 else -scores[o]
            if ko < key:
                rank += 1
        ranks[q] = rank
    return int(w)


@_jit(cache=True)
def returns(
    k: NDArray[np.int64],
    states: NDArray[np.int64],
    i: int,
    scores: NDArray[np.int64],
    ranks: NDArray[np.int64],
) -> int:
    """Game ``i``'s scores (each token's progress, ``Setback.progress``) and ranks (rank 1
    wins: the first at FINISH, or after ``max_moves`` everyone farthest) into the arrays;
    return the seat at FINISH first, or -1."""
    return _returns(k, states[i], scores, ranks)


def _data_pointer(typingctx: Any, arr: Any) -> Any:
    """The data pointer of an array (a Numba intrinsic)."""
    sig = _types.CPointer(arr.dtype)(arr)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return sig, codegen


_data: Any = intrinsic(_data_pointer)


@_jit(inline=True)
def _bare(a: NDArray[np.int64]) -> NDArray[np.int64]:
    """A view of ``a``'s data without its reference count (``a`` must outlive it): the play
    loop's calls then count no references at all."""
    view: NDArray[np.int64] = carray(_data(a), a.shape[0])
    return view


@_jit(inline=True)
def _bare_f(a: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`_bare` of a float array."""
    view: NDArray[np.float64] = carray(_data(a), a.shape[0])
    return view


# -- the heuristic bot (racedeck.bots.setback) ---------------------------------------------------


@_jit(inline=True)
def _progress(k: NDArray[np.int64], s: NDArray[np.int64], q: int) -> int:
    r = s[k[S_ROW] + q]
    return int(s[F_ROWS] + 1 if r >= s[F_ROWS] else r + 1)


@_jit()
def _threat(k: NDArray[np.int64], s: NDArray[np.int64], me: int, q: int) -> float:
    """The bot's weight of ``q``'s progress: -1 for itself, 1.6 for a leading rival, else 0.6.
    ``q = -1`` (a board SKIP's missing target) reads the last seat's token, as Python's
    ``tokens[-1]`` does in the bot."""
    if q == me:
        return -1.0
    n = k[K_N]
    lead = -(1 << 30)
    for o in range(n):
        if o != me:
            lead = max(lead, _progress(k, s, o))
    return 1.6 if _progress(k, s, q if q >= 0 else q + n) == lead else 0.6


@_jit()
def _landing(
    k: NDArray[np.int64], w: NDArray[np.float64], s: NDArray[np.int64], row: int, lane: int
) -> float:
    if row >= s[F_ROWS]:
        return 100.0  # FINISH wins
    if row < 0 or lane < 0:
        return 0.0
    return float(w[s[k[S_GRID] + row * _ML + lane]])


@_jit()
def _move_value(
    k: NDArray[np.int64],
    w: NDArray[np.float64],
    s: NDArray[np.int64],
    me: int,
    q: int,
    amount: int,
    lane: int,
) -> float:
    row = s[k[S_ROW] + q]
    if row < 0:
        if amount <= 0:
            return 0.0
        new_row, new_lane = amount - 1, lane
    else:
        new_row, new_lane = row + amount, s[k[S_LANE] + q]
    gained = max(-1, min(new_row, s[F_ROWS])) - row
    value = gained + _landing(k, w, s, new_row, new_lane)
    if new_row >= s[F_ROWS]:
        value += 100.0
    return float(-_threat(k, s, me, q) * value)


@_jit()
def _score_play(
    k: NDArray[np.int64],
    w: NDArray[np.float64],
    s: NDArray[np.int64],
    me: int,
    tid: int,
    target: int,
    lane: int,
    other: int,
) -> float:
    kind = k[k[K_T_KIND] + tid]
    amount = k[k[K_T_AMOUNT] + tid]
    free = k[k[K_T_FREE] + tid] != 0
    sr, sl = k[S_ROW], k[S_LANE]
    if kind == MOVE:
        return _move_value(k, w, s, me, me, amount, lane) + (0.2 if free else 0.0)
    if kind == FOE:
        if _on_block(k, s, target):
            return -0.5 + (0.3 if free else 0.0)  # FAQ 4: a way to get rid of a card
        return _move_value(k, w, s, me, target, amount, lane)
    if kind == ALL:
        total = 0.0
        for q in range(k[K_N]):
            if not _on_block(k, s, q) and not (s[sr + q] < 0 and amount < 0):
                total += _move_value(k, w, s, me, q, amount, max(lane, 0))
        return total
    if kind == DRAW:
        return 1.0
    if kind == SKIP:
        return 1.0 + _threat(k, s, me, target)
    if kind == TRADE and target >= 0:
        pa, pb = _progress(k, s, target), _progress(k, s, other)
        return _threat(k, s, me, target) * (pa - pb) + _threat(k, s, me, other) * (pb - pa)
    if kind == CUT and target >= 0:
        gained = s[sr + other] + 1 + 1 - _progress(k, s, target)
        return float(-_threat(k, s, me, target) * gained)
    if kind == SHIFT and target >= 0:
        row, own = s[sr + target], s[sl + target]
        delta = _landing(k, w, s, row, lane) - _landing(k, w, s, row, own)
        return -_threat(k, s, me, target) * delta * 0.5
    return 0.05  # REVAMP, or a card played for no effect


@_jit()
def _score(
    k: NDArray[np.int64], w: NDArray[np.float64], s: NDArray[np.int64], me: int, action: int
) -> float:
    """``SetbackHeuristicBot._score`` of one legal action (outside a window)."""
    d = k[K_T_DECODE] + 6 * action
    cls = k[d]
    if cls == A_PLAY:
        return _score_play(k, w, s, me, k[d + 1], k[d + 2], k[d + 3], k[d + 4])
    if cls == A_STEP:
        q, lane = k[d + 2], k[d + 3]
        ctx = s[F_CTX]
        if ctx == C_ALL:
            return _move_value(k, w, s, me, q, s[F_CTX_AMOUNT], lane)
        if ctx == C_JOIN:
            if lane < 0:
                return 0.0
            return 0.1 + (1.0 if s[k[S_ROW] + me] < 0 else 0.0)  # leaving START
        # REVAMP placement: give rivals bad cards, ourselves good ones.
        row = s[k[S_ROW] + q]
        return -_threat(k, s, me, q) * _landing(k, w, s, row, lane)
    return 0.0  # end, discard


@_jit()
def _worth_blocking(
    k: NDArray[np.int64], w: NDArray[np.float64], s: NDArray[np.int64], me: int
) -> bool:
    """``SetbackHeuristicBot._worth_blocking``: the declared action's value to the bot, whoever
    declared it; with an even number of BLOCKs on it, block what costs a row or more, with an
    odd number, save what is worth a row or more."""
    player = s[F_DECL_BY]
    tid = s[F_DECL_TID]
    target = s[F_DECL_TARGET]
    lane = s[F_DECL_LANE]
    kind = k[k[K_T_KIND] + tid]
    amount = k[k[K_T_AMOUNT] + tid]
    if kind == MOVE:
        value = _move_value(k, w, s, me, player, amount, lane)
    elif player == me:
        value = _score_play(k, w, s, me, tid, target, lane, s[F_DECL_OTHER])
    elif kind == FOE and not _on_block(k, s, target):
        value = _move_value(k, w, s, me, target, amount, lane)
    elif kind == ALL:
        value = 0.0
        for q in range(k[K_N]):
            if not _on_block(k, s, q):
                value += _move_value(k, w, s, me, q, amount, _int(0))
    elif kind == SKIP and target == me:
        value = -1.5
    elif kind in (TRADE, CUT, SHIFT) and target >= 0:
        value = _score_play(k, w, s, me, tid, target, lane, s[F_DECL_OTHER])
    else:
        value = 0.0
    if not s[F_NBLOCKS] & 1:
        return value <= -1.0
    return value >= 1.0


@_jit(cache=True)
def heuristic_scores(
    k: NDArray[np.int64],
    w: NDArray[np.float64],
    states: NDArray[np.int64],
    i: int,
    actions: NDArray[np.int64],
    count: int,
    out: NDArray[np.float64],
) -> None:
    """The heuristic bot's score of each of the ``count`` legal ``actions`` of game ``i``'s
    asked seat (outside a BLOCK window), into ``out``."""
    s = states[i]
    me = _current(k, s)
    for j in range(count):
        out[j] = _score(k, w, s, me, actions[j])


@_jit()
def _heuristic(
    k: NDArray[np.int64],
    w: NDArray[np.float64],
    s: NDArray[np.int64],
    acts: NDArray[np.int64],
    nl: int,
    vals: NDArray[np.float64],
    best: NDArray[np.int64],
    pol: NDArray[np.uint64],
    scripted: bool,
    choice: int,
    none: NDArray[np.uint32],
) -> int:
    """The heuristic bot's index among the ``nl`` legal actions ``acts`` (``none``: an empty
    script for :func:`_pick`)."""
    me = _current(k, s)
    if s[F_PHASE] == WINDOW:
        if nl == 2 and _worth_blocking(k, w, s, me):
            return 0  # block
        return nl - 1  # pass
    top = -np.inf
    for j in range(nl):
        v = _score(k, w, s, me, acts[j])
        vals[j] = v
        if v > top:
            top = v
    nb = 0
    for j in range(nl):
        if vals[j] >= top - _TIE:
            best[nb] = j
            nb += 1
    if scripted:
        return int(best[choice % nb])
    if nb == 1:
        return int(best[0])
    return int(best[_pick(nb, pol, False, none, 0)])


# -- whole games ---------------------------------------------------------------------------------


@_jit(cache=True, owns=True)
def _play(
    k: NDArray[np.int64],
    w: NDArray[np.float64],
    seeds: NDArray[np.uint64],
    policies: NDArray[np.int64],
    scripted: bool,
    choices: NDArray[np.uint32],
    record: bool,
    scores_out: NDArray[np.int32],
    ranks_out: NDArray[np.int32],
    first_out: NDArray[np.int32],
    moves_out: NDArray[np.int32],
    taken_out: NDArray[np.int16],
) -> int:
    n = k[K_N]
    # Working arrays as bare views of their data (no reference count): every call of a
    # compiled function would otherwise count its array arguments in and out, atomically,
    # which cost more than the rules themselves.
    owned_k = k
    k = _bare(owned_k)
    owned_w = w
    w = _bare_f(owned_w)
    s_owned = np.zeros(k[K_WIDTH], np.int64)
    s = _bare(s_owned)
    most = _most_options(k)
    acts_owned = np.empty(most, np.int64)
    acts = _bare(acts_owned)
    scratch_owned = np.empty(most, np.int64)
    scratch = _bare(scratch_owned)
    vals_owned = np.empty(most, np.float64)
    vals = _bare_f(vals_owned)
    best_owned = np.empty(most, np.int64)
    best = _bare(best_owned)
    pol = np.zeros(4, np.uint64)
    sc = np.empty(n, np.int64)
    rk = np.empty(n, np.int64)
    none = np.zeros((1, 1), np.uint32)
    plain = not scripted and not record
    for q in range(n):
        if policies[q] != RANDOM:
            plain = False
    for b in range(seeds.shape[0]):
        _reset(k, s, seeds[b], scratch)
        pol[0] = _derive(seeds[b], _ONE)  # the policy's own stream, as the WF kernel's
        pol[2] = 0
        dk = 0
        while s[F_PHASE] != OVER:
            asked = s[F_ASKED]
            if s[F_PHASE] == WINDOW and s[F_MOVE] + _ones(asked) <= k[K_MAX_MOVES]:
                # A whole BLOCK window at once: the answers are concealed (SB-9), so none
                # changes what the others are asked; the seats answer in asking order, each
                # decision as the general loop below would take it, and no answer but the
                # last can reach max_moves.
                cur = s[F_CURRENT]
                blockers = 0
                if plain:  # random seats only: only the BLOCK holders draw, in asking order
                    count = _ones(asked)
                    dk += count
                    s[F_MOVE] += count
                    held = 0
                    for q in range(n):
                        if (asked >> q) & 1 and _has_block(k, s, q):
                            held |= 1 << q
                    asked = held
                while asked:
                    seat = _first_from(asked, cur)
                    asked ^= 1 << seat
                    if plain:
                        if _pick(2, pol, False, none, 0) == 0:
                            blockers |= 1 << seat
                        continue
                    nl = 2 if _has_block(k, s, seat) else 1
                    if policies[seat] == HEURISTIC:
                        a = 0 if nl == 2 and _worth_blocking(k, w, s, seat) else nl - 1
                    elif scripted:
                        a = int(choices[b, dk]) % nl
                    elif nl == 1:
                        a = 0
                    else:
                        a = _pick(2, pol, False, none, 0)
                    if record:
                        taken_out[b, dk] = a
                    dk += 1
                    s[F_MOVE] += 1
                    if nl == 2 and a == 0:
                        blockers |= 1 << seat
                s[F_ASKED] = 0
                s[F_BLOCKERS] = blockers
                _run_ops(k, s, _window_answered(k, s), scratch)
                _check_length(k, s)
                continue
            nl = _legal(k, s, acts)
            seat = _current(k, s)
            choice = int(choices[b, dk]) if scripted else 0
            if policies[seat] == HEURISTIC:
                a = _heuristic(k, w, s, acts, nl, vals, best, pol, scripted, choice, none)
            elif scripted:
                a = choice % nl
            elif nl == 1:
                a = 0
            else:
                a = _pick(nl, pol, False, none, 0)
            if record:
                taken_out[b, dk] = a
            dk += 1
            _apply(k, s, acts[a], scratch)
        first_out[b] = _returns(k, s, sc, rk)
        for q in range(n):
            scores_out[b, q] = sc[q]
            ranks_out[b, q] = rk[q]
        moves_out[b] = s[F_MOVE]
    # The owners of the bare views live to here: a use at the end keeps them.
    return int(owned_k[0] + s_owned[0] + acts_owned[0] + scratch_owned[0] + best_owned[0]) + int(
        owned_w[0] + vals_owned[0]
    )


# -- the Python face -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SetbackResult:
    """What a batch of games came to; row ``i`` is game ``i``, columns are seats.

    ``scores`` (int32, games × players): each token's progress, the engine's scores (0 on
    START, ``row + 1`` on a card, ``rows + 1`` at FINISH); ``ranks`` (int32) and ``winners``
    (bool) as :meth:`Setback.outcome` gives them; ``first`` (int32): the seat at FINISH first,
    -1 when ``max_moves`` ended the game; ``moves`` (int32): accepted actions; ``seeds``
    (uint64): each game's deal seed. ``decisions`` (int16, games ×
    :attr:`SetbackBatch.max_decisions`, only when recorded): every decision's index into the
    legal actions of the moment, in asking order, -1 after the last.
    """

    seeds: NDArray[np.uint64]
    scores: NDArray[np.int32]
    ranks: NDArray[np.int32]
    winners: NDArray[np.bool_]
    first: NDArray[np.int32]
    moves: NDArray[np.int32]
    decisions: NDArray[np.int16] | None

    @property
    def games(self) -> int:
        """Number of games."""
        return int(self.seeds.shape[0])

    def win_shares(self) -> NDArray[np.float64]:
        """Each seat's share of the wins, a shared win split equally."""
        return win_shares(self.winners)


class SetbackBatch:
    """Plays many games of one configuration (:meth:`play`), and holds what the stepping
    functions take: :attr:`tables` (``k``) and :attr:`worth` (``w``), rows of :attr:`width`
    columns (:meth:`new_states`), lists of :attr:`max_legal` ids; :meth:`state_json` reads a
    row back in the engine's terms (see the module docstring)."""

    def __init__(self, config: SetbackConfig) -> None:
        config.validate()
        self.config = config
        self.players = config.players
        self.tables, self.worth = build_tables(config)

    @property
    def width(self) -> int:
        """Columns of a state row."""
        return int(self.tables[K_WIDTH])

    @property
    def max_legal(self) -> int:
        """Length enough for any list of legal actions: the size of the action space."""
        return int(_most_options(self.tables))

    @property
    def max_decisions(self) -> int:
        """Most decisions one game asks for (``max_moves``): the columns ``choices`` needs."""
        return self.config.max_moves

    def new_states(self, games: int) -> NDArray[np.int64]:
        """Rows for ``games`` states, to :func:`reset_one` before use."""
        return np.zeros((games, self.width), np.int64)

    def compile_stepping(self) -> None:
        """Compile the stepping functions (Numba's cache keeps them: ``racedeck compile``):
        one game stepped to its end with each of them."""
        k, states = self.tables, self.new_states(1)
        out = np.empty(self.max_legal, np.int64)
        values = np.empty(self.max_legal, np.float64)
        reset_one(k, states, 0, np.uint64(0))
        # The first decision is a turn's (no BLOCK window is open), which the scores read.
        heuristic_scores(k, self.worth, states, 0, out, legal(k, states, 0, out), values)
        while not is_over(k, states, 0):
            legal(k, states, 0, out)
            current_player(k, states, 0)
            apply(k, states, 0, int(out[0]))
        returns(k, states, 0, np.zeros(self.players, np.int64), np.zeros(self.players, np.int64))

    def state_json(self, states: NDArray[np.int64], i: int) -> dict[str, Any]:
        """Game ``i``'s state in the keys and forms of ``SetbackState.to_json`` (all but the
        stack, the pending seats and the resolving card's context): for tests and debugging."""
        k, s = self.tables, states[i]
        n = self.players

        def block(slot: int, j: int, size: int) -> list[int]:
            at = int(k[slot]) + j
            return [int(x) for x in s[at : at + size]]

        rows, lanes = int(s[F_ROWS]), int(s[F_LANES])
        grid = [block(S_GRID, r * _ML, lanes) for r in range(rows)]
        hands = [block(S_HANDS, q * int(k[K_HAND_CAP]), int(s[k[S_NHAND] + q])) for q in range(n)]
        skips = [block(S_SKIPS, q * int(k[K_SKIP_CAP]), int(s[k[S_NSKIP] + q])) for q in range(n)]
        current = int(s[F_CURRENT])
        order = [(current + j) % n for j in range(n)]
        return {
            "players": n,
            "grid": grid,
            "rows_removed": int(s[F_ROWS_REMOVED]),
            "row": block(S_ROW, 0, n),
            "lane": block(S_LANE, 0, n),
            "hands": hands,
            "draw": block(S_DRAW, 0, int(s[F_NDRAW])),
            "discard": block(S_DISCARD, 0, int(s[F_NDISCARD])),
            "skip_cards": skips,
            "skip_spent": [bool(x) for x in block(S_SPENT, 0, n)],
            "current": current,
            "phase": ("board", "hand", "window", "step", "over")[int(s[F_PHASE])],
            "source": ("", "board", "hand")[int(s[F_SOURCE])],
            "hand_played": int(s[F_HAND_PLAYED]),
            "nonfree_played": bool(s[F_NONFREE]),
            "asked": [q for q in order if int(s[F_ASKED]) >> q & 1],
            "blockers": [q for q in range(n) if int(s[F_BLOCKERS]) >> q & 1],
            "winner": int(s[F_WINNER]),
            "move": int(s[F_MOVE]),
            "rng": int(s[F_RNG]) & _MASK64,
        }

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
    ) -> SetbackResult:
        """Play whole games.

        ``games``: how many (game ``i`` is dealt by ``derive_seed(seed, i)``), or the deal
        seeds themselves. ``policies``: one policy name for every seat or one per seat
        (:data:`POLICIES`). ``choices`` (games × at least :attr:`max_decisions`, uint32):
        scripted play instead of random draws (which otherwise come from each game's stream
        seeded with ``derive_seed(seeds[i], 1)``). ``record``: also keep every decision
        (:class:`SetbackResult`). Both take :attr:`max_decisions` columns a game (80 KB of
        choices, 40 KB of decisions under the default ``max_moves``), meant for thousands of
        games rather than millions.
        """
        seeds = batch_seeds(games, seed, self.seeds)
        count = int(seeds.shape[0])
        codes = policy_codes(policies, self.players)
        scripted = choices is not None
        script = script_of(choices, count, self.max_decisions)
        n = self.players
        scores = np.zeros((count, n), np.int32)
        ranks = np.zeros((count, n), np.int32)
        first = np.zeros(count, np.int32)
        moves = np.zeros(count, np.int32)
        taken = np.full((count if record else 1, self.max_decisions if record else 1), -1, np.int16)
        _play(
            self.tables,
            self.worth,
            seeds,
            codes,
            scripted,
            script,
            record,
            scores,
            ranks,
            first,
            moves,
            taken,
        )
        return SetbackResult(
            seeds, scores, ranks, ranks == 1, first, moves, taken if record else None
        )
