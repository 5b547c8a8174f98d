"""Train a masked policy for 4-player Why First? against the heuristic bot, in NumPy, on a CPU.

    python examples/train_why_first.py                 # about 15 minutes on 2 cores
    python examples/train_why_first.py --minutes 3 --out /tmp/wf.png

The learner takes seat 0 of 1,024 games at once (``racedeck.rl.vector.RacedeckVectorEnv``: the
games and the three heuristic opponents step in compiled code) and learns by PPO: a two-layer
MLP with a policy and a value head, the illegal actions masked out of the softmax, the reward
the learner's share of the win at the end of the game. Everything is NumPy (the gradients are
written out below), so nothing beyond ``racedeck[rl]`` is needed. At the start and every
``--eval-every`` seconds the greedy policy plays the same ``--eval-games`` games (fixed seeds,
never trained on) and its win share goes on the plot with its 95% Wilson interval, beside the
25% a heuristic bot gets in the learner's seat (by symmetry). The numbers are also written
beside the plot as JSON. See ``examples/README.md`` for what it gave and why it learns now.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from racedeck.extras import MissingExtra, needs

try:
    with needs("examples/train_why_first.py (racedeck's compiled vector environment)"):
        from racedeck.rl.vector import RacedeckVectorEnv
except MissingExtra as missing:  # one line saying what to install, not a traceback
    raise SystemExit(f"error: {missing}") from None

Array = NDArray[np.float32]


# -- the network --------------------------------------------------------------------------------


@dataclass
class Network:
    """obs → ReLU(128) → ReLU(128) → policy logits and a value."""

    params: dict[str, Array]

    @classmethod
    def new(cls, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> Network:
        def layer(a: int, b: int, gain: float) -> Array:
            return (rng.standard_normal((a, b)) * gain / math.sqrt(a)).astype(np.float32)

        return cls(
            {
                "w1": layer(inputs, hidden, math.sqrt(2)),
                "b1": np.zeros(hidden, np.float32),
                "w2": layer(hidden, hidden, math.sqrt(2)),
                "b2": np.zeros(hidden, np.float32),
                "wp": layer(hidden, actions, 0.01),
                "bp": np.zeros(actions, np.float32),
                "wv": layer(hidden, 1, 1.0),
                "bv": np.zeros(1, np.float32),
            }
        )

    def forward(self, x: Array) -> tuple[Array, Array, tuple[Array, ...]]:
        """Logits, values and what the backward pass needs."""
        p = self.params
        z1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(z1, 0.0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0.0)
        logits = h2 @ p["wp"] + p["bp"]
        values = (h2 @ p["wv"] + p["bv"])[:, 0]
        return logits, values, (x, z1, h1, z2, h2)

    def backward(
        self, cache: tuple[Array, ...], dlogits: Array, dvalues: Array
    ) -> dict[str, Array]:
        """The gradients of the loss whose derivatives by logits and values are given."""
        p = self.params
        x, z1, h1, z2, h2 = cache
        dv = dvalues[:, None]
        grads = {"wp": h2.T @ dlogits, "bp": dlogits.sum(0), "wv": h2.T @ dv, "bv": dv.sum(0)}
        dh2 = dlogits @ p["wp"].T + dv @ p["wv"].T
        dz2 = dh2 * (z2 > 0)
        grads["w2"], grads["b2"] = h1.T @ dz2, dz2.sum(0)
        dz1 = (dz2 @ p["w2"].T) * (z1 > 0)
        grads["w1"], grads["b1"] = x.T @ dz1, dz1.sum(0)
        return grads


@dataclass
class Adam:
    """Adam with a clipped global gradient norm."""

    lr: float
    max_norm: float = 0.5
    step: int = 0
    m: dict[str, Array] = field(default_factory=dict)
    v: dict[str, Array] = field(default_factory=dict)

    def update(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.step += 1
        for k, g in grads.items():
            g = g * scale
            m = self.m.get(k, np.zeros_like(g)) * 0.9 + 0.1 * g
            v = self.v.get(k, np.zeros_like(g)) * 0.999 + 0.001 * g * g
            self.m[k], self.v[k] = m, v
            mh = m / (1 - 0.9**self.step)
            vh = v / (1 - 0.999**self.step)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def masked_log_softmax(logits: Array, mask: NDArray[np.bool_]) -> Array:
    """Log-probabilities with the illegal actions at minus infinity (well, -1e9)."""
    z = np.where(mask, logits, np.float32(-1e9))
    z = z - z.max(axis=1, keepdims=True)
    return (z - np.log(np.exp(z).sum(axis=1, keepdims=True))).astype(np.float32)


# -- playing and evaluating ---------------------------------------------------------------------


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share of ``wins`` out of ``games``."""
    if games == 0:
        return 0.0, 1.0
    p, z = wins / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(net: Network, games: int, seed: int, players: int) -> tuple[float, float, float]:
    """The greedy policy's share of the win over ``games`` fixed games against the heuristic
    bot, with its 95% interval."""
    env = RacedeckVectorEnv("why-first", min(games, 512), players=players)
    obs, info = env.reset(seed=seed)
    finished, won = 0, 0.0
    counted = np.zeros(env.num_envs, np.int64)
    per_env = math.ceil(games / env.num_envs)
    while finished < games:
        mask = info["action_mask"].astype(bool)
        logits, _, _ = net.forward(obs)
        actions = np.where(mask, logits, -np.inf).argmax(axis=1)
        obs, reward, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            if counted[i] < per_env and finished < games:
                counted[i] += 1
                finished += 1
                won += float(reward[i])
    low, high = wilson(won, games)
    return won / games, low, high


def train(args: argparse.Namespace) -> list[dict[str, float]]:
    rng = np.random.default_rng(args.seed)
    env = RacedeckVectorEnv("why-first", args.envs, players=args.players)
    obs, info = env.reset(seed=args.seed)
    net = Network.new(obs.shape[1], int(env.single_action_space.n), args.hidden, rng)
    opt = Adam(args.learning_rate)
    n, horizon = args.envs, args.horizon
    points: list[dict[str, float]] = []
    start = time.perf_counter()
    steps = 0
    next_eval = 0.0
    updates = 0
    while True:
        elapsed = time.perf_counter() - start
        done = elapsed >= args.minutes * 60 or (args.updates and updates >= args.updates)
        if elapsed >= next_eval or done:
            share, low, high = evaluate(net, args.eval_games, seed=10**6, players=args.players)
            points.append({"seconds": round(elapsed), "steps": steps, "share": share,
                           "low": low, "high": high})  # fmt: skip
            print(f"{elapsed:6.0f} s {steps:>11,} steps: {share:.1%} [{low:.1%}, {high:.1%}]")
            next_eval += args.eval_every
            start += time.perf_counter() - start - elapsed  # evaluations are not training time
            if done:
                return points
        # One rollout of `horizon` steps in every game.
        o = np.zeros((horizon, n, obs.shape[1]), np.float32)
        m = np.zeros((horizon, n, env.single_action_space.n), np.bool_)
        a = np.zeros((horizon, n), np.int64)
        lp = np.zeros((horizon, n), np.float32)
        v = np.zeros((horizon + 1, n), np.float32)
        r = np.zeros((horizon, n), np.float32)
        d = np.zeros((horizon, n), np.float32)
        for t in range(horizon):
            mask = info["action_mask"].astype(bool)
            logits, values, _ = net.forward(obs)
            logp = masked_log_softmax(logits, mask)
            # Sample by the Gumbel trick: argmax of log-probabilities plus Gumbel noise.
            gumbel = -np.log(-np.log(rng.random(logp.shape, dtype=np.float32) + 1e-12) + 1e-12)
            act = np.where(mask, logp + gumbel, -np.inf).argmax(axis=1)
            o[t], m[t], a[t], v[t] = obs, mask, act, values
            lp[t] = logp[np.arange(n), act]
            obs, reward, terminated, _, info = env.step(act)
            r[t], d[t] = reward, terminated
        _, v[horizon], _ = net.forward(obs)
        steps += horizon * n
        # Generalised advantages (γ = 1: the game is the horizon; λ below 1 trades bias for
        # variance), cut at every game's end.
        adv = np.zeros((horizon, n), np.float32)
        running = np.zeros(n, np.float32)
        for t in reversed(range(horizon)):
            live = 1.0 - d[t]
            delta = r[t] + v[t + 1] * live - v[t]
            running = delta + args.lam * live * running
            adv[t] = running
        ret = adv + v[:horizon]
        flat = horizon * n
        fo, fm, fa = o.reshape(flat, -1), m.reshape(flat, -1), a.reshape(flat)
        flp, fadv, fret = lp.reshape(flat), adv.reshape(flat), ret.reshape(flat)
        for _ in range(args.epochs):
            order = rng.permutation(flat)
            for lo in range(0, flat, args.minibatch):
                idx = order[lo : lo + args.minibatch]
                b = idx.size
                logits, values, cache = net.forward(fo[idx])
                logp = masked_log_softmax(logits, fm[idx])
                probs = np.exp(logp) * fm[idx]
                taken = logp[np.arange(b), fa[idx]]
                ratio = np.exp(taken - flp[idx])
                ab = fadv[idx]
                ab = (ab - ab.mean()) / (ab.std() + 1e-8)
                # PPO's clipped surrogate: the gradient flows where the unclipped term is the min.
                clipped = np.clip(ratio, 1 - args.clip, 1 + args.clip)
                active = (ratio * ab) <= (clipped * ab)
                dtaken = np.where(active, -ab * ratio, 0.0) / b
                onehot = np.zeros_like(logits)
                onehot[np.arange(b), fa[idx]] = 1.0
                dlogits = dtaken[:, None] * (onehot - probs)
                # Entropy bonus: d(-H)/dlogits = p (log p + H), over the legal actions.
                safe = np.where(fm[idx], logp, 0.0)
                entropy = -(probs * safe).sum(axis=1, keepdims=True)
                dlogits += args.entropy * probs * (safe + entropy) / b
                dvalues = args.value_coef * (values - fret[idx]) / b
                grads = net.backward(cache, dlogits.astype(np.float32), dvalues.astype(np.float32))
                opt.update(net.params, grads)
        updates += 1


def plot(points: list[dict[str, float]], path: Path, players: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    minutes = [p["seconds"] / 60 for p in points]
    shares = [100 * p["share"] for p in points]
    ax.fill_between(
        minutes, [100 * p["low"] for p in points], [100 * p["high"] for p in points], alpha=0.25
    )
    ax.plot(minutes, shares, marker="o", label="learner (greedy), 95% interval")
    ax.axhline(100 / players, color="grey", linestyle="--", label="a heuristic bot in its seat")
    ax.set_xlabel("training time (minutes, 2-core CPU)")
    ax.set_ylabel("share of the win (%)")
    ax.set_title(f"Why First?, {players} players: NumPy PPO against 3 heuristic bots")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=15.0, help="training time")
    parser.add_argument("--updates", type=int, default=0, help="stop after so many (0: time)")
    parser.add_argument("--eval-every", type=float, default=60.0, help="seconds of training")
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--horizon", type=int, default=32, help="steps per game per update")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=4096)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("examples/why_first_training.png"))
    args = parser.parse_args()
    points = train(args)
    plot(points, args.out, args.players)
    args.out.with_suffix(".json").write_text(json.dumps(points, indent=1) + "\n")
    print(f"wrote {args.out} and {args.out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
