"""From the heuristic's play to better: imitation first, then PPO against opponents played in
compiled code.

The run starts as :class:`~racedeck.rl.expert.ExpertTrainer` does, imitating the game's
heuristic bot from millions of its decisions (a policy at about its strength in a minute), and
then improves the policy by proximal policy optimisation (Schulman et al.) in one seat of
``envs`` games against ``opponents`` (the compiled heuristic by default), the seat drawn per
game: a round deals every game from the round's seed, plays ``horizon`` of the learner's
decisions in each (sampling from the policy), and takes ``epochs`` passes of clipped-surrogate
updates over them with generalised advantage estimates from the value head (cut at each game's
end, bootstrapped where the round cuts a game). The reward is the learner's share of the win at
the end. Each round's games and draws come from its seed, so a run stopped and resumed goes on
exactly as if never stopped, and the moving average of the weights is what plays and is saved.

``opponents`` other than the compiled ones (``"heuristic"``, ``"random"``) name any bot —
``"fastsearch@500"``, the search at its default budget, or ``"policy:PATH"``, or several
joined by ``+`` (taking the games in turn) — and the games
are then the engine's (:class:`~racedeck.rl.single.RacedeckGym`, side by side in Gymnasium's
``SyncVectorEnv``): hundreds of decisions a second instead of tens of thousands, but the policy
learns against the very player it is to beat rather than only the heuristic it started from.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from racedeck.core.rng import derive_seed
from racedeck.rl.evaluation import Evaluation
from racedeck.rl.expert import ChunkStats, ExpertSettings, ExpertTrainer
from racedeck.rl.vector import RacedeckVectorEnv

__all__ = [
    "COMPILED_OPPONENTS",
    "PPORound",
    "PPOSettings",
    "PPOTrainer",
    "opponent_games",
    "opponent_names",
]

COMPILED_OPPONENTS = ("heuristic", "random")
"""The opponents played in compiled games; any other bot plays in the engine's."""


def opponent_games(
    game_id: str,
    envs: int,
    opponents: str,
    config: dict[str, Any],
    workers: int = 0,
    offset: int = 0,
) -> Any:
    """``envs`` games side by side, one learner seat each (drawn per game) against
    ``opponents``: compiled games for the compiled opponents, else the engine's, as one
    Gymnasium vector environment with the legal actions in ``info["action_mask"]``. Several
    bots, separated by ``+``, take the engine's games in turn (game ``i`` the ``i % k``-th), so
    that a policy learning against the search can keep meeting the heuristic too. The engine's
    games play in ``workers`` processes (:class:`~racedeck.rl.processes.ProcessVectorEnv`;
    0: in this one), the same games for any number; ``offset`` numbers the first game (a
    worker's slice)."""
    if opponents in COMPILED_OPPONENTS:
        return RacedeckVectorEnv(
            game_id, envs, opponents=opponents, learner_seat="random", **config
        )
    if workers > 0:
        import racedeck
        from racedeck.bots.registry import make_bot
        from racedeck.rl.processes import ProcessVectorEnv

        game = racedeck.make(game_id, **config)
        for name in opponent_names(opponents):
            make_bot(name, game, 0, 0)  # an unknown bot fails here, by name, before any process
        return ProcessVectorEnv(partial(_slice, game_id, opponents, config), envs, workers)
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from racedeck.rl.single import RacedeckGym

    names = opponent_names(opponents)
    makers = [
        partial(RacedeckGym, game_id, opponents=name, learner_seat="random", **config)
        for name in names
    ]
    return SyncVectorEnv(
        [makers[(offset + i) % len(makers)] for i in range(envs)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


def _slice(game_id: str, opponents: str, config: dict[str, Any], offset: int, count: int) -> Any:
    """A worker's games: ``count`` of them from game ``offset`` (module level: picklable)."""
    return opponent_games(game_id, count, opponents, config, offset=offset)


def opponent_names(opponents: str) -> list[str]:
    """The bots of ``opponents`` (``"fastsearch@500+heuristic"``: two)."""
    return [name.strip() for name in opponents.split("+")]


class PPORound(NamedTuple):
    """What one PPO round did: the learner's decisions, the mean losses, and the games it
    ended with the learner's share of their win (its strength against the opponents, as
    played: sampling from the policy)."""

    samples: int
    policy_loss: float
    value_loss: float
    games: int
    won: float


@dataclass(frozen=True)
class PPOSettings(ExpertSettings):
    """The imitation's settings (:class:`ExpertSettings`: ``warm_samples``, the network) and
    PPO's."""

    envs: int = 256
    horizon: int = 64
    """The learner's decisions per game and round."""
    epochs: int = 2
    minibatch: int = 2048
    clip: float = 0.2
    entropy: float = 0.003
    lam: float = 0.95
    value_coef: float = 0.5
    ppo_lr: float = 1e-4
    opponents: str = "heuristic"
    """``"heuristic"`` or ``"random"`` (compiled games), else any bots' names joined by
    ``+`` (engine games, :func:`opponent_games`)."""
    eval_every: int = 5
    """Rounds between evaluations."""


class PPOTrainer(ExpertTrainer):
    """A run (see the module); its rounds are PPO's, counted as the expert's chunks."""

    settings_type = PPOSettings
    settings: PPOSettings

    def __init__(
        self, settings: PPOSettings, out: Any = None, workers: int = 0, backend: str = "numpy"
    ) -> None:
        """``workers``: processes playing the engine's games (:func:`opponent_games`; 0: this
        one); not a setting, since the run is the same for any number. ``backend``: where the
        network learns (:class:`ExpertTrainer`)."""
        super().__init__(settings, out, backend)
        # Made now, so that an unknown opponent fails before any training, by name.
        self._env = opponent_games(
            settings.game, settings.envs, settings.opponents, settings.config, workers
        )

    def close(self) -> None:
        """Stop the processes playing the games, if any."""
        self._env.close()

    def train(
        self,
        seconds: float | None = None,
        chunks: int | None = None,
        workers: int | None = None,
        report: Callable[[ChunkStats, Evaluation | None], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Imitate the heuristic (once), then PPO rounds until ``chunks`` rounds are done in
        all or ``seconds`` have passed; after each, evaluate, checkpoint and report.
        (``workers``: unused; the games' processes are the trainer's, see :meth:`__init__`.)"""
        s = self.settings
        start = clock()
        if not self.warmed and self.settings.warm_samples > 0:
            self._warm(report, clock)
        while (chunks is None or self.chunks < chunks) and (
            seconds is None or clock() - start < seconds
        ):
            began = clock()
            done = self.ppo_round()
            stats = ChunkStats(
                self.chunks - 1, done.samples, self.samples + done.samples, 0,
                done.policy_loss, done.value_loss, clock() - began,
            )  # fmt: skip
            due = self.chunks % s.eval_every == 0
            evaluation = self.evaluate() if due else None
            self._record(stats, evaluation, report, games=done.games, won=done.won)

    def _later_rate(self) -> float:
        return self.settings.ppo_lr

    def _reload_data(self) -> None:
        """Nothing to read back: PPO learns from each round's games only."""

    @property
    def samples(self) -> int:
        """The learner's decisions played so far."""
        return sum(int(h["samples"]) for h in self.history if h["chunk"] >= 0)

    def ppo_round(self) -> PPORound:
        """One round (see the module)."""
        s = self.settings
        seed = derive_seed(s.seed, 5, self.chunks)
        rng = np.random.default_rng(derive_seed(seed, 1))
        env, n, h, a = self._env, s.envs, s.horizon, self.num_actions
        obs, info = env.reset(seed=seed)
        o = np.zeros((h, n, obs.shape[1]), np.float32)
        m = np.zeros((h, n, a), np.bool_)
        act = np.zeros((h, n), np.int64)
        logp_taken = np.zeros((h, n), np.float32)
        v = np.zeros((h + 1, n), np.float32)
        r = np.zeros((h, n), np.float32)
        d = np.zeros((h, n), np.float32)
        ended, won = 0, 0.0
        for t in range(h):
            mask = info["action_mask"].astype(np.bool_)
            out = self.network.predict(obs)
            logp = _masked_log_softmax(out[:, :a], mask)
            gumbel = -np.log(-np.log(rng.random(logp.shape) + 1e-12) + 1e-12)
            chosen = np.where(mask, logp + gumbel, -np.inf).argmax(axis=1)
            o[t], m[t], act[t], v[t] = obs, mask, chosen, out[:, a]
            logp_taken[t] = logp[np.arange(n), chosen]
            obs, reward, done, cut, info = env.step(chosen)
            r[t], d[t] = reward, done | cut
            ended += int(d[t].sum())
            won += float(r[t].sum())
        v[h] = self.network.predict(obs)[:, a]
        advantages = np.zeros((h, n), np.float32)
        running = np.zeros(n, np.float32)
        for t in reversed(range(h)):
            live = 1.0 - d[t]
            delta = r[t] + v[t + 1] * live - v[t]
            running = delta + s.lam * live * running
            advantages[t] = running
        returns = advantages + v[:h]
        flat = h * n
        fo, fm, fa = o.reshape(flat, -1), m.reshape(flat, a), act.reshape(flat)
        flp, fadv, fret = logp_taken.reshape(flat), advantages.reshape(flat), returns.reshape(flat)
        policy_losses, value_losses = [], []
        for _ in range(s.epochs):
            order = rng.permutation(flat)
            for lo in range(0, flat, s.minibatch):
                idx = order[lo : lo + s.minibatch]
                p, vl = self._ppo_update(fo[idx], fm[idx], fa[idx], flp[idx], fadv[idx], fret[idx])
                policy_losses.append(p)
                value_losses.append(vl)
        self.chunks += 1
        return PPORound(
            flat, float(np.mean(policy_losses)), float(np.mean(value_losses)), ended,
            won / max(ended, 1),
        )  # fmt: skip

    def _ppo_update(
        self,
        x: NDArray[np.float32],
        mask: NDArray[np.bool_],
        taken: NDArray[np.int64],
        old_logp: NDArray[np.float32],
        advantage: NDArray[np.float32],
        target: NDArray[np.float32],
    ) -> tuple[float, float]:
        """One Adam step on PPO's clipped surrogate, an entropy bonus and the value's error."""
        s, net, a = self.settings, self.network, self.num_actions
        outputs, cache = net.forward(x)
        b = x.shape[0]
        rows = np.arange(b)
        logp = _masked_log_softmax(outputs[:, :a], mask)
        probs = np.exp(logp) * mask
        ratio = np.exp(logp[rows, taken] - old_logp)
        adv = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        clipped = np.clip(ratio, 1 - s.clip, 1 + s.clip)
        active = ratio * adv <= clipped * adv  # the gradient flows where the min is unclipped
        dtaken = np.where(active, -adv * ratio, 0.0) / b
        grad = np.zeros_like(outputs)
        onehot = np.zeros((b, a), np.float32)
        onehot[rows, taken] = 1.0
        grad[:, :a] = dtaken[:, None] * (onehot - probs)
        safe = np.where(mask, logp, 0.0)
        entropy = -(probs * safe).sum(axis=1, keepdims=True)
        grad[:, :a] += s.entropy * probs * (safe + entropy) / b
        error = outputs[:, a] - target
        grad[:, a] = s.value_coef * error / b
        self._apply(grad, cache)
        surrogate = -float(np.minimum(ratio * adv, clipped * adv).mean())
        return surrogate, float(np.mean(error * error))


def _masked_log_softmax(logits: NDArray[np.float32], mask: NDArray[np.bool_]) -> Any:
    """Log-probabilities over the legal actions (-inf elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))
