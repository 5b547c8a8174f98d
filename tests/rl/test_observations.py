"""Observations come from a seat's view alone: states that differ only in what the seat cannot
see (other hands, deck order, face-down commits, the RNG) give it equal observations."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pytest

import racedeck
from racedeck import rl
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


PINNED = {
    "why-first-players=2": "1f715c78b82690e1005fb5938eaa3492",
    "why-first-players=4": "b7883d763c98c3291970c1146f548f46",
    "why-first-players=3-variant=tactical": "c136dc3f5b88e402d64a8f2f3edb1594",
    "why-first-players=2-variant=tactical-stages=2": "0d76c1bd47d26f8ac10c6732a71a6b5c",
    "six-day-race-players=3-riders=1-races=2": "d8203780ac8dadfeced461f741732f4f",
    "six-day-race-players=2-riders=2-races=1": "cf9f0064f5da1a088036829dfaa1e2f6",
    "setback-players=3": "6d7f278d7f0d2566116b4c8e67ef1b67",
    "setback-players=2-self_block=all-max_lanes=8": "19ba7060ab824e46a9332d2228f44131",
}
"""SHA-256 (first 32 hex digits) of every vector and mask of :func:`_digest`'s game, as the
encodings gave them when they were written field by field; an encoder made faster must give
the same bits. Change a digest only with the encoding itself (and its module's table)."""


def _digest(game_id: str, config: dict[str, Any]) -> str:
    """Every seat's and the spectators' vector and mask at every state of one seeded game."""
    game = racedeck.make(game_id, **config)
    observer, encoding = observer_for(game), encoding_for(game)
    digest = hashlib.sha256()
    for state in random_states(game_id, config, seed=21):
        for seat in (*range(game.num_players), None):
            view = game.observe(state, seat)
            digest.update(observer.encode(view).tobytes())
            digest.update(np.asarray(encoding.legal_mask(view), np.int8).tobytes())
    return digest.hexdigest()[:32]


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_vectors_and_masks_keep_their_bits(game_id: str, config: dict[str, Any]) -> None:
    name = IDS[CONFIGS.index((game_id, config))]
    assert _digest(game_id, config) == PINNED[name]


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_the_faces_observe_the_encoding_of_the_whole_view(
    game_id: str, config: dict[str, Any]
) -> None:
    # The faces build views without their header; every agent's observation at every step of
    # seeded games must still be the encoding and mask of the view observe gives.
    env = rl.env(game_id, **config)
    session = env.session
    game, observer, encoding = session.game, session.observer, session.encoding
    rng = random.Random(6)
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            for other in env.agents:
                seat = session.seat_of[other]
                view = game.observe(session.table.state, seat)
                got = env.observe(other)
                assert np.array_equal(got["observation"], observer.encode(view))
                assert got["action_mask"].dtype == np.int8
                over = session.over
                want = [0] * encoding.num_distinct_actions if over else encoding.legal_mask(view)
                assert got["action_mask"].tolist() == want
            mask = env.observe(agent)["action_mask"]
            over = env.terminations[agent] or env.truncations[agent]
            env.step(None if over else rng.choice(np.flatnonzero(mask).tolist()))
