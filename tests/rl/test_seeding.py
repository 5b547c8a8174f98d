"""Seeding, stricter than PettingZoo's own seed tests: two environments reset with one seed and
fed the same choices agree at every step of whole games, observation by observation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import racedeck
from racedeck import rl
from racedeck.rl.aec import RacedeckAEC
from racedeck.rl.parallel import RacedeckParallel

from .configs import CONFIGS, IDS

Trace = list[Any]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return bool(type(a) is type(b) and a == b)


def aec_trace(env: RacedeckAEC, seed: int, choices: int) -> Trace:
    """Every step of a whole game: the agent, ``last()``, and the action chosen from the mask."""
    env.reset(seed=seed)
    rng = np.random.default_rng(choices)
    trace: Trace = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        trace.append((agent, observation, reward, terminated, truncated, info, action))
        env.step(action)
    return trace


def parallel_trace(env: RacedeckParallel, seed: int, choices: int) -> Trace:
    """Every step of a whole game: all observations, rewards, ends and infos, and the actions."""
    observations, infos = env.reset(seed=seed)
    rng = np.random.default_rng(choices)
    trace: Trace = [(observations, infos)]
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if legal.size else 0
        observations, rewards, terminations, truncations, infos = env.step(actions)
        trace.append((actions, observations, rewards, terminations, truncations, infos))
    return trace


def assert_traces_equal(one: Trace, two: Trace) -> None:
    assert len(one) == len(two)
    for step, (a, b) in enumerate(zip(one, two, strict=True)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert _same(x, y), f"the games part at step {step}"


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_aec_games_with_one_seed_agree_at_every_step(game_id: str, config: dict[str, Any]) -> None:
    one = aec_trace(rl.env(game_id, **config), seed=7, choices=3)
    two = aec_trace(rl.env(game_id, **config), seed=7, choices=3)
    assert_traces_equal(one, two)
    assert one[-1][3] or one[-1][4]  # played to the end
    other = aec_trace(rl.env(game_id, **config), seed=8, choices=3)
    assert not all(_same(x[1], y[1]) for x, y in zip(one, other, strict=False))


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_parallel_games_with_one_seed_agree_at_every_step(
    game_id: str, config: dict[str, Any]
) -> None:
    one = parallel_trace(rl.parallel_env(game_id, **config), seed=7, choices=3)
    two = parallel_trace(rl.parallel_env(game_id, **config), seed=7, choices=3)
    assert_traces_equal(one, two)
    assert all(one[-1][3].values())  # played to the end, by the rules
    other = parallel_trace(rl.parallel_env(game_id, **config), seed=8, choices=3)
    assert not _same(one[0][0], other[0][0])


def test_the_seed_is_the_engines_and_the_game_replays_from_its_record() -> None:
    env = rl.env("setback", players=3)
    env.reset(seed=12345)
    game = env.session.game
    deal = game.new_initial_state(12345)
    seat = deal.pending[0]
    assert env.agent_selection == f"player_{seat}"
    expected = env.session.observer.encode(game.observe(deal, seat))
    assert np.array_equal(env.observe(env.agent_selection)["observation"], expected)
    aec_trace(env, seed=12345, choices=1)
    table = env.session.table
    assert table.seed == 12345 and table.is_over
    replayed = list(racedeck.replay(table.record))
    assert replayed[-1].state.to_json() == table.state.to_json()


def test_without_a_seed_the_next_game_follows_the_last_seed() -> None:
    one, two = rl.parallel_env("why-first"), rl.parallel_env("why-first")
    one.reset(seed=5)
    two.reset(seed=5)
    first, _ = one.reset()
    second, _ = two.reset()
    assert _same(first, second)
    assert one.session.table.seed != 5
