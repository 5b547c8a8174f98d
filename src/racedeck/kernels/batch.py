"""Batches of game states stepped in compiled loops, for any game with a step kernel.

A game's *step kernel* (:class:`StepKernel`) is its rules over one row of two arrays — ``ints``
(int64) and ``bits`` (uint64) — as Numba functions of one shape for every game:

- ``reset_one(ints, bits, i, seed, tables)``: row ``i`` becomes the engine's
  ``new_initial_state(seed)``;
- ``current_player(ints, i)``: the seat the engine's drivers ask next, -1 once over;
- ``legal(ints, bits, i, tables, out) -> int``: the legal actions as a mask over the game's
  action encoding, and how many;
- ``apply(ints, bits, i, action, tables)``: the seat to act takes a legal action (unchecked),
  and the game runs on to the next decision or its end;
- ``observe(ints, bits, i, seat, tables, out)``: ``seat``'s observation, the game's float32
  encoding of that seat's view;
- ``rewards(ints, i, tables, out)``: each seat's reward once over;
- ``random_action(ints, bits, i, mask, count) -> int``: a legal action uniformly, from the
  row's own stream;
- ``heuristic_action(ints, bits, i, mask, count, tables) -> int`` (optional): the game's
  heuristic bot's choice, ties drawn from the row's stream.

``tables`` is whatever the game's rules read (a tuple of arrays). :class:`StateBatch` runs
these over a whole batch in one compiled loop per call, and :meth:`StateBatch.step` and
:meth:`StateBatch.step_learner` are the fused steps of :mod:`racedeck.rl.vector`: act, see
which games ended, deal them again (auto-reset, the ended game's observation kept) and make
every next observation and mask, with no Python object per game.

Episode ``k`` of game ``i`` is dealt from ``derive_seed(seeds[i], k)``
(:func:`racedeck.core.rng.derive_seed`), so a batch's seeds fix every game it will ever play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from racedeck.kernels.why_first import _derive

__all__ = ["POLICIES", "BatchFunctions", "StateBatch", "StepKernel"]


@dataclass(frozen=True)
class StepKernel:
    """One game and configuration as a step kernel (see the module docstring)."""

    game_id: str
    players: int
    num_actions: int
    observation_size: int
    int_width: int
    """Entries of a row of ``ints``."""
    bit_width: int
    """Entries of a row of ``bits``."""
    tables: tuple[Any, ...]
    reset_one: Any
    current_player: Any
    legal: Any
    apply: Any
    observe: Any
    rewards: Any
    random_action: Any
    heuristic_action: Any = None
    """``None`` when the game has no compiled heuristic."""


POLICIES = {"random": 0, "heuristic": 1}
"""The opponents that play in compiled code, and their codes."""


@numba.njit
def _no_heuristic(ints: Any, bits: Any, i: int, mask: Any, count: int, t: Any) -> int:
    """The heuristic of a game that has none: never called (the faces refuse "heuristic"
    for such a game), but compiled into the loops in its place."""
    return -1


@dataclass(frozen=True)
class BatchFunctions:
    """The compiled loops over a batch for one game's kernel functions."""

    reset_all: Callable[..., None]
    deal_all: Callable[..., None]
    players: Callable[..., NDArray[np.int64]]
    legal_all: Callable[..., None]
    apply_all: Callable[..., None]
    observe_all: Callable[..., None]
    rewards_all: Callable[..., None]
    step: Callable[..., None]
    step_learner: Callable[..., None]


@cache
def batch_functions(
    reset_one: Any,
    current_player: Any,
    legal: Any,
    apply: Any,
    observe: Any,
    rewards: Any,
    random_action: Any,
    heuristic_action: Any,
) -> BatchFunctions:
    """The loops of :class:`BatchFunctions` compiled around one game's kernel functions
    (once per process and game: Numba compiles the closures on their first call)."""
    jit = numba.njit

    @jit
    def reset_all(ints, bits, seeds, episodes, t):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            reset_one(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t)

    @jit
    def deal_all(ints, bits, seeds, t):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            reset_one(ints, bits, i, seeds[i], t)

    @jit
    def players(ints):  # type: ignore[no-untyped-def]
        out = np.empty(ints.shape[0], np.int64)
        for i in range(ints.shape[0]):
            out[i] = current_player(ints, i)
        return out

    @jit
    def legal_all(ints, bits, t, out):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            legal(ints, bits, i, t, out[i])

    @jit
    def apply_all(ints, bits, actions, t):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            if current_player(ints, i) >= 0:
                apply(ints, bits, i, actions[i], t)

    @jit
    def observe_all(ints, bits, seats, t, out):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            observe(ints, bits, i, seats[i], t, out[i])

    @jit
    def rewards_all(ints, t, out):  # type: ignore[no-untyped-def]
        for i in range(ints.shape[0]):
            rewards(ints, i, t, out[i])

    @jit
    def step(  # type: ignore[no-untyped-def]
        ints, bits, actions, seeds, episodes, t, obs, mask, player, rew, done, final_obs
    ):
        # Every seat is a learner: the seat to act in each game takes its action.
        for i in range(ints.shape[0]):
            seat = current_player(ints, i)
            apply(ints, bits, i, actions[i], t)
            rewards(ints, i, t, rew[i])
            done[i] = current_player(ints, i) < 0
            if done[i]:
                observe(ints, bits, i, seat, t, final_obs[i])
                episodes[i] += 1
                reset_one(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t)
            player[i] = current_player(ints, i)
            legal(ints, bits, i, t, mask[i])
            observe(ints, bits, i, player[i], t, obs[i])

    @jit
    def to_learner(ints, bits, i, learner, policy, t, mask):  # type: ignore[no-untyped-def]
        # The other seats play (POLICIES) until the learner is asked or the game is over.
        while True:
            seat = current_player(ints, i)
            if seat < 0 or seat == learner:
                return
            count = legal(ints, bits, i, t, mask)
            if policy == 1:
                action = heuristic_action(ints, bits, i, mask, count, t)
            else:
                action = random_action(ints, bits, i, mask, count)
            apply(ints, bits, i, action, t)

    @jit
    def step_learner(  # type: ignore[no-untyped-def]
        ints,
        bits,
        actions,
        learner,
        policy,
        seeds,
        episodes,
        t,
        obs,
        mask,
        rew,
        done,
        final_obs,
        scratch,
    ):
        for i in range(ints.shape[0]):
            if actions[i] >= 0:
                apply(ints, bits, i, actions[i], t)
            to_learner(ints, bits, i, learner[i], policy, t, mask[i])
            rewards(ints, i, t, scratch)
            rew[i] = scratch[learner[i]]
            done[i] = current_player(ints, i) < 0
            if done[i]:
                observe(ints, bits, i, learner[i], t, final_obs[i])
            while current_player(ints, i) < 0:  # a game may end before the learner is asked
                episodes[i] += 1
                reset_one(ints, bits, i, _derive(seeds[i], np.uint64(episodes[i])), t)
                to_learner(ints, bits, i, learner[i], policy, t, mask[i])
            legal(ints, bits, i, t, mask[i])
            observe(ints, bits, i, learner[i], t, obs[i])

    return BatchFunctions(
        reset_all,
        deal_all,
        players,
        legal_all,
        apply_all,
        observe_all,
        rewards_all,
        step,
        step_learner,
    )


class StateBatch:
    """``batch`` games of one kernel, stepped one decision at a time."""

    def __init__(self, kernel: StepKernel, batch: int) -> None:
        self.kernel = kernel
        self.batch = batch
        self.ints = np.zeros((batch, kernel.int_width), np.int64)
        self.bits = np.zeros((batch, kernel.bit_width), np.uint64)
        self.seeds = np.zeros(batch, np.uint64)
        self.episodes = np.zeros(batch, np.int64)
        self.fn = batch_functions(
            kernel.reset_one,
            kernel.current_player,
            kernel.legal,
            kernel.apply,
            kernel.observe,
            kernel.rewards,
            kernel.random_action,
            kernel.heuristic_action or _no_heuristic,
        )

    def reset(self, seeds: NDArray[np.uint64]) -> None:
        """Deal episode 0 of every game: game ``i`` from ``derive_seed(seeds[i], 0)``."""
        self.seeds[:] = seeds.astype(np.uint64)
        self.episodes[:] = 0
        self.fn.reset_all(self.ints, self.bits, self.seeds, self.episodes, self.kernel.tables)

    def deal(self, seeds: NDArray[np.uint64]) -> None:
        """Deal game ``i`` exactly as the engine's ``new_initial_state(seeds[i])`` does."""
        self.seeds[:] = seeds.astype(np.uint64)
        self.episodes[:] = 0
        self.fn.deal_all(self.ints, self.bits, self.seeds, self.kernel.tables)

    def current_player(self) -> NDArray[np.int64]:
        """The seat to act in every game (-1: over)."""
        return self.fn.players(self.ints)

    def legal_mask(self) -> NDArray[np.bool_]:
        """Every game's legal actions, as a mask over the action encoding."""
        out = np.zeros((self.batch, self.kernel.num_actions), np.bool_)
        self.fn.legal_all(self.ints, self.bits, self.kernel.tables, out)
        return out

    def apply(self, actions: NDArray[np.int64]) -> None:
        """The seat to act in every game that is not over takes its action (a legal one:
        unchecked)."""
        self.fn.apply_all(self.ints, self.bits, actions.astype(np.int64), self.kernel.tables)

    def observe(self, seats: NDArray[np.int64]) -> NDArray[np.float32]:
        """Every game's observation by the seat ``seats[i]``."""
        out = np.zeros((self.batch, self.kernel.observation_size), np.float32)
        self.fn.observe_all(self.ints, self.bits, seats.astype(np.int64), self.kernel.tables, out)
        return out

    def rewards(self) -> NDArray[np.float32]:
        """Every game's rewards per seat (0 until it is over)."""
        out = np.zeros((self.batch, self.kernel.players), np.float32)
        self.fn.rewards_all(self.ints, self.kernel.tables, out)
        return out
