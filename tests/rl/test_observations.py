"""Observations come from a seat's view alone: states that differ only in what the seat cannot
see (other hands, deck order, face-down commits, the RNG) give it equal observations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import racedeck
from racedeck.core.rng import Rng
from racedeck.rl.faces import encoding_for, observer_for

from .configs import CONFIGS, IDS, random_states


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_twins_that_differ_in_hidden_cards_look_the_same(
    game_id: str, config: dict[str, Any]
) -> None:
    game = racedeck.make(game_id, **config)
    observer, encoding = observer_for(game), encoding_for(game)
    differing = 0
    for step, state in enumerate(random_states(game_id, config, seed=11)):
        if step % 7 or state.is_terminal:
            continue
        seat = state.pending[-1]
        view = game.observe(state, seat)
        vector, mask = observer.encode(view), encoding.legal_mask(view)
        for k in range(3):
            twin = game.sample_state(view, Rng(1000 * step + k))
            differing += twin.to_json() != state.to_json()
            twin_view = game.observe(twin, seat)
            assert np.array_equal(observer.encode(twin_view), vector)
            assert encoding.legal_mask(twin_view) == mask
    assert differing > 0  # the twins did hide something


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_a_seats_own_cards_change_its_observation(game_id: str, config: dict[str, Any]) -> None:
    # The converse: the vector is not blind to the hand. States sampled from the spectators'
    # view deal every hand anew; somewhere in the game (in Six Day Race once a rider has drawn
    # grey cards, SD-6) two of them look different to some seat.
    game = racedeck.make(game_id, **config)
    observer = observer_for(game)
    for step, state in enumerate(random_states(game_id, config, seed=3)):
        if step % 5:
            continue
        spectator = game.observe(state, None)
        samples = [game.sample_state(spectator, Rng(k)) for k in range(4)]
        for seat in range(game.num_players):
            vectors = {observer.encode(game.observe(s, seat)).tobytes() for s in samples}
            if len(vectors) > 1:
                return
    pytest.fail("no seat's observation ever showed its own cards")


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_every_entry_is_a_float32_between_minus_one_and_one(
    game_id: str, config: dict[str, Any]
) -> None:
    game = racedeck.make(game_id, **config)
    observer = observer_for(game)
    for state in random_states(game_id, config, seed=5):
        for seat in (*range(game.num_players), None):
            vector = observer.encode(game.observe(state, seat))
            assert vector.dtype == np.float32 and vector.shape == (observer.size,)
            assert vector.min() >= -1.0 and vector.max() <= 1.0
