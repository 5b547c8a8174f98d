"""Learning from the search: a network trained on the compiled search's decisions in games
it plays against itself (the first step of expert iteration, as in AlphaZero's and
ExIt's apprentices).

The teacher is :class:`~racedeck.kernels.search.KernelSearch` (``fastsearch``'s search) at
``teacher_iterations`` per decision, playing every seat. Each decision with more than one
legal action gives a sample: the seat's observation (the environments' encoding of its view),
its legal actions, the search's visit shares over them (the policy's target), and what the
seat's actions are worth (the value's target: the mean of the search's root value and the
share of the win the seat got at the end). The network has one output per action, trained by
cross-entropy against the visit shares over the legal actions, and one value output, trained by
squared error. The policy plays the highest legal output; the value serves reports and
searches.

Data comes in *chunks* of ``chunk_games`` games, chunk ``k`` dealt from ``derive_seed(seed,
k)`` and searched in worker processes; each chunk is saved in ``out/data`` as it arrives, then
the network takes ``reuse`` passes' worth of minibatches drawn from all the data so far (from
the chunk's own seed), then the run checkpoints. Chunks are learned in order, so a run is the
same for its seed however many workers search, and a run stopped (Ctrl-C) and resumed
(:meth:`ExpertTrainer.resume`) goes on exactly as if never stopped: saved chunks are reloaded,
not searched again.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.bots.policy import MLPPolicy
from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.plugins import plugin
from racedeck.rl.checkpoint import POLICY, Checkpoint, RunSettings, run_dir, save_npz
from racedeck.rl.evaluation import Evaluation, HeuristicEvaluation
from racedeck.rl.network import Adam, make_network
from racedeck.rl.vector import VectorGame

__all__ = ["ChunkStats", "ExpertSettings", "ExpertTrainer", "teacher_games"]

DATA = "data"
"""The folder of a run's directory where the searched chunks are saved."""

Samples = dict[str, NDArray[Any]]
"""A chunk's samples: ``obs`` (float16), ``mask`` (bool), ``policy`` (float16 visit shares),
``value`` (float32 targets)."""


@dataclass(frozen=True)
class ExpertSettings(RunSettings):
    """What a run is: the game and configuration, the teacher, the network, the schedule."""

    teacher_iterations: int = 1000
    """The search's iterations per decision."""
    explore: float = 0.1
    """The share of the teacher's moves drawn from its visit shares instead of the most
    visited (for more varied positions)."""
    chunk_games: int = 32
    lr: float = 1e-3
    batch: int = 512
    reuse: float = 32.0
    """Minibatch samples drawn per new sample (passes over the data, on average)."""
    value_weight: float = 0.25
    """The value's squared error's weight beside the policy's cross-entropy (small: the
    value head shares the layers and must not shake the policy the heuristic started)."""
    average: float = 0.995
    """The decay of the weights' moving average, per update (see
    :attr:`ExpertTrainer.average`)."""
    search_lr: float = 3e-4
    """The learning rate once the search's samples come (after the heuristic's, at ``lr``)."""
    warm_samples: int = 2_000_000
    """Decisions of the heuristic bot imitated before the search's (0: none): a start at
    the heuristic's strength in a minute or two (:meth:`ExpertTrainer.imitate_heuristic`)."""
    anchor_samples: int = 200_000
    """The heuristic's last decisions kept among the data (see
    :meth:`ExpertTrainer.imitate_heuristic`)."""
    eval_games: int = 2000
    """Games against the heuristic bot after each chunk (the curve)."""


@dataclass(frozen=True)
class ChunkStats:
    """What learning one chunk did."""

    chunk: int
    samples: int
    """The chunk's decisions."""
    total_samples: int
    updates: int
    policy_loss: float
    value_loss: float
    seconds: float
    """Wall time from the previous chunk's end (searching overlaps learning)."""


# -- the teacher ---------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _teacher(game_id: str, config_json: str) -> tuple[Game[Any, Any, Any], Any, Any, Any]:
    """A process's game, search, observation encoder and action encoding (made once)."""
    from racedeck.kernels.search import KernelSearch  # Numba: in the workers only

    game = make(game_id, **json.loads(config_json))
    encode = plugin(game_id, "observation").observer(game).encode
    encoding = plugin(game_id, "encoding").action_encoding(game)
    return game, KernelSearch(game), encode, encoding


def teacher_games(
    game_id: str, config: dict[str, Any], iterations: int, explore: float, seed: int, games: int
) -> Samples:
    """The samples of ``games`` games the search plays against itself, game ``g`` dealt
    from ``derive_seed(seed, g)`` (see the module)."""
    game, search, encode, encoding = _teacher(game_id, json.dumps(config, sort_keys=True))
    num_actions = encoding.num_distinct_actions
    obs: list[NDArray[np.float32]] = []
    masks: list[NDArray[np.bool_]] = []
    policies: list[NDArray[np.float32]] = []
    means: list[NDArray[np.float32]] = []
    choices: list[int] = []
    root_values: list[float] = []
    seats: list[int] = []
    game_of: list[int] = []
    outcomes = np.zeros((games, game.num_players), np.float32)
    for g in range(games):
        deal = derive_seed(seed, g)
        rng = np.random.default_rng(derive_seed(deal, 1))
        state = game.new_initial_state(deal)
        decisions = 0
        while not state.is_terminal:
            seat = state.pending[0]
            view = game.observe(state, seat)
            legal = view.legal_actions
            if len(legal) == 1:
                state = game.apply(state, seat, legal[0])
                continue
            decisions += 1
            indices = list(encoding.indices(legal))
            chosen = search.choose(
                view, seed=derive_seed(deal, 2, decisions), iterations=iterations
            )
            visits = np.asarray(search.root_visits(seat, indices), np.float64)
            shares = (
                visits / visits.sum() if visits.sum() > 0 else np.full(len(legal), 1 / len(legal))
            )
            choices.append(int(encoding.indices([chosen])[0]))
            if rng.random() < explore:
                chosen = legal[_drawn(shares, rng.random())]
            mask = np.zeros(num_actions, np.bool_)
            mask[indices] = True
            target = np.zeros(num_actions, np.float32)
            target[indices] = shares
            q = np.zeros(num_actions, np.float32)
            q[indices] = search.root_means(seat, indices)
            obs.append(encode(view))
            masks.append(mask)
            policies.append(target)
            means.append(q)
            root_values.append(search.root_value(seat, indices))
            seats.append(seat)
            game_of.append(g)
            state = game.apply(state, seat, chosen)
        outcome = game.outcome(state)
        assert outcome is not None
        for s in outcome.winners:
            outcomes[g, s] = 1.0 / len(outcome.winners)
    end = outcomes[np.asarray(game_of, np.int64), np.asarray(seats, np.int64)]
    return {
        "obs": np.asarray(obs, np.float16).reshape(len(obs), -1),
        "mask": np.asarray(masks, np.bool_).reshape(len(obs), num_actions),
        "policy": np.asarray(policies, np.float16).reshape(len(obs), num_actions),
        "q": np.asarray(means, np.float16).reshape(len(obs), num_actions),
        "choice": np.asarray(choices, np.int16),
        "value": (0.5 * (np.asarray(root_values, np.float32) + end)).astype(np.float32),
    }


class _ChunkSource:
    """A run's chunks in order from its learned count on: saved ones read back, the rest
    searched by ``pool`` (``depth`` chunks ahead) or, without a pool, here when asked."""

    def __init__(self, trainer: ExpertTrainer, pool: ProcessPoolExecutor | None, depth: int):
        self.trainer = trainer
        self.pool = pool
        self.depth = depth
        self.following = trainer.chunks
        self.ahead: deque[tuple[int, Future[Samples] | Samples]] = deque()
        self._fill()

    def _fill(self) -> None:
        while self.pool is not None and len(self.ahead) < self.depth:
            k = self.following
            item: Future[Samples] | Samples | None = self.trainer._saved_chunk(k)
            if item is None:
                item = self.pool.submit(teacher_games, *self._args(k))
            self.ahead.append((k, item))
            self.following += 1

    def _args(self, k: int) -> tuple[Any, ...]:
        s = self.trainer.settings
        seed = derive_seed(s.seed, 2, k)
        return (s.game, s.config, s.teacher_iterations, s.explore, seed, s.chunk_games)

    def next(self) -> tuple[int, Samples]:
        """The next chunk and its index."""
        if self.pool is None:
            k = self.following
            self.following += 1
            return k, self.trainer._saved_chunk(k) or teacher_games(*self._args(k))
        k, item = self.ahead.popleft()
        self._fill()
        return k, item.result() if isinstance(item, Future) else item

    def close(self) -> None:
        """Cancel the searches not started."""
        for _, item in self.ahead:
            if isinstance(item, Future):
                item.cancel()


class _Store:
    """Samples in arrays grown by doubling (a minibatch is one gather per column)."""

    def __init__(self) -> None:
        self.columns: Samples = {}
        self.size = 0

    def append(self, chunk: Samples) -> None:
        """Add a chunk's samples."""
        n = int(chunk["value"].shape[0])
        if not self.columns:
            self.columns = {
                k: np.empty((max(n, 1024), *v.shape[1:]), v.dtype) for k, v in chunk.items()
            }
        need = self.size + n
        if need > self.columns["value"].shape[0]:
            grown = max(need, 2 * self.columns["value"].shape[0])
            for k, v in self.columns.items():
                bigger = np.empty((grown, *v.shape[1:]), v.dtype)
                bigger[: self.size] = v[: self.size]
                self.columns[k] = bigger
        for k, v in chunk.items():
            self.columns[k][self.size : need] = v
        self.size = need

    def rows(self, picked: NDArray[np.int64]) -> Samples:
        """The samples at ``picked``."""
        return {k: v[picked] for k, v in self.columns.items()}


def _drawn(shares: NDArray[np.float64], u: float) -> int:
    """The index whose cumulative share first passes ``u``."""
    return min(int(np.searchsorted(np.cumsum(shares), u, side="right")), len(shares) - 1)


# -- the learner ---------------------------------------------------------------------------


class ExpertTrainer:
    """A run (see the module): :meth:`train` searches chunks in ``workers`` processes (0: in
    this one) and learns them in order, checkpointing to ``out``."""

    settings_type: type[ExpertSettings] = ExpertSettings
    """What :meth:`resume` reads the settings as."""

    def __init__(
        self, settings: ExpertSettings, out: Path | None = None, backend: str = "numpy"
    ) -> None:
        """``backend``: where the network learns (:func:`~racedeck.rl.network.make_network`:
        ``numpy``, or ``jax`` on JAX's default device, a GPU when it has one); not a setting,
        so a run may go on with another."""
        self.settings = settings
        self.out = out
        game = make(settings.game, **settings.config)
        self.observation_size = plugin(settings.game, "observation").observer(game).size
        self.num_actions = (
            plugin(settings.game, "encoding").action_encoding(game).num_distinct_actions
        )
        self.backend = backend
        self.network = make_network(
            [self.observation_size, *settings.hidden, self.num_actions + 1],
            settings.activation,
            seed=derive_seed(settings.seed, 0),
            backend=backend,
        )
        self.optimiser = Adam(lr=settings.lr)
        self.average = self.network.copy()
        """The exponential moving average of the network's weights: what plays and is saved
        (a greedy policy's play swings with the last few updates; the average's much less)."""
        self.chunks = 0
        """Chunks learned."""
        self.warmed = False
        """Whether the heuristic's imitation is done."""
        self.data = _Store()
        """Every learned chunk's samples."""
        self.history: list[dict[str, Any]] = []
        """One entry per chunk: its :class:`ChunkStats` and evaluation."""
        self._evaluation: HeuristicEvaluation | None = None

    @property
    def samples(self) -> int:
        """Decisions learned from so far."""
        return self.data.size

    def scores(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """The averaged network's action scores for rows of observations (what plays)."""
        return self.average.predict(observations)[:, : self.num_actions]

    # -- learning ----------------------------------------------------------------------------

    def learn(self, chunk: Samples) -> tuple[int, float, float]:
        """Add a chunk and take its share of minibatch updates over all the data; the
        updates and their mean policy and value losses."""
        self.data.append(chunk)
        s = self.settings
        rng = np.random.default_rng(derive_seed(s.seed, 1, self.chunks))
        updates = math.ceil(chunk["value"].shape[0] * s.reuse / s.batch)
        policy_losses, value_losses = [], []
        for _ in range(updates):
            picked = np.sort(rng.integers(self.data.size, size=min(s.batch, self.data.size)))
            p, v = self._update(self.data.rows(picked))
            policy_losses.append(p)
            value_losses.append(v)
        self.chunks += 1
        return updates, float(np.mean(policy_losses)), float(np.mean(value_losses))

    def _update(self, batch: Samples) -> tuple[float, float]:
        """One Adam step on the cross-entropy of the policy (over the legal actions) to the
        teacher's choice, plus the value's squared error."""
        x = batch["obs"].astype(np.float32)
        loss = self._step(x, batch["mask"], batch["choice"].astype(np.int64), batch["value"])
        return loss[0], loss[1]

    def _step(
        self,
        x: NDArray[np.float32],
        mask: NDArray[np.bool_],
        choice: NDArray[np.int64],
        value: NDArray[np.float32] | None,
    ) -> tuple[float, float, float]:
        """One Adam step: cross-entropy to ``choice``, and the value's squared error to
        ``value`` when given; the two losses and the share of rows whose most likely action
        (before the step) was ``choice``."""
        net, a = self.network, self.num_actions
        outputs, cache = net.forward(x)
        n = x.shape[0]
        rows = np.arange(n)
        logits = np.where(mask, outputs[:, :a], -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * mask
        p /= p.sum(axis=1, keepdims=True)
        policy_loss = float(-np.log(np.maximum(p[rows, choice], 1e-12)).mean())
        matched = float((p.argmax(axis=1) == choice).mean())
        grad = np.zeros_like(outputs)
        grad[:, :a] = p
        grad[rows, choice] -= 1.0
        grad[:, :a] /= n
        value_loss = 0.0
        if value is not None:  # (the heuristic's samples have none: NaN)
            known = np.isfinite(value)
            error = np.where(known, outputs[:, a] - np.where(known, value, 0.0), 0.0)
            grad[:, a] = self.settings.value_weight * 2.0 * error / max(1, int(known.sum()))
            value_loss = float((error * error).sum() / max(1, int(known.sum())))
        self._apply(grad, cache)
        return policy_loss, value_loss, matched

    def _apply(self, grad: NDArray[np.float32], cache: list[NDArray[np.float32]]) -> None:
        """One Adam step from the outputs' gradient, and the moving average's."""
        net = self.network
        net.update(self.optimiser, net.backward(cache, grad))
        self.average.blend(net, self.settings.average)

    def imitate_heuristic(self, samples: int, envs: int = 512) -> tuple[float, float]:
        """Start from the game's heuristic bot: ``samples`` decisions of games it plays in
        every seat (a tenth of its moves random, for variety), each a cross-entropy step
        towards its choice; the last step's loss and the share of choices matched. Samples
        are cheap (the heuristic and the games are compiled): the search's decisions then
        teach what the heuristic does not know. The last ``anchor_samples`` stay in the data
        (without a value target), so that the first search chunks shift the policy rather
        than overwrite it; the search's samples outnumber them as they come."""
        keep = self.settings.anchor_samples
        games = VectorGame(self.settings.game, envs, **self.settings.config)
        out = games.reset(seed=derive_seed(self.settings.seed, 3))
        rng = np.random.default_rng(derive_seed(self.settings.seed, 4))
        done, loss, matched = 0, 0.0, 0.0
        kept: list[tuple[NDArray[Any], ...]] = []
        while done < samples:
            taught = games.heuristic_actions()
            rows = np.flatnonzero(out.action_mask.sum(axis=1) > 1)
            x, mask = out.observation[rows], out.action_mask[rows]
            loss, _, matched = self._step(x, mask, taught[rows], None)
            done += rows.size
            if done > samples - keep:
                kept.append((x.astype(np.float16), mask.copy(), taught[rows].astype(np.int16)))
            played = np.where(rng.random(envs) < 0.1, games.random_actions(), taught)
            out = games.step(played)
        if kept:
            x16, masks, choices = (np.concatenate(c)[-keep:] for c in zip(*kept, strict=True))
            n = x16.shape[0]
            zeros = np.zeros((n, self.num_actions), np.float16)
            self.data.append(
                {
                    "obs": x16,
                    "mask": masks,
                    "policy": zeros,
                    "q": zeros,
                    "choice": choices,
                    "value": np.full(n, np.nan, np.float32),
                }
            )
        return loss, matched

    def evaluate(self) -> Evaluation:
        """The greedy policy against the heuristic bot in the settings' ``eval_games`` games,
        on deals apart from training's (:class:`HeuristicEvaluation`)."""
        s = self.settings
        if self._evaluation is None:
            self._evaluation = HeuristicEvaluation(s.game, s.config, s.eval_games, s.seed)
        return self._evaluation(self.scores)

    # -- runs ------------------------------------------------------------------------------

    def train(
        self,
        seconds: float | None = None,
        chunks: int | None = None,
        workers: int | None = None,
        report: Callable[[ChunkStats, Evaluation | None], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Learn chunks until ``chunks`` are learned in all or ``seconds`` have passed (on
        ``clock``); after each, evaluate, checkpoint and call ``report``."""
        start = clock()
        count = workers if workers is not None else os.cpu_count() or 1
        # A process that has started JAX must not fork (JAX's threads): its searchers start
        # afresh. NumPy's runs keep the cheaper fork.
        context = get_context("spawn" if self.backend != "numpy" else None)
        pool = ProcessPoolExecutor(count, mp_context=context) if count > 0 else None
        source = _ChunkSource(self, pool, count + 1)  # the workers start searching now
        try:
            if not self.warmed and self.settings.warm_samples > 0:
                self._warm(report, clock)
            last = clock()
            while True:
                k, chunk = source.next()
                if self.out is not None:
                    self._save_chunk(k, chunk)
                updates, policy_loss, value_loss = self.learn(chunk)
                evaluation = self.evaluate()
                now = clock()
                stats = ChunkStats(
                    k, int(chunk["value"].shape[0]), self.samples, updates, policy_loss,
                    value_loss, now - last,
                )  # fmt: skip
                last = now
                self._record(stats, evaluation, report)
                if (chunks is not None and self.chunks >= chunks) or (
                    seconds is not None and now - start >= seconds
                ):
                    return
        finally:
            source.close()
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    def start_from(self, policy: MLPPolicy) -> None:
        """Start from a saved policy's weights (a run before, the shipped ``learned`` bot)
        instead of the heuristic's imitation: the network, its average, the later learning
        rate. :class:`ValueError` when its game, sizes or layers differ from this run's."""
        want = (self.settings.game, self.network.sizes, self.settings.activation, True)
        sizes = [policy.observation_size] + [int(b.shape[0]) for b in policy.biases]
        have = (policy.game_id, sizes, policy.activation, policy.value_head)
        if have != want:
            raise ValueError(f"a policy of {have} cannot start a run of {want}")
        params: list[NDArray[np.float32]] = []
        for w, b in zip(policy.weights, policy.biases, strict=True):
            params += [w.astype(np.float32), b.astype(np.float32)]
        self.network.params = [p.copy() for p in params]
        self.average.params = [p.copy() for p in params]
        self.warmed = True
        self.optimiser.lr = self._later_rate()

    def _warm(
        self,
        report: Callable[[ChunkStats, Evaluation | None], None] | None,
        clock: Callable[[], float],
    ) -> None:
        """The heuristic's imitation (:meth:`imitate_heuristic`), recorded as chunk -1."""
        began = clock()
        samples = self.settings.warm_samples
        loss, matched = self.imitate_heuristic(samples)
        self.warmed = True
        self.optimiser.lr = self._later_rate()
        if self.out is not None and self.data.size:
            self._save_chunk(-1, self.data.rows(np.arange(self.data.size)))
        stats = ChunkStats(-1, samples, 0, 0, loss, 0.0, clock() - began)
        self._record(stats, self.evaluate(), report, matched=matched)

    def _record(
        self,
        stats: ChunkStats,
        evaluation: Evaluation | None,
        report: Callable[[ChunkStats, Evaluation | None], None] | None,
        **extra: Any,
    ) -> None:
        """Add a chunk's entry to the curves, checkpoint, report."""
        entry = {**asdict(stats), **extra}
        if evaluation is not None:
            entry["eval"] = asdict(evaluation)
        self.history.append(entry)
        if self.out is not None:
            self.save()
        if report is not None:
            report(stats, evaluation)

    # -- files -----------------------------------------------------------------------------

    def _chunk_path(self, k: int) -> Path:
        assert self.out is not None
        name = "heuristic.npz" if k < 0 else f"chunk-{k:05d}.npz"
        return self.out / DATA / name

    def _save_chunk(self, k: int, chunk: Samples) -> None:
        path = self._chunk_path(k)
        path.parent.mkdir(parents=True, exist_ok=True)
        save_npz(path, chunk, compressed=True)

    def _saved_chunk(self, k: int) -> Samples | None:
        if self.out is None or not self._chunk_path(k).exists():
            return None
        with np.load(self._chunk_path(k), allow_pickle=False) as data:
            return {name: data[name] for name in data.files}

    def policy_file(self) -> Path:
        """Where the trained policy is saved (``out/policy.npz``)."""
        return run_dir(self.out) / POLICY

    def save(self) -> None:
        """Write the checkpoint, the policy and the curves to ``out``
        (:class:`~racedeck.rl.checkpoint.Checkpoint`)."""
        out = run_dir(self.out)
        meta = {
            "settings": self.settings.to_json(),
            "chunks": self.chunks,
            "warmed": self.warmed,
            "history": self.history,
        }
        checkpoint = Checkpoint.of(meta, self.network.params, self.optimiser, self.average.params)
        policy = self.average.policy(self.settings.game, self.settings.config, value_head=True)
        checkpoint.save(out, policy, self.history)

    @classmethod
    def resume(cls, out: Path, **options: Any) -> ExpertTrainer:
        """The run checkpointed in ``out``, ready to go on from its last chunk (``options``:
        the trainer's own, e.g. a PPO run's ``workers``)."""
        checkpoint = Checkpoint.load(out)
        meta = checkpoint.meta
        trainer = cls(cls.settings_type.from_json(meta["settings"]), out, **options)
        trainer.network.params = checkpoint.params
        trainer.average.params = checkpoint.average
        checkpoint.restore(trainer.optimiser)
        trainer.history = list(meta["history"])
        trainer.warmed = bool(meta.get("warmed", False))
        if trainer.warmed:
            trainer.optimiser.lr = trainer._later_rate()
        trainer.chunks = int(meta["chunks"])
        trainer._reload_data()
        return trainer

    def _later_rate(self) -> float:
        """The learning rate after the heuristic's imitation."""
        return self.settings.search_lr

    def _reload_data(self) -> None:
        """Read the learned chunks back (for :meth:`resume`)."""
        assert self.out is not None
        first = -1 if self.warmed and self._chunk_path(-1).exists() else 0
        for k in range(first, self.chunks):
            chunk = self._saved_chunk(k)
            if chunk is None:
                raise ValueError(f"{self.out}: chunk {k} of the run is missing from {DATA}/")
            self.data.append(chunk)
