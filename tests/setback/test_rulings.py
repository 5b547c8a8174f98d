"""One group of tests per ruling SB-1 … SB-11 (the Setback section of
``/work/shared/rules/DECISIONS.md``), with every *(config)* value of :class:`SetbackConfig`, plus
the :class:`~racedeck.IllegalAction` contract of the checked path and the text forms read back
by ``parse_action``.

Situations are built with the helpers of ``test_rulebook.py`` (every card exactly once).
Rows are 0-based here: the rulings' "row 1" is row 0, FINISH is row ``rows``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

import racedeck
from racedeck.core.errors import InvalidConfig
from racedeck.games.setback import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    Setback,
    SetbackConfig,
    SetbackState,
    Step,
    parse_card_type,
)
from racedeck.games.setback.actions import parse_text
from racedeck.games.setback.cards import DEFAULT_DECK
from racedeck.games.setback.state import START

from .test_rulebook import (
    P1,
    P2,
    P3,
    P4,
    act,
    assert_conserved,
    begin,
    build,
    card,
    events_of,
    kinds,
    make,
    moves,
    names,
    of_kind,
    play,
    plays_of,
    run,
    turn_of,
    where,
)


def random_game(g: Setback, seed: int, limit: int = 3000) -> list[tuple[int, Any, SetbackState]]:
    """A random legal game as (seat, action, state before the action), ending in ``limit``
    steps at most."""
    rng = random.Random(seed)
    s = begin(g, seed)
    steps = []
    while not s.is_terminal:
        assert len(steps) < limit, "the game does not end"
        seat = rng.choice(s.pending)
        action = rng.choice(g.legal_actions(s, seat))
        steps.append((seat, action, s))
        s = act(g, s, seat, action)
    steps.append((-1, None, s))
    return steps


# -- SB-1 board ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "lanes"), [(2, 2), (3, 3), (4, 3), (5, 4), (6, 4)])
def test_sb1_lanes_by_player_count_six_rows_everyone_on_start(players: int, lanes: int) -> None:
    g = make(players)
    s = begin(g, 7)
    assert (s.rows, s.lanes) == (6, lanes) and all(len(r) == lanes for r in s.grid)
    assert s.row == [START] * players and s.lane == [START] * players
    assert of_kind(events_of(s), "game_started") == [{"first": s.current, "lanes": lanes}]
    view = g.observe(s, None)
    assert view.tokens == ((-1, -1),) * players and (view.rows, view.lanes) == (6, lanes)


def test_sb1_rows_and_lanes_options() -> None:
    g = make(2, rows=4, lanes=5)
    s = begin(g, 1)
    assert (s.rows, s.lanes) == (4, 5)
    assert g.cfg.start_lanes == 5 and make(2).cfg.start_lanes == 2


def test_sb1_finish_lies_past_the_last_row() -> None:
    g = make(rows=3)
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert s.winner == P1 and (s.row[P1], s.lane[P1]) == (3, START)
    assert g.observe(s, None).tokens[P1] == (3, -1)


def test_sb1_start_holds_any_number_every_other_card_one() -> None:
    g = make()
    s = build(g, tokens={P2: (0, 1)}, hands={P1: ["MOVE+1", "DRAW"]})
    assert s.row.count(START) == 2
    s = act(g, s, P1, play("MOVE+1", lane=1))
    assert moves(events_of(s)) == [(P1, [-1, -1], [0, 1], "MOVE"), (P2, [0, 1], [1, 1], "bumped")]


# -- SB-2 deck -------------------------------------------------------------------------------

SB2_TABLE = {
    ("MOVE", 1): 8,
    ("MOVE", 2): 6,
    ("MOVE", -1): 6,
    ("MOVE", -2): 4,
    ("FOE", 1): 4,
    ("FOE", 2): 2,
    ("FOE", -1): 8,
    ("FOE", -2): 6,
    ("ALL", 1): 4,
    ("ALL", 2): 2,
    ("ALL", -1): 4,
    ("ALL", -2): 2,
    ("SHIFT", 0): 6,
    ("TRADE", 0): 4,
    ("CUT", 0): 6,
    ("DRAW", 0): 6,
    ("REVAMP", 0): 4,
    ("SKIP", 0): 6,
    ("BLOCK", 0): 8,
}


def test_sb2_the_default_deck_has_96_cards_as_in_the_table() -> None:
    g = make()
    assert g.cfg.deck == DEFAULT_DECK and len(g.types) == 96
    assert Counter((t.kind, t.amount) for t in g.types) == Counter(SB2_TABLE)
    free = Counter((t.kind, t.amount) for t in g.types if t.free)
    assert free == Counter({("MOVE", 1): 2, ("FOE", -1): 2, ("DRAW", 0): 6})


def test_sb2_card_names_read_back() -> None:
    for name, _ in DEFAULT_DECK:
        assert parse_card_type(name).name == name and str(parse_card_type(name)) == name
    assert parse_card_type(" foe-1* ") == card("FOE-1*") and card("FOE-1*").free
    assert card("DRAW").free and card("DRAW").name == "DRAW"  # DRAW is always FREE
    assert card("MOVE+2").amount == 2 and card("ALL-1").amount == -1
    for bad in ("MOVE+3", "JUMP", "FOE", "MOVE1", ""):
        with pytest.raises(ValueError, match="unknown card"):
            parse_card_type(bad)


def test_sb2_a_custom_deck() -> None:
    deck = (("MOVE+1", 20), ("MOVE+2*", 4), ("FOE-1", 10), ("CUT", 4), ("BLOCK", 6))
    g = make(2, deck=deck, rows=4)
    assert Counter(t.name for t in g.types) == Counter(dict(deck))
    assert g.config.to_json()["deck"] == [list(item) for item in deck]
    # JSON lists (as in a game record) are read as the same configuration.
    same = make(2, deck=[list(item) for item in deck], rows=4)
    assert same.config == g.config
    s = begin(g, 3)
    assert sorted([c for r in s.grid for c in r] + s.draw + [c for h in s.hands for c in h]) == (
        list(range(44))
    )
    steps = random_game(g, 3)
    assert steps[-1][2].is_terminal


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ((("MOVE+1", 10), ("JUMP", 40)), "deck: unknown card"),
        ((("MOVE+1", 20),), "the deck needs at least 27 cards"),
    ],
)
def test_sb2_decks_the_rules_cannot_use_are_refused(deck: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make(3, deck=deck)


# -- SB-3 turn -------------------------------------------------------------------------------


def test_sb3_board_action_then_hand_action_then_draw_action() -> None:
    g = make()
    s = build(
        g,
        cells={(2, 0): "MOVE+1"},
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE-1"], P2: ["CUT"], P3: ["CUT"]},
    )
    s = turn_of(g, s, P1)
    assert kinds(events_of(s))[-5:] == [
        "turn_started",
        "declared",
        "window_opened",  # SB-9 amended: after every declaration
        "window_closed",
        "token_moved",
    ]
    assert where(s, P1) == (3, 0) and s.phase == "hand" and s.pending == (P1,)
    s = act(g, s, P1, play("MOVE-1"))
    assert kinds(events_of(s)) == [
        "declared",
        "window_opened",
        "window_closed",
        "token_moved",
        "cards_drawn",
        "turn_started",
    ]
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": 3}]


def test_sb3_no_board_action_on_start() -> None:
    g = make()
    s = build(g, hands={P1: ["MOVE+1"], P3: ["CUT"]})
    s = turn_of(g, s, P1)
    assert of_kind(events_of(s), "declared") == [] and s.phase == "hand" and s.current == P1


def test_sb3_one_non_free_card_any_free_cards_at_least_one_card() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0)}, hands={P1: ["MOVE+1*", "DRAW", "MOVE+2", "CUT"], P2: ["CUT"]})
    first = g.legal_actions(s, P1)
    assert EndHand() not in first and {a.card.name for a in first if isinstance(a, Play)} == {
        "MOVE+1*",
        "DRAW",
        "MOVE+2",
        "CUT",
    }
    s = act(g, s, P1, play("MOVE+2"))
    after = g.legal_actions(s, P1)
    assert {a.card.name for a in after if isinstance(a, Play)} == {"MOVE+1*", "DRAW"}
    assert EndHand() in after
    s, _ = run(g, s, (P1, play("DRAW")), (P1, play("MOVE+1*")))
    # Three cards played; only non-FREE cards are left, so the Hand Action ended by itself.
    assert s.current == P2 and Counter(g.types[c].name for c in s.discard) == Counter(
        {"MOVE+2": 1, "DRAW": 1, "MOVE+1*": 1}
    )


@pytest.mark.parametrize("hand_size", [1, 3, 5])
def test_sb3_hand_size_option_deals_and_draws_up_to_it(hand_size: int) -> None:
    g = make(hand_size=hand_size)
    s = begin(g, 2)
    assert [len(h) for h in s.hands] == [hand_size] * 3
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"], P2: ["CUT"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": hand_size}]
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"] + ["CUT"] * hand_size})
    s.hands[P2] = [s.draw.pop()]
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": 1}]


def test_sb3_the_first_player_is_random_and_play_goes_clockwise() -> None:
    g = make(4)
    firsts = {begin(g, seed).current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    steps = random_game(g, 11)
    turns = [
        e.data["player"] for _, _, st in steps for e in events_of(st) if e.kind == "turn_started"
    ]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(turns))


def test_sb3_empty_draw_pile_reshuffles_and_empty_piles_draw_nothing() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"], P2: ["CUT"]})
    s.discard, s.draw = s.draw, []
    s = act(g, s, P1, play("MOVE+1"))
    assert kinds(events_of(s))[4:6] == ["discards_reshuffled", "cards_drawn"]
    no_blocks = tuple(item for item in DEFAULT_DECK if item[0] != "BLOCK")
    g = make(deck=no_blocks)
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"], P2: ["CUT"]})
    s.hands[P3], s.draw = s.draw, []  # nothing left to draw but the played card
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": 1}]
    assert s.draw == [] and s.discard == []
    assert_conserved(g, s)


def test_sb3_a_hand_of_blocks_only_discards_one() -> None:
    g = make()
    s = build(g, hands={P1: ["BLOCK", "BLOCK"], P2: ["CUT"]})
    assert g.legal_actions(s, P1) == (DiscardBlock(),)
    s = act(g, s, P1, DiscardBlock())
    assert kinds(events_of(s))[:2] == ["block_discarded", "cards_drawn"]
    assert of_kind(events_of(s), "cards_drawn")[0] == {"player": P1, "count": 2}
    s = build(g, hands={P1: ["BLOCK", "MOVE+1"]})
    assert DiscardBlock() not in g.legal_actions(s, P1)


# -- SB-4 movement ---------------------------------------------------------------------------


def test_sb4_landing_on_a_card_triggers_nothing() -> None:
    """Only the destination matters and landing never triggers a card: a token put on SKIP or
    DRAW acts on it at its own next turn only."""
    g = make()
    s = build(
        g,
        cells={(1, 1): "SKIP", (1, 0): "DRAW"},
        tokens={P1: (0, 0), P2: (0, 1)},
        hands={P1: ["MOVE+1*", "FOE+1"], P2: ["CUT"], P3: ["CUT"]},
    )
    s = act(g, s, P1, play("MOVE+1*"))
    assert kinds(events_of(s)) == ["declared", "window_opened", "window_closed", "token_moved"]
    assert where(s, P1) == (1, 0)
    assert len(s.hands[P1]) == 1  # no DRAW on landing
    s = act(g, s, P1, play("FOE+1", target=P2))
    assert where(s, P2) == (1, 1)
    assert kinds(events_of(s)) == [
        "declared",
        "window_opened",
        "window_closed",
        "token_moved",
        "cards_drawn",  # P1's Draw Action
        "turn_started",
        "declared",  # P2 stands on SKIP at the start of its turn: its Board Action (SB-10)
        "window_opened",
        "window_closed",
        "turn_skipped",
        "turn_started",
    ]


def test_sb4_a_plus_move_from_start_enters_the_lane_chosen_by_whoever_caused_it() -> None:
    g = make()
    s = build(g, tokens={P1: (3, 0)}, hands={P1: ["FOE+1", "ALL+1", "MOVE+1*"]})
    foe = plays_of(g, s, P1, "FOE+1")
    assert {(a.target, a.lane) for a in foe} == {(q, ln) for q in (P2, P3) for ln in range(3)}
    s = act(g, s, P1, play("ALL+1"))
    assert s.pending == (P1,) and Step(P2, 2) in g.legal_actions(s, P1)
    s = build(g, hands={P1: ["MOVE+1*"]})
    assert plays_of(g, s, P1, "MOVE+1*") == [play("MOVE+1*", lane=ln) for ln in range(3)]


def test_sb4_a_minus_move_on_start_does_nothing() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["FOE-2"]})
    assert plays_of(g, s, P1, "FOE-2") == [play("FOE-2", target=P2), play("FOE-2", target=P3)]
    s = act(g, s, P1, play("FOE-2", target=P3))
    assert of_kind(events_of(s), "no_effect") == [{"player": P3, "why": "on START"}]
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["ALL-1", "DRAW"]})
    s = act(g, s, P1, play("ALL-1"))  # only P1 moves: START tokens are not movers
    assert moves(events_of(s)) == [(P1, [2, 0], [1, 0], "ALL")]


def test_sb4_past_the_last_row_is_finish_below_the_first_row_is_start() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (5, 1)}, hands={P1: ["FOE+2", "DRAW"]})
    t = act(g, s, P1, play("FOE+2", target=P2))
    assert t.winner == P2 and where(t, P2) == "FINISH"  # a FOE card can make an opponent win
    s = build(g, tokens={P1: (0, 0), P2: (1, 1)}, hands={P1: ["FOE-2", "DRAW"]})
    t = act(g, s, P1, play("FOE-2", target=P2))
    assert where(t, P2) == "START"


# -- SB-5 MOVE / FOE / ALL -------------------------------------------------------------------


def test_sb5_foe_targets_opponents_only_and_not_through_block() -> None:
    g = make()
    s = build(
        g,
        cells={(2, 1): "BLOCK"},
        tokens={P1: (0, 0), P2: (2, 1), P3: (3, 2)},
        hands={P1: ["FOE+1", "DRAW"]},
    )
    assert {a.target for a in plays_of(g, s, P1, "FOE+1")} == {P2, P3}
    t = act(g, s, P1, play("FOE+1", target=P2))
    assert of_kind(events_of(t), "no_effect") == [{"player": P2, "why": "on BLOCK"}]
    t = act(g, s, P1, play("FOE+1", target=P3))
    assert moves(events_of(t)) == [(P3, [3, 2], [4, 2], "FOE")]


def test_sb5_all_moves_every_token_not_on_block_the_actor_included() -> None:
    g = make(4, rows_removable=0)
    s = build(
        g,
        cells={(2, 2): "BLOCK"},
        tokens={P1: (0, 0), P2: (1, 1), P3: (2, 2)},
        hands={P1: ["ALL+2", "DRAW"]},
    )
    s = act(g, s, P1, play("ALL+2"))
    assert s.context["left"] == [P1, P2, P4]
    s, events = run(g, s, (P1, Step(P4, 2)), (P1, Step(P2)))
    assert moves(events) == [
        (P4, [-1, -1], [1, 2], "ALL"),
        (P2, [1, 1], [3, 1], "ALL"),
        (P1, [0, 0], [2, 0], "ALL"),
    ]
    assert where(s, P3) == (2, 2)


def test_sb5_all_the_first_token_to_reach_finish_wins_the_others_still_move() -> None:
    """The first in the chosen order to reach FINISH wins; the tokens later in the order still
    move (nobody is asked any more: in seat order)."""
    g = make(rows_removable=0)
    s = build(g, tokens={P1: (4, 0), P2: (5, 1), P3: (3, 0)}, hands={P1: ["ALL+1", "DRAW"]})
    s, events = run(g, s, (P1, play("ALL+1")), (P1, Step(P1)), (P1, Step(P2)))
    assert s.is_terminal and s.winner == P2 and s.context == {}
    assert moves(events) == [
        (P1, [4, 0], [5, 0], "ALL"),
        (P2, [5, 1], "FINISH", "ALL"),
        (P3, [3, 0], [4, 0], "ALL"),
    ]
    assert kinds(events)[-1] == "game_over"


def test_sb5_a_win_during_all_leaves_no_two_tokens_on_one_card() -> None:
    """Ruling (SB-5): after the first token reaches FINISH the tokens still in transit move on,
    so a token that landed on the card of a token in transit is alone on it in the final state:
    one token per card (SB-1) holds at the end of a game too."""
    g = make(rows_removable=0)
    s = build(g, tokens={P1: (3, 0), P2: (4, 0), P3: (5, 1)}, hands={P1: ["ALL+1", "DRAW"]})
    s, events = run(g, s, (P1, play("ALL+1")), (P1, Step(P1)), (P1, Step(P3)))
    assert s.is_terminal and s.winner == P3
    assert moves(events) == [
        (P1, [3, 0], [4, 0], "ALL"),  # P2 is in transit: no bump
        (P3, [5, 1], "FINISH", "ALL"),
        (P2, [4, 0], [5, 0], "ALL"),  # then moves on, off P1's card
    ]
    assert (where(s, P1), where(s, P2), where(s, P3)) == ((4, 0), (5, 0), "FINISH")


def test_sb5_tokens_left_after_a_win_in_an_all_enter_lane_1_from_start_and_may_bump() -> None:
    """The tokens an ALL moves by itself after the win enter lane 1 (index 0) from START, in seat
    order, and bump as usual — here P1 enters lane 1 after P2 and bumps it."""
    g = make(rows_removable=0)
    s = build(g, tokens={P3: (5, 2)}, hands={P3: ["ALL+2", "DRAW"]}, current=P3)
    s = act(g, s, P3, play("ALL+2"))
    assert s.context["left"] == [P1, P2, P3]
    s, events = run(g, s, (P3, Step(P3)))
    assert s.winner == P3
    assert moves(events) == [
        (P3, [5, 2], "FINISH", "ALL"),
        (P1, [-1, -1], [1, 0], "ALL"),
        (P2, [-1, -1], [1, 0], "ALL"),
        (P1, [1, 0], [2, 0], "bumped"),
    ]


def test_sb5_several_tokens_reach_finish_in_one_all() -> None:
    """Every token that reaches FINISH in the ALL ends there (row = number of rows); only the
    first in the chosen order wins, the others rank right after it (by progress)."""
    g = make(4, rows_removable=0)
    s = build(
        g,
        tokens={P1: (5, 0), P2: (4, 1), P3: (5, 2), P4: (1, 1)},
        hands={P1: ["ALL+2", "DRAW"]},
    )
    s = act(g, s, P1, play("ALL+2"))
    s, events = run(g, s, (P1, Step(P3)))
    assert s.winner == P3
    assert [m[0] for m in moves(events)] == [P3, P1, P2, P4]
    assert of_kind(events, "finished") == [
        {"player": P3, "wins": True},
        {"player": P1, "wins": False},
        {"player": P2, "wins": False},
    ]
    assert [where(s, q) for q in (P1, P2, P3, P4)] == ["FINISH", "FINISH", "FINISH", (3, 1)]
    assert [s.row[q] for q in (P1, P2, P3)] == [s.rows] * 3
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({P3})
    assert outcome.ranks == (2, 2, 1, 4) and outcome.scores == (7.0, 7.0, 7.0, 4.0)
    game_over = of_kind(events, "game_over")
    assert game_over == [outcome.to_json()] and kinds(events)[-1] == "game_over"
    assert g.observe(s, None).tokens == ((6, -1), (6, -1), (6, -1), (3, 1))


# -- SB-6 SHIFT, TRADE, CUT, DRAW, REVAMP ----------------------------------------------------


def test_sb6_mandatory_when_a_legal_target_exists_else_played_for_no_effect() -> None:
    g = make(2)
    s = build(
        g, tokens={P1: (1, 0), P2: (2, 1)}, hands={P1: ["SHIFT", "TRADE", "CUT"], P2: ["CUT"]}
    )
    for name in ("SHIFT", "TRADE", "CUT"):
        assert play(name) not in g.legal_actions(s, P1) and plays_of(g, s, P1, name)
    s = build(
        g,
        cells={(2, 1): "BLOCK"},
        tokens={P2: (2, 1)},
        hands={P1: ["SHIFT", "TRADE", "CUT"], P2: ["CUT"]},
    )
    # P1 on START cannot be shifted, P2 on BLOCK can be neither shifted, traded nor cut; P2
    # can be cut in front of, and P1 on START can be cut.
    assert plays_of(g, s, P1, "SHIFT") == [play("SHIFT")]
    assert plays_of(g, s, P1, "TRADE") == [play("TRADE")]
    assert plays_of(g, s, P1, "CUT") == [play("CUT", target=P1, other=P2)]
    s = act(g, s, P1, play("SHIFT"))  # for no effect; only non-FREE cards are left
    assert moves(events_of(s)) == [] and names(g, s.discard) == Counter({"SHIFT": 1})
    assert s.current == P2


def test_sb6_cut_needs_a_reference_on_the_board_before_the_last_row() -> None:
    g = make()
    s = build(g, tokens={P2: (5, 1)}, hands={P1: ["CUT", "DRAW"]})
    assert plays_of(g, s, P1, "CUT") == [play("CUT")]  # P1, P3 on START, P2 in the last row
    s = build(g, tokens={P1: (3, 1), P2: (2, 1)}, hands={P1: ["CUT", "DRAW"]})
    # P1 already stands in front of P2: that CUT would change nothing and is not offered.
    assert play("CUT", target=P1, other=P2) not in g.legal_actions(s, P1)
    assert {(a.target, a.other) for a in plays_of(g, s, P1, "CUT")} == {
        (P2, P1),
        (P3, P1),
        (P3, P2),
    }


@pytest.mark.parametrize("draw_count", [0, 1, 3])
def test_sb6_draw_count_option(draw_count: int) -> None:
    g = make(draw_count=draw_count)
    s = build(g, hands={P1: ["DRAW", "CUT"]})
    s = act(g, s, P1, play("DRAW"))
    drawn = [{"player": P1, "count": draw_count}] if draw_count else []
    assert of_kind(events_of(s), "cards_drawn") == drawn and len(s.hands[P1]) == 1 + draw_count


def test_sb6_revamp_add_takes_as_many_cards_as_rows_reshuffling_if_needed() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["REVAMP", "DRAW"]})
    s.discard, s.draw = s.draw[:-2], s.draw[-2:]  # two cards left to draw
    s, _ = run(g, s, (P1, play("REVAMP", mode="add-left")), (P1, Step(P1, -1)))
    assert s.lanes == 4 and all(len(r) == 4 for r in s.grid) and where(s, P1) == (1, 1)
    assert_conserved(g, s)
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["REVAMP", "DRAW"]})
    s.hands[P2], s.draw = s.draw[:-5], s.draw[-5:]  # 5 cards for 6 rows: no lane to add
    assert {a.mode for a in plays_of(g, s, P1, "REVAMP")} == {"remove"}


def test_sb6_revamp_add_announces_the_reshuffle_of_the_discards() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["REVAMP", "DRAW"]})
    s.discard, s.draw = s.draw[:-2], s.draw[-2:]
    pile = len(s.discard)
    s = act(g, s, P1, play("REVAMP", mode="add-left"))
    assert kinds(events_of(s))[:5] == [
        "declared",
        "window_opened",
        "window_closed",
        "discards_reshuffled",
        "lane_added",
    ]
    assert of_kind(events_of(s), "discards_reshuffled") == [{"cards": pile + 1}]  # with the REVAMP
    assert len(s.draw) == pile + 1 - 4 and s.discard == []


def test_sb6_min_and_max_lanes_options() -> None:
    g = make(3, min_lanes=3, max_lanes=4)
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["REVAMP"], P2: ["REVAMP"]})
    assert {a.mode for a in plays_of(g, s, P1, "REVAMP")} == {"add-left", "add-right"}
    s, _ = run(g, s, (P1, play("REVAMP", mode="add-right")), (P1, Step(P1, -1)))
    assert s.lanes == 4 and s.current == P2
    assert {a.mode for a in plays_of(g, s, P2, "REVAMP")} == {"remove"}


def test_sb6_revamp_remove_the_remover_places_every_displaced_token() -> None:
    """Displaced tokens go to free cards of their row, chosen by the remover (here the REVAMP
    is the Board Action of P2, who places P1 and itself)."""
    g = make(rows_removable=0)
    s = build(
        g,
        cells={(3, 2): "REVAMP", (1, 2): "BLOCK"},
        tokens={P1: (1, 2), P2: (3, 2), P3: (3, 0)},
        hands={P1: ["CUT"], P2: ["CUT"]},
    )
    s = turn_of(g, s, P2)
    s, events = run(g, s, (P2, play("REVAMP", mode="remove", lane=2)))
    assert s.phase == "step" and s.pending == (P2,) and s.context["left"] == [P1, P2]
    assert g.legal_actions(s, P2) == (Step(P1, 0), Step(P1, 1))
    s, events = run(g, s, (P2, Step(P1, 0)))  # P2's own row has one free card: automatic
    assert s.phase == "hand" and s.pending == (P2,)
    assert (where(s, P1), where(s, P2), where(s, P3)) == ((1, 0), (3, 1), (3, 0))
    assert [e["player"] for e in of_kind(events, "token_placed")] == [P1, P2]


# -- SB-7 bumps ------------------------------------------------------------------------------


def test_sb7_bumps_follow_the_direction_of_the_movement() -> None:
    g = make(rows_removable=0)
    forward = build(g, tokens={P1: (1, 0), P2: (2, 0)}, hands={P1: ["MOVE+1", "DRAW"]})
    backward = build(g, tokens={P1: (3, 0), P2: (2, 0)}, hands={P1: ["MOVE-1", "DRAW"]})
    sideways = build(g, tokens={P1: (2, 2), P2: (2, 1)}, hands={P1: ["SHIFT", "DRAW"]})
    cut_back = build(g, tokens={P1: (4, 2), P2: (2, 0), P3: (1, 0)}, hands={P1: ["CUT", "DRAW"]})
    cases = [
        (forward, play("MOVE+1"), (P2, [2, 0], [3, 0], "bumped")),
        (backward, play("MOVE-1"), (P2, [2, 0], [1, 0], "bumped")),
        (sideways, play("SHIFT", target=P1, lane=1), (P2, [2, 1], [2, 0], "bumped")),
        (cut_back, play("CUT", target=P1, other=P3), (P2, [2, 0], [3, 0], "bumped")),
    ]
    for s, action, bump in cases:
        t = act(g, s, P1, action)
        assert moves(events_of(t))[1:] == [bump], action


def test_sb7_edge_bump_backward_is_the_default() -> None:
    assert SetbackConfig().edge_bump == "backward"
    g = make()
    s = build(g, tokens={P1: (3, 1), P2: (3, 2)}, hands={P1: ["SHIFT", "DRAW"]})
    s = act(g, s, P1, play("SHIFT", target=P1, lane=2))
    assert moves(events_of(s))[1] == (P2, [3, 2], [2, 2], "bumped")


def test_sb7_edge_bump_forward_goes_one_row_on_and_chains_forward() -> None:
    g = make(edge_bump="forward", rows_removable=0)
    s = build(g, tokens={P1: (3, 1), P2: (3, 2)}, hands={P1: ["SHIFT", "DRAW"]})
    s = act(g, s, P1, play("SHIFT", target=P1, lane=2))
    assert moves(events_of(s)) == [(P1, [3, 1], [3, 2], "SHIFT"), (P2, [3, 2], [4, 2], "bumped")]
    s = build(g, tokens={P1: (3, 1), P2: (3, 0), P3: (4, 0)}, hands={P1: ["SHIFT", "DRAW"]})
    s = act(g, s, P1, play("SHIFT", target=P1, lane=0))
    assert moves(events_of(s)) == [
        (P1, [3, 1], [3, 0], "SHIFT"),
        (P2, [3, 0], [4, 0], "bumped"),  # off the left edge: one row on
        (P3, [4, 0], [5, 0], "bumped"),  # a chain goes on forward
    ]
    cards = {(s.row[q], s.lane[q]) for q in range(3)}
    assert len(cards) == 3  # SB-1: one token per card


def test_sb7_edge_bump_forward_from_the_last_row_reaches_finish() -> None:
    g = make(edge_bump="forward")
    s = build(g, tokens={P1: (5, 1), P2: (5, 2)}, hands={P1: ["SHIFT", "DRAW"]})
    s = act(g, s, P1, play("SHIFT", target=P1, lane=2))
    assert moves(events_of(s))[1] == (P2, [5, 2], "FINISH", "bumped")
    assert s.is_terminal and s.winner == P2


def test_sb7_chains_end_on_finish_or_start() -> None:
    g = make()
    s = build(g, tokens={P1: (4, 1), P2: (5, 1)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert s.winner == P2 and moves(events_of(s))[-1] == (P2, [5, 1], "FINISH", "bumped")
    s = build(g, tokens={P1: (1, 1), P2: (0, 1)}, hands={P1: ["MOVE-1", "DRAW"]})
    s = act(g, s, P1, play("MOVE-1"))
    assert moves(events_of(s))[-1] == (P2, [0, 1], "START", "bumped")


# -- SB-8 row removal ------------------------------------------------------------------------


def test_sb8_no_removal_while_a_token_is_on_start_or_the_first_row() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0), P2: (2, 1)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))  # P3 on START
    assert s.rows == 6 and "row_removed" not in kinds(events_of(s))
    s = build(g, tokens={P1: (1, 0), P2: (2, 1), P3: (0, 2)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))  # P3 in the first row
    assert s.rows == 6 and "row_removed" not in kinds(events_of(s))


def test_sb8_after_every_effect_even_an_opponents_move() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (0, 1), P3: (3, 2)}, hands={P1: ["FOE+1", "DRAW"]})
    s = act(g, s, P1, play("FOE+1", target=P2))
    assert kinds(events_of(s)) == [
        "declared",
        "window_opened",
        "window_closed",
        "token_moved",
        "row_removed",
    ]
    s = build(g, tokens={P1: (2, 0), P2: (0, 1), P3: (3, 2)}, hands={P1: ["TRADE", "DRAW"]})
    s = act(g, s, P1, play("TRADE", target=P2, other=P3))
    assert "row_removed" not in kinds(events_of(s))  # P3 is now in the first row


@pytest.mark.parametrize(("removable", "removed"), [(0, 0), (1, 1), (2, 2), (3, 3)])
def test_sb8_rows_removable_option(removable: int, removed: int) -> None:
    g = make(rows_removable=removable)
    s = build(g, tokens={P1: (3, 0), P2: (4, 1), P3: (5, 2)}, hands={P1: ["DRAW", "CUT"]})
    s = act(g, s, P1, play("DRAW"))  # any effect: the rows are checked after it
    assert [e["removed"] for e in of_kind(events_of(s), "row_removed")] == list(
        range(1, removed + 1)
    )
    assert s.rows == 6 - removed and s.rows_removed == removed
    assert where(s, P1) == (3 - removed, 0)
    assert_conserved(g, s)


def test_sb8_the_last_row_is_never_removed() -> None:
    g = make(2, rows=2, rows_removable=5)
    s = build(g, tokens={P1: (1, 0), P2: (1, 1)}, hands={P1: ["DRAW", "CUT"]})
    s = act(g, s, P1, play("DRAW"))
    assert s.rows == 1 and s.rows_removed == 1


# -- SB-9 BLOCK window -----------------------------------------------------------------------


def test_sb9_a_window_after_every_declaration_asks_every_block_holder_in_seat_order() -> None:
    g = make(4)
    s = build(
        g,
        cells={(2, 0): "MOVE+1"},
        tokens={P2: (2, 0)},
        hands={P1: ["BLOCK", "CUT"], P2: ["BLOCK", "DRAW"], P4: ["BLOCK"]},
    )
    s = turn_of(g, s, P2)  # the Board Action is declared: a window
    assert of_kind(events_of(s), "window_opened") == [{"blocks": 0}]
    assert s.phase == "window" and s.pending == (P2, P4, P1)  # from the current seat on
    s, _ = run(g, s, (P4, Pass()), (P2, Pass()), (P1, Pass()))
    assert where(s, P2) == (3, 0) and s.phase == "hand"
    s = act(g, s, P2, play("DRAW"))  # a Hand Action: a window again, P2's own excepted
    assert s.phase == "window" and s.pending == (P4, P1)


def test_sb9_amended_a_window_opens_even_when_nobody_holds_a_block() -> None:
    """SB-9 amended (it used to open no window here, which told a small table that nobody
    held a BLOCK): the window opens and asks P2 and P3, who can only pass; the driver answers
    for them and the action resolves."""
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["MOVE+1", "DRAW"]})
    declared = g.step(s, P1, play("MOVE+1")).state
    assert declared.phase == "window" and declared.pending == (P2, P3)
    assert [g.forced_action(declared, q) for q in (P1, P2, P3)] == [None, Pass(), Pass()]
    s = act(g, s, P1, play("MOVE+1"))
    assert kinds(events_of(s))[1:3] == ["window_opened", "window_closed"]
    assert of_kind(events_of(s), "window_closed") == [{"blocks": 0, "cancelled": False}]
    assert where(s, P1) == (3, 0)


@pytest.mark.parametrize(
    ("self_block", "own_board", "own_hand"),
    [("board", True, False), ("all", True, True), ("none", False, False)],
)
def test_sb9_self_block_option_which_own_actions_the_declarer_is_asked_about(
    self_block: str, own_board: bool, own_hand: bool
) -> None:
    """``self_block``: "board" (default) asks the declarer about its own Board Action only,
    "all" about its Hand Actions too, "none" never; the others holding a BLOCK are always
    asked."""
    g = make(self_block=self_block)
    assert g.cfg.self_block == self_block
    s = build(
        g,
        cells={(2, 0): "MOVE+1"},
        tokens={P1: (2, 0)},
        hands={P1: ["BLOCK", "MOVE+1*"], P2: ["BLOCK"], P3: ["CUT"]},
    )
    s = turn_of(g, s, P1)  # the Board Action MOVE+1 is declared
    assert of_kind(events_of(s), "declared")[-1]["source"] == "board"
    assert s.phase == "window" and s.pending == ((P1, P2) if own_board else (P2,))
    s, _ = run(g, s, *((q, Pass()) for q in s.pending))
    assert where(s, P1) == (3, 0) and s.phase == "hand"
    s = act(g, s, P1, play("MOVE+1*"))  # a Hand Action
    assert s.phase == "window" and s.pending == ((P1, P2) if own_hand else (P2,))
    assert bool(g.legal_actions(s, P1)) == own_hand


@pytest.mark.parametrize("self_block", ["board", "all", "none"])
def test_sb9_self_block_never_lets_a_player_block_its_own_block(self_block: str) -> None:
    """Whatever ``self_block`` says, the player of the BLOCK on top is not asked about it; the
    declarer may always answer a BLOCK played by someone else."""
    g = make(self_block=self_block)
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "BLOCK", "BLOCK"], P2: ["BLOCK", "BLOCK"], P3: ["CUT"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    if self_block == "all":
        assert s.pending == (P1, P2)
        s = act(g, s, P1, Block())  # P1 blocks its own Hand Action
        s = act(g, s, P2, Pass())  # the last answer: P1's BLOCK is played (SB-9 amended again)
        assert s.pending == (P2,)  # P1 holds another BLOCK but played the one on top
        s, events = run(g, s, (P2, Block()))
        assert s.pending == (P1,)
        s, events = run(g, s, (P1, Pass()))
        assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    else:
        assert s.pending == (P2,)
        s = act(g, s, P2, Block())
        assert s.pending == (P1,)  # the declarer may BLOCK the BLOCK
        s = act(g, s, P1, Block())
        assert s.pending == (P2,)  # P2 holds a second BLOCK; P1's is on top
        s, events = run(g, s, (P2, Pass()))
        assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    assert where(s, P1) == (3, 0)


def test_sb9_a_block_reopens_the_window_to_everyone_else_who_holds_one() -> None:
    g = make(4)
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "BLOCK"], P2: ["BLOCK"], P3: ["BLOCK", "BLOCK"], P4: ["BLOCK"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    s, _ = run(g, s, (P2, Pass()), (P3, Block()))
    assert s.pending == (P4,)  # SB-9 amended again: played once every answer is in
    s, _ = run(g, s, (P4, Pass()))
    assert of_kind(events_of(s), "window_opened") == [{"blocks": 1}]
    assert s.pending == (P1, P2, P4)  # P2 passed before but may answer the BLOCK
    s, _ = run(g, s, (P4, Block()), (P1, Pass()), (P2, Pass()))
    assert s.pending == (P1, P2, P3)  # P2 passed but kept its BLOCK; P3 holds a second one
    s, events = run(g, s, (P1, Pass()), (P2, Pass()), (P3, Pass()))
    assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    assert where(s, P1) == (3, 0)


def test_sb9_the_view_shows_a_window_but_never_who_is_asked() -> None:
    g = make(4)
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK"], P3: ["CUT"], P4: ["BLOCK"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    assert s.pending == (P2, P4)
    for seat in (None, P1, P2, P3, P4):
        view = g.observe(s, seat)
        assert view.window_open and view.to_act is None and view.phase == "window"
        assert view.declared == {
            "player": P1,
            "source": "hand",
            "play": {"type": "play", "card": "MOVE+1"},
        }
        asked = seat in (P2, P4)
        assert view.legal_actions == ((Block(), Pass()) if asked else ())
        for others in ([P3], [P2, P3, P4], [P4], [P1, P2]):
            t = s.clone()
            t.asked = sorted((set(others) - {seat}) | ({seat} if asked else set()))
            t.pending = tuple(t.asked)
            assert g.observe(t, seat) == view
    s = act(g, s, P2, Block())
    assert g.observe(s, P3).blocks == ()  # SB-9 amended again: an answer is concealed
    s = act(g, s, P4, Pass())
    assert g.observe(s, P3).blocks == (P2,)  # a played BLOCK is public


def test_sb9_cancelled_cards_the_hand_card_is_discarded_the_board_card_stays() -> None:
    g = make()
    hand = build(g, tokens={P1: (2, 0)}, hands={P1: ["SKIP", "DRAW"], P2: ["BLOCK"]})
    hand, _ = run(g, hand, (P1, play("SKIP", target=P3)), (P2, Block()))
    assert hand.skip_cards[P3] == [] and names(g, hand.discard) == Counter(SKIP=1, BLOCK=1)
    board = build(
        g,
        cells={(2, 0): "FOE-1"},
        tokens={P1: (2, 0), P2: (3, 1)},
        hands={P1: ["DRAW"], P2: ["BLOCK"], P3: ["CUT"]},
    )
    board = turn_of(g, board, P1)
    foe_card = board.grid[2][0]
    board, _ = run(g, board, (P1, play("FOE-1", target=P2)), (P2, Block()))
    assert board.grid[2][0] == foe_card and names(g, board.discard)["FOE-1"] == 0
    assert where(board, P2) == (3, 1)
    assert_conserved(g, board)


def test_sb9_a_block_played_out_of_turn_is_not_replaced() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["MOVE+1"], P2: ["BLOCK", "CUT"]})
    s, events = run(g, s, (P1, play("MOVE+1")), (P2, Block()))
    assert [e["player"] for e in of_kind(events, "cards_drawn")] == [P1]  # P1's Draw Action
    assert names(g, s.hands[P2]) == Counter({"CUT": 1}) and s.current == P2


def test_sb9_block_protects_from_direct_actions_not_from_bumps_or_lane_removal() -> None:
    g = make(rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "BLOCK"},
        tokens={P1: (1, 1), P2: (2, 1)},
        hands={P1: ["FOE+1", "SHIFT", "TRADE", "CUT", "SKIP", "MOVE+1", "REVAMP"]},
    )
    legal = g.legal_actions(s, P1)
    for name in ("SHIFT", "TRADE", "CUT"):
        assert all(a.target != P2 for a in plays_of(g, s, P1, name)), name
    assert play("TRADE", target=P1, other=P2) not in legal
    assert play("FOE+1", target=P2) in legal and play("SKIP", target=P2) in legal  # FAQ 4
    bumped = act(g, s, P1, play("MOVE+1"))
    assert moves(events_of(bumped))[1] == (P2, [2, 1], [3, 1], "bumped")
    removed = act(g, s, P1, play("REVAMP", mode="remove", lane=1))
    assert of_kind(events_of(removed), "lane_removed")[0]["displaced"] == [P1, P2]


def test_sb9_a_hand_skip_at_a_player_on_block_has_no_effect() -> None:
    """Decision: SB-9 protection extends to SKIP; the card is discarded."""
    g = make()
    s = build(
        g,
        cells={(2, 1): "BLOCK"},
        tokens={P2: (2, 1)},
        hands={P1: ["SKIP", "DRAW"]},
    )
    s = act(g, s, P1, play("SKIP", target=P2))
    assert of_kind(events_of(s), "no_effect") == [{"player": P2, "why": "on BLOCK"}]
    assert s.skip_cards[P2] == [] and names(g, s.discard) == Counter({"SKIP": 1})


# -- SB-10 SKIP ------------------------------------------------------------------------------


def test_sb10_a_board_skip_is_armed_again_by_any_arrival() -> None:
    """Once per arrival: being bumped or traded onto a SKIP card arms it again."""
    g = make(rows_removable=0)
    cells = {(2, 2): "SKIP", (3, 2): "SKIP", (4, 0): "SKIP", (0, 0): "BLOCK"}
    s = build(
        g,
        cells=cells,
        tokens={P1: (1, 2), P2: (2, 2), P3: (4, 0)},
        hands={P1: ["MOVE+1", "TRADE"], P2: ["CUT"], P3: ["CUT"]},
    )
    s.skip_spent = [False, True, True]  # P2 and P3 already lost a turn on their SKIPs
    bumped = act(g, s, P1, play("MOVE+1"))
    assert where(bumped, P2) == (3, 2) and of_kind(events_of(bumped), "turn_skipped") == [
        {"player": P2, "why": "board skip"}
    ]
    traded = act(g, s, P1, play("TRADE", target=P2, other=P3))
    assert of_kind(events_of(traded), "turn_skipped") == [
        {"player": P2, "why": "board skip"},
        {"player": P3, "why": "board skip"},
    ]


@pytest.mark.parametrize(("self_block", "own"), [("board", True), ("all", True), ("none", False)])
def test_sb10_a_board_skip_is_a_board_action_open_to_blocks(self_block: str, own: bool) -> None:
    """The board SKIP is declared as the Board Action ``SKIP`` (no target) and opens a window:
    its own player is asked as for any Board Action (``self_block``). Standing, the turn is
    lost without a draw; cancelled, the Hand Action follows."""
    g = make(self_block=self_block, rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "SKIP"},
        tokens={P2: (2, 1)},
        hands={P1: ["CUT"], P2: ["BLOCK", "MOVE+1"], P3: ["BLOCK"]},
    )
    s = turn_of(g, s, P2)
    assert s.stack[0]["play"] == Play(card("SKIP"))
    assert Play(card("SKIP")).to_json() == {"type": "play", "card": "SKIP"}
    assert s.stack[0]["source"] == "board" and s.stack[0]["card"] == s.grid[2][1]
    assert s.phase == "window" and s.pending == ((P2, P3) if own else (P3,))
    stood, events = run(g, s, *((q, Pass()) for q in s.pending))
    assert kinds(events) == ["window_closed", "turn_skipped", "turn_started"]
    assert of_kind(events, "turn_skipped") == [{"player": P2, "why": "board skip"}]
    assert stood.current == P3 and len(stood.hands[P2]) == 2
    # SB-9 amended again: P3's BLOCK is played once every answer is in (P2's pass, if asked).
    cancelled, events = run(g, s, *((q, Block() if q == P3 else Pass()) for q in s.pending))
    # A BLOCK on top is someone else's: P2 may answer it whatever self_block says; it passes.
    assert kinds(events) == ["block_played", "window_opened"] and cancelled.pending == (P2,)
    cancelled, events = run(g, cancelled, (P2, Pass()))
    assert kinds(events) == ["window_closed", "cancelled"]  # no turn_skipped
    assert of_kind(events, "cancelled") == [
        {"player": P2, "play": {"type": "play", "card": "SKIP"}}
    ]
    assert cancelled.current == P2 and cancelled.phase == "hand"
    assert g.legal_actions(cancelled, P2) == (play("MOVE+1"),)


def test_sb10_a_hand_skip_targets_an_opponent_and_costs_the_whole_next_turn() -> None:
    g = make()
    s = build(
        g,
        cells={(2, 1): "MOVE+2"},
        tokens={P2: (2, 1)},
        hands={P1: ["SKIP", "DRAW"], P2: ["CUT", "TRADE"], P3: ["CUT"]},
    )
    assert {a.target for a in plays_of(g, s, P1, "SKIP")} == {P2, P3}
    s, events = run(g, s, (P1, play("SKIP", target=P2)), (P1, EndHand()))
    assert "declared" not in kinds(events[kinds(events).index("turn_skipped") :])
    assert where(s, P2) == (2, 1) and len(s.hands[P2]) == 2  # no Board Action, no draw
    assert s.current == P3


def test_sb10_several_skips_stack() -> None:
    g = make(2)
    s = build(g, hands={P1: ["SKIP"], P2: ["CUT"]})
    s.skip_cards[P2] = [c for c in s.draw if g.types[c].kind == "SKIP"][:2]
    s.draw = [c for c in s.draw if c not in s.skip_cards[P2]]
    s = act(g, s, P1, play("SKIP", target=P2))
    assert len(s.skip_cards[P2]) == 2 and s.current == P1  # P2 lost a turn, two more to go
    for left in (1, 0):
        s = turn_of(g, s, P2)
        assert len(s.skip_cards[P2]) == left and s.current == P1
    s = turn_of(g, s, P2)
    assert s.current == P2 and names(g, s.hands[P2]) == Counter({"CUT": 1})
    assert names(g, s.discard)["SKIP"] == 3
    assert_conserved(g, s)


# -- SB-11 player counts ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 7])
def test_sb11_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidConfig, match=f"option players={players} .* 2 to 6"):
        make(players)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sb11_every_player_count_plays_to_the_end(players: int) -> None:
    steps = random_game(make(players), 100 + players)
    final = steps[-1][2]
    outcome = make(players).outcome(final)
    assert outcome is not None and outcome.winners == frozenset({final.winner})
    assert len(outcome.ranks) == players and outcome.ranks[final.winner] == 1


# -- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": 0}, "option rows=0 .*below 1"),
        ({"lanes": 7}, "lanes must lie between"),
        ({"lanes": 1}, "lanes must lie between"),
        ({"min_lanes": 0, "lanes": 2}, "option min_lanes=0 .*below 1"),
        ({"min_lanes": 4}, "lanes must lie between"),
        ({"max_lanes": 2}, "lanes must lie between"),
        ({"edge_bump": "wrap"}, "option edge_bump='wrap' .*one of backward, forward"),
        ({"edge_bump": "stay"}, "option edge_bump='stay' .*one of backward, forward"),
        ({"self_block": "mine"}, "option self_block='mine' .*one of board, all, none"),
        ({"hand_size": 0}, "option hand_size=0 .*below 1"),
        ({"draw_count": -1}, "option draw_count=-1 .*below 0"),
        ({"rows_removable": -1}, "option rows_removable=-1 .*below 0"),
        ({"rows": 20, "lanes": 5}, "the deck needs at least 109 cards"),
        ({"speed": 2}, "unknown option"),
    ],
)
def test_unusable_configurations_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidConfig, match=message):
        make(3, **options)


def test_every_option_has_a_default_and_help() -> None:
    spec = racedeck.get_spec("setback")
    options = {o.name: o for o in spec.options()}
    assert set(options) == {
        "players",
        "deck",
        "rows",
        "lanes",
        "min_lanes",
        "max_lanes",
        "hand_size",
        "draw_count",
        "rows_removable",
        "self_block",
        "edge_bump",
        "window_seconds",
        "max_moves",
    }
    assert all(o.help for o in options.values())
    defaults = {k: o.default for k, o in options.items() if k != "deck"}
    assert defaults == {
        "players": 3,
        "rows": 6,
        "lanes": 0,
        "min_lanes": 2,
        "max_lanes": 6,
        "hand_size": 3,
        "draw_count": 2,
        "rows_removable": 2,
        "self_block": "board",
        "edge_bump": "backward",
        "window_seconds": 3,  # SB-9 amended: an online window's least length
        "max_moves": 20_000,
    }


# -- IllegalAction ---------------------------------------------------------------------------


def _refused(g: Setback, s: SetbackState, seat: int, action: Any, reason: str) -> str:
    """Apply must refuse with ``reason``, name the action and the legal options, and leave the
    state untouched."""
    before = s.to_json()
    with pytest.raises(racedeck.IllegalAction) as info:
        act(g, s, seat, action)
    err = info.value
    assert s.to_json() == before
    assert reason in err.reason and err.action == action and err.seat == seat
    assert err.legal == g.legal_actions(s, seat)
    text = str(err)
    assert f"illegal action {action}" in text
    if err.legal:
        assert all(str(a) in text for a in err.legal[:40])
    else:
        assert "no action is legal for this seat now" in text
    return text


def test_illegal_wrong_seat() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"], P2: ["MOVE+1"]})
    text = _refused(g, s, P2, play("MOVE+1", lane=0), "this seat is not asked to act now")
    assert "P1's turn, Hand Action" in text
    _refused(g, s, 7, play("MOVE+1"), "there is no seat 7")


def test_illegal_card_not_in_hand_and_wrong_targets() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1", "FOE-1"]})
    _refused(g, s, P1, play("CUT", target=P1, other=P2), "no CUT card in hand")
    _refused(g, s, P1, play("MOVE+1*"), "no MOVE+1* card in hand")
    _refused(g, s, P1, play("FOE-1", target=P1), "cannot be declared with these targets")
    _refused(g, s, P1, play("MOVE+1", lane=2), "cannot be declared with these targets")


def test_illegal_a_second_non_free_card() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1", "FOE-1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    _refused(g, s, P1, play("FOE-1", target=P2), "only FREE cards may follow")


def test_illegal_block_as_a_hand_play_and_end_before_any_card() -> None:
    g = make()
    s = build(g, hands={P1: ["BLOCK", "MOVE+1"]})
    _refused(g, s, P1, Play(card("BLOCK")), "BLOCK is only played to cancel an action")
    _refused(g, s, P1, EndHand(), "at least one card must be played")
    _refused(g, s, P1, Block(), "not one of the choices offered now")


def test_illegal_in_a_window_and_in_a_step() -> None:
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["ALL+1", "DRAW"], P2: ["BLOCK"]})
    s = act(g, s, P1, play("ALL+1"))
    text = _refused(g, s, P2, play("MOVE+1"), "not one of the choices offered now")
    assert "a BLOCK window is open" in text
    _refused(g, s, P1, Pass(), "this seat is not asked to act now")
    s = act(g, s, P2, Pass())
    text = _refused(g, s, P1, Step(P2, 9), "not one of the choices offered now")
    assert "a card is resolving" in text


def test_illegal_after_the_game_is_over() -> None:
    g = make()
    s = build(g, tokens={P1: (5, 0)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert s.is_terminal
    text = _refused(g, s, P1, play("DRAW"), "the game is over")
    assert "(the game is over)" in text


# -- text forms ------------------------------------------------------------------------------


def test_parse_action_reads_back_every_legal_action() -> None:
    """``str(action)`` of every legal action of every pending seat, along random games and
    built states, reads back as the same action (and its JSON form too)."""
    states: list[SetbackState] = []
    for players, seed in ((2, 1), (3, 2), (5, 3), (6, 4)):
        g = make(players)
        states = [st for _, _, st in random_game(g, seed)]
        for s in states:
            for seat in s.pending:
                for action in g.legal_actions(s, seat):
                    assert g.parse_action(str(action), g.observe(s, seat)) == action
                    assert g.parse_action(f"  {str(action).lower()} ", g.observe(s, seat)) == action
                    assert g.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    g = make()
    s = build(
        g,
        tokens={P1: (1, 0), P2: (2, 1)},
        hands={P1: ["REVAMP", "CUT", "TRADE", "SHIFT", "FOE+1", "SKIP", "MOVE-1", "FOE-1*"]},
    )
    texts = {str(a) for a in g.legal_actions(s, P1)}
    assert len(texts) == len(g.legal_actions(s, P1))  # every text names one action
    assert {"REVAMP add-left", "REVAMP remove lane 3", "CUT P3 before P2", "TRADE P1<>P2"} <= texts
    assert {"FOE+1 P3 lane 2", "SHIFT P2 lane 1", "SKIP P2", "MOVE-1", "FOE-1* P2"} <= texts
    for action in g.legal_actions(s, P1):
        assert g.parse_action(str(action), g.observe(s, P1)) == action


def test_parse_text_of_the_simple_actions() -> None:
    assert parse_text(" End ") == EndHand() and parse_text("discard") == DiscardBlock()
    assert parse_text("BLOCK") == Block() and parse_text("pass") == Pass()
    assert parse_text("step P2 lane 3") == Step(1, 2) and parse_text("step p1 stay") == Step(0)
    assert parse_text("step P1") == Step(0) == Step(0, -1)
    assert str(Step(0)) == "step P1" and str(Step(1, 2)) == "step P2 lane 3"
    assert parse_text("MOVE+1") is None


def test_parse_action_refuses_unknown_or_illegal_text() -> None:
    g = make()
    s = build(g, hands={P1: ["MOVE+1"]})
    with pytest.raises(racedeck.IllegalAction, match="cannot read 'jump' as an action"):
        g.parse_action("jump", g.observe(s, P1))
    with pytest.raises(racedeck.IllegalAction, match="legal: MOVE\\+1 lane 1"):
        g.parse_action("end", g.observe(s, P1))
    with pytest.raises(racedeck.IllegalAction):
        g.parse_action("MOVE+1 lane 9", g.observe(s, P1))
