"""What both PettingZoo faces promise beyond PettingZoo's checks: agents, rewards, illegal
actions, truncation, simultaneous commits and rendering."""

from __future__ import annotations

import numpy as np
import pytest
from dash_game import SPEC as DASH

import racedeck
from racedeck import rl
from racedeck.core import registry
from racedeck.core.errors import IllegalAction

from .test_seeding import aec_trace, parallel_trace


def test_leo_is_no_agent() -> None:
    # WF-9: Leo plays himself.
    assert rl.env("why-first", players=2).possible_agents == ["player_0", "player_1"]
    assert rl.parallel_env("why-first", players=2).possible_agents == ["player_0", "player_1"]


@pytest.mark.parametrize("seed", range(6))
def test_the_winners_share_a_reward_of_one(seed: int) -> None:
    env = rl.env("why-first", players=2)
    trace = aec_trace(env, seed=seed, choices=seed)
    final = {agent: reward for agent, _, reward, *_ in trace[-2:]}
    outcome = env.session.game.outcome(env.session.table.state)
    assert outcome is not None
    share = 1 / len(outcome.winners)  # Leo (contestant 2) may be among them (WF-7, WF-9)
    assert final == {f"player_{s}": share if s in outcome.winners else 0.0 for s in range(2)}


def test_parallel_rewards_come_at_the_end() -> None:
    trace = parallel_trace(rl.parallel_env("six-day-race", players=3, races=1), seed=1, choices=1)
    for _, _, rewards, _, _, _ in trace[1:-1]:
        assert set(rewards.values()) == {0.0}
    assert sum(trace[-1][2].values()) == pytest.approx(1.0)


def test_an_illegal_index_ends_the_game_and_costs_its_agent() -> None:
    env = rl.env("setback", players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert {a: r for a, r in env.rewards.items() if a != agent} == {
        a: 0.0 for a in env.agents if a != agent
    }
    assert env.infos[agent]["illegal_action"] == agent
    assert not env.observe(agent)["action_mask"].any()


def test_an_illegal_index_can_raise_instead() -> None:
    env = rl.parallel_env("six-day-race", players=2, illegal="raise")
    observations, _ = env.reset(seed=1)
    agent = next(a for a in env.agents if observations[a]["action_mask"].any())
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match=f"{illegal + 1}"):
        env.step(dict.fromkeys(env.agents, illegal))
    with pytest.raises(IllegalAction, match="99"):
        env.step(dict.fromkeys(env.agents, 99))


def test_a_long_game_is_truncated_at_max_actions() -> None:
    env = rl.parallel_env("why-first", players=4, max_actions=6)
    trace = parallel_trace(env, seed=3, choices=3)
    *_, last = trace
    assert all(last[4].values()) and not any(last[3].values())
    assert set(last[2].values()) == {0.0}
    assert env.session.table.move == 6  # cut after the sixth action, within the second round


def test_setbacks_own_max_moves_is_the_games_option_and_ends_it_by_the_rules() -> None:
    env = rl.parallel_env("setback", players=3, max_moves=100)
    trace = parallel_trace(env, seed=3, choices=3)
    assert all(trace[-1][3].values()) and not any(trace[-1][4].values())
    assert env.session.table.move == 100
    assert sum(trace[-1][2].values()) == pytest.approx(1.0)  # ranked by progress


def test_a_parallel_step_resolves_a_round_of_commits_at_once() -> None:
    # WF-4: every seat commits face down; the round resolves when the last one has.
    env = rl.parallel_env("why-first", players=4)
    observations, _ = env.reset(seed=5)
    actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    env.step(actions)
    state = env.session.table.state
    assert state.move == 4 and state.round == 1 and state.pending == (0, 1, 2, 3)


def test_a_parallel_step_needs_every_asked_agent() -> None:
    env = rl.parallel_env("why-first", players=3)
    env.reset(seed=5)
    with pytest.raises(ValueError, match="no action for player_2, whom the game waits for"):
        env.step({"player_0": 0, "player_1": 0})


def test_a_finished_parallel_game_asks_for_a_reset() -> None:
    env = rl.parallel_env("why-first", players=2, stages=1)
    parallel_trace(env, seed=1, choices=1)
    with pytest.raises(ValueError, match="call reset"):
        env.step({})


def test_render_describes_the_last_transition_in_words() -> None:
    env = rl.env("six-day-race", players=2, render_mode="ansi")
    env.reset(seed=2)
    first = env.render()
    assert first is not None and "Six Day Race · move 0" in first
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    text = env.render()
    assert text is not None and "move 1" in text and "\n" in text
    assert rl.env("six-day-race").render() is None
    with pytest.raises(ValueError, match="render_mode must be None or one of 'human', 'ansi'"):
        rl.parallel_env("setback", render_mode="video")


def test_a_game_without_encodings_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # Dash (tests/dash_game.py) registers bots only: the RL faces say what it lacks.
    monkeypatch.setitem(registry._REGISTRY, DASH.id, DASH)
    with pytest.raises(KeyError, match=r"dash offers no 'encoding' plugin \(it offers: bots\)"):
        rl.env("dash")


def test_a_bad_configuration_is_named_by_the_game() -> None:
    with pytest.raises(racedeck.core.errors.InvalidConfig, match="players=9"):
        rl.env("why-first", players=9)
