"""*Six Day Race* as strangers' clients meet it: transitions and their audiences, move numbers,
immutable views with their header, bounded options, hardened edges and the SD-11 amendment."""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

import racedeck
from racedeck.core.errors import (
    GameOver,
    IllegalAction,
    InvalidConfig,
    InvalidMessage,
    NotYourTurn,
)
from racedeck.core.events import PUBLIC, feed
from racedeck.core.rng import Rng
from racedeck.games.six_day_race import PlayCard, SixDayRace, SixDayRaceState

from .builders import build, data_of, green, make, only, play


def _random_series(game: SixDayRace, seed: int) -> list[tuple[SixDayRaceState, int, PlayCard, Any]]:
    """(before, seat, action, transition) for every step of a random series."""
    rng = random.Random(seed)
    s = game.start(seed).state
    steps = []
    while not s.is_terminal:
        seat = s.pending[0]
        action = rng.choice(game.legal_actions(s, seat))
        t = game.step(s, seat, action)
        steps.append((s, seat, action, t))
        s = t.state
    return steps


# -- SD-11 Amended ---------------------------------------------------------------------------------


def test_sd11_amended_reorder_ties_go_to_more_laps_lost_over_the_series() -> None:
    """SD-11 Amended: players tied on place are reordered by the laps lost over the series so
    far (the last race included), not within the last race, where riders tied on position
    always lost the same laps."""
    g = make(3, riders=1, races=3, random_first=False)
    # Race 1: P3 ends on 41 (5 laps lost), P1 and P2 on 70 (2 each).
    s = build(g, positions=[70, 70, 40], hands=[[], [], green(1)], mover=2)
    s, _ = play(g, s, 1)
    assert g.standings(s)[0] == [2, 2, 5]
    # Race 2, in the order P1, P2, P3: P1 and P3 stand on 60 and lose 5 laps each in this
    # race; P2 plays its last card to 75.
    s = build(g, positions=[60, 74, 60], hands=[[], green(1), []], mover=1, order=[0, 1, 2], base=s)
    s, events = play(g, s, 1)
    assert [r.place for r in s.results[1]] == [2, 1, 2]
    assert [r.laps for r in s.results[1]] == [5, 1, 5]  # the race alone cannot break the tie
    assert g.standings(s)[0] == [7, 3, 10]
    # P3 has lost more laps over the series, so it starts before P1 (the previous order, the
    # rule before the amendment, would have put P1 first: [0, 2, 1]).
    assert data_of(only(events, "race_started"))["order"] == [2, 0, 1]


def test_sd11_amended_still_tied_keeps_the_previous_order() -> None:
    """SD-11 Amended: equal places and equal series laps keep the previous order."""
    g = make(3, riders=1, races=3, random_first=False)
    s = build(
        g,
        positions=[61, 61, 74],
        hands=[[], [], green(1)],
        mover=2,
        order=[1, 0, 2],
        base=_after_first_race(g),  # laps [2, 2, 5]
    )
    s, events = play(g, s, 1)  # P1 and P2 on 61: same place, same laps in the series
    assert g.standings(s)[0] == [7, 7, 6]
    assert data_of(only(events, "race_started"))["order"] == [1, 0, 2]


def _after_first_race(g: SixDayRace) -> SixDayRaceState:
    s = build(g, positions=[70, 70, 40], hands=[[], [], green(1)], mover=2)
    s, _ = play(g, s, 1)
    return s


def test_rules_version_changed_with_sd11_amended() -> None:
    """Records of the earlier reorder rule would replay differently: they are refused."""
    assert racedeck.get_spec("six-day-race").rules_version == "2"


# -- transitions, move numbers and audiences ------------------------------------------------------


@pytest.mark.parametrize(("players", "riders"), [(2, 0), (3, 0), (5, 1), (8, 1)])
def test_checked_and_fast_paths_give_equal_states_and_count_moves(
    players: int, riders: int
) -> None:
    g = make(players, riders=riders, races=2)
    fast = g.start(7).state
    for n, (before, seat, action, t) in enumerate(_random_series(g, 7), start=1):
        g.apply_unchecked(fast, seat, action)
        assert t.state.move == fast.move == before.move + 1 == n
        assert fast == t.state  # no events to strip: states hold none
        assert t.state.to_json()["move"] == n
        assert "events" not in t.state.to_json()
        assert not hasattr(t.state, "events")


def test_dealt_hands_are_told_to_their_seat_only() -> None:
    """SD-2: hands are private; the deal tells each player its own riders' hands."""
    g = make(3, races=1)
    start = g.start(4)
    dealt = [e for e in start.events if e.kind == "hands_dealt"]
    assert [e.audience for e in dealt] == [0, 1, 2]
    for e in dealt:
        riders = [r for r, _ in e.data["hands"]]
        assert riders == list(g.riders_of(e.audience))
        assert [list(cards) for _, cards in e.data["hands"]] == [
            start.state.hands[r] for r in riders
        ]
    assert [e.kind for e in feed(start.events, None)] == ["race_started"]
    assert [e.kind for e in feed(start.events, 1)] == ["race_started", "hands_dealt"]
    assert feed(start.events, 1)[1].audience == 1


def test_grey_cards_drawn_at_a_rider_change_go_to_their_player_only() -> None:
    """SD-6: everyone sees the rider change and how many cards come from each deck (SD-3);
    only the rider's player learns which cards."""
    g = make(5)
    s = build(g, positions=[27, 0, 0, 0, 0], hands=[green(3, 5), *[green(1)] * 4], mover=0)
    t = g.step(s, 0, PlayCard(3))
    public = [e.kind for e in t.events if e.audience == PUBLIC]
    assert public == ["card_played", "rider_change"]
    drawn = only(t.events, "cards_drawn")
    assert drawn.audience == 0
    assert list(drawn.data["cards"]) == t.state.hands[0]
    for seat in (None, 1, 2, 3, 4):
        assert "cards_drawn" not in [e.kind for e in feed(t.events, seat)]
        assert str(t.state.hands[0]) not in json.dumps([e.to_json() for e in feed(t.events, seat)])


def test_public_events_tell_the_race() -> None:
    """Cards played face up with slipstream, sprints, finish, laps lost and results: public."""
    g = make(4, riders=1, races=2, line=45, sprints=(15, 30), rider_change=17, crash=27)
    kinds: set[str] = set()
    for _, _, _, t in _random_series(g, 3):
        for e in t.events:
            if e.kind in ("hands_dealt", "cards_drawn"):
                assert type(e.audience) is int
            else:
                assert e.audience == PUBLIC, e
                kinds.add(e.kind)
    assert {"card_played", "sprint", "crossed_line", "race_scored", "game_over"} <= kinds


# -- views -----------------------------------------------------------------------------------------


def _mid_series() -> tuple[SixDayRace, SixDayRaceState]:
    g = make(3, races=3)
    s = g.start(5).state
    rng = random.Random(1)
    while s.race < 1 or s.move < 130:
        seat = s.pending[0]
        s = g.step(s, seat, rng.choice(g.legal_actions(s, seat))).state
    assert s.results and not s.is_terminal
    return g, s


def test_views_share_nothing_changeable_with_the_state() -> None:
    """Writing into any part of a view (or its JSON) cannot reach the state."""
    g, s = _mid_series()
    before = json.dumps(s.to_json())
    for seat in (None, 0, 1, 2):
        view = g.observe(s, seat)
        with pytest.raises(FrozenInstanceError):
            view.results = ()  # type: ignore[misc]
        with pytest.raises(FrozenInstanceError):
            view.results[0][0].laps = 99  # type: ignore[misc]
        with pytest.raises(AttributeError):
            view.results[0][0].sprints.append(99)  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            view.positions[0] = 80  # type: ignore[index]
        for name in ("positions", "crashed", "order", "hand_sizes", "played", "laps", "points"):
            assert isinstance(getattr(view, name), tuple), name
        obj = view.to_json()
        obj["results"][0][0]["laps"] = 99
        obj["positions"][0] = 80
        obj["header"]["scores"][0] = 1000.0
        obj["header"]["config"]["races"] = 1
        for _, cards in obj["my_hands"]:
            cards.clear()
        assert json.dumps(s.to_json()) == before
    assert g.config.races == 3


def test_event_data_cannot_be_changed() -> None:
    g, s = _mid_series()
    seat = s.pending[0]
    t = g.step(s, seat, g.legal_actions(s, seat)[0])
    before = json.dumps(t.state.to_json())
    for e in t.events:
        with pytest.raises(TypeError):
            e.data["rider"] = 5  # type: ignore[index]
        obj = e.to_json()
        obj["kind"] = "changed"
    assert json.dumps(t.state.to_json()) == before


def test_view_header_frames_the_table() -> None:
    g, s = _mid_series()
    seat = g.owner(s.current)
    view = g.observe(s, seat)
    h = view.header
    assert (h.game, h.rules_version, h.seat, h.move) == ("six-day-race", "2", seat, s.move)
    assert h.acting == (seat,) and h.phase == "race" and not h.terminal
    assert h.score_names == ("P1", "P2", "P3")
    # The points won so far: the finished races' and this race's sprints (SD-8).
    won = [float(p) for p in g.standings(s)[1]]
    for order, points in zip(view.sprint_order, view.sprint_points, strict=True):
        for rider, p in zip(order, points, strict=True):
            won[g.owner(rider)] += p
    assert any(view.sprint_order) and h.scores == tuple(won)
    assert f"race {s.race + 1} of 3" in h.waiting and "P" in h.waiting
    obj = view.to_json()
    assert next(iter(obj)) == "header"
    assert not {"events", "pending"} & set(obj)
    assert g.view_from_json(json.loads(json.dumps(obj))) == view


def test_header_names_the_final_turns_and_the_end() -> None:
    g = make(5, races=1)
    s = build(g, positions=[78, 0, 0, 0, 0], hands=[green(3), *[green(1, 2)] * 4], mover=0)
    s, _ = play(g, s, 3)  # rider 0 crosses: the others have one more turn (SD-9)
    assert g.observe(s, None).header.phase == "final-turns"
    s, _ = play(g, s, 1, 1, 1, 1)
    h = g.observe(s, None).header
    assert h.terminal and h.phase == "over" and h.acting == () and h.outcome is not None


def test_parse_action_works_from_the_view_alone() -> None:
    g, s = _mid_series()
    seat = g.owner(s.current)
    view = g.view_from_json(json.loads(json.dumps(g.observe(s, seat).to_json())))
    for action in view.legal_actions:
        assert g.parse_action(str(action), view) == action
    with pytest.raises(NotYourTurn) as info:
        g.parse_action(str(view.legal_actions[0]), g.observe(s, (seat + 1) % 3))
    assert info.value.code == "action/not-your-turn"


# -- no secret outlives a call ---------------------------------------------------------------------


def test_the_shared_game_keeps_nothing_from_a_call() -> None:
    """The game object is shared by tables and seats: after playing, observing and sampling it
    holds exactly what it held before (no hand, deck order or view cached)."""
    g = make(3, races=2)
    before = pickle.dumps(g)
    sampler_before = pickle.dumps(g._sampler)
    for _, seat, _, t in _random_series(g, 11)[:120]:
        view = g.observe(t.state, seat)
        g.sample_state(view, Rng(seat))
        g.legal_actions(t.state, seat)
        if view.legal_actions:
            g.parse_action(str(view.legal_actions[0]), view)
    assert pickle.dumps(g) == before
    assert pickle.dumps(g._sampler) == sampler_before


# -- options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("races", 2.5, "integer, 1 to 20"),
        ("races", True, "integer, 1 to 20"),
        ("races", "3", "integer, 1 to 20"),
        ("races", 0, "integer, 1 to 20"),
        ("races", 21, "integer, 1 to 20"),
        ("players", 3.0, "integer, 2 to 8"),
        ("line", 10_000, "integer, 2 to 200"),
        ("grey_low", [16, -1, 16], "0 to 64"),
        ("grey_high", [11, 11, 30_000_000], "0 to 64"),
        ("green_small", [4, 4, 3, 3, 2, 0, -1], "0 to 10"),
        ("change_draw_small", [7, -4], "0 to 20"),
        ("sprint_points", [5, 3, 2, True], "0 to 100"),
        ("finish_points", list(range(17)), "0 to 100"),
        ("sprints", [27, 54.0], "1 to 199"),
        ("max_laps_lost", -1, "0 to 50"),
        ("lap_spaces", 0, "1 to 200"),
        ("random_first", "maybe", "true/false"),
        ("random_first", 1, "true/false"),
        ("riders", 1.0, "one of 0, 1, 2"),
        ("two_rider_order", "worst", "one of sum, best"),
    ],
)
def test_options_are_checked_by_type_and_range(option: str, value: object, allowed: str) -> None:
    options: dict[str, Any] = {"players": 3, option: value}
    with pytest.raises(InvalidConfig) as info:
        racedeck.make("six-day-race", **options)
    err = info.value
    assert err.option == option and err.code == "config/invalid"
    message = str(err)
    assert f"option {option}=" in message and allowed in message
    if not isinstance(value, list):
        assert repr(value) in message


@pytest.mark.parametrize(
    ("options", "option", "words"),
    [
        ({"sprints": (54, 27)}, "sprints", "in order"),
        ({"sprints": (27, 27)}, "sprints", "in order"),
        ({"line": 40}, "crash", "between the start and the line"),
        ({"line": 30, "crash": 20}, "rider_change", "between the start and the line"),
        ({"line": 45, "rider_change": 17, "crash": 17}, "crash", "spaces of their own"),
        ({"line": 45, "rider_change": 17, "crash": 27}, "sprints", "between the start"),
        ({"green_small": (0,) * 7}, "green_small", "at least one card"),
    ],
)
def test_options_that_do_not_fit_together_are_refused(
    options: dict[str, Any], option: str, words: str
) -> None:
    with pytest.raises(InvalidConfig, match=words) as info:
        racedeck.make("six-day-race", players=3, **options)
    assert info.value.option == option
    assert str(info.value).startswith(f"six-day-race: option {option}=")


def test_the_largest_options_still_make_a_small_game_that_ends() -> None:
    """Every accepted configuration ends: here the bounds at their largest."""
    g = racedeck.make(
        "six-day-race",
        players=8,
        races=1,
        line=200,
        sprints=(1, 2, 3, 199),
        rider_change=100,
        crash=150,
        lap_spaces=1,
        max_laps_lost=50,
        green_large=(10,) * 7,
        grey_low=(64,) * 3,
        grey_high=(64,) * 3,
        change_draw_large=(20, 20),
    )
    steps = _random_series(g, 1)  # type: ignore[arg-type]
    assert steps[-1][3].state.is_terminal
    assert len(json.dumps(steps[-1][3].state.to_json())) < 50_000


# -- hardened edges --------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [None, "0", 0.0, True, 1.0, "1", [0]])
def test_seats_that_are_not_ints_are_refused(seat: object) -> None:
    g = make(3)
    s = g.start(0).state
    before = s.to_json()
    action = g.legal_actions(s, s.pending[0])[0]
    with pytest.raises(IllegalAction, match="there is no seat"):
        g.step(s, seat, action)  # type: ignore[arg-type]
    assert g.legal_actions(s, seat) == ()  # type: ignore[arg-type]
    if seat is not None:
        with pytest.raises(IllegalAction):
            g.observe(s, seat)  # type: ignore[arg-type]
    assert s.to_json() == before


@pytest.mark.parametrize("value", [True, False, 1.0, 3.0, "3", None])
def test_actions_with_bool_or_float_fields_are_refused(value: object) -> None:
    g = make(3)
    s = g.start(0).state
    with pytest.raises(IllegalAction):
        g.step(s, s.pending[0], PlayCard(value))  # type: ignore[arg-type]
    with pytest.raises(InvalidMessage) as info:
        g.action_from_json({"type": "play", "value": value})  # type: ignore[dict-item]
    assert info.value.code == "message/invalid"


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "play 3",
        {},
        {"type": "play"},
        {"type": "pass", "value": 3},
        {"type": "play", "value": 3, "seat": 1},
        {"type": "play", "value": [3]},
    ],
)
def test_malformed_action_json_raises_invalid_message(obj: Any) -> None:
    with pytest.raises(InvalidMessage):
        make(3).action_from_json(obj)


def test_error_codes_say_why_an_action_is_refused() -> None:
    g = make(3, riders=1, races=1)
    s = g.start(0).state
    mover = s.pending[0]
    other = (mover + 1) % 3
    with pytest.raises(NotYourTurn) as not_yours:
        g.step(s, other, g.legal_actions(s, mover)[0])
    assert not_yours.value.code == "action/not-your-turn"
    with pytest.raises(IllegalAction) as illegal:
        g.step(s, mover, PlayCard(6))
    assert type(illegal.value) is IllegalAction and illegal.value.code == "action/illegal"
    last = _random_series(g, 0)[-1][3].state
    with pytest.raises(GameOver) as over:
        g.step(last, 0, PlayCard(1))
    assert over.value.code == "action/game-over"


def _valid_state() -> dict[str, Any]:
    g = make(3)
    return dict(g.start(0).state.to_json())


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda o: o.pop("hands"), "'hands' is missing"),
        (lambda o: o.pop("move"), "'move' is missing"),
        (lambda o: o.update(move=True), "'move' is malformed"),
        (lambda o: o.update(positions=[0.5] * 6), "'positions' is malformed"),
        (lambda o: o.update(hands=7), "'hands' is malformed"),
        (lambda o: o.update(phase="pause"), "'phase' is malformed"),
        (lambda o: o.update(drawn=[[1]] * 6), "'drawn' is malformed"),
        (lambda o: o.update(results=[[{"place": 1}]]), "'results' is"),
        (lambda o: o.update(points=["1/0"]), "'points' is malformed"),
        (lambda o: o.update(players=4), "4 players"),
        (lambda o: o.update(positions=[0] * 5), "positions must list 6 riders"),
        (lambda o: o.update(current=9), "rider on turn"),
        (lambda o: o.update(pending=[2, 1]), "rider on turn"),
        (lambda o: o.update(order=[0, 0, 1, 2, 3, 4]), "order must list every rider"),
    ],
)
def test_state_from_json_of_bad_input_raises_a_clear_value_error(change: Any, words: str) -> None:
    obj = _valid_state()
    change(obj)
    with pytest.raises(ValueError, match=words):
        make(3).state_from_json(obj)


@pytest.mark.parametrize("obj", [None, [], "state", 3])
def test_state_from_json_of_a_non_object_raises_value_error(obj: Any) -> None:
    with pytest.raises(ValueError, match="must be a JSON object"):
        make(3).state_from_json(obj)
