"""The vectorised faces (:mod:`racedeck.rl.vector`): a batch of games stepped in compiled code
equals the same games stepped through the engine, action by action and across auto-resets; the
Gymnasium ``VectorEnv`` built by ``make_vec`` keeps Gymnasium's conventions and the single
environment's rewards; bad actions are refused whole, naming the games."""

from __future__ import annotations

import dataclasses
import doctest
from importlib import import_module
from typing import Any

import gymnasium
import numpy as np
import pytest

import racedeck
import racedeck.rl  # registers the Gymnasium ids
from racedeck.core.rng import derive_seed
from racedeck.rl.vector import RacedeckVectorEnv, VectorGame

CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 4}),
    ("why-first", {"players": 2}),  # with Leo (WF-9)
    ("why-first", {"players": 3, "variant": "tactical", "stages": 2}),  # WF-10
    ("six-day-race", {"players": 3, "riders": 2, "races": 1}),  # SD-12
    ("six-day-race", {"players": 4, "races": 2}),
    ("setback", {"players": 2}),
    ("setback", {"players": 4, "self_block": "all"}),  # SB-9: a window asks every seat
)


def encoders(game: Any) -> tuple[Any, Any]:
    """The game's action encoding and its observation encoder."""
    module = import_module(f"racedeck.rl.observations.{game.spec.id.replace('-', '_')}")
    encoding = import_module(f"racedeck.games.{game.spec.id.replace('-', '_')}.encoding")
    return encoding.action_encoding(game), module.observer(game).encode


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=[f"{g}-{c}" for g, c in CONFIGS])
def test_a_batch_equals_the_engine_action_by_action_across_resets(
    game_id: str, config: dict[str, Any]
) -> None:
    games = 6
    vec = VectorGame(game_id, games, **config)
    game = racedeck.make(game_id, **config)
    encoding, encode = encoders(game)
    seeds = [derive_seed(21, i) for i in range(games)]
    out = vec.reset(seeds)
    episode = [0] * games
    states = [game.new_initial_state(derive_seed(s, 0)) for s in seeds]
    rng = np.random.default_rng(3)
    ended = 0
    while ended < 2 * games:  # every game ends at least once, most twice
        actions = np.zeros(games, np.int64)
        for i, state in enumerate(states):
            seat = state.pending[0]  # the drivers ask the first pending seat
            assert out.current_player[i] == seat
            legal = sorted(encoding.index(a) for a in game.legal_actions(state, seat))
            assert np.flatnonzero(out.action_mask[i]).tolist() == legal
            assert np.array_equal(out.observation[i], encode(game.observe(state, seat)))
            actions[i] = legal[rng.integers(len(legal))]
        out = vec.step(actions)
        for i, state in enumerate(states):
            seat = state.pending[0]
            game.apply_unchecked(state, seat, encoding.action(int(actions[i])))
            assert out.terminated[i] == state.is_terminal
            assert not out.truncated[i]
            if not state.is_terminal:
                assert not out.rewards[i].any()
                continue
            ended += 1
            outcome = game.outcome(state)
            assert outcome is not None
            share = 1.0 / len(outcome.winners)
            want = [share if s in outcome.winners else 0.0 for s in range(game.num_players)]
            assert np.allclose(out.rewards[i], want)
            final = encode(game.observe(state, seat))
            assert np.array_equal(out.final_observation[i], final)
            episode[i] += 1  # dealt again at once, from the next seed of its stream
            states[i] = game.new_initial_state(derive_seed(seeds[i], episode[i]))


def test_a_seed_fixes_every_game_and_bad_actions_are_refused() -> None:
    one = VectorGame("why-first", 5, players=3)
    other = VectorGame("why-first", 5, players=3)
    a, b = one.reset(seed=9), other.reset(seed=9)
    assert np.array_equal(a.observation, b.observation)
    first = a.action_mask.argmax(axis=1)
    kept = a.observation.copy(), a.action_mask.copy()
    now = one.step(first)
    # Each step hands out arrays of its own: the next step does not overwrite them.
    assert np.array_equal(a.observation, kept[0]) and np.array_equal(a.action_mask, kept[1])
    assert np.array_equal(now.observation, other.step(first).observation)
    before = one.states.ints.copy()
    illegal = now.action_mask.argmax(axis=1)
    illegal[2] = np.flatnonzero(~now.action_mask[2])[0]
    with pytest.raises(ValueError, match=r"illegal actions \(game 2: "):
        one.step(illegal)
    with pytest.raises(ValueError, match="5 whole numbers"):
        one.step(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="5 whole numbers"):
        one.step(np.zeros(5, np.float64))
    assert np.array_equal(one.states.ints, before)  # nothing was stepped


def test_arrays_nobody_holds_are_written_again_and_held_ones_never() -> None:
    """A loop that drops each step's outputs gets the step-before-last's arrays back (no new
    megabytes a step) with the same contents as fresh ones; arrays, views or steps still held
    are never written again."""
    recycled, fresh = VectorGame("setback", 8, players=2), VectorGame("setback", 8, players=2)
    out = recycled.reset(seed=3)
    kept = [fresh.reset(seed=3)]
    names = [f.name for f in dataclasses.fields(out)]
    ids = set()
    for _ in range(300):  # games end and are dealt again on the way
        actions = recycled.random_actions()
        out = recycled.step(actions)
        ids.add(id(out.observation))
        kept.append(fresh.step(actions))
        for name in names:
            assert np.array_equal(getattr(out, name), getattr(kept[-1], name)), name
    assert kept[-1].terminated.any() or any(k.terminated.any() for k in kept)
    assert len(ids) <= 3  # two sets of arrays, taking turns
    assert len({id(k.observation) for k in kept}) == len(kept)  # all held: all new
    view, mask = out.observation[:2], out.action_mask
    snapshot = view.copy(), mask.copy()
    del out  # a view of one array and another array are all that is held of that step
    for _ in range(4):
        recycled.step(recycled.random_actions())
    assert np.array_equal(view, snapshot[0]) and np.array_equal(mask, snapshot[1])


def test_random_actions_are_legal_uniform_and_seeded() -> None:
    """The compiled random choice takes each legal action about equally often (and nothing
    else), and the same seeds choose the same actions."""
    from racedeck.kernels.batch import random_legal

    mask = np.zeros((3, 9), np.bool_)
    mask[0, [1, 4, 8]] = True
    mask[1, 5] = True
    streams = np.array([1, 2, 3], np.uint64)
    out = np.empty(3, np.int64)
    counts = np.zeros((3, 9), np.int64)
    for _ in range(6000):
        random_legal(mask, streams, out)
        counts[0, out[0]] += 1
        counts[1, out[1]] += 1
        assert out[2] == -1  # no legal action
    assert counts[0, [1, 4, 8]].min() > 1850 and counts[0].sum() == 6000
    assert counts[1, 5] == 6000
    one = VectorGame("setback", 6, players=4)
    other = VectorGame("setback", 6, players=4)
    one.reset(seed=4)
    last = other.reset(seed=4)
    for _ in range(40):
        chosen = one.random_actions()
        assert last.action_mask[np.arange(6), chosen].all()
        assert np.array_equal(chosen, other.random_actions())
        one.step(chosen)
        last = other.step(chosen)


def test_make_vec_gives_the_compiled_env_with_gymnasiums_conventions() -> None:
    env = gymnasium.make_vec(
        "racedeck/WhyFirst-v0", num_envs=16, vectorization_mode="vector_entry_point", players=4
    )
    assert isinstance(env.unwrapped, RacedeckVectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=4)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    assert obs in env.observation_space
    mask = info["action_mask"]
    assert mask.shape == (16, env.single_action_space.n) and mask.dtype == np.int8
    rng = np.random.default_rng(0)
    rewards, episodes = 0.0, 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, terminated, truncated, info = env.step(actions)
        mask = info["action_mask"]
        assert not truncated.any()
        assert not reward[~terminated].any()
        if terminated.any():
            assert info["_final_obs"].tolist() == terminated.tolist()
            for i in np.flatnonzero(terminated):
                assert info["final_obs"][i].shape == obs[i].shape
            assert all(info["final_obs"][i] is None for i in np.flatnonzero(~terminated))
        rewards += float(reward.sum())
        episodes += int(terminated.sum())
    # 20 decisions a game for the learner (5 stages of 4 rounds, WF-5), a share of one win.
    assert episodes == 16 * 200 // 20
    assert 0.0 < rewards / episodes < 1.0
    env.close()


def test_the_learner_sits_where_asked_and_its_opponents_are_named() -> None:
    env = RacedeckVectorEnv("why-first", 12, learner_seat="random", players=3)
    env.reset(seed=5)
    seats = env.learners.tolist()
    assert set(seats) == {0, 1, 2}  # drawn per game from the seed
    env.reset(seed=5)
    assert env.learners.tolist() == seats
    assert (env.games.states.current_player() == env.learners).all()
    with pytest.raises(ValueError, match="compiled ones: random, heuristic"):
        RacedeckVectorEnv("why-first", 2, opponents="search", players=3)
    with pytest.raises(ValueError, match="learner_seat must be a seat from 0 to 2"):
        RacedeckVectorEnv("why-first", 2, learner_seat=3, players=3)


def test_the_examples_in_the_docstrings_run() -> None:
    from racedeck.kernels import why_first_states
    from racedeck.rl import vector

    for module in (vector, why_first_states):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0, module.__name__


@pytest.mark.parametrize("env_id", ["racedeck/SixDayRace-v0", "racedeck/Setback-v0"])
def test_the_other_games_train_through_make_vec_too(env_id: str) -> None:
    env = gymnasium.make_vec(env_id, num_envs=8, vectorization_mode="vector_entry_point", players=3)
    obs, info = env.reset(seed=2)
    assert obs.shape == (8, env.single_observation_space.shape[0])
    assert info["action_mask"].shape == (8, env.single_action_space.n)
    rng = np.random.default_rng(1)
    episodes, total = 0, 0.0
    for _ in range(400):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, terminated, _, info = env.step(actions)
        episodes += int(terminated.sum())
        total += float(reward.sum())
    assert episodes > 0 and 0.0 <= total <= episodes
    env.close()
