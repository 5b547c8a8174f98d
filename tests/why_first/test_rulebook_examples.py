"""Every example of the *Why First?* rulebook, played through the engine (``Game.apply``).

The rulebook's pictures are lost, so the positions are built to match the text. Seats: Anne 0,
Ben 1, Chris 2, Dana 3; Leo is figure ``players`` in the two-player game (WF-9).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import racedeck
from racedeck.core.events import Event
from racedeck.games.why_first import (
    DEFAULT_CARD_VALUES,
    CommitCard,
    MoveFigure,
    PlaceCard,
    WhyFirst,
    WhyFirstState,
)
from racedeck.games.why_first.scoring import final_ranks, scoring_space, stage_points, winners

from .builders import build, card

ANNE, BEN, CHRIS, DANA = 0, 1, 2, 3


def play_round(
    game: WhyFirst, s: WhyFirstState, actions: Mapping[int, object]
) -> tuple[WhyFirstState, list[Event]]:
    """Apply every seat's action (checked path); return the new state and all events."""
    events: list[Event] = []
    for seat, action in actions.items():
        transition = game.step(s, seat, action)
        s = transition.state
        events.extend(transition.events)
    return s, events


def moves(events: Iterable[Event]) -> dict[int, dict[str, object]]:
    # JSON forms: event data are read-only tuples, the rulebook's numbers are written as lists.
    return {e.data["figure"]: _data(e) for e in events if e.kind == "figure_moved"}


def _data(event: Event) -> dict[str, Any]:
    """An event's data as fresh lists and dicts, without its kind."""
    return {k: v for k, v in event.to_json().items() if k != "kind"}


def only(events: Iterable[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]


# -- card round movement (WF-4) -------------------------------------------------------------------


@pytest.mark.parametrize("start", [(0, 0, 0), (3, -5, 7)])
def test_anne_ben_chris_movement_example(start: tuple[int, int, int]) -> None:
    """+2 in front of Anne moves her 2; Ben gets nothing; Chris's −1 and −3 move him 4 back."""
    g = racedeck.make("why-first", players=3)
    s = build(
        g,
        positions=start,
        hands=[[card(2), card(1)], [card(-1), card(1, 1)], [card(-3), card(1, 2)]],
    )
    s, events = play_round(
        g,
        s,
        {ANNE: PlaceCard(2, ANNE), BEN: PlaceCard(-1, CHRIS), CHRIS: PlaceCard(-3, CHRIS)},
    )
    a, b, c = start
    assert s.positions == [a + 2, b, c - 4]
    moved = moves(events)
    assert set(moved) == {ANNE, CHRIS}  # Ben's figure does not move: no event for it
    assert moved[ANNE]["net"] == 2 and moved[ANNE]["values"] == [2]
    assert moved[CHRIS]["net"] == -4 and sorted(moved[CHRIS]["values"]) == [-3, -1]
    assert moved[CHRIS]["from"] == c and moved[CHRIS]["to"] == c - 4
    revealed = only(events, "cards_revealed").to_json()["cards"]
    assert {(c["by"], c["value"], c["target"]) for c in revealed} == {
        (ANNE, 2, ANNE),
        (BEN, -1, CHRIS),
        (CHRIS, -3, CHRIS),
    }


def _ben_gets(start: int, values: Sequence[int]) -> tuple[WhyFirstState, dict[str, object]]:
    """Ben stands on ``start``; other seats place ``values`` in front of him (WF-4).

    Seats with no value to place (at least three seats, so that Leo stays out) place a +1 on Anne.
    """
    players = max(3, len(values) + 1)
    g = racedeck.make("why-first", players=players)
    others = [seat for seat in range(players) if seat != BEN][: len(values)]
    idle = [seat for seat in range(players) if seat != BEN and seat not in others]
    hands: list[list[int]] = [[] for _ in range(players)]
    used: dict[int, int] = {}
    for seat, value in zip(others, values, strict=True):
        hands[seat] = [card(value, used.get(value, 0))]
        used[value] = used.get(value, 0) + 1
    hands[BEN] = [card(1, 5)]
    for k, seat in enumerate(idle):
        hands[seat] = [card(1, 4 - k)]
    positions = [0] * players
    positions[BEN] = start
    s = build(g, positions=positions, hands=hands)
    actions: dict[int, object] = {seat: PlaceCard(1, ANNE) for seat in [BEN, *idle]}
    actions.update(
        {seat: PlaceCard(value, BEN) for seat, value in zip(others, values, strict=True)}
    )
    s, events = play_round(g, s, actions)
    return s, moves(events)[BEN]


def test_ben_on_15_with_plus3_minus4_ends_on_14() -> None:
    """The rulebook's special case: the net −1 is applied once, so Ben ends on 14, not 12."""
    s, moved = _ben_gets(15, [3, -4])
    assert s.positions[BEN] == 14
    assert moved == {
        "figure": BEN,
        "from": 15,
        "to": 14,
        "net": -1,
        "values": [3, -4],
        "clamped": False,
    }


@pytest.mark.parametrize(
    ("start", "values", "end", "clamped"),
    [
        (15, [3], 16, True),  # stops on 16 instead of 18
        (14, [5, 4], 16, True),
        (-10, [-4, -3], -12, True),  # stops on −12 instead of −17
        (-12, [-1], -12, True),
        (15, [5, -4], 16, False),  # one by one would stop on 16 and end on 12
        (-11, [-3, 2], -12, False),  # one by one would stop on −12 and end on −10
        (15, [5, -1], 16, True),  # net +4 from 15: clamped once at 16
        (16, [-1], 15, False),
    ],
)
def test_track_ends_clamp_the_net_move_once(
    start: int, values: list[int], end: int, clamped: bool
) -> None:
    """WF-1/WF-4: spaces 16 and −12 stop a figure, after summing all its cards."""
    s, moved = _ben_gets(start, values)
    assert s.positions[BEN] == end
    assert moved["to"] == end
    assert moved["net"] == sum(values)
    assert moved["clamped"] is clamped


def test_fifth_round_card_goes_in_front_of_oneself() -> None:
    """WF-5: in the fifth card round everybody's last card moves their own figure."""
    g = racedeck.make("why-first", players=3)
    s = build(
        g,
        positions=[0, 0, 0],
        hands=[[card(4), card(-3)], [card(2), card(-2)], [card(1), card(-4)]],
        round_=3,
    )
    # Round 4: everyone gets rid of a card onto Anne; round 5 is then played for everyone.
    s, events = play_round(
        g, s, {ANNE: PlaceCard(4, ANNE), BEN: PlaceCard(2, ANNE), CHRIS: PlaceCard(1, ANNE)}
    )
    revealed = [e for e in events if e.kind == "cards_revealed"]
    assert [e.to_json()["round"] for e in revealed] == [4, 5]
    assert {(c["by"], c["target"], c["value"]) for c in revealed[1].to_json()["cards"]} == {
        (ANNE, ANNE, -3),
        (BEN, BEN, -2),
        (CHRIS, CHRIS, -4),
    }
    scored = only(events, "stage_scored")
    assert scored.to_json()["positions"] == [7 - 3, -2, -4]


# -- stage scoring (WF-6) -------------------------------------------------------------------------


def _score_stage(
    start: Sequence[int],
    hands: Sequence[Sequence[int]],
    placements: Mapping[int, PlaceCard],
    totals: Sequence[int] | None = None,
    players: int = 4,
    leo_cards: Sequence[int] = (),
    stages: int = 5,
) -> tuple[WhyFirstState, list[Event], Event]:
    """Play card round 4 (placements) and the automatic round 5; return the stage scoring."""
    g = racedeck.make("why-first", players=players, stages=stages)
    s = build(g, positions=start, hands=hands, round_=3, leo_cards=leo_cards, totals=totals)
    s, events = play_round(g, s, placements)
    return s, events, only(events, "stage_scored")


def test_scoring_example_a_anne_on_six() -> None:
    """Example A: the second farthest occupied space is 6, Anne alone stands there: 6 points."""
    s, _, scored = _score_stage(
        start=[4, 7, 2, -3],
        hands=[
            [card(1, 0), card(1, 1)],
            [card(1, 2), card(1, 3)],
            [card(-1), card(1, 4)],
            [card(-1, 1), card(1, 5)],
        ],
        placements={
            ANNE: PlaceCard(1, ANNE),
            BEN: PlaceCard(1, BEN),
            CHRIS: PlaceCard(-1, CHRIS),
            DANA: PlaceCard(-1, DANA),
        },
    )
    assert scored.to_json()["positions"] == [6, 9, 2, -3]
    assert scored.to_json()["space"] == 6
    assert scored.to_json()["scorers"] == [ANNE]
    assert scored.to_json()["points"] == [6, 0, 0, 0]
    assert s.totals == [6, 0, 0, 0]
    assert s.stage_history == [[6, 0, 0, 0]]
    # The next stage is set up at once (WF-3).
    assert s.stage == 1 and s.round == 0 and s.positions == [0, 0, 0, 0]


def test_scoring_example_b_ben_on_one() -> None:
    """Example B: the second farthest occupied space is 1, where Ben stands: 1 point."""
    s, _, scored = _score_stage(
        start=[2, -1, -1, 0],
        hands=[
            [card(1, 0), card(1, 1)],
            [card(1, 2), card(1, 3)],
            [card(-1), card(1, 4)],
            [card(-1, 1), card(1, 5)],
        ],
        placements={
            ANNE: PlaceCard(1, ANNE),
            BEN: PlaceCard(1, BEN),
            CHRIS: PlaceCard(-1, CHRIS),
            DANA: PlaceCard(-1, DANA),
        },
        totals=[3, 4, 5, 6],
    )
    assert scored.to_json()["positions"] == [4, 1, -1, 0]
    assert scored.to_json()["space"] == 1
    assert scored.to_json()["scorers"] == [BEN]
    assert s.totals == [3, 5, 5, 6]


def test_scoring_example_c_three_figures_on_minus_two() -> None:
    """Example C: Ben, Chris and Dana share the second farthest space −2: −2 points each."""
    s, events, scored = _score_stage(
        start=[2, -3, 0, -1],
        hands=[
            [card(2, 0), card(1, 0)],
            [card(-2, 0), card(2, 1)],
            [card(-1, 0), card(-1, 1)],
            [card(-3, 0), card(1, 1)],
        ],
        placements={
            ANNE: PlaceCard(2, BEN),
            BEN: PlaceCard(-2, DANA),
            CHRIS: PlaceCard(-1, CHRIS),
            DANA: PlaceCard(-3, BEN),
        },
    )
    first_round = next(e for e in events if e.kind == "cards_revealed")
    assert first_round.to_json()["round"] == 4
    assert scored.to_json()["positions"] == [3, -2, -2, -2]
    assert scored.to_json()["space"] == -2
    assert scored.to_json()["scorers"] == [BEN, CHRIS, DANA]
    assert scored.to_json()["points"] == [0, -2, -2, -2]
    assert s.totals == [0, -2, -2, -2]


def test_all_figures_on_one_space_nobody_scores_and_all_win() -> None:
    """WF-6: one occupied space has no second space: nobody scores; equal totals all win."""
    s, _, scored = _score_stage(
        start=[0, 3, -1],
        hands=[[card(2), card(-1)], [card(-1, 1), card(-1, 2)], [card(1), card(1, 1)]],
        placements={ANNE: PlaceCard(2, ANNE), BEN: PlaceCard(-1, BEN), CHRIS: PlaceCard(1, CHRIS)},
        players=3,
        stages=1,
    )
    assert scored.to_json()["positions"] == [1, 1, 1]
    assert scored.to_json()["space"] is None
    assert scored.to_json()["scorers"] == []
    assert scored.to_json()["points"] == [0, 0, 0]
    assert s.is_terminal
    outcome = racedeck.make("why-first", players=3, stages=1).outcome(s)
    assert outcome is not None
    assert outcome.winners == frozenset({ANNE, BEN, CHRIS})
    assert outcome.ranks == (1, 1, 1)


@pytest.mark.parametrize(
    ("positions", "space", "points"),
    [
        ([6, 9, 2, -3], 6, [6, 0, 0, 0]),
        ([4, 1, -1, 0], 1, [0, 1, 0, 0]),
        ([3, -2, -2, -2], -2, [0, -2, -2, -2]),
        ([5, 5, 0, 0], 0, [0, 0, 0, 0]),  # two figures ahead share first; space 0 scores 0
        ([5, 5, 3, 3], 3, [0, 0, 3, 3]),
        ([-4, -4, -4], None, [0, 0, 0]),
    ],
)
def test_scoring_helpers_match_the_examples(
    positions: list[int], space: int | None, points: list[int]
) -> None:
    assert scoring_space(positions) == space
    assert stage_points(positions) == points


# -- end of game (WF-7, WF-8) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "won"),
    [
        ([10, 7, 3, 1], {1}),
        ([10, 7, 7, 3], {1, 2}),  # a tie on the second-highest total shares the win
        ([9, 9, 4], {2}),  # a tie on top: the second *distinct* total wins
        ([5, 5, 5, 5], {0, 1, 2, 3}),  # all equal: everyone wins
        ([-3, 8, -3], {0, 2}),
        ([0, -2, -2, -5], {1, 2}),
    ],
)
def test_second_highest_total_wins(totals: list[int], won: set[int]) -> None:
    """End of game: the second highest total wins, ties share (WF-7), through the engine."""
    n = len(totals)
    g = racedeck.make("why-first", players=n, stages=5)
    # Last stage, round 4 of 5: everyone lands on space 1, so this stage scores nothing.
    hands = [[card(1, i), card(-1, i)] for i in range(n)]
    s = build(g, positions=[1] * n, hands=hands, round_=3, stage=4, totals=totals)
    s, events = play_round(g, s, {seat: PlaceCard(1, seat) for seat in range(n)})
    assert s.is_terminal
    assert s.totals == totals
    outcome = g.outcome(s)
    assert outcome is not None
    assert outcome.winners == frozenset(won)
    assert winners(totals) == frozenset(won)
    assert outcome.scores == tuple(float(t) for t in totals)
    assert only(events, "game_over").to_json()["winners"] == sorted(won)


# -- two players with Leo (WF-9) ------------------------------------------------------------------


def test_leo_scores_and_can_win() -> None:
    """Leo flips his top card in round 4 (none in round 5), scores as second, and wins."""
    leo = 2
    s, events, scored = _score_stage(
        start=[0, 0, 0],
        hands=[[card(4), card(1)], [card(-1), card(-1, 1)]],
        placements={ANNE: PlaceCard(4, ANNE), BEN: PlaceCard(-1, BEN)},
        players=2,
        leo_cards=[card(2)],  # his top (last) card: +2
        totals=[10, 0, 3],
        stages=1,
    )
    reveals = [_data(e) for e in events if e.kind == "cards_revealed"]
    assert [(c["by"], c["value"], c["target"]) for c in reveals[0]["cards"]] == [
        (ANNE, 4, ANNE),
        (BEN, -1, BEN),
        (leo, 2, leo),
    ]
    assert all(c["by"] != leo for c in reveals[1]["cards"])  # round 5: Leo plays nothing
    assert scored.to_json()["positions"] == [5, -2, 2]
    assert scored.to_json()["scorers"] == [leo]
    assert s.totals == [10, 0, 5]
    outcome = racedeck.make("why-first", players=2, stages=1).outcome(s)
    assert outcome is not None
    assert outcome.names == ("P1", "P2", "Leo")
    assert outcome.winners == frozenset({leo})
    assert outcome.ranks == (2, 3, 1)
    assert final_ranks([10, 0, 5]) == (2, 3, 1)


def test_players_may_move_leo() -> None:
    """WF-9: a card may be placed in front of Leo; it adds to his own top card."""
    g = racedeck.make("why-first", players=2)
    s = build(g, positions=[0, 0, 4], hands=[[card(3)], [card(-2)]], leo_cards=[card(1)])
    s, events = play_round(g, s, {ANNE: PlaceCard(3, 2), BEN: PlaceCard(-2, 2)})
    assert s.positions == [0, 0, 4 + 3 - 2 + 1]
    assert moves(events)[2]["values"] == [3, -2, 1]
    assert s.leo_cards == []


# -- tactical variant (WF-10) ---------------------------------------------------------------------


def test_tactical_order_by_white_numbers() -> None:
    """Highest white number moves first, then the next one, each moving any one figure."""
    g = racedeck.make("why-first", players=3, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[5], [32], [20]])
    assert DEFAULT_CARD_VALUES[5 - 1] == -1
    assert DEFAULT_CARD_VALUES[32 - 1] == 5
    assert DEFAULT_CARD_VALUES[20 - 1] == 2
    s, _ = play_round(g, s, {ANNE: CommitCard(5), BEN: CommitCard(32), CHRIS: CommitCard(20)})
    assert s.phase == "move"
    assert s.move_queue == [(32, BEN), (20, CHRIS), (5, ANNE)]
    assert s.pending == (BEN,)
    assert g.legal_actions(s, ANNE) == ()
    s = g.apply(s, BEN, MoveFigure(ANNE))
    assert s.positions == [5, 0, 0] and s.pending == (CHRIS,)
    s = g.apply(s, CHRIS, MoveFigure(ANNE))
    assert s.positions == [7, 0, 0] and s.pending == (ANNE,)
    s = g.apply(s, ANNE, MoveFigure(CHRIS))
    assert s.positions == [7, 0, -1]
    assert s.phase == "commit" and s.round == 1 and s.pending == (0, 1, 2)


@pytest.mark.parametrize(
    ("leo_card", "order"),
    [(28, ["leo", BEN, ANNE]), (20, [BEN, "leo", ANNE]), (3, [BEN, ANNE, "leo"])],
)
def test_tactical_leo_moves_in_his_white_number_slot(leo_card: int, order: list[object]) -> None:
    """WF-10: Leo's card moves Leo when its white number comes up, without asking anybody."""
    leo = 2
    g = racedeck.make("why-first", players=2, variant="tactical")
    s = build(g, positions=[0, 0, 0], hands=[[10], [25]], leo_cards=[leo_card])
    s, _ = play_round(g, s, {ANNE: CommitCard(10), BEN: CommitCard(25)})
    leo_value = DEFAULT_CARD_VALUES[leo_card - 1]
    seen: list[object] = []
    leo_moved = s.positions[leo] == leo_value
    if leo_moved:
        seen.append("leo")
    while s.phase == "move":
        (seat,) = s.pending
        seen.append(seat)
        s = g.apply(s, seat, MoveFigure(seat))
        if not leo_moved and s.positions[leo] == leo_value:
            leo_moved = True
            seen.append("leo")
    assert seen == order
    assert s.positions == [1, 3, leo_value]
