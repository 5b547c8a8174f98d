"""OpenSpiel's face: the perfect-recall information state (a seat's views as it decided, its
actions and its current view), its tensor where a configuration is small, and what uses them."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from budget import scaled
from open_spiel.python import policy
from open_spiel.python.algorithms import get_all_states

from racedeck.core.rng import Rng
from racedeck.rl import openspiel
from racedeck.rl.faces import observer_for

SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)

SMALL = [
    pytest.param("why-first", {"players": 2, "stages": 1, "hand_size": 3}, False, id="why-first"),
    pytest.param(
        "why-first",
        {"players": 2, "variant": "tactical", "stages": 1, "hand_size": 2},
        True,
        id="why-first-turns",
    ),
    pytest.param("six-day-race", {"players": 2, "riders": 2, "races": 1}, False, id="six-day"),
    pytest.param("setback", {"players": 3}, False, id="setback"),
    pytest.param("setback", {"players": 2}, True, id="setback-turns"),
]
"""A configuration of every game and form: every one offers the string, the first two (small
enough, :data:`racedeck.rl.recall.TENSOR_LIMIT`) the tensor too."""


def _acting(state: Any) -> tuple[int, ...]:
    player = state.current_player()
    if player == SIMULTANEOUS:
        return tuple(state.engine_state.pending)
    return (player,)


def _act(state: Any, chosen: dict[int, int]) -> None:
    if state.current_player() == SIMULTANEOUS:
        joint = [chosen.get(p, 0) for p in range(state.get_game().num_players())]
        state.apply_actions(joint)
    else:
        state.apply_action(chosen[state.current_player()])


@pytest.mark.parametrize(("game_id", "config", "turn_based"), SMALL)
def test_the_information_state_is_the_seats_views_and_actions(
    game_id: str, config: dict[str, Any], turn_based: bool
) -> None:
    """Played along: each seat's string is its view whenever it decided (before the round's
    actions, where seats act at once, WF-4 and SB-9 amended again), the action it took and its
    view now; the tensor lays the same out, padded, where the configuration offers it."""
    game = openspiel.load(game_id, turn_based=turn_based, **config)
    engine = game.engine
    encode = observer_for(engine).encode
    n = game.num_players()
    tensor = game.get_type().provides_information_state_tensor
    observed, width = game.observation_tensor_size(), 0
    if tensor:
        width = observed + game.num_distinct_actions()
        assert game.information_state_tensor_size() == observed + game.max_game_length() * width
    rng = random.Random(3)
    state = game.deal(3)
    seen: list[list[tuple[Any, int]]] = [[] for _ in range(n)]
    for _ in range(scaled(30)):
        if state.is_terminal():
            break
        chosen = {p: rng.choice(state.legal_actions(p)) for p in _acting(state)}
        for p, action in chosen.items():
            seen[p].append((engine.observe(state.engine_state, p), action))
        _act(state, chosen)
        for p in range(n):
            now = engine.observe(state.engine_state, p)
            info = json.loads(state.information_state_string(p))
            assert info["seat"] == p and info["view"] == now.to_json()
            assert info["decisions"] == [
                {"action": state.action_to_string(p, a), "view": v.to_json()} for v, a in seen[p]
            ]
            assert state.information_state_string(p) == pyspiel.State.information_state_string(
                state, p
            )
            if not tensor:
                continue
            values = np.asarray(state.information_state_tensor(p), np.float32)
            assert values.tolist() == pyspiel.State.information_state_tensor(state, p)
            assert np.array_equal(values[:observed], state.observation_tensor(p))
            for k, (view, action) in enumerate(seen[p]):
                row = values[observed + k * width : observed + (k + 1) * width]
                assert np.array_equal(row[:observed], encode(view))
                assert np.flatnonzero(row[observed:]).tolist() == [action]
            assert not values[observed + len(seen[p]) * width :].any()  # padding
    assert any(seen)


TWINS = [
    pytest.param("why-first", {"players": 4}, False, id="why-first"),  # no Leo: no deck (WF-9)
    *SMALL[1:],
]


@pytest.mark.parametrize(("game_id", "config", "turn_based"), TWINS)
def test_another_seats_secret_is_not_in_the_information_state(
    game_id: str, config: dict[str, Any], turn_based: bool
) -> None:
    """Two games that differ only in what seat 0 cannot see (the game's sampler redraws the
    others' hands and the deck from seat 0's view of the deal), played with the same actions:
    as long as seat 0 sees the same, its information state is the same in both; a seat that
    sees different things has different information states."""
    game = openspiel.load(game_id, turn_based=turn_based, **config)
    compared = sum(_compare_twins(game, seed) for seed in range(scaled(4)))
    assert compared >= 4


def _compare_twins(game: Any, seed: int) -> int:
    """Play a deal and its twin for seat 0 as long as they can go together; the number of
    positions compared."""
    rng = random.Random(seed)
    state = game.deal(seed)
    twin = state.resample(0, Rng(seed))
    compared = 0
    while not state.is_terminal() and twin.observation_string(0) == state.observation_string(0):
        # (seat 0's views part when it is dealt from the deck, which differs)
        assert str(twin) != str(state)
        assert twin.information_state_string(0) == state.information_state_string(0)
        for p in range(1, game.num_players()):
            if twin.observation_string(p) != state.observation_string(p):
                assert twin.information_state_string(p) != state.information_state_string(p)
        compared += 1
        chosen = {}
        for p in _acting(state):
            both = sorted(set(state.legal_actions(p)) & set(twin.legal_actions(p)))
            if not both:
                return compared  # an action of one game's hands only: the games part here
            chosen[p] = rng.choice(both)
        _act(state, chosen)
        _act(twin, chosen)
    return compared


def test_a_determinization_keeps_the_players_information_state() -> None:
    """A resample keeps the player's whole information state (its decisions are kept by
    reference); the others' start afresh at the copy, their past being drawn anew. Pickling
    keeps both."""
    game = openspiel.load("setback", turn_based=True, players=3)
    state = _played(game.deal(4), 12)
    player = state.current_player()
    sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(4, 0, 1))
    assert sampled.information_state_string(player) == state.information_state_string(player)
    assert sampled.observation_string(player) == state.observation_string(player)
    other = (player + 1) % 3
    assert json.loads(sampled.information_state_string(other))["decisions"] == []
    later = _played(sampled, 6)
    again = pickle.loads(pickle.dumps(later))
    for p in range(3):
        assert again.information_state_string(p) == later.information_state_string(p)


def _played(state: Any, steps: int) -> Any:
    rng = random.Random(steps)
    state = state.clone()
    for _ in range(steps):
        if state.is_terminal():
            break
        _act(state, {p: rng.choice(state.legal_actions(p)) for p in _acting(state)})
    return state


def test_a_tiny_game_enumerates_into_a_tabular_policy() -> None:
    """OpenSpiel's tabular algorithms key everything by the information state: on one deal of
    a tiny game, states that share a string share the player to act and the legal actions."""
    game = openspiel.load("why-first", turn_based=True, players=2, stages=1, hand_size=3)
    states = get_all_states.get_all_states(game, include_terminals=False)
    by_key: dict[str, tuple[int, tuple[int, ...]]] = {}
    for state in states.values():
        player = state.current_player()
        key = state.information_state_string(player)
        found = by_key.setdefault(key, (player, tuple(state.legal_actions())))
        assert found == (player, tuple(state.legal_actions()))
    assert len(by_key) < len(states)  # the opponent's commit is hidden (WF-4)
    again = openspiel.load("why-first", turn_based=True, players=2, stages=1, hand_size=3)
    tabular = policy.TabularPolicy(again)  # the same first deal
    assert set(tabular.state_lookup) == set(by_key)


def test_recording_is_cheap_and_lazy() -> None:
    """Applying an action records one step and observes nothing; asking replays only what was
    played since the last question, observing the seat once per decision of its."""
    game = openspiel.load("why-first", turn_based=True, players=2)
    engine = game.engine
    calls = 0
    observe = engine.observe

    def counting(state: Any, seat: int | None) -> Any:
        nonlocal calls
        calls += 1
        return observe(state, seat)

    state = game.deal(5)
    rng = random.Random(5)
    engine.observe = counting  # type: ignore[method-assign]
    try:
        acted = []
        for _ in range(6):
            acted.append(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
        assert calls == 0
        assert len(state.decisions(0)) == acted.count(0) == calls
        state.decisions(0)
        assert calls == acted.count(0)  # asked again: nothing replayed
        acted.append(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.decisions(0)) == acted.count(0) == calls
    finally:
        del engine.observe
