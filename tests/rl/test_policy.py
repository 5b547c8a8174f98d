"""Policies (:mod:`racedeck.bots.policy`): saved and loaded exactly, legal in every row, and
taken as opponents by the Gymnasium environment and the vector environment, which then play the
same games as the engine does with that policy in those seats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import racedeck
import racedeck.rl  # registers the Gymnasium ids
from racedeck.bots.policy import MLPPolicy, PolicyBot, choose
from racedeck.core.rng import derive_seed
from racedeck.rl.vector import RacedeckVectorEnv


def lowest(observations: Any, masks: Any) -> Any:
    """The lowest legal action index of every row."""
    return masks.argmax(axis=1)


def test_a_saved_policy_loads_as_it_was(tmp_path: Path) -> None:
    policy = MLPPolicy.random("setback", {"players": 3}, hidden=(32, 16), seed=4)
    path = policy.save(tmp_path / "p.npz")
    again = MLPPolicy.load(path)
    assert (again.game_id, again.config) == ("setback", {"players": 3})
    x = np.random.default_rng(0).random((5, policy.observation_size), dtype=np.float32)
    assert np.array_equal(policy.logits(x), again.logits(x))
    (tmp_path / "other.npz").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="not a saved racedeck policy"):
        MLPPolicy.load(tmp_path / "other.npz")


def test_its_choices_are_legal_greedy_or_sampled() -> None:
    policy = MLPPolicy.random("why-first", {"players": 4}, hidden=(8,), seed=1)
    rng = np.random.default_rng(2)
    masks = rng.random((400, policy.num_actions)) < 0.2
    masks[np.arange(400), rng.integers(policy.num_actions, size=400)] = True
    x = rng.random((400, policy.observation_size), dtype=np.float32)
    for sample in (False, True):
        policy.sample = sample
        chosen = choose(policy, x, masks)
        assert masks[np.arange(400), chosen].all()
    with pytest.raises(ValueError, match=r"chose action 0 in row 0, which its mask does not"):
        choose(lambda o, m: np.zeros(len(o), np.int64), x[:1], ~np.eye(1, masks.shape[1], 0, bool))
    with pytest.raises(ValueError, match="must return 2 whole numbers"):
        choose(lambda o, m: [0.5, 1.5], x[:2], masks[:2])


def test_the_gymnasium_env_takes_a_policy_or_a_callable_as_opponents() -> None:
    policy = MLPPolicy.random("why-first", {"players": 3}, hidden=(8,), seed=3)
    for opponents in (policy, lowest, [lowest, "heuristic"]):
        env = gymnasium.make("racedeck/WhyFirst-v0", players=3, opponents=opponents)
        _, info = env.reset(seed=1)
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    with pytest.raises(TypeError, match="a bot's name or a policy"):
        gymnasium.make("racedeck/WhyFirst-v0", players=3, opponents=[3, "random"])


@pytest.mark.parametrize(
    ("game_id", "config"),
    [("why-first", {"players": 3}), ("setback", {"players": 2}), ("six-day-race", {"players": 3})],
)
def test_the_vector_env_with_a_policy_plays_the_engines_games(
    game_id: str, config: dict[str, Any]
) -> None:
    """Every seat takes its lowest legal action (the learner by the caller, the others by the
    policy): each game's first episode ends with the learner's reward of the engine's game of
    the same deal played that way, and the next episode goes on from there."""
    seeds = [11, 12, 13, 14]
    env = RacedeckVectorEnv(game_id, len(seeds), opponents=lowest, learner_seat=1, **config)
    _, info = env.reset(seed=seeds)
    first: dict[int, float] = {}
    for _ in range(2000):
        _, reward, done, _, info = env.step(info["action_mask"].argmax(axis=1))
        for i in np.flatnonzero(done):
            first.setdefault(int(i), float(reward[i]))
        if len(first) == len(seeds):
            break
    game = racedeck.make(game_id, **config)
    bot = PolicyBot(game, 0, 0, lowest)
    for i, seed in enumerate(seeds):
        state = game.new_initial_state(derive_seed(seed, 0))
        while not state.is_terminal:
            seat = state.pending[0]
            state = game.apply(state, seat, bot.act(game.observe(state, seat)))
        outcome = game.outcome(state)
        assert outcome is not None
        want = 1.0 / len(outcome.winners) if 1 in outcome.winners else 0.0
        assert first[i] == pytest.approx(want), i


def test_a_saved_policy_plays_as_a_bot_by_its_path(tmp_path: Path) -> None:
    """``policy:PATH`` is a bot wherever bots are named; a policy of another game or a file
    that is none is refused, naming what is wrong."""
    from racedeck.bots.registry import make_bot
    from racedeck.sim.simulate import simulate

    path = MLPPolicy.random("why-first", {"players": 3}, hidden=(8,), seed=5).save(
        tmp_path / "Wf.npz"
    )
    game = racedeck.make("why-first", players=3)
    result = simulate("why-first", {"players": 3}, [f"policy:{path}", "random", "heuristic"], 4)
    assert result.games == 4 and result.bots[0] == f"policy:{path}"
    with pytest.raises(ValueError, match="a policy of why-first"):
        make_bot(f"policy:{path}", racedeck.make("why-first", players=4), 0, 1)
    with pytest.raises(ValueError, match="no policy at"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}", game, 0, 1)
