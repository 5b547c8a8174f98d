"""Several audiences' views of one state at once (:meth:`Game.views_json`): each is exactly
what :meth:`Game.observe` gives that audience, as a value and as JSON text, for every game,
configuration and state, so the public part built once for all of them changes nothing.

Equality with ``observe`` is all that is needed for secrecy: what ``observe`` shows each seat
is checked by every game's own view tests, so no seat's ``views_json`` view holds another
seat's secret either.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from typing import Any

import pytest
from budget import scaled
from dash_game import SPEC as DASH
from game_configs import CASES, GAMES, case_id, configs, make_game
from hypothesis import given, settings
from hypothesis import strategies as st

import racedeck
from racedeck.core.header import NO_HEADER
from racedeck.core.jsontext import dumps

FAST = settings(max_examples=scaled(4), deadline=None)
"""Four whole random games per case (a game, its players, a variant) in ``make test``, every
state of each checked."""

seed_st = st.integers(min_value=0, max_value=2**64 - 1)
choices_st = st.integers(min_value=0, max_value=2**32)


def check_views(game: Any, state: Any, rng: random.Random) -> None:
    """``views_json`` of every audience, and of a random few in a random order, equals
    ``observe(state, audience).to_json()``, key order included; each view can be changed
    without changing another."""
    audiences: list[int | None] = [None, *range(game.num_players)]
    plain = {a: game.observe(state, a).to_json() for a in audiences}
    shared = game.views_json(state, audiences)
    assert list(shared) == audiences
    for a in audiences:
        assert shared[a] == plain[a], f"audience {a}"
        assert dumps(shared[a]) == dumps(plain[a]), f"audience {a}: not the same JSON text"
    some = rng.sample(audiences, rng.randint(0, len(audiences)))
    some += rng.sample(some, min(len(some), 1))  # an audience named twice is one view
    picked = game.views_json(state, some)
    assert list(picked) == list(dict.fromkeys(some))
    assert all(dumps(v) == dumps(plain[a]) for a, v in picked.items())
    # What a game says is a seat's own is the only part that differs from the spectators'.
    for seat in range(game.num_players):
        own = game.seat_view_json(state, seat)
        assert own is not None and own["seat"] == seat
        assert set(own) <= set(plain[None]), f"keys the spectators have not: {set(own)}"
    # A view's own object and its header are its own: the server changes them.
    victim = shared[rng.choice(audiences)]
    for key in [*victim["header"], "seat"]:
        victim["header"][key] = None
    for key in victim:
        victim[key] = None
    for a, view in shared.items():
        if view is not victim:
            assert view == plain[a]
    # Without its header a view is the same but for the header (which nothing may read).
    a = rng.choice(audiences)
    whole, bare = game.observe(state, a), game.observe_without_header(state, a)
    assert replace(bare, header=whole.header) == whole, f"audience {a}"


@pytest.mark.parametrize(("game_id", "fixed"), CASES, ids=map(case_id, CASES))
@FAST
@given(data=st.data(), seed=seed_st, choices=choices_st)
def test_views_json_is_observe_at_every_state(
    game_id: str, fixed: dict[str, Any], data: st.DataObject, seed: int, choices: int
) -> None:
    game = make_game(game_id, data.draw(configs(game_id, fixed), label="options"))
    rng = random.Random(choices)
    state = game.new_initial_state(seed)
    while True:
        check_views(game, state, rng)
        if state.is_terminal:
            break
        seat = rng.choice(state.pending)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def test_setback_windows_show_each_seat_its_own_answer() -> None:
    """SB-9: in a BLOCK window a seat's view holds its own answer and nobody else's: the
    random games above reach windows, this makes sure some answered ones are checked."""
    game = racedeck.make("setback", players=4)
    rng = random.Random(7)
    answered = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        while not state.is_terminal and answered < 20:
            if state.phase == "window":
                views = game.views_json(state, [None, *range(4)])
                answers = [views[s]["answer"] for s in range(4)]
                if any(answers):
                    answered += 1
                    assert views[None]["answer"] == ""
                    check_views(game, state, rng)
            seat = rng.choice(state.pending)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert answered == 20, "the random games reach too few answered windows"


def test_a_game_that_does_not_say_gets_whole_views() -> None:
    """A game without ``seat_view_json`` (Dash, ``tests/dash_game.py``) gets ``observe``'s
    views: the default is always right."""
    game = DASH.factory(DASH.make_config(players=3))
    rng = random.Random(1)
    state = game.new_initial_state(5)
    audiences: list[int | None] = [None, 0, 1, 2]
    while not state.is_terminal:
        assert game.seat_view_json(state, 0) is None
        views = game.views_json(state, audiences)
        assert views == {a: game.observe(state, a).to_json() for a in audiences}
        seat = rng.choice(state.pending)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize("game_id", GAMES)
def test_views_json_refuses_what_observe_refuses_and_keeps_nothing(game_id: str) -> None:
    game = racedeck.make(game_id, players=3)
    fresh = pickle.dumps(game)
    state = game.new_initial_state(3)
    for seat in (3, -1, True, "0"):
        with pytest.raises(racedeck.IllegalAction):
            game.views_json(state, [None, 0, seat])
        with pytest.raises(racedeck.IllegalAction):
            game.observe_without_header(state, seat)  # type: ignore[arg-type]
    game.views_json(state, [None, 0, 1, 2])
    assert pickle.dumps(game) == fresh  # the game object holds nothing of any state


@pytest.mark.parametrize("game_id", GAMES)
def test_a_view_without_its_header_does_not_build_one(game_id: str) -> None:
    # The RL faces encode such views at every step: the header would be built for nothing.
    game = racedeck.make(game_id, players=3)
    state = game.new_initial_state(4)
    for audience in (None, 0, 2):
        assert game.observe_without_header(state, audience).header is NO_HEADER
        assert game.observe(state, audience).header != NO_HEADER
