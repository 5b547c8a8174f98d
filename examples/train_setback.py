"""Train a policy for Setback against racedeck's heuristic bot, on a CPU, in minutes.

    pip install 'racedeck[examples]'        # sb3-contrib, PyTorch, Gymnasium (see README.md)
    python examples/train_setback.py        # about 10 minutes on 2 cores: plot and numbers

The learner takes a random seat of a 2-player game (``racedeck/Setback-v0``) against the
heuristic bot; sb3-contrib's ``MaskablePPO`` trains it from the end-of-game reward (its share
of the win) with the action mask the environment offers (``env.action_masks()``). Every
``--eval-every`` steps the greedy policy plays the same ``--eval-games`` evaluation games
(fixed seeds, never trained on), and the win share with its 95% interval goes on the plot,
beside the share a heuristic bot gets in the learner's place: ``1 / players``, by symmetry.
``--game`` and ``--players`` train on another game the same way.

Only :func:`train` needs PyTorch; the evaluation and the plot work with any policy (a
function from observation and mask to action), so they run without it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import racedeck
from racedeck import rl
from racedeck.extras import MissingExtra, needs
from racedeck.sim import Share

Policy = Callable[[NDArray[np.float32], NDArray[np.int8]], int]
"""Chooses an action index from an observation and the action mask."""

GAME = "setback"
EVAL_SEED = 1_000_000
"""Evaluation games are dealt from this seed on; training uses seeds from ``--seed``."""


@dataclass(frozen=True)
class Point:
    """The evaluation after ``steps`` training steps (``seconds`` of training so far)."""

    steps: int
    seconds: float
    share: float
    low: float
    high: float
    games: int


def evaluate(
    policy: Policy, *, players: int, games: int, seed: int = EVAL_SEED, game: str = GAME
) -> Share:
    """The win share of ``policy`` over ``games`` games against heuristic bots, the learner in
    a random seat; the same ``seed`` gives the same games (deals, seats and bots)."""
    env = rl.gym_env(game, players=players, opponents="heuristic", learner_seat="random")
    total = 0.0
    observation, info = env.reset(seed=seed)
    for _ in range(games):
        while True:
            action = policy(observation, info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                total += float(reward)
                observation, info = env.reset()
                break
    return Share.of(total, games)


def random_policy(seed: int) -> Policy:
    """A policy that picks a legal action uniformly at random (the untrained baseline)."""
    rng = np.random.default_rng(seed)

    def act(observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


def plot(points: list[Point], *, players: int, path: Path, title: str) -> None:
    """The win share over training, with its intervals and the heuristic's share, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([p.steps for p in points]) / 1000
    share = np.array([p.share for p in points]) * 100
    low = np.array([p.low for p in points]) * 100
    high = np.array([p.high for p in points]) * 100
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.fill_between(steps, low, high, alpha=0.25, color="tab:blue", label="95% interval")
    ax.plot(steps, share, "o-", color="tab:blue", label="learner (greedy policy)")
    par = f"a heuristic bot in its place (1/{players})"
    ax.axhline(100 / players, color="tab:orange", ls="--", label=par)
    ax.set_xlabel("training steps (thousands of learner decisions)")
    ax.set_ylabel("win share against heuristic bots (%)")
    ax.set_ylim(0, max(60.0, float(high.max()) + 5))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def train(
    *,
    players: int,
    steps: int,
    eval_every: int,
    eval_games: int,
    envs: int,
    seed: int,
    game: str = GAME,
    n_steps: int = 512,
    n_epochs: int = 10,
    learning_rate: float = 5e-4,
) -> list[Point]:
    """Train ``MaskablePPO`` for ``steps`` learner decisions, evaluating every ``eval_every``."""
    with needs("examples/train_setback.py's training (sb3-contrib, PyTorch)"):
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import SubprocVecEnv

    # Two cores: the environments run in their own processes, the network on one thread.
    torch.set_num_threads(1)

    def make(rank: int) -> Callable[[], Any]:
        def build() -> Any:
            return rl.gym_env(game, players=players, opponents="heuristic", learner_seat="random")

        return build

    # The model seeds the environments (``seed + rank``) before their first games.
    vec = SubprocVecEnv([make(rank) for rank in range(envs)])
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=n_steps,
        batch_size=256,
        n_epochs=n_epochs,
        learning_rate=learning_rate,
        gamma=1.0,  # one reward, at the end of a short game: no reason to discount it
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
    )

    def greedy(observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    points: list[Point] = []
    trained = 0.0
    while True:
        share = evaluate(greedy, players=players, games=eval_games, game=game)
        done = int(model.num_timesteps)
        points.append(Point(done, trained, share.value, share.low, share.high, eval_games))
        print(
            f"{done:>8} steps  {trained:6.0f} s  win share {share.value:6.1%}"
            f"  [{share.low:.1%}, {share.high:.1%}]",
            flush=True,
        )
        if done >= steps:
            break
        start = time.perf_counter()
        model.learn(eval_every, reset_num_timesteps=False)
        trained += time.perf_counter() - start
    vec.close()
    return points


def main() -> None:
    """Train, print the evaluations, write the plot and the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=400_000, help="learner decisions to train")
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--envs", type=int, default=8, help="environments, one process each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=512, help="steps per environment per update")
    parser.add_argument("--n-epochs", type=int, default=10)
    parser.add_argument("--learning-rate", type=float, default=5e-4)
    parser.add_argument("--out", type=Path, default=Path("examples/setback_training.png"))
    args = parser.parse_args()
    start = time.perf_counter()
    baseline = evaluate(
        random_policy(args.seed), players=args.players, games=args.eval_games, game=args.game
    )
    print(f"random legal moves: win share {baseline.value:.1%}")
    points = train(
        players=args.players,
        steps=args.steps,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        envs=args.envs,
        seed=args.seed,
        game=args.game,
        n_steps=args.n_steps,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
    )
    wall = time.perf_counter() - start
    title = f"MaskablePPO on {racedeck.get_spec(args.game).title} ({args.players} players)"
    plot(points, players=args.players, path=args.out, title=title)
    numbers = {
        "players": args.players,
        "random_policy": asdict(
            Point(0, 0.0, baseline.value, baseline.low, baseline.high, args.eval_games)
        ),
        "points": [asdict(p) for p in points],
        "wall_seconds": round(wall, 1),
        "training_seconds": round(points[-1].seconds, 1),
    }
    args.out.with_suffix(".json").write_text(json.dumps(numbers, indent=2) + "\n")
    print(f"{wall:.0f} s in all; plot: {args.out}")


if __name__ == "__main__":
    try:
        main()
    except MissingExtra as missing:  # one line saying what to install, not a traceback
        raise SystemExit(f"error: {missing}") from None
