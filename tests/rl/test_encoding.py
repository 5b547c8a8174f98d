"""The action encodings: a bijection over every action a game can make legal, a mask equal to
the legal actions at every step, and a longest game no game exceeds."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import racedeck
from racedeck.core.encoding import ActionEncoding
from racedeck.games.setback import Pass
from racedeck.games.six_day_race import PlayCard
from racedeck.games.why_first import DEFAULT_CARD_VALUES, CommitCard, MoveFigure, PlaceCard
from racedeck.rl.faces import encoding_for

from .configs import CONFIGS, IDS, random_states


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_index_and_action_are_inverse(game_id: str, config: dict[str, Any]) -> None:
    encoding = encoding_for(racedeck.make(game_id, **config))
    actions = encoding.actions
    assert len(set(actions)) == len(actions) == encoding.num_distinct_actions
    for i, action in enumerate(actions):
        assert encoding.index(action) == i
        assert encoding.action(i) is action


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
def test_the_mask_is_the_legal_actions_at_every_step(
    case: tuple[str, dict[str, Any]], seed: int
) -> None:
    game_id, config = case
    game = racedeck.make(game_id, **config)
    encoding = encoding_for(game)
    moves = 0
    for state in random_states(game_id, config, seed):
        for seat in range(game.num_players):
            legal = game.legal_actions(state, seat)
            mask = encoding.legal_mask_of(game, state, seat)
            assert [encoding.action(i) for i, bit in enumerate(mask) if bit] == sorted(
                legal, key=encoding.index
            )
            assert sum(mask) == len(legal)
        if state.pending:
            view = game.observe(state, state.pending[-1])
            assert encoding.legal_mask(view) == encoding.legal_mask_of(
                game, state, state.pending[-1]
            )
        moves = state.move
    assert moves <= encoding.max_game_length


def test_why_first_numbers_values_by_targets_then_cards_and_moves() -> None:
    # WF-4: the base game places a value on a figure; Leo is the last figure (WF-9).
    base = encoding_for(racedeck.make("why-first", players=2))
    values = sorted(set(DEFAULT_CARD_VALUES))
    assert base.num_distinct_actions == len(values) * 3
    assert base.action(0) == PlaceCard(values[0], 0)
    assert base.action(5) == PlaceCard(values[1], 2)
    assert base.max_game_length == 5 * 4 * 2
    # WF-10: commit a white number, then move a figure.
    tactical = encoding_for(racedeck.make("why-first", players=4, variant="tactical"))
    assert tactical.action(0) == CommitCard(1)
    assert tactical.action(31) == CommitCard(32)
    assert tactical.action(32) == MoveFigure(0)
    assert tactical.num_distinct_actions == 32 + 4
    assert tactical.max_game_length == 5 * 4 * 4 + 5 * 5 * 4


def test_six_day_race_numbers_card_values() -> None:
    encoding = encoding_for(racedeck.make("six-day-race", players=4))
    assert encoding.actions == tuple(PlayCard(v) for v in range(1, 8))
    # SD-2, SD-6: 8 riders (a large field) hold 15 green cards and draw 10 grey ones at a change.
    assert encoding.max_game_length == 6 * 8 * (15 + 10)


def test_setback_encoding_grows_with_players_and_lanes_and_bounds_by_max_moves() -> None:
    small = encoding_for(racedeck.make("setback", players=2, max_lanes=4))
    large = encoding_for(racedeck.make("setback", players=6, max_lanes=8))
    assert small.num_distinct_actions < large.num_distinct_actions
    assert Pass() in small.actions and Pass() in large.actions
    assert encoding_for(racedeck.make("setback", max_moves=500)).max_game_length == 500


def test_a_bad_index_or_action_is_named() -> None:
    encoding = encoding_for(racedeck.make("six-day-race"))
    with pytest.raises(ValueError, match=r"there is no action 7 \(actions are numbered 0 to 6\)"):
        encoding.action(7)
    with pytest.raises(ValueError, match="an action index is an integer, got True"):
        encoding.action(True)
    with pytest.raises(ValueError, match="the action 9 has no index"):
        encoding.index(PlayCard(9))


def test_an_encoding_refuses_an_action_twice_and_an_empty_game() -> None:
    with pytest.raises(ValueError, match=r"the action 3 is numbered twice \(indices 0 and 1\)"):
        ActionEncoding([PlayCard(3), PlayCard(3)], 10)
    with pytest.raises(ValueError, match="max_game_length must be at least 1"):
        ActionEncoding([PlayCard(3)], 0)
