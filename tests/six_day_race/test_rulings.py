"""One group of tests per ruling SD-1 … SD-12 (``/work/shared/rules/DECISIONS.md``), with every
*(config)* value, plus the :class:`~racedeck.IllegalAction` contract of the checked path.

Situations are built from ``new_initial_state`` by setting the state's fields directly (see
:func:`build`); riders: player ``p`` owns riders ``p`` and ``p + players`` (SD-12).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

import pytest

import racedeck
from racedeck.core.errors import NotYourTurn
from racedeck.core.events import Event
from racedeck.games.six_day_race import PlayCard, SixDayRace, SixDayRaceConfig, SixDayRaceState
from racedeck.games.six_day_race.cards import (
    GREEN,
    HIGH,
    LOW,
    card_code,
    card_pile,
    card_value,
    describe_card,
)
from racedeck.games.six_day_race.scoring import (
    finish_places,
    laps_lost,
    next_race_players,
    series_ranks,
    slipstream_destination,
)

from .builders import build, data_of, finish_points, green, make, of_kind, only, play

SMALL_HAND = {1: 4, 2: 4, 3: 3, 4: 3, 5: 2, 7: 1}
LARGE_HAND = {1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 7: 1}


def low(*values: int) -> list[int]:
    return [card_code(LOW, v) for v in values]


def high(*values: int) -> list[int]:
    return [card_code(HIGH, v) for v in values]


def kinds(events: Iterable[Event]) -> list[str]:
    """Kinds of the public events (the private ones are checked where they matter)."""
    return [e.kind for e in events if e.is_public]


def final_state(game: SixDayRace, seed: int) -> tuple[SixDayRaceState, list[Event]]:
    start = game.start(seed)
    s, events = start.state, list(start.events)
    rng = random.Random(seed)
    while not s.is_terminal:
        seat = s.pending[0]
        transition = game.step(s, seat, rng.choice(game.legal_actions(s, seat)))
        s = transition.state
        events.extend(transition.events)
    return s, events


def short_track(**options: object) -> dict[str, object]:
    """A 45-space track on which random play often crosses the line."""
    return {"line": 45, "sprints": (15, 30), "rider_change": 17, "crash": 27, **options}


# -- SD-1 track -----------------------------------------------------------------------------------


def test_sd1_default_track() -> None:
    cfg = SixDayRaceConfig()
    assert (cfg.line, cfg.sprints, cfg.rider_change, cfg.crash) == (81, (27, 54), 30, 50)
    for players in range(2, 9):
        g = make(players)
        s = g.new_initial_state(players)
        assert s.positions == [0] * g.riders  # everyone behind the line
        view = g.observe(s, None)
        assert (view.line, view.sprints, view.rider_change, view.crash) == (81, (27, 54), 30, 50)


@pytest.mark.parametrize(
    ("start", "value", "crossed"), [(78, 3, True), (77, 3, False), (74, 7, True)]
)
def test_sd1_reaching_the_line_is_crossing_it(start: int, value: int, crossed: bool) -> None:
    g = make(5)
    s = build(g, positions=[start, 0, 0, 0, 0], hands=[green(value, 1)] * 5, mover=0)
    s, events = play(g, s, value)
    assert s.positions[0] == start + value
    assert ("crossed_line" in kinds(events)) is crossed
    assert (s.finishers == [0]) is crossed
    assert (s.final_queue is not None) is crossed


def test_sd1_positions_past_the_line_are_kept() -> None:
    g = make(5)
    s = build(g, positions=[79, 0, 0, 0, 0], hands=[green(5)] * 5, mover=0)
    s, _ = play(g, s, 5)
    assert s.positions[0] == 84


@pytest.mark.parametrize(
    ("start", "value", "effect"),
    [(5, 3, "rider_change"), (10, 5, "crash"), (3, 2, "sprint"), (17, 3, "crossed_line")],
)
def test_sd1_configured_track(start: int, value: int, effect: str) -> None:
    """line 20, sprints 5 and 12, FAHRERWECHSEL 8, STURZ 15 (config)."""
    g = make(5, line=20, sprints=(5, 12), rider_change=8, crash=15)
    s = build(g, positions=[start, 0, 0, 0, 0], hands=[green(value, 1)] * 5, mover=0)
    s, events = play(g, s, value)
    assert effect in kinds(events)
    assert g.observe(s, 0).line == 20


def test_sd1_default_special_spaces_are_ordinary_on_another_track() -> None:
    """With FAHRERWECHSEL and STURZ moved (config), spaces 30 and 50 slipstream normally."""
    g = make(5, line=100, rider_change=40, crash=60)
    s = build(g, positions=[27, 30, 0, 47, 50], hands=[green(3)] * 5, mover=0)
    s, events = play(g, s, 3)
    assert s.positions[0] == 33 and "rider_change" not in kinds(events)
    s = build(g, positions=[27, 30, 0, 47, 50], hands=[green(3)] * 5, mover=3)
    s, events = play(g, s, 3)
    assert s.positions[3] == 53 and "crash" not in kinds(events)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"line": 1}, r"option line=1 is not allowed: below 2"),
        ({"rider_change": 0}, r"option rider_change=0 is not allowed: below 1"),
        ({"rider_change": 81}, r"option rider_change=81 .* must lie between"),
        ({"crash": 90}, r"option crash=90 .* must lie between"),
        ({"crash": -1}, r"option crash=-1 is not allowed: below 1"),
        ({"sprints": (0, 54)}, r"option sprints=\[0, 54\] is not allowed: item 0: below 1"),
        ({"sprints": (27, 81)}, r"option sprints=\[27, 81\] .* sprint lines lie between"),
    ],
)
def test_sd1_track_outside_the_line_is_rejected(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make(5, **options)


# -- SD-2 hands -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "riders", "table"),
    [
        (2, 0, SMALL_HAND),  # 4 riders
        (3, 1, SMALL_HAND),
        (4, 1, SMALL_HAND),
        (5, 0, SMALL_HAND),
        (3, 0, LARGE_HAND),  # 6 riders: chosen by riders, not by players
        (4, 2, LARGE_HAND),  # 8 riders
        (6, 0, LARGE_HAND),
        (8, 1, LARGE_HAND),
    ],
)
def test_sd2_green_hand_by_number_of_riders(
    players: int, riders: int, table: dict[int, int]
) -> None:
    g = make(players, riders=riders)
    s = g.new_initial_state(11)
    assert len(s.hands) == g.riders
    for hand in s.hands:
        assert Counter(card_value(c) for c in hand) == table
        assert all(card_pile(c) == GREEN for c in hand)
        assert hand == sorted(hand)
    assert sum(table.values()) == (17 if table is SMALL_HAND else 15)


@pytest.mark.parametrize(("small_field", "size"), [(8, 17), (6, 17), (5, 15), (2, 15)])
def test_sd2_small_field_config(small_field: int, size: int) -> None:
    g = make(3, small_field=small_field)  # 6 riders
    assert {len(h) for h in g.new_initial_state(0).hands} == {size}


def test_sd2_green_hand_config() -> None:
    g = make(6, green_small=(1, 0, 0, 0, 0, 0, 0), green_large=(1, 1, 1, 1, 1, 1, 1))
    assert g.new_initial_state(0).hands[0] == green(1, 2, 3, 4, 5, 6, 7)
    g = make(5, green_small=(0, 2, 0, 0, 0, 0, 3))
    assert g.new_initial_state(0).hands[4] == green(2, 2, 7, 7, 7)


def test_sd2_green_counts_give_values_1_to_7() -> None:
    # Seven counts, one per value 1..7.
    with pytest.raises(ValueError, match=r"option green_small=.* expected a list \[integer, i"):
        make(5, green_small=(4, 4, 3, 3, 2, 1))
    with pytest.raises(ValueError, match=r"option green_large=.* expected a list \[integer, i"):
        make(6, green_large=(3, 3, 3, 3, 2, 0, 1, 1))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_sd2_hands_are_private(players: int) -> None:
    g = make(players)
    s = g.new_initial_state(3)
    spectator = g.observe(s, None).to_json()
    assert spectator["my_hands"] == [] and spectator["legal_actions"] == []
    for seat in range(players):
        view = g.observe(s, seat)
        assert [r for r, _ in view.my_hands] == list(g.riders_of(seat))
        for rider in range(g.riders):
            expected = tuple(s.hands[rider]) if g.owner(rider) == seat else ()
            assert view.hand_of(rider) == expected
        obj = view.to_json()
        assert obj["hand_sizes"] == [len(h) for h in s.hands]
        assert obj["deck_sizes"] == [48, 32]
        assert not {"hands", "deck_low", "deck_high", "rng"} & set(obj)


# -- SD-3 grey decks ------------------------------------------------------------------------------


def test_sd3_grey_decks_composition_and_shuffle() -> None:
    g = make(5)
    orders = set()
    for seed in range(4):
        s = g.new_initial_state(seed)
        assert Counter(s.deck_low) == {11: 16, 12: 16, 13: 16}
        assert Counter(s.deck_high) == {24: 11, 25: 11, 26: 10}
        assert s.deck_low != sorted(s.deck_low) and s.deck_high != sorted(s.deck_high)
        orders.add((tuple(s.deck_low), tuple(s.deck_high)))
        assert s.discard_low == s.discard_high == s.discard_green == []
    assert len(orders) == 4


def test_sd3_grey_deck_config() -> None:
    g = make(5, grey_low=(2, 3, 4), grey_high=(0, 1, 5))
    s = g.new_initial_state(0)
    assert Counter(s.deck_low) == {11: 2, 12: 3, 13: 4}
    assert Counter(s.deck_high) == {25: 1, 26: 5}
    # Three counts per grey deck: values 1..3 and 4..6.
    with pytest.raises(ValueError, match=r"option grey_low=\[16, 16\] .* \[integer, integer, i"):
        make(5, grey_low=(16, 16))
    with pytest.raises(ValueError, match=r"option grey_high=.* \[integer, integer, integer\]"):
        make(5, grey_high=(11, 11, 10, 1))


def _change_with_decks(
    deck_low: list[int], discard_low: list[int], deck_high: list[int], discard_high: list[int]
) -> tuple[SixDayRaceState, SixDayRaceState, list[Event]]:
    g = make(5)
    s = build(g, positions=[27, 0, 0, 0, 0], hands=[green(3, 5)] + [green(1)] * 4, mover=0)
    s.deck_low, s.discard_low = list(deck_low), list(discard_low)
    s.deck_high, s.discard_high = list(deck_high), list(discard_high)
    after, events = play(g, s, 3)
    return s, after, events


def test_sd3_low_deck_is_refilled_from_its_own_discards() -> None:
    """Deck 1–3 holds 3 cards: they are drawn, then its 6 discards are shuffled in and 4 more
    drawn. The 4–6 discards stay where they are."""
    before, s, events = _change_with_decks(
        low(1, 2, 3), low(1, 1, 2, 2, 3, 3), high(4, 4, 5, 5, 6, 6, 4), high(6, 5)
    )
    assert kinds(events) == ["card_played", "deck_refilled", "rider_change"]
    assert data_of(only(events, "deck_refilled")) == {"deck": "1-3"}
    assert data_of(only(events, "rider_change"))["drawn"] == [7, 4]
    hand_low = [c for c in s.hands[0] if card_pile(c) == LOW]
    assert len(hand_low) == 7 and len(s.hands[0]) == 11
    assert Counter(hand_low) + Counter(s.deck_low) == Counter(before.deck_low + before.discard_low)
    assert len(s.deck_low) == 2 and s.discard_low == []
    assert s.discard_high == high(6, 5) and len(s.deck_high) == 3
    assert sorted(s.discard_green) == green(3, 5)  # green cards never enter a grey deck


def test_sd3_high_deck_is_refilled_from_its_own_discards() -> None:
    before, s, events = _change_with_decks(low(*[1, 2, 3] * 4), [], [], high(4, 5, 6, 4, 5, 6))
    assert data_of(only(events, "deck_refilled")) == {"deck": "4-6"}
    hand_high = [c for c in s.hands[0] if card_pile(c) == HIGH]
    assert len(hand_high) == 4
    assert Counter(hand_high) + Counter(s.deck_high) == Counter(before.discard_high)
    assert s.discard_high == [] and len(s.deck_high) == 2


def test_sd3_refilled_deck_order_comes_from_the_rng() -> None:
    """The refill is shuffled with the state's generator: other RNG states, other draws."""
    draws = set()
    for rng_state in range(8):
        g = make(5)
        s = build(g, positions=[27, 0, 0, 0, 0], hands=[green(3)] + [green(1)] * 4, mover=0)
        s.deck_low, s.discard_low = [], low(1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
        s.rng.state = rng_state
        s, _ = play(g, s, 3)
        draws.add(tuple(s.deck_low))
    assert len(draws) > 1


def test_sd3_other_decks_discards_are_never_used() -> None:
    """Deck 1–3 and its discards are empty: nothing is taken from the 4–6 discards instead
    (the rider draws what there is; not reachable with the default decks)."""
    _, s, events = _change_with_decks([], [], high(4, 5, 6, 4, 5), high(6, 6))
    assert "deck_refilled" not in kinds(events)
    assert data_of(only(events, "rider_change"))["drawn"] == [0, 4]
    assert all(card_pile(c) == HIGH for c in s.hands[0])
    assert s.discard_high == high(6, 6)


def test_sd3_default_decks_never_run_out() -> None:
    """8 riders changing once each draw 48 + 32 cards: exactly the default decks."""
    cfg = make(8).cfg
    assert sum(cfg.grey_low) == 8 * cfg.change_draw_large[0] == 48
    assert sum(cfg.grey_high) == 8 * cfg.change_draw_large[1] == 32


# -- SD-4 turns -----------------------------------------------------------------------------------


def test_sd4_riders_act_in_seat_order() -> None:
    g = make(5, random_first=False)
    s = g.new_initial_state(9)
    assert s.order == [0, 1, 2, 3, 4]
    seen = []
    for _ in range(12):
        seen.append(s.current)
        assert s.pending == (s.current,)
        s = g.apply(s, s.pending[0], g.legal_actions(s, s.pending[0])[0])
    assert seen == [0, 1, 2, 3, 4] * 2 + [0, 1]


def test_sd4_legal_actions_are_the_values_in_the_moving_riders_hand() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1, 1, 2, 7), *[green(3)] * 4], mover=0)
    assert g.legal_actions(s, 0) == (PlayCard(1), PlayCard(2), PlayCard(7))
    assert all(g.legal_actions(s, seat) == () for seat in range(1, 5))
    s.hands[0] = sorted(low(3, 1, 3) + high(6, 4))
    assert [a.value for a in g.legal_actions(s, 0)] == [1, 3, 4, 6]


def test_sd4_a_played_card_leaves_the_hand_face_up() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1, 1, 2), *[green(3)] * 4], mover=0)
    s, events = play(g, s, 1)
    assert s.hands[0] == green(1, 2) and s.discard_green == green(1)
    assert data_of(only(events, "card_played"))["card"] == 1
    s.hands[1] = low(2) + high(5)
    s, events = play(g, s, 5)
    assert s.discard_high == high(5) and data_of(only(events, "card_played"))["card"] == 25
    assert describe_card(25) == "5 (grey 4-6)"


def test_sd4_a_rider_without_cards_passes() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1), [], [], green(2), green(3)], mover=0)
    s, events = play(g, s, 1)
    assert of_kind(events, "passed") == [{"rider": 1}, {"rider": 2}]
    assert s.current == 3 and s.pending == (3,)
    assert g.observe(s, 1).legal_actions == ()  # a rider without cards is never asked


# -- SD-5 slipstream ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 2, 5, 7])
@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_sd5_k_riders_multiply_the_move_by_k_plus_1(value: int, k: int) -> None:
    g = make(6)
    first = 10 + value
    positions = [10] + [first] * k + [0] * (5 - k)
    s = build(g, positions=positions, hands=[green(value), *[green(1)] * 5], mover=0)
    s, events = play(g, s, value)
    assert s.positions[0] == 10 + (k + 1) * value
    d = data_of(only(events, "card_played"))
    assert (d["first"], d["riders_there"], d["multiplier"]) == (first, k, k + 1)
    assert d["special"] is False


def test_sd5_own_second_rider_counts() -> None:
    g = make(2)  # P1 plays riders 0 and 2
    s = build(g, positions=[10, 0, 13, 0], hands=[green(3)] * 4, mover=0)
    s, _ = play(g, s, 3)
    assert s.positions[0] == 16


def test_sd5_the_move_stops_on_the_second_space_whatever_it_holds() -> None:
    g = make(6)
    s = build(g, positions=[10, 12, 14, 14, 14, 16], hands=[green(2)] * 6, mover=0)
    s, _ = play(g, s, 2)
    assert s.positions[0] == 14 and s.current == 1


@pytest.mark.parametrize(("space", "effect"), [(30, "rider_change"), (50, "crash")])
@pytest.mark.parametrize("k", [1, 3])
def test_sd5_no_slipstream_when_the_first_space_is_special(space: int, effect: str, k: int) -> None:
    g = make(5)
    positions = [space - 4] + [space] * k + [0] * (4 - k)
    s = build(g, positions=positions, hands=[green(4), *[green(1)] * 4], mover=0)
    s, events = play(g, s, 4)
    assert s.positions[0] == space
    d = data_of(only(events, "card_played"))
    assert (d["riders_there"], d["multiplier"], d["special"], d["to"]) == (k, 1, True, space)
    assert effect in kinds(events)


@pytest.mark.parametrize(("space", "effect"), [(30, "rider_change"), (50, "crash")])
def test_sd5_slipstream_may_end_on_a_special_space(space: int, effect: str) -> None:
    """Only the *first* space is checked: slipstreaming onto FAHRERWECHSEL or STURZ ends the move
    there, with its effect (SD-6/SD-7: "a rider ending its move there")."""
    g = make(5)
    s = build(g, positions=[space - 10, space - 5, 0, 0, 0], hands=[green(5)] * 5, mover=0)
    s, events = play(g, s, 5)
    assert s.positions[0] == space
    d = data_of(only(events, "card_played"))
    assert (d["first"], d["multiplier"], d["special"]) == (space - 5, 2, False)
    assert data_of(only(events, effect))["rider"] == 0


def test_sd5_slipstream_destination_function() -> None:
    assert slipstream_destination(10, 3, [10, 13, 13, 13], 0, (30, 50)) == (13, 3, 22)
    assert slipstream_destination(10, 3, [10, 10, 0], 0, (30, 50)) == (13, 0, 13)
    assert slipstream_destination(26, 4, [26, 30, 30], 0, (30, 50)) == (30, 2, 30)
    assert slipstream_destination(13, 0, [13, 13], 1, ()) == (13, 1, 13)  # the mover never counts


# -- SD-6 FAHRERWECHSEL ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "riders", "draw"),
    [
        (2, 0, (7, 4)),
        (5, 0, (7, 4)),
        (3, 1, (7, 4)),
        (3, 0, (6, 4)),
        (4, 0, (6, 4)),
        (7, 0, (6, 4)),
    ],
)
def test_sd6_cards_drawn_depend_on_the_number_of_riders(
    players: int, riders: int, draw: tuple[int, int]
) -> None:
    g = make(players, riders=riders)
    positions = [26] + [0] * (g.riders - 1)
    s = build(g, positions=positions, hands=[green(4, 1, 7), *[green(1)] * (g.riders - 1)], mover=0)
    s, events = play(g, s, 4)
    assert data_of(only(events, "rider_change")) == {
        "rider": 0,
        "discarded": 2,
        "drawn": list(draw),
    }
    assert Counter(card_pile(c) for c in s.hands[0]) == {LOW: draw[0], HIGH: draw[1]}
    assert s.hands[0] == sorted(s.hands[0])
    assert sorted(s.discard_green) == green(1, 4, 7)


@pytest.mark.parametrize(("players", "draw"), [(5, (3, 2)), (6, (1, 0))])
def test_sd6_configured_draws(players: int, draw: tuple[int, int]) -> None:
    g = make(players, change_draw_small=(3, 2), change_draw_large=(1, 0))
    s = build(g, positions=[27] + [0] * (players - 1), hands=[green(3)] * players, mover=0)
    s, events = play(g, s, 3)
    assert data_of(only(events, "rider_change"))["drawn"] == list(draw)
    assert len(s.hands[0]) == sum(draw)


def test_sd6_a_rider_without_cards_gets_a_new_hand() -> None:
    """Playing the last card onto FAHRERWECHSEL: nothing to discard, 11 grey cards to play on."""
    g = make(5)
    s = build(g, positions=[25, 0, 0, 0, 0], hands=[green(5), [], [], [], []], mover=0)
    s, events = play(g, s, 5)
    assert data_of(only(events, "rider_change")) == {"rider": 0, "discarded": 0, "drawn": [7, 4]}
    assert "race_scored" not in kinds(events)
    assert s.current == 0 and len(s.hands[0]) == 11  # the others pass
    assert {a.value for a in g.legal_actions(s, 0)} <= {1, 2, 3, 4, 5, 6}


def test_sd6_passing_over_fahrerwechsel_changes_nothing() -> None:
    g = make(5)
    s = build(g, positions=[28, 0, 0, 0, 0], hands=[green(4, 1)] * 5, mover=0)
    s, events = play(g, s, 4)
    assert s.positions[0] == 32 and s.hands[0] == green(1)
    assert "rider_change" not in kinds(events)


# -- SD-7 STURZ -----------------------------------------------------------------------------------


def test_sd7_crash_loses_exactly_the_next_turn() -> None:
    g = make(2)  # riders 0, 1, 2, 3; P1 plays 0 and 2
    s = build(g, positions=[45, 0, 0, 0], hands=[green(5, 1, 1), *[green(1, 1, 1)] * 3], mover=0)
    s, events = play(g, s, 5)
    assert data_of(only(events, "crash")) == {"rider": 0} and s.crashed[0]
    s, events = play(g, s, 1, 1, 1)  # riders 1, 2, 3; then rider 0 sits out
    assert of_kind(events, "turn_lost") == [{"rider": 0}]
    assert s.current == 1 and not any(s.crashed)
    s, events = play(g, s, 1, 1, 1)
    assert "turn_lost" not in kinds(events) and s.current == 0


def test_sd7_passing_over_sturz_is_harmless() -> None:
    g = make(5)
    s = build(g, positions=[48, 0, 0, 0, 0], hands=[green(3, 1)] * 5, mover=0)
    s, events = play(g, s, 3)
    assert "crash" not in kinds(events) and not any(s.crashed)


def test_sd7_crash_before_the_first_crossing_loses_the_final_turn() -> None:
    g = make(3, riders=1, races=1)
    s = build(g, positions=[78, 50, 40], hands=[green(3), green(7), green(1)], crashed=[1], mover=0)
    s, events = play(g, s, 3)
    assert data_of(only(events, "final_turns")) == {"riders": [1, 2]}
    assert of_kind(events, "turn_lost") == [{"rider": 1}]
    assert s.current == 2
    s, events = play(g, s, 1)
    assert s.is_terminal and s.positions == [81, 50, 41]
    assert s.hands[1] == green(7)  # never played


def test_sd7_crash_on_the_final_turn_is_forgotten_in_the_next_race() -> None:
    g = make(3, riders=1, races=2, random_first=False)
    s = build(g, positions=[78, 45, 40], hands=[green(3), green(5), green(1)], mover=0)
    s, events = play(g, s, 3, 5)
    assert data_of(only(events, "crash")) == {"rider": 1}
    s, events = play(g, s, 1)
    assert "race_started" in kinds(events) and s.race == 1
    assert s.crashed == [False, False, False]
    order = s.order[:]
    s, events = play(g, s, 1, 1, 1)
    assert "turn_lost" not in kinds(events) and s.current == order[0]


def test_sd7_configured_crash_space() -> None:
    g = make(5, crash=12)
    s = build(g, positions=[10, 0, 0, 0, 0], hands=[green(2)] * 5, mover=0)
    s, events = play(g, s, 2)
    assert "crash" in kinds(events) and s.crashed[0]


# -- SD-8 sprints ---------------------------------------------------------------------------------


def test_sd8_crossing_order_scores_5_3_2_1_then_nothing() -> None:
    g = make(8, riders=1, races=1)
    starts = [20, 21, 22, 24, 25, 26, 19, 18]  # +7: 27 28 29 31 32 33 26 25
    hands = [green(7)] * 6 + [green(7, 1), green(7, 2)]
    s = build(g, positions=starts, hands=hands, mover=0)
    s, events = play(g, s, 7, 7, 7, 7, 7, 7, 7, 7)
    s, more = play(g, s, 1, 2)  # onto rider 0 on 27: to 28 and 29
    sprints = of_kind(events + more, "sprint")
    assert [(d["rider"], d["place"], d["points"]) for d in sprints] == [
        (0, 1, 5),
        (1, 2, 3),
        (2, 3, 2),
        (3, 4, 1),
        (4, 5, 0),
        (5, 6, 0),
        (6, 7, 0),
        (7, 8, 0),
    ]
    assert [list(r.sprints) for r in s.results[0]] == [[5, 0], [3, 0], [2, 0], [1, 0]] + [
        [0, 0]
    ] * 4


def test_sd8_a_move_crossing_both_sprint_lines_scores_both_in_order() -> None:
    g = make(5, races=1)
    s = build(g, positions=[19, 26, 26, 26, 26], hands=[green(7), [], [], [], []], mover=0)
    s, events = play(g, s, 7)
    assert data_of(only(events, "card_played"))["to"] == 26 + 4 * 7 == 54
    assert of_kind(events, "sprint") == [
        {"sprint": 1, "rider": 0, "place": 1, "points": 5},
        {"sprint": 2, "rider": 0, "place": 1, "points": 5},
    ]
    assert s.results[0][0].sprints == (5, 5)


def test_sd8_reaching_the_line_counts_and_starting_on_it_does_not() -> None:
    g = make(5)
    s = build(g, positions=[20, 0, 0, 0, 0], hands=[green(7, 1), *[green(1, 2)] * 4], mover=0)
    s, events = play(g, s, 7)
    assert s.positions[0] == 27 and data_of(only(events, "sprint"))["place"] == 1
    s, events = play(g, s, 1, 1, 1, 1, 1)  # riders 1-4, then rider 0 from 27 to 28
    assert "sprint" not in kinds(events) and s.sprint_order == [[0], []]


def test_sd8_sprint_points_count_in_the_scores_as_they_are_won() -> None:
    # Two riders each (SD-12): player 0 plays riders 0 and 2, player 1 riders 1 and 3.
    g = make(2, riders=2, races=1, sprint_points=(5, 3, 2, 1))
    s = build(g, positions=[20, 21, 0, 0], hands=[green(7), green(7), green(1), green(1)], mover=0)
    assert g.observe(s, None).header.scores == (0.0, 0.0)
    s, _ = play(g, s, 7)  # rider 0: 20 → 27, first over sprint 1
    view = g.observe(s, 1)
    assert view.sprint_order == ((0,), ()) and view.sprint_points == ((5,), ())
    assert view.header.scores == (5.0, 0.0)  # before the race ends, not only after it
    s, _ = play(g, s, 7)  # rider 1: 21 → 28, second
    view = g.observe(s, None)
    assert view.sprint_points == ((5, 3), ()) and view.header.scores == (5.0, 3.0)
    assert g.view_from_json(view.to_json()) == view


def test_sd8_sprint_order_includes_earlier_crossers() -> None:
    g = make(5)
    s = build(
        g,
        positions=[50, 60, 55, 0, 0],
        hands=[green(5)] * 5,
        mover=0,
        sprint_order=[[1, 2, 0], [1, 2]],
    )
    s, events = play(g, s, 5)
    assert data_of(only(events, "sprint")) == {"sprint": 2, "rider": 0, "place": 3, "points": 2}


def test_sd8_configured_lines_and_points() -> None:
    g = make(5, races=1, sprints=(10, 20, 40), sprint_points=(7, 1))
    s = build(g, positions=[5, 4, 15, 0, 0], hands=[green(5), green(7), green(5), [], []], mover=0)
    s, events = play(g, s, 5, 7, 5)
    # 5 → 10 (line 1, 1st), 4 → 11 (line 1, 2nd), 15 → 20 (line 2, 1st).
    sprints = [(d["sprint"], d["rider"], d["points"]) for d in of_kind(events, "sprint")]
    assert sprints == [(1, 0, 7), (1, 1, 1), (2, 2, 7)]
    assert [list(r.sprints) for r in s.results[0]] == [[7, 0, 0], [1, 0, 0], [0, 7, 0]] + [
        [0, 0, 0]
    ] * 2


# -- SD-9 finish ----------------------------------------------------------------------------------

ORDER = [3, 1, 4, 0, 2]


@pytest.mark.parametrize("crosser", ORDER)
def test_sd9_first_crosser_wins_and_the_others_follow_in_seat_order(crosser: int) -> None:
    g = make(5, races=1)
    positions = [40] * 5
    positions[crosser] = 77
    s = build(g, positions=positions, hands=[green(4, 1)] * 5, mover=crosser, order=ORDER)
    s, events = play(g, s, 4)
    i = ORDER.index(crosser)
    queue = ORDER[i + 1 :] + ORDER[:i]
    assert data_of(only(events, "crossed_line")) == {"rider": crosser, "place": 1}
    assert data_of(only(events, "final_turns")) == {"riders": queue}
    assert s.current == queue[0] and s.final_queue == queue[1:]
    movers = []
    while s.pending:
        movers.append(s.current)
        s, events = play(g, s, 1)
    assert movers == queue  # exactly one more turn each, the winner none
    assert data_of(only(events, "race_scored"))["reason"] == "final turns played"
    assert finish_points(s)[crosser] == 10 and s.results[0][crosser].place == 1
    said = g.describe_event(only(events, "race_scored"))
    assert said.startswith("Race over: every rider behind the line has had a last turn. Race 1")


def test_sd9_final_queue_with_two_riders_each() -> None:
    g = make(3, races=1)
    order = [1, 2, 0, 4, 5, 3]  # B1 C1 A1 B2 C2 A2
    s = build(g, positions=[80, 0, 0, 0, 0, 0], hands=[green(1, 2)] * 6, mover=0, order=order)
    s, events = play(g, s, 1)
    assert data_of(only(events, "final_turns")) == {"riders": [4, 5, 3, 1, 2]}
    assert s.pending == (1,)  # rider 4 is B's second rider


def test_sd9_later_crossers_rank_by_crossing_order_not_position() -> None:
    g = make(3, riders=1, races=1)
    s = build(g, positions=[80, 76, 60], hands=[green(1), green(5), green(1)], mover=0)
    s, events = play(g, s, 1, 5, 1)  # 80 → 81; 76 → 81 with one rider → 86
    assert s.positions == [81, 86, 61]
    assert of_kind(events, "crossed_line") == [{"rider": 0, "place": 1}, {"rider": 1, "place": 2}]
    assert "final_turns" in kinds(events) and len(of_kind(events, "final_turns")) == 1
    assert finish_points(s) == [10, 6, 4]
    assert [r.place for r in s.results[0]] == [1, 2, 3]


@pytest.mark.parametrize(
    ("positions", "crossers", "expected", "places"),
    [
        # Three riders tie for places 1-3 (nobody crosses): (10 + 6 + 4) / 3 each.
        ([70, 70, 70, 60, 50], [], [Fraction(20, 3)] * 3 + [2, 0], [1, 1, 1, 4, 5]),
        # Four tie for 1-4: 22/4 = 11/2.
        ([70, 70, 70, 70, 50], [], [Fraction(11, 2)] * 4 + [0], [1, 1, 1, 1, 5]),
        # Two crossed; three tie for 3-5: (4 + 2 + 0) / 3 = 2.
        ([81, 82, 70, 70, 70], [0, 1], [10, 6, 2, 2, 2], [1, 2, 3, 3, 3]),
        # Two tie for 4-5: (2 + 0) / 2 = 1.
        ([75, 74, 73, 60, 60], [], [10, 6, 4, 1, 1], [1, 2, 3, 4, 4]),
        # Two tie for 2-3: (6 + 4) / 2 = 5.
        ([75, 74, 74, 60, 59], [], [10, 5, 5, 2, 0], [1, 2, 2, 4, 5]),
    ],
)
def test_sd9_tied_riders_split_the_points_of_their_places(
    positions: list[int], crossers: list[int], expected: list[Fraction], places: list[int]
) -> None:
    got_places, points = finish_places(positions, crossers, 81, (10, 6, 4, 2))
    assert points == expected and got_places == places
    assert sum(points) == 22
    assert all(isinstance(p, Fraction) for p in points)


def test_sd9_a_three_way_tie_is_written_20_3_everywhere() -> None:
    g = make(5, races=1)
    s = build(g, positions=[70, 70, 70, 60, 48], hands=[[], [], [], [], green(1)], mover=4)
    s, events = play(g, s, 1)
    assert finish_points(s) == [Fraction(20, 3)] * 3 + [2, 0]
    scored = data_of(only(events, "race_scored"))
    assert [r["finish"] for r in scored["riders"]] == ["20/3", "20/3", "20/3", "2", "0"]
    assert [r["finish"] for r in s.to_json()["results"][0]] == ["20/3"] * 3 + ["2", "0"]
    view = g.observe(s, 0).to_json()
    assert view["points"] == ["20/3", "20/3", "20/3", "2", "0"]
    assert view["results"][0][0]["finish"] == "20/3"
    assert g.standings(s)[1] == [Fraction(20, 3)] * 3 + [2, 0]
    back = g.state_from_json(s.to_json())
    assert g.standings(back) == g.standings(s)
    outcome = g.outcome(s)
    assert outcome is not None
    assert outcome.scores[:3] == (20 / 3,) * 3 and outcome.winners == {0, 1, 2}
    assert outcome.ranks == (1, 1, 1, 4, 5)


def test_sd9_race_ends_when_no_rider_has_cards_left() -> None:
    g = make(3, riders=1, races=2)
    s = build(g, positions=[10, 20, 30], hands=[green(1), [], []], mover=0, crashed=[1])
    s, events = play(g, s, 1)
    assert kinds(events) == ["card_played", "race_scored", "race_started"]
    assert data_of(only(events, "race_scored"))["reason"] == "no rider has cards left"
    assert s.race == 1 and s.results[0][2].place == 1
    # The result's words say why the race ended, first.
    said = g.describe_event(only(events, "race_scored"))
    assert said.startswith("Race over: every hand is empty and nobody crossed the line. Race 1")


def test_sd9_a_rider_with_cards_keeps_the_race_going() -> None:
    g = make(3, riders=1, races=1)
    s = build(g, positions=[10, 20, 30], hands=[green(1), [], green(1, 1)], mover=0)
    s, events = play(g, s, 1)
    assert of_kind(events, "passed") == [{"rider": 1}]
    s, events = play(g, s, 1)  # rider 2; rider 0 and 1 pass
    assert of_kind(events, "passed") == [{"rider": 0}, {"rider": 1}] and s.current == 2
    s, events = play(g, s, 1)
    assert s.is_terminal


@pytest.mark.parametrize(
    ("points", "expected"),
    [((3, 2, 1), [3, 2, 1, 0, 0]), ((10, 6, 4, 2, 1), [10, 6, 4, 2, 1]), ((5,), [5, 0, 0, 0, 0])],
)
def test_sd9_configured_finish_points(points: tuple[int, ...], expected: list[int]) -> None:
    g = make(5, races=1, finish_points=points)
    s = build(g, positions=[80, 79, 78, 77, 0], hands=[green(1), [], [], [], []], mover=0)
    s, _ = play(g, s, 1)
    assert finish_points(s) == expected


# -- SD-10 laps lost ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "laps"),
    [(80, 0), (78, 0), (77, 1), (74, 1), (73, 2), (65, 4), (62, 4), (61, 5), (60, 5), (0, 5)],
)
def test_sd10_laps_lost(position: int, laps: int) -> None:
    assert laps_lost(position, False, 81, 4, 5) == laps
    assert laps == min(5, (81 - position) // 4)


def test_sd10_crossers_lose_no_lap() -> None:
    assert laps_lost(81, True, 81, 4, 5) == 0
    assert laps_lost(95, True, 81, 4, 5) == 0


@pytest.mark.parametrize(
    ("lap_spaces", "max_laps", "expected"),
    [(3, 2, [0, 1, 2, 2]), (10, 5, [0, 0, 1, 5]), (4, 0, [0] * 4)],
)
def test_sd10_configured_lap_spaces_and_maximum(
    lap_spaces: int, max_laps: int, expected: list[int]
) -> None:
    g = make(4, riders=1, races=1, lap_spaces=lap_spaces, max_laps_lost=max_laps)
    s = build(g, positions=[79, 77, 70, 0], hands=[[], [], [], green(1)], mover=3)
    s, _ = play(g, s, 1)  # 0 → 1
    assert [r.laps for r in s.results[0]] == expected
    assert g.standings(s)[0] == expected


def test_sd10_invalid_lap_config() -> None:
    with pytest.raises(ValueError, match="lap_spaces"):
        make(5, lap_spaces=0)
    with pytest.raises(ValueError, match="max_laps_lost"):
        make(5, max_laps_lost=-1)


# -- SD-11 series ---------------------------------------------------------------------------------


def test_sd11_six_races_by_default() -> None:
    assert make(5).cfg.races == 6


@pytest.mark.parametrize("races", [1, 2, 3])
def test_sd11_a_series_runs_the_configured_number_of_races(races: int) -> None:
    g = make(3, riders=1, races=races)
    s, events = final_state(g, seed=races)
    assert [e.data["race"] for e in events if e.kind == "race_started"] == list(range(1, races + 1))
    assert [e.data["race"] for e in events if e.kind == "race_scored"] == list(range(1, races + 1))
    assert kinds(events)[-1] == "game_over"
    assert s.race == races and s.phase == "over" and len(s.results) == races
    assert s.pending == () and s.current == -1


def test_sd11_races_must_be_positive() -> None:
    with pytest.raises(ValueError, match="races"):
        make(5, races=0)


def test_sd11_between_races_everything_starts_afresh() -> None:
    g = make(5, races=2)
    s = build(
        g,
        positions=[60, 75, 50, 70, 48],
        hands=[[], [], [], low(1, 2), high(6) + high(4)],
        crashed=[2],
        mover=4,
        sprint_order=[[0, 1, 2, 3, 4], [1, 3, 0]],
    )
    s.deck_low, s.discard_low = s.deck_low[:10], low(3, 3)
    s.discard_green = green(1, 2, 3)
    s, events = play(g, s, 6, 2, 4, 1)  # rider 4 → 54 (sprint 2), 3 → 72, 4 → 58, 3 → 73
    assert kinds(events)[-2:] == ["race_scored", "race_started"]
    assert s.race == 1 and s.positions == [0] * 5 and s.crashed == [False] * 5
    assert all(Counter(card_value(c) for c in h) == SMALL_HAND for h in s.hands)
    assert Counter(s.deck_low) == {11: 16, 12: 16, 13: 16}
    assert Counter(s.deck_high) == {24: 11, 25: 11, 26: 10}
    assert s.discard_low == s.discard_high == s.discard_green == []
    assert s.sprint_order == [[], []] and s.finishers == [] and s.final_queue is None
    assert s.current == s.order[0] and len(s.results) == 1


def test_sd11_last_goes_first_ties_keep_the_previous_order() -> None:
    """Riders 1, 3 and 4 tie on distance (same place, same laps): their previous order stands."""
    g = make(5, races=2)
    order = [3, 0, 4, 1, 2]
    positions = [70, 60, 74, 60, 60]
    s = build(g, positions=positions, hands=[[], [], green(1), [], []], mover=2, order=order)
    s, events = play(g, s, 1)  # rider 2 → 75; riders 1, 3 and 4 tie on 60
    assert [r.place for r in s.results[0]] == [2, 3, 1, 3, 3]
    assert data_of(only(events, "race_started"))["order"] == [3, 4, 1, 0, 2]


@pytest.mark.parametrize(
    ("places", "laps", "rule", "expected"),
    [
        ([1, 2, 3, 4], [0, 0, 0, 1], "sum", [3, 2, 1, 0]),
        ([1, 2, 2, 4], [0, 1, 2, 3], "sum", [3, 2, 1, 0]),  # tie on 2: more laps first
        ([1, 2, 2, 4], [0, 2, 1, 3], "sum", [3, 1, 2, 0]),
        # Two riders each (players 0, 1; riders 0, 1, 2, 3): P1 places 1 + 4 = 5, P2 2 + 3 = 5.
        # Laps are the players' series totals (SD-11 Amended): P1 2, P2 1, then P1 1, P2 2.
        ([1, 2, 4, 3], [2, 1], "sum", [0, 1]),
        ([1, 2, 4, 3], [1, 2], "sum", [1, 0]),
        ([1, 2, 4, 3], [1, 2], "best", [1, 0]),  # best: P2's 2 is worse than P1's 1
    ],
)
def test_sd11_next_race_players_function(
    places: list[int], laps: list[int], rule: str, expected: list[int]
) -> None:
    players = len(expected)
    previous = list(range(players))
    assert next_race_players(previous, places, laps, players, rule) == expected


def test_sd11_series_ranks_function() -> None:
    f = Fraction
    assert series_ranks([1, 0, 0], [f(30), f(10), f(12)], 2) == (3, 2, 1)
    assert series_ranks([1, 0, 0], [f(30), f(10), f(12)], 1) == (1, 3, 2)  # one race: points
    assert series_ranks([0, 0, 1], [f(20, 3), f(20, 3), f(20)], 2) == (1, 1, 3)
    assert series_ranks([2, 2, 2], [f(5), f(5), f(5)], 6) == (1, 1, 1)


def test_sd11_still_tied_shares_the_series() -> None:
    """Two players with equal laps and points share the win."""
    g = make(3, riders=1, races=2, random_first=False)
    s = build(g, positions=[70, 70, 40], hands=[[], [], green(1)], mover=2)
    s, _ = play(g, s, 1)
    s = build(g, positions=[70, 70, 40], hands=[[], [], green(1)], mover=2, base=s)
    s, events = play(g, s, 1)
    over = data_of(only(events, "game_over"))
    assert over["winners"] == [0, 1] and over["ranks"] == [1, 1, 3]
    assert over["laps"] == [4, 4, 10] and over["scores"] == [16.0, 16.0, 8.0]


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_sd11_first_race_starts_with_a_random_player(players: int) -> None:
    g = make(players)
    firsts = set()
    for seed in range(40):
        s = g.new_initial_state(seed)
        first = s.order[0]
        firsts.add(first)
        assert s.order[:players] == [(first + i) % players for i in range(players)]
        assert s.current == first
    assert firsts == set(range(players))
    fixed = make(players, random_first=False)
    assert {fixed.new_initial_state(seed).order[0] for seed in range(10)} == {0}


# -- SD-12 two riders -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "per"), [(2, 2), (3, 2), (4, 2), (5, 1), (6, 1), (8, 1)])
def test_sd12_automatic_riders_per_player(players: int, per: int) -> None:
    g = make(players)
    assert g.cfg.riders == 0 and g.cfg.riders_per_player == per
    assert g.riders == players * per


@pytest.mark.parametrize(("players", "riders"), [(3, 1), (4, 1), (3, 2), (2, 2), (4, 2)])
def test_sd12_table_option(players: int, riders: int) -> None:
    g = make(players, riders=riders)
    assert g.riders == players * riders


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5, "riders": 2}, "two riders per player are for 4 players or fewer"),
        ({"players": 8, "riders": 2}, "two riders per player are for 4 players or fewer"),
        ({"players": 2, "riders": 1}, "two players race two riders each"),
        ({"players": 1}, r"option players=1 is not allowed: below 2 \(allowed: integer, 2 to 8"),
        ({"players": 9}, r"option players=9 is not allowed: above 8 \(allowed: integer, 2 to 8"),
        ({"players": 3, "riders": 3}, r"option riders=3 .* \(allowed: one of 0, 1, 2\)"),
        ({"players": 3, "riders": -1}, r"option riders=-1 .* \(allowed: one of 0, 1, 2\)"),
        (
            {"players": 3, "two_rider_order": "worst"},
            r"option two_rider_order='worst' .* \(allowed: one of sum, best\)",
        ),
        ({"players": 3, "speed": 2}, "unknown option"),
    ],
)
def test_sd12_invalid_configurations_are_rejected(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        racedeck.make("six-day-race", **options)


def test_sd12_riders_and_owners() -> None:
    g = make(3)
    assert [g.owner(r) for r in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [g.riders_of(p) for p in range(3)] == [(0, 3), (1, 4), (2, 5)]
    assert g.rider_names() == ("P1-1", "P2-1", "P3-1", "P1-2", "P2-2", "P3-2")
    assert g.rider_names(["Ann", "Bo", "Cy"])[4] == "Bo-2"
    one = make(5)
    assert one.riders_of(4) == (4,) and one.rider_names()[4] == "P5"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sd12_seats_interleave(players: int) -> None:
    """A1 B1 C1 A2 B2 C2, starting with the first player."""
    g = make(players, random_first=False)
    assert g.new_initial_state(0).order == list(range(2 * players))
    g = make(players)
    for seed in range(6):
        s = g.new_initial_state(seed)
        first = s.order[:players]
        assert s.order == first + [r + players for r in first]


def test_sd12_two_rider_turns_and_pending_seats() -> None:
    g = make(3, random_first=False)
    s = g.new_initial_state(1)
    seats = []
    for _ in range(6):
        seats.append(s.pending)
        s = g.apply(s, s.pending[0], g.legal_actions(s, s.pending[0])[0])
    assert seats == [(0,), (1,), (2,), (0,), (1,), (2,)]
    view = g.observe(s, 1)
    assert [r for r, _ in view.my_hands] == [1, 4]


def _two_rider_race(rule: str) -> list[int]:
    """A: places 1 and 6 (sum 7, best 1); B: 2 and 3 (sum 5, best 2); C: 4 and 5 (sum 9,
    best 4). Return the next race's player order."""
    g = make(3, races=2, two_rider_order=rule)
    a1, b1, c1, a2, b2, c2 = range(6)
    positions = [0] * 6
    for rider, pos in [(a1, 80), (b1, 79), (b2, 78), (c1, 70), (c2, 69), (a2, 40)]:
        positions[rider] = pos
    hands: list[list[int]] = [[] for _ in range(6)]
    hands[a2] = green(1)
    s = build(g, positions=positions, hands=hands, mover=a2)
    s, events = play(g, s, 1)
    assert [s.results[0][r].place for r in (a1, b1, b2, c1, c2, a2)] == [1, 2, 3, 4, 5, 6]
    order = data_of(only(events, "race_started"))["order"]
    assert isinstance(order, list)
    return order[:3]


def test_sd12_next_race_order_by_sum_of_places() -> None:
    assert _two_rider_race("sum") == [2, 0, 1]  # C (9), A (7), B (5)


def test_sd12_next_race_order_by_best_place() -> None:
    assert _two_rider_race("best") == [2, 1, 0]  # C (4), B (2), A (1)


def test_sd12_a_players_laps_and_points_are_the_sums_of_its_riders() -> None:
    g = make(4, riders=2, races=1)
    s, _ = final_state(g, seed=5)
    laps, points = g.standings(s)
    race = s.results[0]
    for p in range(4):
        own = g.riders_of(p)
        assert laps[p] == sum(race[r].laps for r in own)
        assert points[p] == sum(sum(race[r].sprints) + Fraction(race[r].finish) for r in own)


# -- IllegalAction --------------------------------------------------------------------------------


def _illegal(
    g: SixDayRace, s: SixDayRaceState, seat: int, action: object, reason: str
) -> racedeck.IllegalAction:
    before = s.to_json()
    with pytest.raises(racedeck.IllegalAction) as info:
        g.apply(s, seat, action)  # type: ignore[arg-type]
    err = info.value
    assert isinstance(err, ValueError)
    assert s.to_json() == before  # the failed apply left the state alone
    message = str(err)
    assert f"illegal action {action} by seat {seat}" in message
    assert reason in message and reason in err.reason
    assert err.action == action and err.seat == seat
    legal = g.legal_actions(s, seat)
    assert err.legal == tuple(legal)
    if legal:
        assert "legal: " + ", ".join(str(a) for a in legal) in message
    else:
        assert "no action is legal" in message
    return err


def test_illegal_wrong_seat() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1, 2)] * 5, mover=2)
    err = _illegal(g, s, 0, PlayCard(1), "it is another player's turn")
    assert err.legal == ()
    _illegal(g, s, 5, PlayCard(1), "there is no seat 5 (seats are the integers 0..4)")
    _illegal(g, s, -1, PlayCard(1), "there is no seat -1")
    assert "race 1, P3 to move" in str(err)


def test_illegal_wrong_seat_with_two_riders() -> None:
    g = make(2)
    s = build(g, positions=[0] * 4, hands=[green(1, 2)] * 4, mover=3)  # P2's second rider
    err = _illegal(g, s, 0, PlayCard(1), "it is another player's turn")
    assert "P2-2 to move" in str(err)
    assert g.apply(s, 1, PlayCard(1)).positions[3] == 1


@pytest.mark.parametrize("value", [0, 3, 6, 8, -1])
def test_illegal_value_not_in_the_moving_riders_hand(value: int) -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1, 2, 2, 7), *[green(3, 6)] * 4], mover=0)
    err = _illegal(g, s, 0, PlayCard(value), f"the moving rider holds no {value} (hand: 1 2 2 7)")
    assert err.legal == (PlayCard(1), PlayCard(2), PlayCard(7))
    assert "legal: 1, 2, 7" in str(err)


def test_illegal_grey_value_after_a_rider_change() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[low(1, 3) + high(6), *[green(3)] * 4], mover=0)
    _illegal(g, s, 0, PlayCard(7), "the moving rider holds no 7 (hand: 1 3 6)")


def test_illegal_action_of_another_kind() -> None:
    g = make(5)
    s = g.new_initial_state(0)
    seat = s.pending[0]
    _illegal(g, s, seat, "3", "play a card by its value")


def test_illegal_after_the_series_is_over() -> None:
    g = make(3, riders=1, races=1)
    last, _ = final_state(g, seed=2)
    assert last.is_terminal
    err = _illegal(g, last, 0, PlayCard(1), "the series is over")
    assert "no action is legal" in str(err) and "(the series is over)" in str(err)
    assert all(g.legal_actions(last, seat) == () for seat in range(3))


def test_checked_path_returns_a_new_state_and_leaves_the_input_alone() -> None:
    g = make(3)
    s = g.new_initial_state(4)
    snapshot = s.to_json()
    t = g.apply(s, s.pending[0], g.legal_actions(s, s.pending[0])[0])
    assert t is not s and s.to_json() == snapshot
    g.apply_unchecked(t, t.pending[0], g.legal_actions(t, t.pending[0])[0])
    assert s.to_json() == snapshot


def test_state_from_apply_shares_nothing_with_its_input_across_a_race_end() -> None:
    g = make(5, races=2)
    s0 = build(g, positions=[79, 0, 0, 0, 0], hands=[green(2), *[green(1, 2)] * 4], mover=0)
    snapshot = s0.to_json()
    s1 = g.apply(s0, 0, PlayCard(2))
    after = s1.to_json()
    while s1.race == 0:
        g.apply_unchecked(s1, s1.pending[0], g.legal_actions(s1, s1.pending[0])[0])
    assert s0.to_json() == snapshot
    g.apply_unchecked(s0, 0, PlayCard(2))
    assert s1.to_json() != after and s0.positions[0] == 81


def test_parse_action_reads_every_text_form() -> None:
    g = make(5)
    s = build(g, positions=[0] * 5, hands=[green(1, 3), *[green(2)] * 4], mover=0)
    view = g.observe(s, 0)
    for text in ("3", "+3", "play 3", " PLAY   3 "):
        assert g.parse_action(text, view) == PlayCard(3)
    with pytest.raises(racedeck.IllegalAction, match="cannot read 'hello'") as info:
        g.parse_action("hello", view)
    assert info.value.legal == (PlayCard(1), PlayCard(3))
    with pytest.raises(racedeck.IllegalAction, match="holds no 5"):
        g.parse_action("5", view)
    with pytest.raises(NotYourTurn, match="another player's turn"):
        g.parse_action("2", g.observe(s, 1))
    assert str(PlayCard(3)) == "3" and g.describe_action(PlayCard(3)) == "play 3"


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"type": "pass"}, "unknown action type 'pass'"),
        ({"value": 3}, "unknown action type None"),
        ({"type": "play", "value": "3"}, "must be an integer"),
        ({"type": "play", "value": True}, "must be an integer"),
        ({"type": "play"}, "must be an integer"),
        ([3], "must be a JSON object"),
    ],
)
def test_action_from_json_rejects_malformed_actions(obj: object, message: str) -> None:
    g = make(5)
    with pytest.raises(ValueError, match=message):
        g.action_from_json(obj)  # type: ignore[arg-type]
    assert g.action_from_json({"type": "play", "value": 4}) == PlayCard(4)


def test_observe_rejects_unknown_seats() -> None:
    g = make(5)
    s = g.new_initial_state(0)
    for seat in (-1, 5):
        with pytest.raises(ValueError, match=f"no seat {seat}"):
            g.observe(s, seat)


# -- JSON forms and the state (doubtful engine behaviour) -----------------------------------------


def _after_one_race() -> SixDayRaceState:
    g = make(5, races=2)
    s = build(g, positions=[60, 70, 30, 40, 9], hands=[[], [], [], [], green(1)], mover=4)
    s, _ = play(g, s, 1)
    assert len(s.results) == 1
    return s


def test_state_json_shares_no_list_with_the_state() -> None:
    s = _after_one_race()
    before = json.dumps(s.to_json())
    obj = s.to_json()
    obj["results"][0][0]["sprints"].append(99)
    assert json.dumps(s.to_json()) == before


def test_view_json_shares_no_dict_with_the_state() -> None:
    s = _after_one_race()
    g = make(5, races=2)
    before = json.dumps(s.to_json())
    view = g.observe(s, 0).to_json()
    view["results"][0][0]["laps"] = 99
    assert json.dumps(s.to_json()) == before


def test_play_with_a_bool_or_float_value_is_refused() -> None:
    """A record could not replay them (JSON forms demand integers)."""
    g = racedeck.make("six-day-race", players=3)
    s = g.new_initial_state(1)
    seat = s.pending[0]
    for bad in (PlayCard(True), PlayCard(1.0)):  # type: ignore[arg-type]
        with pytest.raises(racedeck.IllegalAction):
            g.apply(s, seat, bad)
