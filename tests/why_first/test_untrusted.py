"""*Why First?* facing strangers: what views and events may tell, what a shared game object
may keep, and how configurations, seats, actions and states from outside are refused."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import play_random

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
from racedeck.games.why_first import SPEC, CommitCard, PlaceCard, WhyFirst, WhyFirstState

from .builders import build, card

FAST = settings(max_examples=25, deadline=None)


def make(players: int = 4, **options: Any) -> WhyFirst:
    game = racedeck.make("why-first", players=players, **options)
    assert isinstance(game, WhyFirst)
    return game


# -- the white-number leak (WF-2) -----------------------------------------------------------------


def _relabel(game: WhyFirst, s: WhyFirstState, rng: random.Random) -> WhyFirstState:
    """``s`` with the white numbers of every value shuffled among themselves, everywhere."""
    by_value: dict[int, list[int]] = {}
    for number, value in enumerate(game.values, 1):
        by_value.setdefault(value, []).append(number)
    perm: dict[int, int] = {}
    for numbers in by_value.values():
        shuffled = numbers[:]
        rng.shuffle(shuffled)
        perm.update(zip(numbers, shuffled, strict=True))
    t = s.clone()
    t.hands = [sorted(perm[c] for c in h) for h in t.hands]
    t.leo_cards = [perm[c] for c in t.leo_cards]
    t.revealed = [perm[c] for c in t.revealed]
    t.commits = [None if c is None else (perm[c[0]], c[1]) for c in t.commits]
    t.last_reveal = [(by, perm[c], target) for by, c, target in t.last_reveal]
    return t


def test_revealing_a_card_does_not_tell_which_equal_cards_stay_in_the_hand() -> None:
    """The leak: the engine places the lowest-numbered card of a value, so a reveal showing
    #20 (+2) proved #16–#19 were not in that hand. Two hands that differ only in which +2
    cards they hold now look the same to everyone, before and after the reveal."""
    g = make(3)
    other = [[card(1)], [card(-1)]]
    low = build(g, positions=[0, 0, 0], hands=[[card(2, 0), card(2, 4)], *other])  # #20, #16
    high = build(g, positions=[0, 0, 0], hands=[[card(2, 0), card(2, 1)], *other])  # #20, #19
    actions = [(0, PlaceCard(2, 1)), (1, PlaceCard(1, 1)), (2, PlaceCard(-1, 2))]
    told: list[list[Any]] = []
    for s in (low, high):
        seen = []
        for seat, action in actions:
            t = g.step(s, seat, action)
            s = t.state
            seen.append([e.to_json() for e in t.events])
            seen.append([g.observe(s, who).to_json() for who in (None, 0, 1, 2)])
        told.append(seen)
    assert told[0] == told[1]
    # Nothing anyone was told names a white number.
    reveal = next(
        e
        for e in g.step(
            g.step(g.step(low, *actions[0]).state, *actions[1]).state, *actions[2]
        ).events
        if e.kind == "cards_revealed"
    )
    assert all("card" not in c for c in reveal.data["cards"])


@FAST
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_base_game_views_and_events_do_not_depend_on_white_numbers(
    players: int, seed: int, shuffle: int
) -> None:
    """Relabelling the cards of each value among themselves (WF-2: they mean nothing in the
    base game) changes no view and no event of any seat or spectator."""
    g = make(players, stages=2)
    played = play_random(g, seed, seed + 1)
    rng = random.Random(shuffle)
    prev = played.initial
    for seat, action, _ in played.steps:
        twin = _relabel(g, prev, rng)
        for who in [None, *range(players)]:
            assert g.observe(twin, who).to_json() == g.observe(prev, who).to_json()
        ours, theirs = g.step(prev, seat, action), g.step(twin, seat, action)
        assert [e.to_json() for e in ours.events] == [e.to_json() for e in theirs.events]
        prev = ours.state


def test_relabelling_changes_states_and_the_tactical_views() -> None:
    """Guard for the test above: the relabelling really changes the state, and in the
    tactical variant, where white numbers are public (WF-10), the views show it."""
    rng = random.Random(3)
    for variant in ("base", "tactical"):
        g = make(4, variant=variant)
        s = g.new_initial_state(5)
        twins = [_relabel(g, s, rng) for _ in range(10)]
        assert sum(t.to_json() != s.to_json() for t in twins) >= 9
        differ = sum(g.observe(t, 0).to_json() != g.observe(s, 0).to_json() for t in twins)
        assert differ == (0 if variant == "base" else 10)


# -- what a transition tells whom ----------------------------------------------------------------


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_public_events_hold_no_secret(variant: str) -> None:
    """Dealt hands and chosen cards go to their seat alone; everything public is the same
    whatever the hidden cards are (who committed, never what)."""
    g = make(3, variant=variant)
    start = g.start(2)
    assert [e.kind for e in feed(start.events, None)] == ["stage_started"]
    for seat in range(3):
        own = [e for e in feed(start.events, seat) if not e.is_public]
        assert [(e.kind, e.audience) for e in own] == [("hand_dealt", seat)]
    s = start.state
    action = g.legal_actions(s, 1)[0]
    t = g.step(s, 1, action)
    assert [e.to_json() for e in feed(t.events, None)] == [{"kind": "card_committed", "seat": 1}]
    assert [e.kind for e in feed(t.events, 0)] == ["card_committed"]
    assert [e.kind for e in feed(t.events, 1)] == ["card_committed", "card_chosen"]
    assert all(e.audience in (PUBLIC, 1) for e in t.events)


@pytest.mark.parametrize(("players", "variant"), [(2, "base"), (4, "base"), (3, "tactical")])
def test_every_commit_tells_its_seat_alone_what_it_chose(players: int, variant: str) -> None:
    """Every legal commit along random games is face down (WF-4): everyone learns that the seat
    committed; the seat alone learns the value and target it chose (the base game shows values
    only, WF-2) or the card and its value (tactical, WF-10)."""
    g = make(players, variant=variant)
    rng = random.Random(3)
    for seed in range(3):
        s = g.new_initial_state(seed)
        while not s.is_terminal:
            seat = rng.choice(s.pending)
            for action in g.legal_actions(s, seat) if s.phase == "commit" else ():
                committed, chosen = g.step(s, seat, action).events[:2]
                assert committed.to_json() == {"kind": "card_committed", "seat": seat}
                if isinstance(action, PlaceCard):
                    told = {"seat": seat, "value": action.value, "target": action.target}
                else:
                    assert isinstance(action, CommitCard)
                    value = g.values[action.card - 1]
                    told = {"seat": seat, "card": action.card, "value": value}
                assert chosen.to_json() == {"kind": "card_chosen", **told, "audience": seat}
            s = g.step(s, seat, rng.choice(g.legal_actions(s, seat))).state


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_new_initial_state_is_the_state_of_start(variant: str) -> None:
    """The shortcut that builds no events deals exactly what ``start`` deals."""
    g = make(2, variant=variant)
    for seed in range(20):
        assert g.new_initial_state(seed) == g.start(seed).state


def test_move_numbers_count_accepted_actions_on_both_paths() -> None:
    g = make(2, variant="tactical", stages=1)
    played = play_random(g, 4, 5)
    fast = played.initial
    assert fast.move == 0 and fast.to_json()["move"] == 0
    for i, (seat, action, state) in enumerate(played.steps, 1):
        assert state.move == i and state.to_json()["move"] == i
        assert g.observe(state, None).header.move == i
        g.apply_unchecked(fast, seat, action)
        assert fast == state  # no stripping: states hold no events
    with pytest.raises(IllegalAction):
        g.step(state, 0, action)
    assert state.move == len(played.steps)  # a refused action counts nothing


# -- views -----------------------------------------------------------------------------------------


def _mutable_inside(value: Any, path: str = "view") -> list[str]:
    """Paths of the lists, dicts and sets inside a view (its header's JSON parts excepted)."""
    if isinstance(value, list | dict | set):
        return [path]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = []
        for f in dataclasses.fields(value):
            if f.name in ("config", "outcome"):  # header JSON: fresh copies, checked below
                continue
            found += _mutable_inside(getattr(value, f.name), f"{path}.{f.name}")
        return found
    if isinstance(value, tuple):
        return [p for i, v in enumerate(value) for p in _mutable_inside(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_views_are_frozen_and_share_nothing_with_the_state(variant: str) -> None:
    g = make(2, variant=variant)
    played = play_random(g, 7, 8)
    for _, _, s in played.steps[:30]:
        before = s.to_json()
        for who in (None, 0, 1):
            view = g.observe(s, who)
            assert _mutable_inside(view) == []
            with pytest.raises(dataclasses.FrozenInstanceError):
                view.positions = ()  # type: ignore[misc]
            view.header.config["players"] = 99
            if view.header.outcome is not None:
                view.header.outcome.clear()
        assert s.to_json() == before
        assert g.observe(s, 0).header.config["players"] == 2


def test_view_header_frames_the_table_in_public_words() -> None:
    g = make(2)
    s = g.new_initial_state(3)
    s = g.apply(s, 0, g.legal_actions(s, 0)[0])
    view = g.observe(s, 1)
    h = view.header
    assert (h.game, h.seat, h.move, h.phase, h.terminal) == ("why-first", 1, 1, "commit", False)
    assert h.score_names == ("P1", "P2", "Leo") and h.scores == (0.0, 0.0, 0.0)
    assert h.acting == (1,) and h.waiting == "waiting for P2 to place a card"
    obj = view.to_json()
    assert next(iter(obj)) == "header" and "events" not in obj and "pending" not in obj
    assert g.view_from_json(obj) == view
    five = make(5)
    t = five.new_initial_state(1)
    for seat in (0, 2, 4):
        t = five.apply(t, seat, five.legal_actions(t, seat)[0])
    assert five.observe(t, None).header.waiting == "waiting for P2, P4 to place a card"
    tactical = make(3, variant="tactical")
    u = tactical.new_initial_state(1)
    for seat in range(3):
        u = tactical.apply(u, seat, tactical.legal_actions(u, seat)[0])
    card_no = u.move_queue[0][0]
    who = f"P{u.pending[0] + 1}"
    value = tactical.values[card_no - 1]
    assert tactical.observe(u, None).header.waiting == (
        f"waiting for {who} to move a figure with #{card_no} ({value:+d})"
    )


def test_parse_action_works_from_the_view_alone() -> None:
    """Every text form, read from a view rebuilt from JSON: no state needed."""
    g = make(2)
    s = build(g, positions=[0, 0, 0], hands=[[card(3), card(-1)], [card(2)]])
    view = g.view_from_json(g.observe(s, 0).to_json())
    assert g.parse_action("+3>P2", view) == PlaceCard(3, 1)
    assert g.parse_action("-1 Leo", view) == PlaceCard(-1, 2)
    with pytest.raises(IllegalAction, match="you hold no \\+5 card \\(your hand: -1, \\+3\\)"):
        g.parse_action("+5>P1", view)
    s = g.apply(s, 0, PlaceCard(3, 1))
    with pytest.raises(NotYourTurn):
        g.parse_action("-1>P1", g.observe(s, 0))


# -- the shared game object ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_a_shared_game_object_keeps_no_secret(variant: str) -> None:
    """Whatever hands pass through a game object — legal actions, views, steps, samples,
    the fast path — it stays byte for byte what it was."""
    g = make(4, variant=variant)
    other = make(4, variant=variant)
    fresh = pickle.dumps(g)
    assert pickle.dumps(other) == fresh
    for seed in range(3):
        s = g.new_initial_state(seed)
        for seat in range(4):
            g.legal_actions(s, seat)
            view = g.observe(s, seat)
            g.sample_state(view, Rng(seed))
            s = g.apply(s, seat, g.legal_actions(s, seat)[-1])
        g.apply_unchecked(s.clone(), s.pending[0], g.legal_actions(s, s.pending[0])[0])
        assert pickle.dumps(g) == fresh
    other.observe(other.new_initial_state(99), 2)
    assert pickle.dumps(other) == pickle.dumps(g) == fresh


# -- configurations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("stages", 2.5, "integer, 1 to 20"),
        ("stages", True, "integer, 1 to 20"),
        ("stages", "3", "integer, 1 to 20"),
        ("stages", 0, "integer, 1 to 20"),
        ("stages", 21, "integer, 1 to 20"),
        ("hand_size", 3.0, "integer, 2 to 21"),
        ("hand_size", 1, "integer, 2 to 21"),
        ("players", 7, "Why First? is for 2 to 6 players"),
        ("players", 3.0, "integer"),
        ("track_min", -65, "integer, -64 to 0"),
        ("track_max", 10**9, "integer, 0 to 64"),
        ("variant", "chaos", "one of base, tactical"),
        ("card_values", [1] * 65, "a list of integers, -16 to 16"),
        ("card_values", [1] * 31 + [17], "a list of integers, -16 to 16"),
        ("card_values", [1] * 31 + [0], "not 0"),
        ("card_values", [1] * 31 + [True], "a list of integers, -16 to 16"),
    ],
)
def test_bad_options_name_option_value_and_what_is_allowed(
    option: str, value: Any, allowed: str
) -> None:
    with pytest.raises(InvalidConfig) as info:
        SPEC.make_config(**{option: value})
    message = str(info.value)
    assert info.value.code == "config/invalid" and info.value.option == option
    assert option in message and allowed in message
    if not isinstance(value, list):
        assert repr(value) in message


def test_a_deck_too_small_for_the_hands_is_refused() -> None:
    with pytest.raises(InvalidConfig, match="option hand_size=7 is not allowed") as info:
        SPEC.make_config(players=5, hand_size=7)
    assert "35 cards per stage, the deck has 32" in str(info.value)


_configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "variant": st.sampled_from(["base", "tactical"]),
        "stages": st.integers(1, 20),
        "hand_size": st.integers(2, 21),
        "track_min": st.integers(-64, 0),
        "track_max": st.integers(0, 64),
        "card_values": st.lists(st.integers(-16, 16).filter(bool), min_size=1, max_size=64).map(
            tuple
        ),
    }
)


@settings(max_examples=40, deadline=None)
@given(_configs, st.integers(0, 2**32))
def test_every_accepted_config_ends_within_its_bound(options: dict[str, Any], seed: int) -> None:
    """Bounded options make every accepted game end after at most stages × hand_size rounds,
    each with at most one decision per seat (two in the tactical variant)."""
    try:
        config = SPEC.make_config(**options)
    except InvalidConfig:
        return  # the deck is too small for the hands: refused, fine
    g = SPEC.factory(config)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    bound = config.stages * config.hand_size * config.players * 2  # type: ignore[attr-defined]
    for _ in range(bound):
        if s.is_terminal:
            break
        seat = s.pending[0]
        g.apply_unchecked(s, seat, rng.choice(g.legal_actions(s, seat)))
    assert s.is_terminal


# -- seats, actions and states from outside ------------------------------------------------------


@pytest.mark.parametrize("seat", [None, "0", 0.0, True, 1.0, -1, 4])
def test_seats_that_are_not_seats_are_refused(seat: Any) -> None:
    g = make(4)
    s = g.new_initial_state(1)
    before = s.to_json()
    with pytest.raises(IllegalAction, match="there is no seat") as info:
        g.step(s, seat, g.legal_actions(s, 1)[0])
    assert info.value.code == "action/illegal"
    assert s.to_json() == before
    if seat is not None:
        with pytest.raises(IllegalAction, match="there is no seat"):
            g.observe(s, seat)


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "place",
        {},
        {"type": "fly"},
        {"type": None},
        {"type": "place", "value": 1},
        {"type": "place", "value": 1, "target": True},
        {"type": "place", "value": 1.0, "target": 0},
        {"type": "place", "value": "1", "target": 0},
        {"type": "place", "value": 1, "target": 0, "card": 3},
        {"type": "commit", "card": False},
        {"type": "move", "target": [0]},
    ],
)
def test_malformed_action_json_is_an_invalid_message(obj: Any) -> None:
    with pytest.raises(InvalidMessage) as info:
        make(3).action_from_json(obj)
    assert info.value.code == "message/invalid"


def test_bad_state_json_raises_a_clear_value_error() -> None:
    g = make(3)
    good = g.new_initial_state(1).to_json()
    broken: list[tuple[Any, str]] = [
        ([], "must be a JSON object"),
        ({}, "missing players"),
        ({k: v for k, v in good.items() if k != "hands"}, "missing hands"),
        ({**good, "events": []}, "unknown key(s) events"),
        ({**good, "stage": "0"}, "stage must be an integer"),
        ({**good, "hands": [[1, 2], "x", []]}, "hand must be a list"),
        ({**good, "phase": "dance"}, "unknown phase"),
        ({**good, "last_reveal": [[0, 1]]}, "3 integers"),
        ({**good, "players": 4}, "4 players, not 3"),
        ({**good, "hands": [[1], [1], [2]]}, "one place only"),
    ]
    for obj, words in broken:
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
            g.state_from_json(obj)
    assert g.state_from_json(good) == g.new_initial_state(1)


def test_error_codes_say_why_an_action_was_refused() -> None:
    g = make(3, stages=1)
    s = g.new_initial_state(2)
    s = g.apply(s, 0, g.legal_actions(s, 0)[0])
    with pytest.raises(NotYourTurn) as info:
        g.step(s, 0, g.legal_actions(s, 1)[0])  # seat 0 has already committed
    assert info.value.code == "action/not-your-turn"
    with pytest.raises(IllegalAction) as wrong:
        g.step(s, 1, PlaceCard(99, 0))
    assert wrong.value.code == "action/illegal"
    last = play_random(g, 2, 3).steps[-1][2]
    with pytest.raises(GameOver) as over:
        g.step(last, 0, PlaceCard(1, 0))
    assert over.value.code == "action/game-over"
