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
from racedeck.bots.policy import ACTIVATIONS, MLPPolicy, PolicyBot, choose
from racedeck.core.rng import derive_seed
from racedeck.plugins import plugin
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


@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("value_head", [False, True])
def test_a_single_decision_is_the_batchs_argmax(activation: str, value_head: bool) -> None:
    """``best`` (one decision, the first layer summed over the non-zero entries) chooses what a
    one-row batch chooses, on observations mostly zero as the encodings are, whatever the
    order of the legal indices; among equal scores the lowest legal index."""
    policy = MLPPolicy.random("setback", {"players": 3}, hidden=(32, 16), seed=7)
    policy.activation = activation
    if value_head:  # one more output, the value, which is never an action's score
        rng = np.random.default_rng(8)
        last = policy.weights[-1]
        policy.weights[-1] = np.hstack([last, rng.standard_normal((last.shape[0], 1))]).astype(
            np.float32
        )
        policy.biases[-1] = np.append(policy.biases[-1], np.float32(100.0))
        policy.value_head = True
    size, actions = policy.observation_size, policy.num_actions
    rng = np.random.default_rng(9)
    for _ in range(300):
        x = np.where(rng.random(size) < 0.06, rng.random(size), 0.0).astype(np.float32)
        legal = rng.choice(actions, size=int(rng.integers(1, 12)), replace=False)
        mask = np.zeros((1, actions), np.bool_)
        mask[0, legal] = True
        assert policy.best(x, legal.tolist()) == int(policy(x[None, :], mask)[0])
    policy.weights[-1][:] = 0.0  # every score the same
    policy.biases[-1][:actions] = 0.0
    assert policy.best(np.ones(size, np.float32), [9, 4, 6]) == 4
    for wrong in ([], [actions], [-1, 3]):
        with pytest.raises(ValueError, match=f"legal action indices lie in 0 to {actions - 1}"):
            policy.best(np.zeros(size, np.float32), wrong)


@pytest.mark.parametrize(
    ("game_id", "config"),
    [("why-first", {"players": 2}), ("setback", {"players": 4}), ("six-day-race", {"players": 3})],
)
def test_a_policy_bot_plays_the_policys_batch_choices(game_id: str, config: dict[str, Any]) -> None:
    """The bot of a network (its single-decision path) takes at every decision of a whole game
    the action the network chooses for the view's observation and mask as a batch."""
    game = racedeck.make(game_id, **config)
    policy = MLPPolicy.random(game_id, config, hidden=(64, 32), seed=3)
    bots = [PolicyBot(game, seat, 0, policy) for seat in range(game.num_players)]
    encode = plugin(game_id, "observation").observer(game).encode
    encoding = plugin(game_id, "encoding").action_encoding(game)
    state = game.new_initial_state(5)
    checked = 0
    while not state.is_terminal:
        seat = state.pending[0]
        view = game.observe(state, seat)
        action = bots[seat].act(view)
        if len(view.legal_actions) > 1:
            mask = np.zeros((1, encoding.num_distinct_actions), np.bool_)
            mask[0, encoding.indices(view.legal_actions)] = True
            batch = int(policy(encode(view)[None, :], mask)[0])
            assert action == encoding.action(batch)
            checked += 1
        state = game.apply(state, seat, action)
    assert checked > 5


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
