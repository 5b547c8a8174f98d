"""Every example and table of the *Six Day Race* rulebook, played through the engine (``apply``).

The board is lost, so the situations are built to match the text: a state is started with
``new_initial_state`` and its fields are then set directly (positions, hands, turn order, the
rider to move). Riders: with one rider per player, rider ``p`` belongs to seat ``p``; with two,
player ``p`` owns riders ``p`` and ``p + players`` (SD-12). Track positions are the rulings'
defaults (SD-1): line 81, sprints 27 and 54, FAHRERWECHSEL 30, STURZ 50.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from racedeck.games.six_day_race import SixDayRaceState
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_pile, card_value

from .builders import build, data_of, finish_points, green, make, of_kind, only, play

SMALL_HAND = {1: 4, 2: 4, 3: 3, 4: 3, 5: 2, 7: 1}
LARGE_HAND = {1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 7: 1}


# -- slipstream (SD-5) -----------------------------------------------------------------------------


def test_a_3_onto_three_riders_moves_twelve_in_all() -> None:
    """SD-5: "She plays a 3 card and lands on a space occupied by three other riders. She moves nine
    more spaces for a total of twelve spaces" (rulebook)."""
    g = make(5)
    s = build(g, positions=[10, 13, 13, 13, 0], hands=[green(3), *[green(1)] * 4], mover=0)
    s, events = play(g, s, 3)
    assert s.positions == [22, 13, 13, 13, 0]
    assert data_of(only(events, "card_played")) == {
        "rider": 0,
        "value": 3,
        "card": 3,
        "from": 10,
        "first": 13,
        "riders_there": 3,
        "multiplier": 4,
        "special": False,
        "to": 22,
    }


@pytest.mark.parametrize(("k", "end"), [(1, 16), (2, 19), (3, 22), (4, 25)])
def test_each_rider_on_the_first_space_adds_the_card_once_more(k: int, end: int) -> None:
    """SD-5: One rider there doubles the move, two triple it, "and so on"."""
    g = make(6)
    positions = [10] + [13] * k + [0] * (5 - k)
    s = build(g, positions=positions, hands=[green(3), *[green(1)] * 5], mover=0)
    s, events = play(g, s, 3)
    assert s.positions[0] == end == 10 + 3 * (k + 1)
    assert data_of(only(events, "card_played"))["multiplier"] == k + 1


def test_slipstream_only_on_the_first_space_reached() -> None:
    """SD-5: "You may only slipstream on the first space your card brings you to, even if you end
    your move on another occupied space": 2 onto one rider → 4 more, onto two riders, and it
    stops."""
    g = make(5)
    s = build(g, positions=[10, 12, 14, 14, 0], hands=[green(2), *[green(1)] * 4], mover=0)
    s, events = play(g, s, 2)
    assert s.positions == [14, 12, 14, 14, 0]
    move = data_of(only(events, "card_played"))
    assert (move["first"], move["riders_there"], move["multiplier"], move["to"]) == (12, 1, 2, 14)
    assert s.pending == (1,)  # the move is over: the next rider is to play


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 7])
def test_landing_on_an_empty_space_ends_the_move(value: int) -> None:
    """SD-5: "If she lands on an unoccupied space, her move ends there" — even right behind
    others."""
    g = make(5)
    ahead = 10 + value + 1
    s = build(
        g,
        positions=[10, ahead, ahead, 10 + 2 * value, 0],
        hands=[green(value), *[green(1)] * 4],
        mover=0,
    )
    s, events = play(g, s, value)
    assert s.positions[0] == 10 + value
    move = data_of(only(events, "card_played"))
    assert (move["riders_there"], move["multiplier"], move["to"]) == (0, 1, 10 + value)


def test_riders_behind_or_beside_the_mover_do_not_count() -> None:
    """SD-5: Only riders on the space the card brings the mover to matter, not on its start
    space."""
    g = make(5)
    s = build(g, positions=[10, 10, 10, 9, 0], hands=[green(4), *[green(1)] * 4], mover=0)
    s, _ = play(g, s, 4)
    assert s.positions[0] == 14


# -- hands (SD-2) and rider change (SD-6) ----------------------------------------------------------


@pytest.mark.parametrize(("players", "table"), [(3, SMALL_HAND), (4, SMALL_HAND), (5, SMALL_HAND)])
def test_green_hand_for_3_to_5_players(players: int, table: dict[int, int]) -> None:
    """SD-2: 3–5 players: four 1 and 2 cards, three 3 and 4 cards, two 5 cards, one 7 card (17)."""
    g = make(players, riders=1)
    s = g.new_initial_state(players)
    assert len(s.hands) == players
    for hand in s.hands:
        assert Counter(card_value(c) for c in hand) == table
        assert {card_pile(c) for c in hand} == {GREEN}
        assert len(hand) == 17 and sum(card_value(c) for c in hand) == 50


@pytest.mark.parametrize("players", [6, 7, 8])
def test_green_hand_for_6_to_8_players(players: int) -> None:
    """SD-2: 6–8 players: only three 1 and 2 cards (15 cards); extra green cards are not used."""
    g = make(players)
    s = g.new_initial_state(players)
    assert len(s.hands) == players
    for hand in s.hands:
        assert Counter(card_value(c) for c in hand) == LARGE_HAND
        assert {card_pile(c) for c in hand} == {GREEN}
        assert len(hand) == 15


@pytest.mark.parametrize(("players", "draw"), [(3, (7, 4)), (5, (7, 4)), (6, (6, 4)), (8, (6, 4))])
def test_rider_change_discards_green_and_draws_grey(players: int, draw: tuple[int, int]) -> None:
    """SD-6: FAHRERWECHSEL: discard all remaining green cards, draw 7 (3–5 players) or 6 (6–8
    players) cards from the 1–3 deck and four from the 4–6 deck."""
    g = make(players, riders=1)
    hands = [green(3, 1, 2, 7), *[green(1)] * (players - 1)]
    s = build(g, positions=[27] + [0] * (players - 1), hands=hands, mover=0)
    low, high = draw
    top_low, top_high = s.deck_low[-low:], s.deck_high[-high:]
    s, events = play(g, s, 3)
    assert s.positions[0] == 30
    assert data_of(only(events, "rider_change")) == {
        "rider": 0,
        "discarded": 3,
        "drawn": [low, high],
    }
    assert sorted(s.hands[0]) == sorted(top_low + top_high)  # drawn from the top of each deck
    assert Counter(card_pile(c) for c in s.hands[0]) == {LOW: low, HIGH: high}
    assert sorted(s.discard_green) == green(1, 2, 3, 7)
    assert (len(s.deck_low), len(s.deck_high)) == (48 - low, 32 - high)
    assert s.discard_low == [] and s.discard_high == []


def test_sturz_loses_the_next_turn() -> None:
    """SD-7: "A player who lands on the STURZ space loses her next turn" — one turn, not more."""
    g = make(3, riders=1)
    s = build(g, positions=[45, 0, 0], hands=[green(5, 1), green(1, 2), green(1, 2)], mover=0)
    s, events = play(g, s, 5)
    assert s.positions[0] == 50 and data_of(only(events, "crash")) == {"rider": 0}
    assert s.crashed == [True, False, False]
    s, _ = play(g, s, 1)  # rider 1
    s, events = play(g, s, 1)  # rider 2; rider 0's turn is lost, rider 1 is next
    assert of_kind(events, "turn_lost") == [{"rider": 0}]
    assert s.current == 1 and s.pending == (1,) and s.crashed == [False, False, False]
    s, _ = play(g, s, 2, 2)  # riders 1 and 2
    assert s.current == 0  # back in the race


@pytest.mark.parametrize(("space", "effect"), [(30, "rider_change"), (50, "crash")])
def test_no_slipstream_on_fahrerwechsel_or_sturz(space: int, effect: str) -> None:
    """SD-5: "No slipstreaming is allowed on either of these spaces", however many riders are
    there."""
    g = make(5)
    positions = [space - 5, space, space, space, 0]
    s = build(g, positions=positions, hands=[green(5), *[green(1)] * 4], mover=0)
    s, events = play(g, s, 5)
    assert s.positions[0] == space
    move = data_of(only(events, "card_played"))
    assert move["riders_there"] == 3 and move["special"] is True
    assert move["multiplier"] == 1 and move["to"] == space
    assert data_of(only(events, effect))["rider"] == 0


# -- sprints (SD-8) and the finish (SD-9) ----------------------------------------------------------


def test_sprint_points_5_3_2_1_then_nothing() -> None:
    """SD-8: The first four riders across a sprint line score 5, 3, 2 and 1; fifth to eighth
    nothing."""
    g = make(6, races=1)
    starts = [20, 21, 22, 24, 25, 26]
    s = build(g, positions=starts, hands=[green(7)] * 6, mover=0)
    s, events = play(g, s, 7, 7, 7, 7, 7, 7)
    sprints = of_kind(events, "sprint")
    assert [(d["rider"], d["place"], d["points"]) for d in sprints] == [
        (0, 1, 5),
        (1, 2, 3),
        (2, 3, 2),
        (3, 4, 1),
        (4, 5, 0),
        (5, 6, 0),
    ]
    assert all(d["sprint"] == 1 for d in sprints)
    assert [list(r.sprints) for r in s.results[0]] == [
        [5, 0],
        [3, 0],
        [2, 0],
        [1, 0],
        [0, 0],
        [0, 0],
    ]


def test_finish_points_10_6_4_2_in_crossing_order() -> None:
    """SD-9: The first across the line scores 10, the second 6, the third 4, the fourth 2 — by the
    order of crossing, not by how far past the line a rider ends."""
    g = make(5, races=1)
    s = build(
        g,
        positions=[80, 76, 78, 79, 77],
        hands=[green(1), green(5), green(4), green(3), green(7)],
        mover=0,
    )
    s, events = play(g, s, 1, 5, 4, 3, 7)
    crossed = of_kind(events, "crossed_line")
    assert [(d["rider"], d["place"]) for d in crossed] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    assert s.positions == [81, 86, 82, 85, 84]
    assert finish_points(s) == [10, 6, 4, 2, 0]
    assert [r.place for r in s.results[0]] == [1, 2, 3, 4, 5]
    assert [r.laps for r in s.results[0]] == [0] * 5


def test_after_the_first_crossing_each_other_player_has_one_more_turn() -> None:
    """SD-9: "Each other player now has one more turn", in seat order after the winner; then the
    race is over even though they still hold cards."""
    g = make(5, races=1)
    order = [2, 3, 4, 0, 1]
    s = build(g, positions=[40, 41, 42, 43, 79], hands=[green(1, 2, 3)] * 5, mover=4, order=order)
    s, events = play(g, s, 3)
    assert data_of(only(events, "crossed_line")) == {"rider": 4, "place": 1}
    assert data_of(only(events, "final_turns")) == {"riders": [0, 1, 2, 3]}
    movers = []
    while s.pending:
        movers.append(s.current)
        s, events = play(g, s, 1)
    assert movers == [0, 1, 2, 3]
    assert data_of(only(events, "race_scored"))["reason"] == "final turns played"
    assert [len(h) for h in s.hands] == [2, 2, 2, 2, 2]
    assert finish_points(s)[4] == 10


def test_two_riders_two_spaces_short_split_third_and_fourth() -> None:
    """SD-9: "Only two riders cross the finish line. Two other riders end the race two spaces from
    the finish line. They split the third and fourth place points, each getting 3 points"
    (rulebook)."""
    g = make(5, races=1)
    s = build(
        g,
        positions=[78, 76, 79, 79, 60],
        hands=[green(3), green(5), green(1), [], green(1)],
        crashed=[2],  # rider 2 loses its final turn, rider 3 has no card left: both stay on 79
        mover=0,
    )
    s, events = play(g, s, 3, 5, 1)
    assert s.positions == [81, 86, 79, 79, 61]
    assert s.finishers == [0, 1]
    assert of_kind(events, "turn_lost") == [{"rider": 2}]
    assert of_kind(events, "passed") == [{"rider": 3}]
    assert finish_points(s) == [10, 6, 3, 3, 0]
    assert [r.place for r in s.results[0]] == [1, 2, 3, 3, 5]
    scored = data_of(only(events, "race_scored"))["riders"]
    assert [r["finish"] for r in scored] == ["10", "6", "3", "3", "0"]


def test_fewer_than_four_crossers_the_closest_riders_get_the_points() -> None:
    """SD-9: "If four riders do not cross the finish line, the riders closest to the line get the
    points": here nobody crosses (the riders run out of cards)."""
    g = make(5, races=1)
    s = build(g, positions=[70, 75, 60, 74, 40], hands=[green(1), [], [], [], []], mover=0)
    s, events = play(g, s, 1)
    assert data_of(only(events, "race_scored"))["reason"] == "no rider has cards left"
    assert finish_points(s) == [4, 10, 2, 6, 0]


# -- laps lost (SD-10) -----------------------------------------------------------------------------


def test_a_lap_lost_for_every_four_spaces_up_to_five() -> None:
    """SD-10: "a player loses a lap for every four spaces between her rider and the Start/Finish
    line, up to a maximum of 5 laps"."""
    g = make(6, races=2)
    positions = [78, 77, 73, 61, 60, 9]
    s = build(g, positions=positions, hands=[[], [], [], [], [], green(1)], mover=5)
    s, events = play(g, s, 1)
    scored = data_of(only(events, "race_scored"))
    assert scored["positions"] == [78, 77, 73, 61, 60, 10]
    # 3, 4, 8, 20, 21 and 71 spaces short of the line.
    assert [r.laps for r in s.results[0]] == [0, 1, 2, 5, 5, 5]
    assert [r["laps"] for r in scored["riders"]] == [0, 1, 2, 5, 5, 5]
    assert g.standings(s)[0] == [0, 1, 2, 5, 5, 5]


# -- the series (SD-11) ----------------------------------------------------------------------------


def _points_against_laps(races: int) -> SixDayRaceState:
    """The last race of a series: rider 0 took both sprints but ends 9 spaces short (2 laps);
    rider 1 ends closest to the line (0 laps) with fewer points. In a two-race series the first
    race leaves everyone on 0 laps (riders 0-3 tie on 79 and share 5.5 points each)."""
    g = make(5, races=races)
    base = None
    if races == 2:
        s = build(g, positions=[79, 79, 79, 79, 77], hands=[[], [], [], [], green(1)], mover=4)
        base, _ = play(g, s, 1)
        assert finish_points(base, 0) == [Fraction(11, 2)] * 4 + [0]
        assert g.standings(base)[0] == [0] * 5
    s = build(
        g,
        positions=[72, 78, 70, 65, 59],
        hands=[[], [], [], [], green(1)],
        mover=4,
        sprint_order=[[0, 2, 3, 1, 4], [0, 2, 3, 1, 4]],
        base=base,
    )
    s, _ = play(g, s, 1)
    assert s.is_terminal and len(s.results) == races
    return s


def test_one_race_game_is_decided_on_points() -> None:
    """SD-11: "When a game consists of only one race, the number of laps lost is irrelevant"
    (rulebook)."""
    s = _points_against_laps(races=1)
    g = make(5, races=1)
    laps, points = g.standings(s)
    assert laps == [2, 0, 2, 4, 5]
    assert points == [16, 12, 10, 6, 0]
    outcome = g.outcome(s)
    assert outcome is not None
    assert outcome.winners == {0} and outcome.ranks == (1, 2, 3, 4, 5)
    assert outcome.scores == (16.0, 12.0, 10.0, 6.0, 0.0)


def test_series_winner_has_lost_the_fewest_laps() -> None:
    """SD-11: Over several races laps lost count before points: rider 1 (0 laps, 17.5 points) beats
    rider 0 (2 laps, 21.5 points)."""
    s = _points_against_laps(races=2)
    g = make(5, races=2)
    laps, points = g.standings(s)
    assert laps == [2, 0, 2, 4, 5]
    assert points == [Fraction(43, 2), Fraction(35, 2), Fraction(31, 2), Fraction(23, 2), 0]
    outcome = g.outcome(s)
    assert outcome is not None
    assert outcome.winners == {1}
    # Riders 0 and 2 tie on 2 laps; rider 0 has more points.
    assert outcome.ranks == (2, 1, 3, 4, 5)


def test_series_tie_on_laps_goes_to_most_points() -> None:
    """SD-11: "If two or more players are tied for the least amount of laps, the player among them
    with the most points wins" (rulebook)."""
    g = make(3, riders=1, races=2)
    # Race 1: 78 (0 laps, 10), 76 (1 lap, 6), 70 (2 laps, 4).
    s = build(g, positions=[78, 76, 69], hands=[[], [], green(1)], mover=2)
    s, _ = play(g, s, 1)
    assert g.standings(s) == ([0, 1, 2], [10, 6, 4])
    # Race 2: 76 (1 lap, 4), 78 (0 laps, 10), 76 → 77 (1 lap, 6); sprints 3+3, 5+5, 2+2.
    s = build(
        g,
        positions=[76, 78, 76],
        hands=[[], [], green(1)],
        mover=2,
        order=[0, 1, 2],
        sprint_order=[[1, 0, 2], [1, 0, 2]],
        base=s,
    )
    s, _ = play(g, s, 1)
    laps, points = g.standings(s)
    assert laps == [1, 1, 3]
    assert points == [10 + 4 + 6, 6 + 10 + 10, 4 + 6 + 4]
    outcome = g.outcome(s)
    assert outcome is not None
    assert outcome.winners == {1} and outcome.ranks == (2, 1, 3)


def test_next_race_starts_with_the_last_rider() -> None:
    """SD-11: "The player who finished last goes first in the next race, the player who finished
    next to last goes second, etc" (rulebook)."""
    g = make(5, races=2)
    s = build(g, positions=[60, 75, 40, 70, 48], hands=[[], [], [], [], green(1)], mover=4)
    s, events = play(g, s, 1)
    # Places: rider 1 (75), 3 (70), 0 (60), 4 (49), 2 (40).
    assert [r.place for r in s.results[0]] == [3, 1, 5, 2, 4]
    assert data_of(only(events, "race_started")) == {"race": 2, "order": [2, 4, 0, 3, 1]}
    assert s.order == [2, 4, 0, 3, 1] and s.current == 2


def test_next_race_ties_give_priority_to_more_laps_lost() -> None:
    """SD-11, SD-12: "If two or more players are tied for position, the player with the most laps
    lost has priority." With two riders each (SD-12: sum of places), all three players are tied on
    7."""
    g = make(3, races=2)
    a1, b1, c1, a2, b2, c2 = range(6)
    positions = [0] * 6
    for rider, pos in [(a1, 80), (b1, 79), (c1, 78), (c2, 70), (b2, 62), (a2, 48)]:
        positions[rider] = pos
    hands: list[list[int]] = [[] for _ in range(6)]
    hands[a2] = green(1)
    s = build(g, positions=positions, hands=hands, mover=a2, order=[c1, b1, a1, c2, b2, a2])
    s, events = play(g, s, 1)
    race = s.results[0]
    assert [race[r].place for r in (a1, b1, c1, c2, b2, a2)] == [1, 2, 3, 4, 5, 6]
    laps, _ = g.standings(s)
    assert laps == [5, 4, 2]  # A: 0 + 5, B: 0 + 4, C: 0 + 2
    assert data_of(only(events, "race_started"))["order"] == [0, 1, 2, 3, 4, 5]


# -- two riders (SD-12) ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "riders"), [(2, 4), (3, 6), (4, 8), (5, 5), (8, 8)])
def test_four_players_or_fewer_race_two_riders(players: int, riders: int) -> None:
    """SD-12: "When there are four or less players, each player can race two riders" (default
    on)."""
    g = make(players)
    s = g.new_initial_state(0)
    assert g.riders == riders == len(s.positions) == len(s.hands)
    for seat in range(players):
        assert g.riders_of(seat) == ((seat, seat + players) if riders > players else (seat,))


def test_two_riders_laps_and_points_are_summed() -> None:
    """SD-12: A player racing two riders keeps one total: the sum of both riders' laps and
    points."""
    g = make(2, races=1)  # riders 0 and 2 are P1's, 1 and 3 are P2's
    s = build(
        g,
        positions=[72, 78, 40, 64],
        hands=[[], [], [], green(1)],
        mover=3,
        sprint_order=[[0, 1, 3, 2], [0, 1, 3]],
    )
    s, _ = play(g, s, 1)
    race = s.results[0]
    # Places by distance: 1 (78), 0 (72), 3 (65), 2 (40).
    assert finish_points(s) == [6, 10, 2, 4]
    assert [list(r.sprints) for r in race] == [[5, 5], [3, 3], [1, 0], [2, 2]]
    assert [r.laps for r in race] == [2, 0, 5, 4]
    laps, points = g.standings(s)
    assert laps == [2 + 5, 0 + 4]
    assert points == [(6 + 10) + (2 + 1), (10 + 6) + (4 + 4)]
    outcome = g.outcome(s)
    assert outcome is not None and outcome.scores == (19.0, 24.0) and outcome.winners == {1}
