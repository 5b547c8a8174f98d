"""Vectorised environments: steps per second of a batch of games with random masked actions.

    python benchmarks/vector_env.py                  # batch 1,024, 3 s a row, one core
    python benchmarks/vector_env.py --batch 4096 --seconds 5

Every row steps a batch of ``--batch`` games for ``--seconds`` seconds, each step one action in
every game, chosen uniformly among that game's legal actions, with games that end dealt again
(auto-reset); it counts environment steps (one per game per call). The process is pinned to one
core first, so every row runs on one core:

- ``racedeck.rl.vector.VectorGame`` (the multi-agent batch): the random choice is made in NumPy
  from the returned masks, between the compiled steps, as a learner's sampling would be; and
  again with the choice drawn by ``VectorGame.random_actions`` in compiled code, as pgx's row
  draws it inside its compiled step (the rows "compiled choice");
- ``racedeck.rl.vector.RacedeckVectorEnv`` (Gymnasium, one learner seat against compiled random
  opponents: a step also carries the opponents' moves), the choice made the same way;
- the PettingZoo AEC face of the same game (``racedeck.rl.env``), one game at a time;
- peers: pgx's ``kuhn_poker`` and ``leduc_holdem`` under JAX on the CPU, ``init`` and ``step``
  ``jax.vmap``-ed and ``jax.jit``-ed over the batch, actions drawn by
  ``jax.random.categorical`` from the mask, auto-reset by ``pgx.experimental.auto_reset``
  (``pip install -e '.[bench]'`` brings pgx and JAX; without them those rows are skipped).

Compilation (Numba's and JAX's) happens before the clock starts. The ratios are to the pgx
rows measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Measure = Callable[[float], tuple[int, float]]
"""Steps for the given seconds; returns ``(steps, elapsed seconds)``."""

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 4}),
    ("why-first", {"players": 2}),
    ("why-first", {"players": 4, "variant": "tactical"}),
    ("six-day-race", {"players": 4}),
    ("setback", {"players": 4}),
)


def random_masked(rng: np.random.Generator, mask: Any) -> Any:
    """One action per row, uniform among the row's true entries."""
    scores = rng.random(mask.shape, dtype=np.float32)
    scores[~mask.astype(bool)] = -1.0
    return scores.argmax(axis=1)


def vector_game(game_id: str, config: dict[str, Any], batch: int) -> Measure:
    from racedeck.rl.vector import VectorGame

    games = VectorGame(game_id, batch, **config)
    rng = np.random.default_rng(0)
    out = games.reset(seed=0)
    out = games.step(random_masked(rng, out.action_mask))  # compiles

    def measure(seconds: float) -> tuple[int, float]:
        nonlocal out
        steps = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            out = games.step(random_masked(rng, out.action_mask))
            steps += batch
        return steps, elapsed

    return measure


def vector_game_compiled_choice(game_id: str, config: dict[str, Any], batch: int) -> Measure:
    from racedeck.rl.vector import VectorGame

    games = VectorGame(game_id, batch, **config)
    games.reset(seed=0)
    games.step(games.random_actions())  # compiles

    def measure(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            games.step(games.random_actions())
            steps += batch
        return steps, elapsed

    return measure


def gymnasium_vector(game_id: str, config: dict[str, Any], batch: int) -> Measure:
    from racedeck.rl.vector import RacedeckVectorEnv

    env = RacedeckVectorEnv(game_id, batch, opponents="random", **config)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    _, _, _, _, info = env.step(random_masked(rng, info["action_mask"]))  # compiles

    def measure(seconds: float) -> tuple[int, float]:
        nonlocal info
        steps = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            _, _, _, _, info = env.step(random_masked(rng, info["action_mask"]))
            steps += batch
        return steps, elapsed

    return measure


def pettingzoo_aec(game_id: str, config: dict[str, Any]) -> Measure:
    from racedeck import rl

    env = rl.env(game_id, **config)
    rng = np.random.default_rng(0)

    def measure(seconds: float) -> tuple[int, float]:
        steps = 0
        game = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            env.reset(seed=game)
            game += 1
            for _agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps, elapsed

    return measure


def pgx_env(name: str, batch: int) -> Measure:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))

    def one(state: Any, key: Any) -> tuple[Any, Any]:
        key, k1, k2 = jax.random.split(key, 3)
        action = act(k1, state.legal_action_mask)
        return step(state, action, jax.random.split(k2, batch)), key

    state, key = one(state, key)  # compiles
    state.rewards.block_until_ready()

    def measure(seconds: float) -> tuple[int, float]:
        nonlocal state, key
        steps = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            state, key = one(state, key)
            state.rewards.block_until_ready()
            steps += batch
        return steps, elapsed

    return measure


def main() -> None:
    """Measure every row on one core and print steps per second with the ratios to pgx."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row")
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core for every row
    rows: list[tuple[str, Measure, bool]] = []
    try:
        for name in ("kuhn_poker", "leduc_holdem"):
            rows.append((f"pgx {name} (JAX, vmap+jit)", pgx_env(name, args.batch), True))
    except ImportError as exc:
        print(f"pgx not measured ({exc}); pip install -e '.[bench]'")
    for game_id, config in GAMES:
        label = game_id + " " + " ".join(f"{k}={v}" for k, v in config.items())
        rows.append((f"{label} VectorGame", vector_game(game_id, config, args.batch), False))
        compiled = vector_game_compiled_choice(game_id, config, args.batch)
        rows.append((f"{label} VectorGame, compiled choice", compiled, False))
        rows.append(
            (f"{label} Gymnasium VectorEnv", gymnasium_vector(game_id, config, args.batch), False)
        )
        rows.append((f"{label} PettingZoo AEC (one game)", pettingzoo_aec(game_id, config), False))
    results = []
    for label, measure, peer in rows:
        steps, elapsed = measure(args.seconds)
        results.append((label, steps / elapsed, peer))
    peers = [(label.split()[1], rate) for label, rate, peer in results if peer]
    print(f"batch {args.batch}, random masked actions, auto-reset, one core")
    header = f"{'environment':66} {'steps/s':>11}"
    print(header + "".join(f" {'× ' + name:>14}" for name, _ in peers))
    for label, rate, _ in results:
        line = f"{label:66} {rate:11,.0f}"
        print(line + "".join(f" {rate / peer:14.2f}" for _, peer in peers))


if __name__ == "__main__":
    main()
