"""Training throughput: samples and self-play games a second of each stage of ``racedeck
train``, per game, in one run on one core.

- *heuristic imitation* (expert's first stage): decisions of compiled games the heuristic plays
  in every seat, each a cross-entropy step (network 256×256, batches of the games' decisions);
- *search labels* (expert's data): decisions the compiled search (``--teacher``, 300
  iterations) labels in games it plays against itself, one process;
- *learning* (expert): samples a second through the network's updates (batches of 512), on
  NumPy and, when JAX is installed, on JAX's default device (``--backend jax``: a GPU when
  JAX has one);
- *PPO* (ppo, the default): the learner's decisions in one seat of 256 compiled games against
  the compiled heuristic, sampled, then two epochs of updates over them;
- *PPO against the search* (``--opponents fastsearch@N``, N the Python search's default
  budget): the learner's decisions in 32 of the engine's games against the compiled search,
  in this process (``--workers 0``) and in a worker process per core (``--workers``'s
  default);
- *Deep Monte-Carlo* (dmc): decisions played by the network in compiled self-play and learned
  from, all seats at once (512 games side by side).

Beside them, in the same run: the Python search bot's decisions a second at its default budget
(``search``), the rate at which it could label data itself.

Usage: ``python benchmarks/training_speed.py [--game all|why-first|six-day-race|setback]
[--seconds 10]``
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from typing import Any

import numpy as np

import racedeck
from racedeck.bots.playouts import search_iterations
from racedeck.bots.search import SearchBot
from racedeck.rl.dmc import DMCSettings, DMCTrainer
from racedeck.rl.expert import ExpertSettings, ExpertTrainer, teacher_games
from racedeck.rl.ppo import PPOSettings, PPOTrainer

CONFIGS: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "six-day-race": {"players": 4, "races": 1},
    "setback": {"players": 2},
}


def search_rate(game_id: str, config: dict[str, Any], seconds: float) -> float:
    """The Python search's decisions a second at its default budget (games it plays in every
    seat)."""
    game = racedeck.make(game_id, **config)
    bots = [SearchBot(game, s, s) for s in range(game.num_players)]
    decisions, start, deal = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(deal)
        deal += 1
        while not state.is_terminal and time.perf_counter() - start < seconds:
            seat = state.pending[0]
            view = game.observe(state, seat)
            decisions += len(view.legal_actions) > 1
            state = game.apply(state, seat, bots[seat].act(view))
    return decisions / (time.perf_counter() - start)


def ppo_rate(settings: PPOSettings, seconds: float, workers: int = 0) -> float:
    """The learner's decisions a second of PPO rounds (played and learned) with ``settings``,
    the engine's games in ``workers`` processes."""
    ppo = PPOTrainer(settings, workers=workers)
    try:
        ppo.ppo_round()  # warm
        start = time.perf_counter()
        samples = 0
        while time.perf_counter() - start < seconds:
            samples += ppo.ppo_round().samples
        return samples / (time.perf_counter() - start)
    finally:
        ppo.close()


def learning_rate(expert: ExpertTrainer, seconds: float) -> float:
    """Samples a second through ``expert``'s network updates, batches of 512 of its data."""
    rng = np.random.default_rng(0)
    expert._update(expert.data.rows(rng.integers(expert.data.size, size=512)))  # compile, warm
    start = time.perf_counter()
    updates = 0
    while time.perf_counter() - start < seconds:
        expert._update(expert.data.rows(rng.integers(expert.data.size, size=512)))
        updates += 1
    return 512 * updates / (time.perf_counter() - start)


def measure(game_id: str, seconds: float, teacher: int) -> None:
    """Print one game's rates."""
    config = CONFIGS[game_id]
    print(f"{game_id} {config}")
    expert = ExpertTrainer(ExpertSettings(game_id, config, anchor_samples=0))
    expert.imitate_heuristic(20_000)  # warm the caches
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < seconds:
        expert.imitate_heuristic(50_000)
        count += 50_000
    print(f"  heuristic imitation  {count / (time.perf_counter() - start):>10,.0f} samples/s")

    teacher_games(game_id, config, teacher, 0.1, 0, 1)  # load the search
    start = time.perf_counter()
    samples = games = 0
    while time.perf_counter() - start < seconds:
        chunk = teacher_games(game_id, config, teacher, 0.1, games + 1, 2)
        samples += int(chunk["value"].shape[0])
        games += 2
    elapsed = time.perf_counter() - start
    print(
        f"  search labels @{teacher:<5} {samples / elapsed:>10,.0f} samples/s"
        f"  ({games / elapsed:.2f} games/s, one process)"
    )
    expert.data.append(chunk)
    print(f"  learning             {learning_rate(expert, seconds):>10,.0f} samples/s")
    if importlib.util.find_spec("jax") is not None:
        from racedeck.rl.network import describe_backend

        on_jax = ExpertTrainer(ExpertSettings(game_id, config, anchor_samples=0), backend="jax")
        on_jax.data = expert.data
        rate = learning_rate(on_jax, seconds)
        print(f"  learning on JAX      {rate:>10,.0f} samples/s  ({describe_backend('jax')})")

    rate = ppo_rate(PPOSettings(game_id, config, warm_samples=0), seconds)
    print(f"  PPO                  {rate:>10,.0f} samples/s  (learner decisions)")
    budget = search_iterations(game_id)
    against = PPOSettings(
        game_id, config, warm_samples=0, envs=32, opponents=f"fastsearch@{budget}"
    )
    rate = ppo_rate(against, seconds)
    print(f"  PPO vs the search    {rate:>10,.0f} samples/s  (fastsearch@{budget}, one process)")
    cores = os.cpu_count() or 1
    spread = ppo_rate(against, seconds, workers=cores)
    print(
        f"  PPO vs the search    {spread:>10,.0f} samples/s  ({cores} worker processes, "
        f"{spread / rate:.2f}× one)"
    )

    # Rounds long enough for whole games: a sample counts once its game has ended.
    dmc = DMCTrainer(DMCSettings(game_id, config, envs=512, round_steps=400, eval_games=10))
    dmc.train_round()  # warm
    start = time.perf_counter()
    samples = played = 0
    while time.perf_counter() - start < seconds:
        stats = dmc.train_round()
        samples += stats.samples
        played += stats.games
    elapsed = time.perf_counter() - start
    print(
        f"  Deep Monte-Carlo     {samples / elapsed:>10,.0f} samples/s  "
        f"({played / elapsed:,.0f} games/s)"
    )
    print(f"  search (Python)      {search_rate(game_id, config, seconds):>10,.1f} decisions/s")


def main() -> None:
    """Measure the games the arguments name."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=["all", *CONFIGS])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--teacher", type=int, default=300, help="search labels' iterations")
    args = parser.parse_args()
    for game_id in CONFIGS if args.game == "all" else [args.game]:
        measure(game_id, args.seconds, args.teacher)


if __name__ == "__main__":
    main()
