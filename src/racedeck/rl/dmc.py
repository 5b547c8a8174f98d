"""Deep Monte-Carlo self-play (DouZero's method) over the compiled vector games.

One network estimates, from a seat's observation, the share of the win each action leads to
(one output per action of the game's encoding). Every seat of ``envs`` games is played by it at
once — the best legal estimate, or with probability ``epsilon`` a random legal action — and
every decision with more than one legal action becomes a sample whose target is what that seat
got when its game ended (a Monte-Carlo return: the games' only reward is the end's share of the
win). The network regresses its estimate of the action taken on that return (squared error,
Adam), learning while the games are played: samples are trained on as soon as their game ends.

Training goes in *rounds*: round ``r`` deals its games from ``derive_seed(seed, r)`` and plays
``round_steps`` steps of every game (games that end are dealt again; those still going when
the round ends are dropped); everything random in a round comes from its seed. A checkpoint
after each round (the network, the optimiser, the curves) is therefore all a run needs to go on
exactly as if never stopped (:meth:`DMCTrainer.resume`).

>>> trainer = DMCTrainer(DMCSettings("why-first", {"players": 3}, envs=64, round_steps=40,
...                                  hidden=(32,), eval_games=64))
>>> stats = trainer.train_round()
>>> stats.samples > 0
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.core.rng import derive_seed
from racedeck.rl.checkpoint import POLICY, Checkpoint, RunSettings, run_dir
from racedeck.rl.evaluation import Evaluation, HeuristicEvaluation
from racedeck.rl.network import Adam, make_network
from racedeck.rl.vector import VectorGame

__all__ = ["DMCSettings", "DMCTrainer", "RoundStats"]


_EPISODE_RING = 64
"""Episodes of a game whose returns are kept until their samples are labelled: more than the
episodes a game can finish between two labellings (every ``_LABEL_EVERY`` steps)."""
_LABEL_EVERY = 16


@dataclass(frozen=True)
class DMCSettings(RunSettings):
    """What a training run is: the game and configuration, the network, the schedule."""

    envs: int = 512
    """Games played side by side."""
    round_steps: int = 400
    """Steps of every game per round."""
    lr: float = 3e-4
    batch: int = 1024
    epsilon: float = 0.05
    """The share of decisions taken at random while training."""
    warm_rounds: int = 0
    """Rounds over which the heuristic bot hands the play over to the network: in round
    ``r`` a decision is the heuristic's with probability ``1 - r / warm_rounds``. The
    estimates first learn what the heuristic's play is worth, and playing the best of them
    already improves on it (a step of policy iteration); self-play goes on from there."""
    eval_games: int = 2000
    """Games against the heuristic bot after each round (the curve), on seeds never trained
    on."""
    eval_every: int = 1
    """Rounds between evaluations."""


@dataclass(frozen=True)
class RoundStats:
    """What one round did."""

    round: int
    samples: int
    """Decisions trained on."""
    games: int
    """Games that ended in the round."""
    loss: float
    """Mean squared error of the round's updates."""
    seconds: float


class DMCTrainer:
    """A Deep Monte-Carlo run (see the module): :meth:`train_round` one round at a time, or
    :meth:`train` for a wall-time budget with checkpoints in ``out``."""

    def __init__(
        self, settings: DMCSettings, out: Path | None = None, backend: str = "numpy"
    ) -> None:
        """``backend``: where the network learns (:func:`~racedeck.rl.network.make_network`)."""
        self.settings = settings
        self.out = out
        self.games = VectorGame(settings.game, settings.envs, **settings.config)
        g = self.games
        self.network = make_network(
            [g.observation_size, *settings.hidden, g.num_actions],
            settings.activation,
            seed=derive_seed(settings.seed, 0),
            backend=backend,
        )
        self.optimiser = Adam(lr=settings.lr)
        self.round = 0
        """Rounds done."""
        self.samples = 0
        """Decisions trained on so far."""
        self.history: list[dict[str, Any]] = []
        """One entry per round: its :class:`RoundStats` and evaluation, if any."""
        self._evaluation: HeuristicEvaluation | None = None

    # -- one round -------------------------------------------------------------------------

    def train_round(self) -> RoundStats:
        """Play and learn one round (see the module); its statistics."""
        s, g = self.settings, self.games
        started = time.perf_counter()
        seed = derive_seed(s.seed, 1 + self.round)
        rng = np.random.default_rng(derive_seed(seed, 1))
        out = g.reset(seed=seed)
        n, players = g.num_envs, g.players
        episode = np.zeros(n, np.int64)
        returns = np.zeros((n, _EPISODE_RING, players), np.float32)
        pending: list[tuple[NDArray[Any], ...]] = []
        ready: tuple[NDArray[Any], ...] | None = None
        losses: list[float] = []
        samples = games = 0
        for t in range(s.round_steps):
            actions = self._act(out.observation, out.action_mask, rng)
            decide = out.action_mask.sum(axis=1) > 1
            rows = np.flatnonzero(decide)
            pending.append(
                (
                    out.observation[rows],
                    actions[rows],
                    out.current_player[rows],
                    rows,
                    episode[rows],
                )
            )
            out = g.step(actions)
            ended = np.flatnonzero(out.terminated)
            if ended.size:
                returns[ended, episode[ended] % _EPISODE_RING] = out.rewards[ended]
                episode[ended] += 1
                games += int(ended.size)
            if (t + 1) % _LABEL_EVERY == 0 or t + 1 == s.round_steps:
                labelled, pending = _label(pending, episode, returns)
                ready = _joined(ready, labelled)
                ready, trained, loss = self._learn(ready, rng)
                samples += trained
                losses.extend(loss)
        self.round += 1
        self.samples += samples
        return RoundStats(
            self.round,
            samples,
            games,
            float(np.mean(losses)) if losses else float("nan"),
            time.perf_counter() - started,
        )

    def _act(
        self, observations: NDArray[np.float32], masks: NDArray[np.bool_], rng: np.random.Generator
    ) -> NDArray[np.int64]:
        """The best legal estimate per row, a random legal action with probability epsilon."""
        scores = np.where(masks, self.network.predict(observations), -np.inf)
        chosen = scores.argmax(axis=1)
        warm = self.settings.warm_rounds
        handed = 1.0 - self.round / warm if warm else 0.0
        if handed > 0.0:
            by_heuristic = rng.random(chosen.shape[0]) < handed
            chosen = np.where(by_heuristic, self.games.heuristic_actions(), chosen)
        explore = rng.random(chosen.shape[0]) < self.settings.epsilon
        if explore.any():
            chosen = np.where(explore, self.games.random_actions(), chosen)
        out: NDArray[np.int64] = chosen.astype(np.int64)
        return out

    def _learn(
        self, ready: tuple[NDArray[Any], ...] | None, rng: np.random.Generator
    ) -> tuple[tuple[NDArray[Any], ...] | None, int, list[float]]:
        """Train on whole batches of the labelled samples (shuffled); the rest waits."""
        if ready is None:
            return None, 0, []
        x, a, target = ready
        size = self.settings.batch
        whole = x.shape[0] // size * size
        if whole == 0:
            return ready, 0, []
        order = rng.permutation(x.shape[0])
        use, rest = order[:whole], order[whole:]
        losses = [
            self._update(x[part], a[part], target[part]) for part in np.split(use, whole // size)
        ]
        left = (x[rest], a[rest], target[rest]) if rest.size else None
        return left, whole, losses

    def _update(
        self, x: NDArray[np.float32], a: NDArray[np.int64], target: NDArray[np.float32]
    ) -> float:
        """One Adam step on the squared error of the estimates of the actions taken."""
        net = self.network
        outputs, cache = net.forward(x)
        rows = np.arange(x.shape[0])
        error = outputs[rows, a] - target
        grad = np.zeros_like(outputs)
        grad[rows, a] = error * (2.0 / x.shape[0])
        net.update(self.optimiser, net.backward(cache, grad))
        return float(np.mean(error * error))

    # -- evaluation ------------------------------------------------------------------------

    def evaluate(self) -> Evaluation:
        """The greedy policy against the heuristic bot (:func:`against_heuristic`) in the
        settings' ``eval_games`` games, on deals apart from training's."""
        s = self.settings
        if self._evaluation is None:
            self._evaluation = HeuristicEvaluation(s.game, s.config, s.eval_games, s.seed)
        return self._evaluation(self.network.predict)

    # -- runs, checkpoints -----------------------------------------------------------------

    def train(
        self,
        seconds: float | None = None,
        rounds: int | None = None,
        report: Callable[[RoundStats, Evaluation | None], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Train until ``rounds`` rounds are done in all or ``seconds`` have passed (read
        from ``clock``), whichever comes first; after each round, evaluate (every
        ``eval_every``), checkpoint to ``out`` and call ``report``."""
        start = clock()
        while (rounds is None or self.round < rounds) and (
            seconds is None or clock() - start < seconds
        ):
            stats = self.train_round()
            evaluation = None
            if self.round % self.settings.eval_every == 0:
                evaluation = self.evaluate()
            entry: dict[str, Any] = {**asdict(stats), "total_samples": self.samples}
            if evaluation is not None:
                entry["eval"] = asdict(evaluation)
            self.history.append(entry)
            if self.out is not None:
                self.save()
            if report is not None:
                report(stats, evaluation)

    def policy_file(self) -> Path:
        """Where the trained policy is saved (``out/policy.npz``)."""
        return run_dir(self.out) / POLICY

    def save(self) -> None:
        """Write the checkpoint, the policy and the curves to ``out``
        (:class:`~racedeck.rl.checkpoint.Checkpoint`)."""
        out = run_dir(self.out)
        meta = {
            "settings": self.settings.to_json(),
            "round": self.round,
            "samples": self.samples,
            "history": self.history,
        }
        checkpoint = Checkpoint.of(meta, self.network.params, self.optimiser)
        policy = self.network.policy(self.settings.game, self.settings.config)
        checkpoint.save(out, policy, self.history)

    @classmethod
    def resume(cls, out: Path, backend: str = "numpy") -> DMCTrainer:
        """The run checkpointed in ``out``, ready to go on from its last round."""
        checkpoint = Checkpoint.load(out)
        meta = checkpoint.meta
        trainer = cls(DMCSettings.from_json(meta["settings"]), out, backend)
        trainer.network.params = checkpoint.params
        checkpoint.restore(trainer.optimiser)
        trainer.round = int(meta["round"])
        trainer.samples = int(meta["samples"])
        trainer.history = list(meta["history"])
        return trainer


def _label(
    pending: list[tuple[NDArray[Any], ...]],
    episode: NDArray[np.int64],
    returns: NDArray[np.float32],
) -> tuple[tuple[NDArray[Any], ...] | None, list[tuple[NDArray[Any], ...]]]:
    """The samples whose games have ended, with their seat's return as the target, and the
    rest (still pending, as one chunk)."""
    if not pending:
        return None, []
    x, a, seat, game, ep = (np.concatenate(column) for column in zip(*pending, strict=True))
    over = ep < episode[game]
    target = returns[game[over], ep[over] % _EPISODE_RING, seat[over]]
    labelled: tuple[NDArray[Any], ...] | None = (x[over], a[over], target) if over.any() else None
    still = ~over
    rest: list[tuple[NDArray[Any], ...]] = []
    if still.any():
        rest.append((x[still], a[still], seat[still], game[still], ep[still]))
    return labelled, rest


def _joined(
    a: tuple[NDArray[Any], ...] | None, b: tuple[NDArray[Any], ...] | None
) -> tuple[NDArray[Any], ...] | None:
    """Two sets of samples as one."""
    if a is None:
        return b
    if b is None:
        return a
    return tuple(np.concatenate(pair) for pair in zip(a, b, strict=True))
