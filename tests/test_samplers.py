"""Samplers: every registered game can re-deal what a view hides, consistently with the view.

A search bot starts each iteration from ``game.sample_state(view, rng)``. The checks here are
the contract of that method, whatever the game: the sample shows the observer exactly the view
it came from, it depends on nothing but the view (a view rebuilt from JSON gives the same
sample), it is reproducible for a seed, and the game plays on from it to a legal end.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playthrough import play_random, roundtrip

import racedeck
from racedeck.core.rng import Rng


def _cases() -> list[Any]:
    cases = []
    for game_id in racedeck.available_games():
        spec = racedeck.get_spec(game_id)
        for n in sorted({spec.min_players, 3, spec.max_players}):
            if spec.min_players <= n <= spec.max_players:
                cases.append(pytest.param(game_id, {"players": n}, id=f"{game_id}-{n}p"))
    cases.append(
        pytest.param("why-first", {"players": 4, "variant": "tactical"}, id="why-first-tactical")
    )
    cases.append(
        pytest.param("why-first", {"players": 2, "variant": "tactical"}, id="why-first-2p-tactical")
    )
    return cases


def _public(view: Any) -> Any:
    obj = view.to_json()
    obj.pop("events", None)  # events belong to the transition, not to the position
    return obj


def _play_on(game: Any, state: Any, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100_000):
        if state.is_terminal:
            assert game.outcome(state) is not None
            return
        seat = rng.choice(state.pending)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("the game does not end from the sampled state")


@pytest.mark.parametrize(("game_id", "config"), _cases())
def test_sample_matches_the_view_and_nothing_else(game_id: str, config: dict[str, Any]) -> None:
    game = racedeck.make(game_id, **config)
    played = play_random(game, seed=11, choices=5)
    states = played.states()
    picks = sorted(random.Random(3).sample(range(len(states)), min(12, len(states))))
    for k, i in enumerate(picks):
        state = states[i]
        if state.is_terminal:
            continue
        for seat in range(game.num_players):
            view = game.observe(state, seat)
            sample = game.sample_state(view, Rng(1000 + k))
            assert _public(game.observe(sample, seat)) == _public(view), (i, seat)
            # Only the view's contents matter: a view rebuilt from JSON samples the same state.
            again = game.sample_state(game.view_from_json(roundtrip(view.to_json())), Rng(1000 + k))
            assert again.to_json() == sample.to_json()
            # The state the sample came from is untouched (samplers copy what they share).
            assert game.observe(state, seat).to_json() == view.to_json()
        _play_on(game, game.sample_state(game.observe(state, state.pending[0]), Rng(k)), seed=k)
