"""Setback's BLOCK windows (SB-9 amended) in both faces: every seat that may answer is asked,
BLOCK in hand or not, so the order in which agents are asked says nothing about the hands. The
answers are simultaneous decisions (SB-9 amended again): no agent's observation shows an answer
before the window's last, the parallel face takes them in one step, and OpenSpiel sees a
simultaneous node."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

import racedeck
from racedeck import rl
from racedeck.core.rng import Rng
from racedeck.games.setback import Block, Pass
from racedeck.rl import openspiel
from racedeck.rl.openspiel import _Core

from .configs import random_states

CONFIG = {"players": 3}


def fresh_windows(seed: int) -> Any:
    """States of a random game where a BLOCK window has just opened (nobody answered yet)."""
    before = None
    for state in random_states("setback", CONFIG, seed):
        if state.phase == "window" and (before is None or before.phase != "window"):
            yield state
        before = state


def twins_with_and_without_a_block(seed: int) -> tuple[Any, Any]:
    """Two states the table cannot tell apart, with a window just opened, where a seat asked
    holds a BLOCK in the first and no seat asked holds one in the second."""
    game = racedeck.make("setback", **CONFIG)
    for state in fresh_windows(seed):
        spectator = game.observe(state, None)
        twins = [game.sample_state(spectator, Rng(k)) for k in range(60)]
        twins = [t for t in twins if t.pending == state.pending]
        holding = [t for t in twins if any(game.forced_action(t, q) is None for q in t.pending)]
        none = [t for t in twins if all(game.forced_action(t, q) is not None for q in t.pending)]
        if holding and none:
            return holding[0], none[0]
    raise AssertionError("no window with both kinds of twins")


def asked_in_window(state: Any) -> list[tuple[str, bool]]:
    """Drive the AEC env through the window open in ``state``, everyone passing: the agents
    selected, in order, and whether each was offered a BLOCK."""
    env = rl.env("setback", **CONFIG)
    env.reset(seed=0)
    env.session.table.state = state.clone()
    # The env selects the first pending seat after every step; set it for the state put in.
    env.agent_selection = f"player_{state.pending[0]}"
    encoding = env.session.encoding
    asked = []
    while env.session.table.state.phase == "window":
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask[encoding.index(Pass())] == 1
        asked.append((env.agent_selection, bool(mask[encoding.index(Block())])))
        env.step(encoding.index(Pass()))
    return asked


def test_the_agents_are_asked_in_the_same_order_whoever_holds_a_block() -> None:
    holding, none = twins_with_and_without_a_block(seed=4)
    with_block, without = asked_in_window(holding), asked_in_window(none)
    assert [agent for agent, _ in with_block] == [agent for agent, _ in without]
    assert len(with_block) == len(holding.pending) >= 2
    # Only the masks differ: a seat without a BLOCK may only pass (SB-9 amended).
    assert any(may_block for _, may_block in with_block)
    assert not any(may_block for _, may_block in without)


def test_a_forced_pass_is_still_asked_in_the_aec_env() -> None:
    game = racedeck.make("setback", **CONFIG)
    state = next(fresh_windows(seed=9))
    asked = asked_in_window(state)
    assert [agent for agent, _ in asked] == [f"player_{q}" for q in state.pending]
    forced = [game.forced_action(state, q) is not None for q in state.pending]
    assert [not may_block for _, may_block in asked] == forced


def test_the_parallel_env_asks_every_seat_of_a_window_at_once() -> None:
    env = rl.parallel_env("setback", **CONFIG)
    observations, _ = env.reset(seed=2)
    encoding = env.session.encoding
    rng = np.random.default_rng(0)
    for _ in range(500):
        state = env.session.table.state
        if state.phase == "window":
            asking = {agent for agent in env.agents if observations[agent]["action_mask"].any()}
            assert asking == {f"player_{q}" for q in state.pending}
            assert len(asking) >= 2
            passes = {agent: encoding.index(Pass()) for agent in env.agents}
            before = env.session.table.move
            env.step(passes)
            assert env.session.table.move == before + len(state.pending)  # all in one step
            return
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if legal.size else 0
        observations, *_ = env.step(actions)
    raise AssertionError("no window opened")


def window_with_two_blockers(seed: int) -> Any:
    """A window just opened in a random game (of ``seed`` or a later one) where at least two of
    the seats asked hold a BLOCK."""
    game = racedeck.make("setback", **CONFIG)
    for k in range(seed, seed + 50):
        for state in fresh_windows(k):
            if sum(game.forced_action(state, q) is None for q in state.pending) >= 2:
                return state
    raise AssertionError("no window with two BLOCK holders asked")


def test_an_agents_observation_does_not_show_the_answers_before_it() -> None:
    """SB-9 amended again: whether the first agent asked BLOCKs or passes, the next agent
    asked sees the same observation and mask (the window stays open for it either way)."""
    state = window_with_two_blockers(seed=3)
    game = racedeck.make("setback", **CONFIG)
    holder = next(q for q in state.pending if game.forced_action(state, q) is None)
    seen = []
    for first in (Block(), Pass()):
        env = rl.env("setback", **CONFIG)
        env.reset(seed=0)
        env.session.table.state = state.clone()
        env.agent_selection = f"player_{holder}"
        env.step(env.session.encoding.index(first))
        assert env.session.table.state.phase == "window"
        after = env.agent_selection
        assert after != f"player_{holder}"
        observed = env.observe(after)
        seen.append((after, observed["observation"].tobytes(), observed["action_mask"].tobytes()))
    assert seen[0] == seen[1]


def test_the_parallel_env_plays_the_first_block_in_seating_order() -> None:
    """Two agents BLOCK in the same step: the first in seating order after the declarer plays
    its BLOCK, the other keeps its card (SB-9 amended again)."""
    state = window_with_two_blockers(seed=5)
    game = racedeck.make("setback", **CONFIG)
    blockers = [q for q in state.pending if game.forced_action(state, q) is None][:2]
    env = rl.parallel_env("setback", **CONFIG)
    env.reset(seed=0)
    env.session.table.state = state.clone()
    encoding = env.session.encoding
    actions = {
        f"player_{q}": encoding.index(Block() if q in blockers else Pass())
        for q in range(game.num_players)
    }
    env.step(actions)
    after = env.session.table.state
    answered, n = state.stack[-1]["by"], game.num_players
    first = min(blockers, key=lambda q: (q - answered - 1) % n)
    assert after.stack[-1]["by"] == first and len(after.stack) == len(state.stack) + 1
    other = next(q for q in blockers if q != first)
    assert after.hands[other] == state.hands[other]  # kept, unplayed


def test_openspiel_asks_a_windows_seats_at_once() -> None:
    """In OpenSpiel's Setback a window that asks several seats is a simultaneous node, whose
    joint action applies every answer."""
    state = window_with_two_blockers(seed=7)
    game = openspiel.load("setback", **CONFIG)
    node = game.deal(0)
    node._core = _Core(node._core.shared, state.clone())
    assert node.current_player() == int(pyspiel.PlayerId.SIMULTANEOUS)
    joint = [(node.legal_actions(p) or [0])[0] for p in range(game.num_players())]
    node.apply_actions(joint)
    assert node.engine_state.move == state.move + len(state.pending)
