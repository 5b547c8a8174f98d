"""Many games at once, stepped in compiled code: a pgx-style batch and a Gymnasium ``VectorEnv``.

:class:`VectorGame` is the multi-agent face, as pgx has it: ``reset(seed)`` deals ``num_envs``
games and ``step(actions)`` takes one action in each, by the seat to act there; both return a
:class:`VectorStep` of NumPy arrays — the observation of the seat to act (the game's float32
encoding of that seat's view, as every face gives it), the legal-action mask over the game's
action encoding, the seat to act, every seat's reward and whether the game ended. A game that
ends is dealt again at once (auto-reset): the step returns the new game's observation and keeps
the ended one's in ``final_observation``.

>>> import numpy as np
>>> from racedeck.rl.vector import VectorGame
>>> games = VectorGame("why-first", num_envs=1024, players=4)
>>> out = games.reset(seed=0)
>>> out.observation.shape, out.action_mask.shape
((1024, 80), (1024, 36))
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask])
>>> out = games.step(actions)

**Self-play** is :class:`VectorGame` with one policy for every seat: each step, the policy
acts for ``current_player`` of every game from that seat's observation and mask, and each
seat's experience is that seat's own (observation, action) pairs, credited with its column of
``rewards`` when its game ends. For instance, a learner against copies of itself:

>>> policy = lambda obs, mask: np.where(mask, rng.random(mask.shape), -1).argmax(axis=1)
>>> out = games.reset(seed=1)
>>> trajectories = {}                               # (game, seat) -> decisions of this episode
>>> for _ in range(100):
...     actions = policy(out.observation, out.action_mask)
...     for i, (seat, a) in enumerate(zip(out.current_player, actions)):
...         trajectories.setdefault((i, int(seat)), []).append((out.observation[i], a))
...     out = games.step(actions)
...     for i in np.flatnonzero(out.terminated):   # credit every seat of a game that ended
...         for seat in range(games.players):
...             decisions = trajectories.pop((i, seat), [])  # ... learn from them, reward:
...             reward = out.rewards[i, seat]

Against past selves, keep copies of the policy's weights and give each seat of a game its own
(seat ``s`` of game ``i`` → version ``v[i, s]``), choosing per row by ``current_player``.

:class:`RacedeckVectorEnv` is the single-agent face for standard trainers: one learning seat
per game against opponents that play in compiled code (the heuristic bot by default, as the
single environment has it, or at random), registered as the
``vector_entry_point`` of the Gymnasium ids, so that

    gymnasium.make_vec("racedeck/WhyFirst-v0", num_envs=1024,
                       vectorization_mode="vector_entry_point", players=4)

gives it, with the mask in ``info["action_mask"]`` (``(num_envs, num_actions)``, int8, as the
single environment gives it). Rewards, termination and the observation are those of
:class:`racedeck.rl.single.RacedeckGym`: the learner's share of the win at the end, else 0.
It resets in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): the observation of a game
that ended is in ``info["final_obs"]`` (``info["_final_obs"]`` says which), the one returned is
the next game's first.

**Same games as the engine.** Game ``i``'s episode ``k`` is dealt from ``derive_seed(s_i, k)``,
where ``s_i = derive_seed(seed, i)`` for ``reset(seed)``; a kernel deals a seed exactly as the
engine's ``new_initial_state`` and follows the engine's rules decision by decision (tested:
:mod:`racedeck.kernels`). No Python object is made per game on a step: the whole batch is one
call into Numba.

Games with a step kernel: :func:`racedeck.kernels.registry.step_kernel_games`.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

import racedeck
from racedeck.bots.policy import Policy, choose, is_policy
from racedeck.core.rng import derive_seed
from racedeck.kernels.batch import POLICIES, StateBatch, random_legal
from racedeck.kernels.registry import step_kernel
from racedeck.rl.observations.base import HIGH, LOW
from racedeck.rl.single import LearnerSeat, checked_seat

__all__ = ["RacedeckVectorEnv", "VectorGame", "VectorStep"]

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class VectorStep:
    """What :meth:`VectorGame.reset` and :meth:`VectorGame.step` return (one row per game)."""

    observation: NDArray[np.float32]
    """The observation of the seat to act, ``(num_envs, observation_size)``."""
    action_mask: NDArray[np.bool_]
    """The legal actions of the seat to act, ``(num_envs, num_actions)``."""
    current_player: NDArray[np.int64]
    """The seat to act."""
    rewards: NDArray[np.float32]
    """Every seat's reward for this step, ``(num_envs, players)``: its share of the win in a
    game that just ended, else 0."""
    terminated: NDArray[np.bool_]
    """The game ended by its rules on this step (and was dealt again)."""
    truncated: NDArray[np.bool_]
    """Never: every game of these rules ends by itself (all ``False``)."""
    final_observation: NDArray[np.float32]
    """For a game that ended on this step, the observation of the seat that ended it, of the
    ended game (other rows: zeros)."""


_FIELDS = tuple(f.name for f in fields(VectorStep))


def _seeds(seed: int | Sequence[int] | NDArray[Any] | None, count: int) -> NDArray[np.uint64]:
    """Each game's seed: ``derive_seed(seed, i)``, the given seeds, or fresh entropy."""
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, int | np.integer):
        return np.array([derive_seed(int(seed), i) for i in range(count)], dtype=np.uint64)
    given = np.array([int(s) & _MASK64 for s in seed], dtype=np.uint64)
    if given.shape != (count,):
        raise ValueError(f"give one seed or {count} seeds, not {given.shape[0]}")
    return given


class VectorGame:
    """``num_envs`` games of one configuration, every seat played by the caller (see the
    module docstring). ``game_id`` and the configuration's options (``players=4`` …) choose
    the game."""

    def __init__(self, game_id: str, num_envs: int, **config: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be 1 or more, not {num_envs}")
        self.game = racedeck.make(game_id, **config)
        self.kernel = step_kernel(self.game)
        self.num_envs = num_envs
        self.players = self.kernel.players
        self.num_actions = self.kernel.num_actions
        self.observation_size = self.kernel.observation_size
        self.states = StateBatch(self.kernel, num_envs)
        self._sampling = np.zeros(num_envs, np.uint64)
        self._spare: VectorStep | None = None
        """The step before the last: its arrays are written again when nothing else holds
        them (:meth:`_outputs`)."""
        self._last = self._fresh()
        """The arrays of the last step (its mask checks the next actions)."""
        self._ready = False

    def _fresh(self) -> VectorStep:
        """New arrays for a step's outputs, which the compiled step writes in place (nothing
        is copied: a step's arrays are megabytes at a thousand games)."""
        n = self.num_envs
        return VectorStep(
            np.empty((n, self.observation_size), np.float32),
            np.empty((n, self.num_actions), np.bool_),
            np.empty(n, np.int64),
            np.zeros((n, self.players), np.float32),
            np.zeros(n, np.bool_),
            np.zeros(n, np.bool_),
            np.zeros((n, self.observation_size), np.float32),  # pages untouched stay free
        )

    def _outputs(self) -> VectorStep:
        """The arrays for a step's outputs: the step-before-last's again when nothing outside
        holds them or any view of them (no step's arrays are ever overwritten while someone
        can read them), else new ones. Writing memory already in use spares the page faults
        of fresh megabytes on every step."""
        spare, self._spare = self._spare, None
        # A reference is ours (`spare`) and one is getrefcount's argument; each array's are
        # its field's and the argument's.
        if spare is None or sys.getrefcount(spare) > 2:
            return self._fresh()
        if any(sys.getrefcount(getattr(spare, name)) > 2 for name in _FIELDS):
            return self._fresh()
        # Only the rows of games that ended hold a final observation; the rest stay zero.
        ended = spare.terminated
        if ended.any():
            spare.final_observation[ended] = 0.0
        return spare

    def reset(self, seed: int | Sequence[int] | NDArray[Any] | None = None) -> VectorStep:
        """Deal every game: from ``derive_seed(seed, i)`` (a whole number), one seed per game
        (a sequence), or fresh entropy (``None``)."""
        states = self.states
        seeds = _seeds(seed, self.num_envs)
        states.reset(seeds)
        self._sampling[:] = [derive_seed(int(s), 2) for s in seeds]
        out = self._fresh()
        out.current_player[:] = states.current_player()
        out.action_mask[:] = states.legal_mask()
        out.observation[:] = states.observe(out.current_player)
        self._last = out
        self._ready = True
        return out

    def step(self, actions: NDArray[Any] | Sequence[int]) -> VectorStep:
        """The seat to act in every game takes ``actions[i]``, an index of the action encoding
        that its mask allows (:class:`ValueError`, naming the games, otherwise; nothing is
        stepped then)."""
        if not self._ready:
            raise RuntimeError("no games yet: call reset() first")
        taken = _actions(actions, self.num_envs, self.num_actions, self._last.action_mask)
        s = self.states
        out = self._outputs()
        s.fn.step(
            s.ints, s.bits, taken, s.seeds, s.episodes, s.tables, s.streams,
            out.observation, out.action_mask, out.current_player, out.rewards, out.terminated,
            out.final_observation,
        )  # fmt: skip
        self._spare, self._last = self._last, out
        return out

    def random_actions(self) -> NDArray[np.int64]:
        """An action for every game, uniform among the legal ones of the seat to act, drawn
        in compiled code (one pass over each mask) from a stream per game seeded by
        :meth:`reset`'s seeds: the random baseline, and a cheap way to step many games."""
        if not self._ready:
            raise RuntimeError("no games yet: call reset() first")
        out = np.empty(self.num_envs, np.int64)
        random_legal(self._last.action_mask, self._sampling, out)
        return out

    def heuristic_actions(self) -> NDArray[np.int64]:
        """An action for every game, the game's heuristic bot's for the seat to act (its ties
        drawn from the same per-game streams as :meth:`random_actions`), in compiled code: a
        teacher for imitation and a baseline to improve on. :class:`ValueError` for a game
        without a compiled heuristic."""
        if not self._ready:
            raise RuntimeError("no games yet: call reset() first")
        if self.kernel.heuristic_action is None:
            raise ValueError(f"{self.game.spec.id} has no compiled heuristic")
        out = np.empty(self.num_envs, np.int64)
        s = self.states
        s.fn.heuristic_all(s.ints, s.bits, self._last.action_mask, s.tables, self._sampling, out)
        return out


def _new_episodes(policy: Policy, which: NDArray[np.bool_]) -> None:
    """Tell a per-game policy (:mod:`racedeck.rl.selfplay`) which games start an episode."""
    tell = getattr(policy, "new_episodes", None)
    if tell is not None:
        tell(which)


def _actions(
    actions: NDArray[Any] | Sequence[int], count: int, num_actions: int, mask: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """``actions`` as one legal index per game, or a :class:`ValueError` naming what is
    wrong: a step changes nothing unless every game's action is legal."""
    taken = np.asarray(actions)
    if taken.shape != (count,) or not np.issubdtype(taken.dtype, np.integer):
        raise ValueError(
            f"actions must be {count} whole numbers (one per game), not {taken.dtype} of "
            f"shape {taken.shape}"
        )
    taken = taken.astype(np.int64)
    inside = (taken >= 0) & (taken < num_actions)
    legal = np.zeros(count, np.bool_)
    legal[inside] = mask[np.flatnonzero(inside), taken[inside]]
    if not legal.all():
        bad = np.flatnonzero(~legal)
        shown = ", ".join(f"game {i}: {taken[i]}" for i in bad[:5])
        more = f" and {bad.size - 5} more" if bad.size > 5 else ""
        raise ValueError(
            f"illegal actions ({shown}{more}); the legal ones are where action_mask is true"
        )
    return taken


class RacedeckVectorEnv(gymnasium.vector.VectorEnv[NDArray[np.float32], NDArray[np.int64], Any]):
    """``num_envs`` games, one learner seat each against compiled opponents, as a Gymnasium
    ``VectorEnv`` (see the module docstring). ``game_id`` and the configuration's options
    choose the game; ``opponents`` plays every other seat: ``"random"`` or ``"heuristic"`` (the
    game's heuristic bot, compiled: same evaluation, same ties), or a policy
    (:mod:`racedeck.bots.policy`, asked once a round for all the games where another seat is to
    act, between compiled steps);
    ``learner_seat`` is one seat for every game, or ``"random"``: each game's own, drawn from
    its seed at :meth:`reset` and kept for its episodes."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's instance-level default)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str,
        num_envs: int = 1,
        *,
        opponents: str | Policy = "heuristic",
        learner_seat: LearnerSeat = 0,
        **config: Any,
    ) -> None:
        self.games = VectorGame(game_id, num_envs, **config)
        known = [p for p in POLICIES if p != "heuristic" or self.games.kernel.heuristic_action]
        self._opponent: Policy | None = None
        """A policy playing the other seats (else the compiled ``opponents``)."""
        if is_policy(opponents):
            self._opponent = opponents  # type: ignore[assignment]
            opponents = "random"  # (not asked)
        elif opponents not in known:
            raise ValueError(
                f"unknown opponents {opponents!r} (compiled ones: {', '.join(known)}, "
                "or a policy: racedeck.bots.policy)"
            )
        n = self.games.players
        self.learner_seat: LearnerSeat = checked_seat(learner_seat, n)
        self.opponents = opponents if self._opponent is None else self._opponent
        self._policy = POLICIES[str(opponents)]
        self.num_envs = num_envs
        size, actions = self.games.observation_size, self.games.num_actions
        self.single_observation_space = spaces.Box(LOW, HIGH, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(LOW, HIGH, (num_envs, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.learners = np.zeros(num_envs, np.int64)
        """Each game's learner seat."""
        self._obs = np.zeros((num_envs, size), np.float32)
        self._spare_obs: NDArray[np.float32] | None = None
        self._final = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.bool_)
        self._reward = np.zeros(num_envs, np.float32)
        self._done = np.zeros(num_envs, np.bool_)
        self._scratch = np.zeros(n, np.float32)
        self._ready = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal every game and play the opponents up to each learner's first decision (a
        game that ends before it is dealt again)."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        seeds = _seeds(seed, self.num_envs)
        s = self.games.states
        s.reset(seeds)
        if self.learner_seat == "random":
            draw = np.array([derive_seed(int(x), 1 << 32) for x in seeds], dtype=np.uint64)
            self.learners[:] = (draw % np.uint64(self.games.players)).astype(np.int64)
        else:
            self.learners[:] = self.learner_seat
        if self._opponent is not None:
            _new_episodes(self._opponent, np.ones(self.num_envs, np.bool_))
        self._step(np.full(self.num_envs, -1, np.int64))
        self._ready = True
        return self._obs, {"action_mask": self._mask.astype(np.int8)}

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[
        NDArray[np.float32],
        NDArray[np.float32],
        NDArray[np.bool_],
        NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Every learner takes its action; the opponents play to the learner's next decision;
        games that ended are dealt again (same step)."""
        if not self._ready:
            raise RuntimeError("no games yet: call reset() first")
        taken = _actions(actions, self.num_envs, self.games.num_actions, self._mask)
        self._step(taken)
        info: dict[str, Any] = {"action_mask": self._mask.astype(np.int8)}
        if self._done.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(self._done):
                final[i] = self._final[i]
            info["final_obs"] = final
            info["_final_obs"] = self._done.copy()
        return self._obs, self._reward, self._done, np.zeros(self.num_envs, np.bool_), info

    def action_masks(self) -> NDArray[np.bool_]:
        """The learners' legal actions now, ``(num_envs, num_actions)``."""
        return self._mask.copy()

    def _step_against(self, policy: Policy, actions: NDArray[np.int64]) -> None:
        """The step of :meth:`_step` with a policy in the other seats: the learners act (-1:
        not), then the policy, asked once a round for every game where another seat is to act,
        until each learner is asked; games that end are dealt again, as in the compiled step.
        """
        s = self.games.states
        rows = np.arange(self.num_envs)
        s.apply(actions)
        self._to_learners(policy)
        over = s.current_player() < 0
        self._reward[:] = s.rewards()[rows, self.learners]
        self._done[:] = over
        if over.any():
            self._final[over] = s.observe(self.learners)[over]
        while over.any():  # a game may end again before its learner is asked
            s.next_episode(over)
            _new_episodes(policy, over)
            self._to_learners(policy)
            over = s.current_player() < 0
        self._mask[:] = s.legal_mask()
        self._obs[:] = s.observe(self.learners)

    def _to_learners(self, policy: Policy) -> None:
        """The policy plays every other seat until each game waits for its learner or ends."""
        s = self.games.states
        while True:
            players = s.current_player()
            turn = (players >= 0) & (players != self.learners)
            if not turn.any():
                return
            chosen = np.full(self.num_envs, -1, np.int64)
            asked: Policy = policy
            if getattr(policy, "per_game", False):  # it wants to know the rows' games
                asked = partial(policy, games=np.flatnonzero(turn))  # type: ignore[call-arg]
            chosen[turn] = choose(
                asked, s.observe(np.maximum(players, 0))[turn], s.legal_mask()[turn]
            )
            s.apply(chosen)

    def _step(self, actions: NDArray[np.int64]) -> None:
        # Arrays of its own for each step, written in place by the compiled step: what a step
        # returned is never overwritten while anyone holds it, and nothing is copied. The
        # observations of the step before the last are written again when nothing (no view
        # either) holds them: that spares the page faults of fresh megabytes every step.
        # (Final observations come zeroed by the system, and only ended games' rows are
        # written.)
        n, size = self.num_envs, self.games.observation_size
        spare, self._spare_obs = self._spare_obs, None
        if spare is None or sys.getrefcount(spare) > 2:  # ours (`spare`) and the argument
            spare = np.empty((n, size), np.float32)
        self._spare_obs, self._obs = self._obs, spare
        self._final = np.zeros((n, size), np.float32)
        self._reward = np.empty(n, np.float32)
        self._done = np.empty(n, np.bool_)
        if self._opponent is not None:
            self._step_against(self._opponent, actions)
            return
        s = self.games.states
        s.fn.step_learner(
            s.ints, s.bits, actions, self.learners, self._policy, s.seeds, s.episodes, s.tables,
            s.streams, self._obs, self._mask, self._reward, self._done, self._final, self._scratch,
        )  # fmt: skip
