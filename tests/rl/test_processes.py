"""The engine's games in worker processes: the same games, and the same run, as in one."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

from racedeck.rl.ppo import PPOSettings, PPOTrainer, _slice, opponent_games
from racedeck.rl.processes import ProcessVectorEnv, slices


def test_slices_cover_the_games_once_in_order() -> None:
    assert slices(7, 3) == [(0, 3), (3, 2), (5, 2)]
    assert slices(2, 5) == [(0, 1), (1, 1)]  # no worker without a game
    assert slices(4, 0) == [(0, 4)]


def test_games_in_worker_processes_are_the_games_of_one_process() -> None:
    config = {"players": 3}
    one = opponent_games("setback", 5, "heuristic+random", config)
    many = opponent_games("setback", 5, "heuristic+random", config, workers=2)
    assert isinstance(many, ProcessVectorEnv) and many.num_envs == 5
    try:
        rng = np.random.default_rng(0)
        (a, info_a), (b, info_b) = one.reset(seed=11), many.reset(seed=11)
        ended = 0
        for _ in range(40):
            assert np.array_equal(a, b)
            assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
            # A random legal action in each game (the games run past their ends: autoreset).
            noise = rng.random(info_a["action_mask"].shape)
            actions = np.where(info_a["action_mask"], noise, -1.0).argmax(axis=1)
            a, reward_a, done_a, cut_a, info_a = one.step(actions)
            b, reward_b, done_b, cut_b, info_b = many.step(actions)
            assert np.array_equal(reward_a, reward_b)
            assert np.array_equal(done_a, done_b) and np.array_equal(cut_a, cut_b)
            ended += int(done_a.sum())
        assert ended > 0  # games ended and were dealt again in both
    finally:
        one.close()
        many.close()
    assert not any(process.is_alive() for process in many._processes)


def test_an_unknown_bot_is_named_before_any_process_starts() -> None:
    with pytest.raises(ValueError, match="nobody"):
        opponent_games("why-first", 4, "heuristic+nobody", {"players": 2}, workers=2)


def test_a_workers_error_is_raised_where_the_games_are_made() -> None:
    make_slice = partial(_slice, "why-first", "heuristic+nobody", {"players": 2})
    with pytest.raises(ValueError, match="nobody"):
        ProcessVectorEnv(make_slice, 4, 2)


def test_a_ppo_run_with_worker_processes_is_the_run_without(tmp_path: Path) -> None:
    settings = PPOSettings(
        "why-first", {"players": 3}, hidden=(8,), warm_samples=500, anchor_samples=0,
        envs=4, horizon=12, minibatch=16, eval_games=10, eval_every=2,
        opponents="heuristic+random",
    )  # fmt: skip
    alone = PPOTrainer(settings, tmp_path / "alone")
    alone.train(chunks=2)
    parts = PPOTrainer(settings, tmp_path / "parts", workers=2)
    try:
        parts.train(chunks=1)
    finally:
        parts.close()
    resumed = PPOTrainer.resume(tmp_path / "parts", workers=2)
    try:
        resumed.train(chunks=2)
    finally:
        resumed.close()
    for a, b in zip(alone.average.params, resumed.average.params, strict=True):
        assert np.array_equal(a, b)
    assert [h.get("won") for h in alone.history] == [h.get("won") for h in resumed.history]
