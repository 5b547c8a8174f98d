"""Batches of game states stepped in compiled loops, for any game with a step kernel.

A game's *step kernel* (:class:`StepKernel`) is its rules over rows of two arrays — ``ints``
(int64) and ``bits`` (uint64), one row per game — as Numba functions of one shape for every
game, each also given ``tables``, whatever the game's rules read (a tuple: the configuration,
and views into the two arrays where a game names its fields):

- ``reset_one(ints, bits, i, seed, tables)``: game ``i`` becomes the engine's
  ``new_initial_state(seed)``;
- ``current_player(ints, bits, i, tables)``: the seat the engine's drivers ask next, -1 once
  the game is over;
- ``legal(ints, bits, i, tables, mask) -> int``: the legal actions as a mask over the game's
  action encoding (``mask``, one row), and how many;
- ``apply(ints, bits, i, action, tables)``: the seat to act takes a legal action (unchecked),
  and the game runs on to the next decision or its end;
- ``observe(ints, bits, i, seat, tables, out)``: ``seat``'s observation, the game's float32
  encoding of that seat's view, from what the view holds only;
- ``rewards(ints, bits, i, tables, out)``: each seat's share of the win once over, else 0;
- ``heuristic_action(ints, bits, i, mask, count, tables, streams) -> int`` (optional): the
  game's heuristic bot's choice, its ties drawn from ``streams[i]``.

:class:`StateBatch` runs these over a whole batch, one compiled loop per call, and
:meth:`StateBatch.step` and :meth:`StateBatch.step_learner` are the fused steps of
:mod:`racedeck.rl.vector`: act, see which games ended, deal them again (auto-reset, the ended
game's observation kept) and make every next observation and mask, with no Python object per
game. Random choices (:func:`random_action`) come from one SplitMix64 stream per game,
``streams[i]``, seeded ``derive_seed(seed, 1)`` with the game's seed.

Episode ``k`` of game ``i`` is dealt from ``derive_seed(seeds[i], k)``
(:func:`racedeck.core.rng.derive_seed`), so a batch's seeds fix every game it will ever play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from racedeck.kernels.loops import compiled_loops
from racedeck.kernels.whole_games import POLICIES
from racedeck.kernels.why_first import _ONE, _jit

__all__ = [
    "POLICIES",
    "BatchFunctions",
    "StateBatch",
    "StepKernel",
    "put_clipped",
    "random_action",
    "random_legal",
]

Arrays = tuple[NDArray[np.int64], NDArray[np.uint64], tuple[Any, ...]]
"""A batch's ``ints``, ``bits`` and ``tables``."""


@dataclass(frozen=True)
class StepKernel:
    """One game and configuration as a step kernel (see the module docstring)."""

    players: int
    num_actions: int
    observation_size: int
    arrays: Callable[[int], Arrays]
    """Room for a batch of so many games: ``ints``, ``bits`` and the ``tables`` to pass."""
    reset_one: Any
    current_player: Any
    legal: Any
    apply: Any
    observe: Any
    rewards: Any
    heuristic_action: Any = None
    """``None`` when the game has no compiled heuristic."""


@_jit(cache=True)
def random_action(streams: NDArray[np.uint64], i: int, mask: NDArray[np.bool_], count: int) -> int:
    """An action uniform among the ``count`` legal ones of ``mask`` (one row), from game
    ``i``'s stream (32 bits a draw, exact by rejection)."""
    un = np.uint64(count)
    low32 = np.uint64(0xFFFFFFFF)
    while True:
        streams[i] += np.uint64(0x9E3779B97F4A7C15)
        z = streams[i]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
        m = (z & low32) * un
        low = m & low32
        if low >= un or low >= ((low32 - un + _ONE) % un):
            k = int(m >> np.uint64(32))
            break
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@_jit(inline=True)
def put_clipped(out: NDArray[np.float32], at: int, x: float) -> None:
    """``out[at] = x`` clipped to [-1, 1], as the observation encoders clip every scaled
    entry."""
    out[at] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


@_jit(cache=True)
def random_legal(
    mask: NDArray[np.bool_], streams: NDArray[np.uint64], out: NDArray[np.int64]
) -> None:
    """Every row's action uniform among the legal ones of its ``mask`` row, drawn from
    ``streams[i]`` (:func:`random_action`); -1 for a row with none."""
    for i in range(mask.shape[0]):
        row = mask[i]
        count = 0
        for a in range(row.shape[0]):
            count += row[a]
        out[i] = random_action(streams, i, row, count) if count else -1


@numba.njit
def _no_heuristic(ints: Any, bits: Any, i: int, mask: Any, count: int, t: Any, streams: Any) -> int:
    """The heuristic of a game that has none: never called (the faces refuse "heuristic"
    for such a game), but compiled into the loops in its place."""
    return -1


@dataclass(frozen=True)
class BatchFunctions:
    """The compiled loops over a batch for one game's kernel functions."""

    reset_all: Callable[..., None]
    deal_all: Callable[..., None]
    deal_where: Callable[..., None]
    players: Callable[..., None]
    legal_all: Callable[..., None]
    apply_all: Callable[..., None]
    observe_all: Callable[..., None]
    rewards_all: Callable[..., None]
    step: Callable[..., None]
    step_learner: Callable[..., None]
    heuristic_all: Callable[..., None]


def batch_functions(
    reset_one: Any,
    current_player: Any,
    legal: Any,
    apply: Any,
    observe: Any,
    rewards: Any,
    heuristic_action: Any,
) -> BatchFunctions:
    """The loops of :class:`BatchFunctions` (:mod:`racedeck.kernels.batch_loops`) compiled
    around one game's kernel functions, cached like the kernels
    (:func:`racedeck.kernels.loops.compiled_loops`)."""
    from racedeck.kernels import batch_loops  # it imports this module's random_action

    made = compiled_loops(
        batch_loops,
        {
            "reset_one": reset_one,
            "current_player": current_player,
            "legal": legal,
            "apply": apply,
            "observe": observe,
            "rewards": rewards,
            "heuristic_action": heuristic_action,
            "random_action": random_action,
        },
    )
    return BatchFunctions(
        made["reset_all"],
        made["deal_all"],
        made["deal_where"],
        made["players"],
        made["legal_all"],
        made["apply_all"],
        made["observe_all"],
        made["rewards_all"],
        made["step"],
        made["step_learner"],
        made["heuristic_all"],
    )


class StateBatch:
    """``batch`` games of one kernel, stepped one decision at a time."""

    def __init__(self, kernel: StepKernel, batch: int) -> None:
        self.kernel = kernel
        self.batch = batch
        self.ints, self.bits, self.tables = kernel.arrays(batch)
        self.streams = np.zeros(batch, np.uint64)
        """Each game's stream of random choices (:func:`random_action`)."""
        self.seeds = np.zeros(batch, np.uint64)
        self.episodes = np.zeros(batch, np.int64)
        self.fn = batch_functions(
            kernel.reset_one,
            kernel.current_player,
            kernel.legal,
            kernel.apply,
            kernel.observe,
            kernel.rewards,
            kernel.heuristic_action or _no_heuristic,
        )

    def reset(self, seeds: NDArray[np.uint64]) -> None:
        """Deal episode 0 of every game: game ``i`` from ``derive_seed(seeds[i], 0)``."""
        self.seeds[:] = seeds.astype(np.uint64)
        self.episodes[:] = 0
        self.fn.reset_all(
            self.ints, self.bits, self.seeds, self.episodes, self.tables, self.streams
        )

    def deal(self, seeds: NDArray[np.uint64]) -> None:
        """Deal game ``i`` exactly as the engine's ``new_initial_state(seeds[i])`` does."""
        self.seeds[:] = seeds.astype(np.uint64)
        self.episodes[:] = 0
        self.fn.deal_all(self.ints, self.bits, self.seeds, self.tables, self.streams)

    def next_episode(self, which: NDArray[np.bool_]) -> None:
        """The games ``which`` marks start their next episode (auto-reset: episode ``k`` of
        game ``i`` from ``derive_seed(seeds[i], k)``)."""
        self.fn.deal_where(
            self.ints, self.bits, self.seeds, self.episodes, which, self.tables, self.streams
        )

    def current_player(self) -> NDArray[np.int64]:
        """The seat to act in every game (-1: over)."""
        out = np.empty(self.batch, np.int64)
        self.fn.players(self.ints, self.bits, self.tables, out)
        return out

    def legal_mask(self) -> NDArray[np.bool_]:
        """Every game's legal actions, as a mask over the action encoding."""
        out = np.zeros((self.batch, self.kernel.num_actions), np.bool_)
        self.fn.legal_all(self.ints, self.bits, self.tables, out)
        return out

    def apply(self, actions: NDArray[np.int64]) -> None:
        """The seat to act in every game that is not over takes its action (a legal one:
        unchecked; a negative one: that game waits)."""
        self.fn.apply_all(self.ints, self.bits, actions.astype(np.int64), self.tables)

    def observe(self, seats: NDArray[np.int64]) -> NDArray[np.float32]:
        """Every game's observation by the seat ``seats[i]``."""
        out = np.zeros((self.batch, self.kernel.observation_size), np.float32)
        self.fn.observe_all(self.ints, self.bits, seats.astype(np.int64), self.tables, out)
        return out

    def rewards(self) -> NDArray[np.float32]:
        """Every game's rewards per seat (0 until it is over)."""
        out = np.zeros((self.batch, self.kernel.players), np.float32)
        self.fn.rewards_all(self.ints, self.bits, self.tables, out)
        return out
