"""The *Setback* rulebook (``/work/shared/rules/source/setback.en.txt``), card by card, played
through the engine (``Game.apply``, the checked path). Its FAQ counts as rules (FAQ 1-4); the
rulings SB-1 … SB-11 fill the gaps (see ``test_rulings.py``).

Situations are built with :func:`build`: every card of the deck exactly once, on the board, in
a hand, in the discards or in the draw pile. Rows and lanes are 0-based: row 0 is the rulebook's
"first row" next to START, row ``rows - 1`` the one before FINISH. Seats: P1 = 0, P2 = 1 …
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import racedeck
from racedeck.core.events import Event
from racedeck.core.game import Transition
from racedeck.games.setback import (
    Block,
    CardType,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    Setback,
    SetbackAction,
    SetbackState,
    Step,
    parse_card_type,
)
from racedeck.games.setback.actions import action_from_json
from racedeck.games.setback.state import START

P1, P2, P3, P4, P5 = 0, 1, 2, 3, 4
Pos = tuple[int, int]


_EVENTS: dict[int, tuple[SetbackState, list[Event]]] = {}
"""The events that led to each state made by :func:`act` or :func:`begin` (by ``id``; the
state is kept alive with them, so an ``id`` is never reused)."""


def _remember(s: SetbackState, events: list[Event]) -> SetbackState:
    _EVENTS[id(s)] = (s, events)
    return s


def events_of(s: SetbackState) -> list[Event]:
    """The events of the transition(s) that made ``s`` (see :func:`act`)."""
    return _EVENTS[id(s)][1]


def drive_forced(g: Setback, t: Transition[SetbackState]) -> tuple[SetbackState, list[Event]]:
    """``t``'s state after the driver answered every forced pass (SB-9 amended: a seat asked
    in a BLOCK window without a BLOCK can only pass), as ``core.table`` does; every event."""
    s, events = t.state, list(t.events)
    while True:
        forced = [(q, a) for q in s.pending if (a := g.forced_action(s, q)) is not None]
        if not forced:
            return s, events
        t = g.step(s, *forced[0])
        s = t.state
        events.extend(t.events)


def act(g: Setback, s: SetbackState, seat: int, action: SetbackAction) -> SetbackState:
    """The checked step, then the forced passes a driver answers; :func:`events_of` the
    result gives every event on the way."""
    return _remember(*drive_forced(g, g.step(s, seat, action)))


def begin(g: Setback, seed: int) -> SetbackState:
    """The state at the start (its events by :func:`events_of`)."""
    return _remember(*drive_forced(g, g.start(seed)))


def make(players: int = 3, **options: Any) -> Setback:
    game = racedeck.make("setback", players=players, **options)
    assert isinstance(game, Setback)
    return game


def card(name: str) -> CardType:
    return parse_card_type(name)


def play(name: str, target: int = -1, lane: int = -1, other: int = -1, mode: str = "") -> Play:
    return Play(card(name), target, lane, other, mode)


def build(
    g: Setback,
    *,
    cells: Mapping[Pos, str] | None = None,
    tokens: Mapping[int, Pos] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    current: int = P1,
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = (),
) -> SetbackState:
    """A state in which ``current`` starts its Hand Action, with exactly these facts.

    The board has the configured rows and lanes; ``cells`` names some of its cards, the others
    are filler (never BLOCK or SKIP). Tokens not in ``tokens`` are on START. ``draw_top`` are
    the next cards drawn, in order; below them lie the rest of the deck, BLOCKs and SKIPs at the
    bottom. Every card of the deck is used exactly once.
    """
    pool: dict[CardType, list[int]] = {}
    for index, t in enumerate(g.types):
        pool.setdefault(t, []).append(index)

    def take(name: str) -> int:
        return pool[card(name)].pop()

    s = begin(g, 0)
    rows, lanes = g.cfg.rows, g.cfg.start_lanes
    named = {rc: take(name) for rc, name in (cells or {}).items()}
    s.hands = [sorted(take(c) for c in (hands or {}).get(p, ())) for p in range(g.n)]
    s.discard = [take(c) for c in discard]
    top = [take(c) for c in draw_top]
    filler = sorted(i for t, ids in pool.items() if t.kind not in ("BLOCK", "SKIP") for i in ids)
    s.grid = [
        [named[(r, ln)] if (r, ln) in named else filler.pop(0) for ln in range(lanes)]
        for r in range(rows)
    ]
    on_board = {c for row in s.grid for c in row}
    rest = [i for ids in pool.values() for i in ids if i not in on_board]
    rest.sort(key=lambda i: (g.types[i].kind not in ("BLOCK", "SKIP"), i))
    s.draw = rest + top[::-1]
    s.row = [START] * g.n
    s.lane = [START] * g.n
    for p, (r, ln) in (tokens or {}).items():
        s.row[p], s.lane[p] = r, ln
    s.rows_removed = 0
    s.skip_cards = [[] for _ in range(g.n)]
    s.skip_spent = [False] * g.n
    s.current = current
    s.phase = "hand"
    s.pending = (current,)
    s.source = ""
    s.hand_played = 0
    s.nonfree_played = False
    s.stack, s.asked, s.context = [], [], {}
    s.winner = -1
    s.move = 0
    assert_conserved(g, s)
    return s


def assert_conserved(g: Setback, s: SetbackState) -> None:
    """Every card index exactly once: board, draw pile, discards, hands, SKIPs, the stack."""
    cards = [c for row in s.grid for c in row] + s.draw + s.discard
    cards += [c for h in s.hands for c in h] + [c for k in s.skip_cards for c in k]
    cards += [item["card"] for item in s.stack if item.get("source") != "board"]
    assert sorted(cards) == list(range(len(g.types)))


def turn_of(g: Setback, s: SetbackState, p: int) -> SetbackState:
    """Start ``p``'s turn (its Board Action first): the seat before it ends its Hand Action,
    which needs a card in that seat's hand; that seat then draws (SB-3)."""
    prev = (p - 1) % g.n
    s = s.clone()
    assert s.hands[prev], "the seat before needs a card to end its Hand Action"
    s.current, s.phase, s.pending = prev, "hand", (prev,)
    s.hand_played, s.nonfree_played = 1, True
    return act(g, s, prev, EndHand())


def run(
    g: Setback, s: SetbackState, *steps: tuple[int, SetbackAction]
) -> tuple[SetbackState, list[Event]]:
    """Apply ``(seat, action)`` pairs in turn; return the state and every event."""
    events: list[Event] = []
    for seat, action in steps:
        assert action in g.legal_actions(s, seat), f"{action} not legal for {seat}: {s!r}"
        s = act(g, s, seat, action)
        events.extend(events_of(s))
    return s, events


def where(s: SetbackState, p: int) -> Pos | str:
    if s.row[p] == START:
        return "START"
    if s.row[p] >= s.rows:
        return "FINISH"
    return (s.row[p], s.lane[p])


def data(e: Event) -> dict[str, Any]:
    """An event's details in their JSON form (event data itself is read-only: tuples)."""
    return {k: v for k, v in e.to_json().items() if k not in ("kind", "audience")}


def moves(events: Iterable[Event]) -> list[tuple[int, Any, Any, str]]:
    """``token_moved`` events as (player, from, to, why)."""
    return [
        (d["player"], d["from"], d["to"], d["why"])
        for e in events
        if e.kind == "token_moved"
        for d in [data(e)]
    ]


def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [data(e) for e in events if e.kind == kind]


def kinds(events: Iterable[Event]) -> list[str]:
    """The kinds of the public events, in order: what the table sees happen."""
    return [e.kind for e in events if e.is_public]


def names(g: Setback, cards: Iterable[int]) -> Counter[str]:
    return Counter(g.types[c].name for c in cards)


def plays_of(g: Setback, s: SetbackState, seat: int, name: str) -> list[Play]:
    return [a for a in g.legal_actions(s, seat) if isinstance(a, Play) and a.card == card(name)]


# -- MOVE ------------------------------------------------------------------------------------


def test_move_plus_one_moves_only_its_player() -> None:
    """MOVE cards can only affect the player who plays them."""
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (2, 1)}, hands={P1: ["MOVE+1", "DRAW"]})
    assert plays_of(g, s, P1, "MOVE+1") == [play("MOVE+1")]
    s = act(g, s, P1, play("MOVE+1"))
    assert moves(events_of(s)) == [(P1, [2, 0], [3, 0], "MOVE")]
    assert (where(s, P1), where(s, P2), where(s, P3)) == ((3, 0), (2, 1), "START")
    assert s.phase == "hand" and s.pending == (P1,)  # the FREE DRAW may still follow


def test_move_plus_two_jumps_over_the_token_in_front() -> None:
    """+2 jumps over tokens sitting immediately in front: no bump, only the destination counts."""
    g = make()
    s = build(g, tokens={P1: (1, 0), P2: (2, 0)}, hands={P1: ["MOVE+2", "DRAW"]})
    s = act(g, s, P1, play("MOVE+2"))
    assert moves(events_of(s)) == [(P1, [1, 0], [3, 0], "MOVE")]
    assert where(s, P2) == (2, 0)


def test_move_minus_two_jumps_back_over_the_token_behind() -> None:
    g = make()
    s = build(g, tokens={P1: (3, 1), P2: (2, 1)}, hands={P1: ["MOVE-2", "DRAW"]})
    s = act(g, s, P1, play("MOVE-2"))
    assert moves(events_of(s)) == [(P1, [3, 1], [1, 1], "MOVE")]
    assert where(s, P2) == (2, 1)


@pytest.mark.parametrize(("start", "name"), [(5, "MOVE+2"), (5, "MOVE+1"), (4, "MOVE+2")])
def test_moving_off_the_board_forward_wins(start: int, name: str) -> None:
    """A MOVE +2 from the row closest to FINISH still wins: reaching or crossing FINISH wins."""
    g = make()
    s = build(g, tokens={P1: (start, 2), P2: (5, 0)}, hands={P1: [name, "DRAW"]})
    s = act(g, s, P1, play(name))
    assert s.is_terminal and s.winner == P1 and where(s, P1) == "FINISH"
    assert moves(events_of(s)) == [(P1, [start, 2], "FINISH", "MOVE")]
    assert kinds(events_of(s))[-2:] == ["finished", "game_over"]
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({P1})
    assert g.legal_actions(s, P1) == () and s.pending == ()


def test_forced_minus_two_from_the_first_row_goes_back_to_start() -> None:
    """ "If a player is forced to move -2 from the first row, the player will move back onto the
    START card" — here by a FOE -2; a MOVE -2 from the first row does the same."""
    g = make()
    s = build(g, tokens={P1: (1, 0), P2: (0, 1)}, hands={P1: ["FOE-2", "DRAW"]})
    s = act(g, s, P1, play("FOE-2", target=P2))
    assert moves(events_of(s)) == [(P2, [0, 1], "START", "FOE")]
    assert where(s, P2) == "START"
    s = build(g, tokens={P1: (0, 0)}, hands={P1: ["MOVE-2", "DRAW"]})
    s = act(g, s, P1, play("MOVE-2"))
    assert moves(events_of(s)) == [(P1, [0, 0], "START", "MOVE")]


def test_moving_off_start_enters_the_lane_of_ones_choice() -> None:
    """Moving off START: "players may move their token into the lane of their choice"."""
    g = make()
    s = build(g, hands={P1: ["MOVE+1", "MOVE+2", "DRAW"]})
    assert plays_of(g, s, P1, "MOVE+1") == [play("MOVE+1", lane=ln) for ln in range(3)]
    assert plays_of(g, s, P1, "MOVE+2") == [play("MOVE+2", lane=ln) for ln in range(3)]
    t = act(g, s, P1, play("MOVE+1", lane=2))
    assert moves(events_of(t)) == [(P1, [-1, -1], [0, 2], "MOVE")]
    t = act(g, s, P1, play("MOVE+2", lane=1))
    assert where(t, P1) == (1, 1)  # +2 from START lands on the second row


def test_minus_move_on_start_does_nothing_but_may_be_played() -> None:
    """FAQ 4 / SB-4: a minus move on START has no effect; the card is played and discarded."""
    g = make()
    s = build(g, hands={P1: ["MOVE-1", "DRAW"]})
    assert plays_of(g, s, P1, "MOVE-1") == [play("MOVE-1")]
    s = act(g, s, P1, play("MOVE-1"))
    assert of_kind(events_of(s), "no_effect") == [{"player": P1, "why": "on START"}]
    assert where(s, P1) == "START" and names(g, s.discard) == Counter({"MOVE-1": 1})
    assert s.nonfree_played and s.hand_played == 1


# -- FOE -------------------------------------------------------------------------------------


def test_foe_moves_the_opponent_chosen_by_its_player() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (3, 1), P3: (2, 2)}, hands={P1: ["FOE-1", "DRAW"]})
    assert plays_of(g, s, P1, "FOE-1") == [play("FOE-1", target=P2), play("FOE-1", target=P3)]
    s = act(g, s, P1, play("FOE-1", target=P2))
    assert moves(events_of(s)) == [(P2, [3, 1], [2, 1], "FOE")]
    assert (where(s, P1), where(s, P3)) == ((0, 0), (2, 2))


def test_foe_plus_moves_the_opponent_forward_and_bumps() -> None:
    """FAQ 1: the earlier occupant is bumped in the direction of the movement."""
    g = make()
    s = build(g, tokens={P1: (3, 1), P2: (2, 1)}, hands={P1: ["FOE+1", "DRAW"]})
    s = act(g, s, P1, play("FOE+1", target=P2))
    assert moves(events_of(s)) == [(P2, [2, 1], [3, 1], "FOE"), (P1, [3, 1], [4, 1], "bumped")]


def test_foe_has_no_effect_on_a_token_on_block() -> None:
    """ "A FOE card has no effect if played on a token occupying a BLOCK card" (and FAQ 4: it
    may still be played, then discarded)."""
    g = make()
    s = build(
        g, cells={(3, 1): "BLOCK"}, tokens={P1: (1, 0), P2: (3, 1)}, hands={P1: ["FOE-2", "DRAW"]}
    )
    assert play("FOE-2", target=P2) in g.legal_actions(s, P1)
    s = act(g, s, P1, play("FOE-2", target=P2))
    assert of_kind(events_of(s), "no_effect") == [{"player": P2, "why": "on BLOCK"}]
    assert where(s, P2) == (3, 1) and names(g, s.discard) == Counter({"FOE-2": 1})


def test_faq2_the_player_causing_a_move_off_start_chooses_the_lane() -> None:
    """FAQ 2: a FOE + that moves an opponent off START enters the lane its player chooses."""
    g = make()
    s = build(g, tokens={P1: (1, 0), P3: (2, 2)}, hands={P1: ["FOE+1", "DRAW"]})
    assert plays_of(g, s, P1, "FOE+1") == [
        *(play("FOE+1", target=P2, lane=ln) for ln in range(3)),
        play("FOE+1", target=P3),
    ]
    s = act(g, s, P1, play("FOE+1", target=P2, lane=2))
    assert moves(events_of(s)) == [(P2, [-1, -1], [0, 2], "FOE")]


def test_faq2_a_board_foe_plus_lets_the_player_on_it_choose_the_lane() -> None:
    g = make()
    s = build(
        g,
        cells={(1, 0): "FOE+2"},
        tokens={P1: (1, 0)},
        hands={P1: ["DRAW"], P3: ["MOVE+1"]},
    )
    s = turn_of(g, s, P1)
    assert s.phase == "board" and s.pending == (P1,)
    assert g.legal_actions(s, P1) == (
        *(play("FOE+2", target=P2, lane=ln) for ln in range(3)),
        *(play("FOE+2", target=P3, lane=ln) for ln in range(3)),
    )
    s = act(g, s, P1, play("FOE+2", target=P3, lane=2))
    assert moves(events_of(s)) == [(P3, [-1, -1], [1, 2], "FOE")]
    assert s.phase == "hand" and s.pending == (P1,)  # then the Hand Action


# -- ALL -------------------------------------------------------------------------------------


def test_all_its_player_chooses_the_order_and_the_entry_lanes() -> None:
    """ALL affects all players; tokens leaving START that enter the same lane bump each other."""
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["ALL+1", "DRAW"]})
    s = act(g, s, P1, play("ALL+1"))
    assert s.phase == "step" and s.pending == (P1,)
    assert s.context == {"kind": "all", "player": P1, "amount": 1, "left": [P1, P2, P3]}
    assert g.legal_actions(s, P1) == (
        Step(P1),
        *(Step(P2, ln) for ln in range(3)),
        *(Step(P3, ln) for ln in range(3)),
    )
    assert g.legal_actions(s, P2) == ()
    s, events = run(g, s, (P1, Step(P2, 1)), (P1, Step(P3, 1)))
    # The last token moves by itself: a single option needs no decision.
    assert moves(events) == [
        (P2, [-1, -1], [0, 1], "ALL"),
        (P3, [-1, -1], [0, 1], "ALL"),
        (P2, [0, 1], [1, 1], "bumped"),
        (P1, [1, 0], [2, 0], "ALL"),
    ]
    assert s.phase == "hand" and s.context == {}


@pytest.mark.parametrize("order", [(P1, P2, P3), (P3, P2, P1), (P2, P1, P3)])
def test_all_a_token_must_be_moved_before_it_can_be_bumped(order: tuple[int, ...]) -> None:
    """Tokens not yet moved are in transit: in any order, nobody in one lane is bumped (the rows
    stay: ``rows_removable=0``)."""
    g = make(rows_removable=0)
    s = build(g, tokens={P1: (1, 0), P2: (2, 0), P3: (3, 0)}, hands={P1: ["ALL+2", "DRAW"]})
    s, events = run(g, s, (P1, play("ALL+2")), *((P1, Step(q)) for q in order[:2]))
    assert [m[0] for m in moves(events)] == list(order)
    assert all(m[3] == "ALL" for m in moves(events))
    assert (where(s, P1), where(s, P2), where(s, P3)) == ((3, 0), (4, 0), (5, 0))


def test_all_bumps_a_token_on_block_which_it_does_not_move() -> None:
    """A player on a BLOCK card is not affected by ALL unless bumped."""
    g = make()
    s = build(
        g,
        cells={(2, 0): "BLOCK"},
        tokens={P1: (1, 0), P2: (2, 0)},
        hands={P1: ["ALL+1", "DRAW"]},
    )
    s = act(g, s, P1, play("ALL+1"))
    assert s.context["left"] == [P1, P3]  # P2 on BLOCK does not move
    s, events = run(g, s, (P1, Step(P1)), (P1, Step(P3, 2)))
    assert moves(events) == [
        (P1, [1, 0], [2, 0], "ALL"),
        (P2, [2, 0], [3, 0], "bumped"),
        (P3, [-1, -1], [0, 2], "ALL"),
    ]


def test_all_minus_moves_board_tokens_back_and_leaves_start_alone() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (3, 1)}, hands={P1: ["ALL-2", "DRAW"]})
    s = act(g, s, P1, play("ALL-2"))
    assert g.legal_actions(s, P1) == (Step(P1), Step(P2))
    s, events = run(g, s, (P1, Step(P2)))
    assert moves(events) == [(P2, [3, 1], [1, 1], "ALL"), (P1, [0, 0], "START", "ALL")]
    assert where(s, P3) == "START"


def test_all_the_first_in_the_order_to_reach_finish_wins() -> None:
    """SB-5: several tokens may reach FINISH; the first in the chosen order wins. The tokens
    still to move move all the same (by themselves, in seat order), so P1 reaches FINISH too
    but ranks second."""
    g = make()
    s = build(g, tokens={P1: (5, 0), P2: (5, 1), P3: (1, 2)}, hands={P1: ["ALL+1", "DRAW"]})
    s, events = run(g, s, (P1, play("ALL+1")), (P1, Step(P2)))
    assert s.is_terminal and s.winner == P2 and s.pending == ()
    assert moves(events) == [
        (P2, [5, 1], "FINISH", "ALL"),
        (P1, [5, 0], "FINISH", "ALL"),
        (P3, [1, 2], [2, 2], "ALL"),
    ]
    assert of_kind(events, "finished") == [
        {"player": P2, "wins": True},
        {"player": P1, "wins": False},
    ]
    assert (where(s, P1), where(s, P2), where(s, P3)) == ("FINISH", "FINISH", (2, 2))
    assert s.row[P1] == s.row[P2] == s.rows
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({P2})
    assert outcome.ranks == (2, 1, 3)
    assert outcome.scores == (7.0, 7.0, 3.0)  # both reached FINISH; only the first wins


def test_all_from_the_board_is_resolved_by_the_player_standing_on_it() -> None:
    g = make()
    s = build(g, cells={(1, 1): "ALL+1"}, tokens={P2: (1, 1), P3: (3, 2)}, hands={P1: ["MOVE+1"]})
    s = turn_of(g, s, P2)
    assert of_kind(events_of(s), "declared") == [
        {"player": P2, "source": "board", "play": {"type": "play", "card": "ALL+1"}}
    ]
    assert s.phase == "step" and s.pending == (P2,)
    assert g.legal_actions(s, P2) == (*(Step(P1, ln) for ln in range(3)), Step(P2), Step(P3))


# -- SHIFT -----------------------------------------------------------------------------------


def test_shift_moves_own_or_an_opponents_token_to_another_lane_of_the_row() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (4, 2)}, hands={P1: ["SHIFT", "DRAW"]})
    assert plays_of(g, s, P1, "SHIFT") == [
        play("SHIFT", target=P1, lane=1),
        play("SHIFT", target=P1, lane=2),
        play("SHIFT", target=P2, lane=0),
        play("SHIFT", target=P2, lane=1),
    ]  # P3 on START cannot be shifted
    t = act(g, s, P1, play("SHIFT", target=P1, lane=2))
    assert moves(events_of(t)) == [(P1, [2, 0], [2, 2], "SHIFT")]  # jumps, only the destination
    t = act(g, s, P1, play("SHIFT", target=P2, lane=0))
    assert moves(events_of(t)) == [(P2, [4, 2], [4, 0], "SHIFT")]


def test_shift_cannot_move_someone_from_start() -> None:
    """With every token on START the SHIFT has no target: played for no effect (FAQ 4)."""
    g = make()
    s = build(g, hands={P1: ["SHIFT", "DRAW"]})
    assert plays_of(g, s, P1, "SHIFT") == [play("SHIFT")]
    s = act(g, s, P1, play("SHIFT"))
    assert moves(events_of(s)) == [] and s.nonfree_played


def test_shift_bumps_sideways_in_a_chain() -> None:
    """FAQ 1: bumps can push players sideways into another lane, and chain."""
    g = make(4, lanes=4)
    s = build(
        g, tokens={P1: (2, 0), P2: (2, 2), P3: (2, 3), P4: (4, 1)}, hands={P1: ["SHIFT", "DRAW"]}
    )
    s = act(g, s, P1, play("SHIFT", target=P1, lane=2))
    assert moves(events_of(s)) == [
        (P1, [2, 0], [2, 2], "SHIFT"),
        (P2, [2, 2], [2, 3], "bumped"),
        (P3, [2, 3], [1, 3], "bumped"),  # off the edge: backward one row (decision)
    ]


def test_shift_left_bump_off_the_edge_goes_back_and_can_chain_to_start() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 2), P2: (0, 0), P3: (1, 1)}, hands={P1: ["SHIFT", "DRAW"]})
    s = act(g, s, P1, play("SHIFT", target=P3, lane=0))
    assert moves(events_of(s)) == [(P3, [1, 1], [1, 0], "SHIFT")]
    s2 = build(g, tokens={P1: (0, 2), P2: (0, 0)}, hands={P1: ["SHIFT", "DRAW"]})
    s2 = act(g, s2, P1, play("SHIFT", target=P1, lane=0))
    assert moves(events_of(s2)) == [
        (P1, [0, 2], [0, 0], "SHIFT"),
        (P2, [0, 0], "START", "bumped"),  # off the left edge of the first row: back to START
    ]


def test_shift_cannot_touch_a_token_on_block_but_its_owner_can_shift_it() -> None:
    """SB-9: a player on BLOCK cannot be directly affected by other players' actions."""
    g = make()
    s = build(
        g,
        cells={(2, 0): "BLOCK"},
        tokens={P1: (2, 0), P2: (3, 1)},
        hands={P1: ["SHIFT", "DRAW"], P2: ["SHIFT"]},
    )
    assert {a.target for a in plays_of(g, s, P1, "SHIFT")} == {P1, P2}
    s.current, s.pending = P2, (P2,)
    assert {a.target for a in plays_of(g, s, P2, "SHIFT")} == {P2}


# -- TRADE -----------------------------------------------------------------------------------


def test_trade_own_position_with_another_player_or_two_opponents() -> None:
    g = make(rows_removable=0)
    s = build(g, tokens={P1: (1, 0), P2: (3, 1), P3: (4, 2)}, hands={P1: ["TRADE", "DRAW"]})
    assert plays_of(g, s, P1, "TRADE") == [
        play("TRADE", target=P1, other=P2),
        play("TRADE", target=P1, other=P3),
        play("TRADE", target=P2, other=P3),
    ]
    t = act(g, s, P1, play("TRADE", target=P1, other=P3))
    assert of_kind(events_of(t), "traded") == [{"a": P1, "b": P3}]
    assert (where(t, P1), where(t, P3)) == ((4, 2), (1, 0))
    t = act(g, s, P1, play("TRADE", target=P2, other=P3))
    assert (where(t, P1), where(t, P2), where(t, P3)) == ((1, 0), (4, 2), (3, 1))


def test_trade_with_a_token_on_start_and_not_with_one_on_block() -> None:
    g = make()
    s = build(
        g,
        cells={(3, 1): "BLOCK"},
        tokens={P1: (2, 0), P2: (3, 1)},
        hands={P1: ["TRADE", "DRAW"]},
    )
    assert plays_of(g, s, P1, "TRADE") == [play("TRADE", target=P1, other=P3)]
    s = act(g, s, P1, play("TRADE", target=P1, other=P3))
    assert (where(s, P1), where(s, P3)) == ("START", (2, 0))


def test_trade_never_offers_two_tokens_on_start() -> None:
    """Two tokens on START stand on the same place: trading them would change nothing, so that
    pair is not offered; with everyone on START the TRADE is played for no effect (FAQ 4)."""
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["TRADE", "DRAW"]})
    assert plays_of(g, s, P1, "TRADE") == [
        play("TRADE", target=P1, other=P2),
        play("TRADE", target=P1, other=P3),
    ]  # not P2<>P3, both on START
    s = build(g, hands={P1: ["TRADE", "DRAW"]})
    assert plays_of(g, s, P1, "TRADE") == [play("TRADE")]
    s = act(g, s, P1, play("TRADE"))
    assert of_kind(events_of(s), "traded") == [] and moves(events_of(s)) == []
    assert names(g, s.discard) == Counter({"TRADE": 1}) and s.nonfree_played


# -- CUT -------------------------------------------------------------------------------------


def test_cut_puts_a_token_on_the_card_in_front_of_another() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (3, 1), P3: (1, 2)}, hands={P1: ["CUT", "DRAW"]})
    assert plays_of(g, s, P1, "CUT") == [
        play("CUT", target=q, other=x) for q in (P1, P2, P3) for x in (P1, P2, P3) if x != q
    ]
    t = act(g, s, P1, play("CUT", target=P1, other=P2))
    assert moves(events_of(t)) == [(P1, [0, 0], [4, 1], "CUT")]
    t = act(g, s, P1, play("CUT", target=P3, other=P1))  # an opponent in front of oneself
    assert moves(events_of(t)) == [(P3, [1, 2], [1, 0], "CUT")]


def test_cut_may_move_backwards_and_still_bumps_forward() -> None:
    """ "A CUT card may result in a backwards movement"; the occupant of the destination is
    bumped forward "no matter in which direction the cut is moving"."""
    g = make()
    s = build(g, tokens={P1: (4, 0), P2: (1, 2), P3: (2, 2)}, hands={P1: ["CUT", "DRAW"]})
    s = act(g, s, P1, play("CUT", target=P1, other=P2))
    assert moves(events_of(s)) == [(P1, [4, 0], [2, 2], "CUT"), (P3, [2, 2], [3, 2], "bumped")]


def test_cut_not_onto_finish_but_a_bump_may_reach_it() -> None:
    """ "A player may not cut in front of an opponent if it would put them on the FINISH card
    but can cause a bump to FINISH"."""
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (5, 0), P3: (4, 1)}, hands={P1: ["CUT", "DRAW"]})
    assert all(a.other != P2 for a in plays_of(g, s, P1, "CUT"))  # P2 is in the last row
    t = build(g, tokens={P1: (0, 0), P2: (4, 1), P3: (5, 1)}, hands={P1: ["CUT", "DRAW"]})
    t = act(g, t, P1, play("CUT", target=P1, other=P2))
    assert moves(events_of(t)) == [(P1, [0, 0], [5, 1], "CUT"), (P3, [5, 1], "FINISH", "bumped")]
    assert t.is_terminal and t.winner == P3


def test_cut_in_front_of_a_block_sitter_and_bumping_one() -> None:
    """ "A player on a BLOCK card cannot be moved, but can be cut in front of and bumped"."""
    g = make()
    s = build(
        g,
        cells={(2, 1): "BLOCK", (3, 1): "BLOCK"},
        tokens={P1: (0, 0), P2: (2, 1), P3: (3, 1)},
        hands={P1: ["CUT", "DRAW"]},
    )
    options = plays_of(g, s, P1, "CUT")
    assert {a.target for a in options} == {P1}  # neither BLOCK-sitter can be the target
    assert {a.other for a in options} == {P2, P3}
    s = act(g, s, P1, play("CUT", target=P1, other=P2))
    assert moves(events_of(s)) == [(P1, [0, 0], [3, 1], "CUT"), (P3, [3, 1], [4, 1], "bumped")]


def test_cut_is_not_offered_where_the_target_already_stands() -> None:
    """A CUT that would leave its target where it is (already on the card in front of the
    reference) is not offered; if nothing else is left, the CUT is played for no effect."""
    g = make()
    s = build(g, tokens={P1: (3, 1), P2: (2, 1)}, hands={P1: ["CUT", "DRAW"]})
    options = plays_of(g, s, P1, "CUT")
    assert play("CUT", target=P1, other=P2) not in options
    assert options == [
        play("CUT", target=P2, other=P1),
        play("CUT", target=P3, other=P1),
        play("CUT", target=P3, other=P2),
    ]
    g2 = make(2, rows_removable=0)
    s = build(
        g2,
        cells={(2, 1): "BLOCK"},
        tokens={P1: (3, 1), P2: (2, 1)},
        hands={P1: ["CUT", "DRAW"]},
    )
    assert plays_of(g2, s, P1, "CUT") == [play("CUT")]  # P2 on BLOCK cannot be cut either
    s = act(g2, s, P1, play("CUT"))
    assert moves(events_of(s)) == [] and names(g2, s.discard) == Counter({"CUT": 1})


def test_cut_can_take_a_token_off_start() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (3, 1)}, hands={P1: ["CUT", "DRAW"]})
    s = act(g, s, P1, play("CUT", target=P3, other=P2))
    assert moves(events_of(s)) == [(P3, [-1, -1], [4, 1], "CUT")]


# -- DRAW ------------------------------------------------------------------------------------


def test_draw_draws_two_cards_and_is_free() -> None:
    """ "All DRAW cards are free cards": the non-FREE card may still be played after it."""
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["DRAW", "MOVE+1"]}, draw_top=["CUT", "TRADE"])
    s = act(g, s, P1, play("DRAW"))
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": 2}]
    assert names(g, s.hands[P1]) == Counter({"MOVE+1": 1, "CUT": 1, "TRADE": 1})
    assert not s.nonfree_played and EndHand() in g.legal_actions(s, P1)
    assert play("MOVE+1") in g.legal_actions(s, P1)


def test_draw_on_the_board_draws_two_then_the_hand_action_follows() -> None:
    """A board DRAW is declared as a (FREE) DRAW, like the card from hand: its JSON reads back
    as the same action."""
    g = make()
    s = build(g, cells={(1, 0): "DRAW"}, tokens={P1: (1, 0)}, hands={P3: ["MOVE+1"]})
    s = turn_of(g, s, P1)
    declared = of_kind(events_of(s), "declared")
    assert declared == [{"player": P1, "source": "board", "play": {"type": "play", "card": "DRAW"}}]
    assert action_from_json(declared[0]["play"]) == Play(CardType("DRAW", 0, True)) == play("DRAW")
    assert of_kind(events_of(s), "cards_drawn")[-1] == {"player": P1, "count": 2}
    assert len(s.hands[P1]) == 2 and s.phase == "hand" and s.pending == (P1,)


# -- REVAMP ----------------------------------------------------------------------------------


def test_revamp_add_a_lane_on_the_right_and_join_it() -> None:
    """ "Add a new lane using cards from the Draw Pile"; the player may shift into the same row of
    the new lane."""
    g = make()
    column = ["CUT", "TRADE", "SHIFT", "MOVE-1", "FOE+1", "ALL+1"]
    s = build(g, tokens={P1: (2, 0), P2: (3, 1)}, hands={P1: ["REVAMP", "DRAW"]}, draw_top=column)
    assert plays_of(g, s, P1, "REVAMP") == [
        play("REVAMP", mode="add-left"),
        play("REVAMP", mode="add-right"),
        *(play("REVAMP", mode="remove", lane=ln) for ln in range(3)),
    ]
    s = act(g, s, P1, play("REVAMP", mode="add-right"))
    assert s.lanes == 4 and [g.types[row[3]].name for row in s.grid] == column
    assert of_kind(events_of(s), "lane_added") == [{"player": P1, "lane": 3}]
    assert s.phase == "step" and g.legal_actions(s, P1) == (Step(P1, 3), Step(P1, -1))
    joined = act(g, s, P1, Step(P1, 3))
    assert moves(events_of(joined)) == [(P1, [2, 0], [2, 3], "REVAMP")]
    stayed = act(g, s, P1, Step(P1, -1))
    assert where(stayed, P1) == (2, 0) and moves(events_of(stayed)) == []
    assert_conserved(g, joined)


def test_revamp_add_left_renumbers_the_lanes_and_start_joins_the_first_row() -> None:
    g = make()
    s = build(g, tokens={P2: (2, 0), P3: (3, 2)}, hands={P1: ["REVAMP", "DRAW"]})
    s = act(g, s, P1, play("REVAMP", mode="add-left"))
    assert (where(s, P2), where(s, P3)) == ((2, 1), (3, 3))  # same cards, new lane numbers
    s = act(g, s, P1, Step(P1, 0))
    assert moves(events_of(s)) == [(P1, [-1, -1], [0, 0], "REVAMP")]  # from START: first row


def test_revamp_remove_a_lane_the_remover_places_the_displaced_tokens() -> None:
    """ "Removing a lane overrides a player who is on a BLOCK card"; the remover shifts each
    displaced token into the same row of the lane of his choice; the lane's cards are
    discarded."""
    g = make(rows_removable=0)
    s = build(
        g,
        cells={(3, 1): "BLOCK"},
        tokens={P1: (2, 0), P2: (3, 1), P3: (1, 1)},
        hands={P1: ["REVAMP", "DRAW"]},
    )
    lane_cards = [row[1] for row in s.grid]
    s = act(g, s, P1, play("REVAMP", mode="remove", lane=1))
    assert s.lanes == 2 and set(lane_cards) <= set(s.discard)
    assert of_kind(events_of(s), "lane_removed") == [
        {"player": P1, "lane": 1, "displaced": [P3, P2]}
    ]
    assert s.phase == "step" and s.context["left"] == [P3, P2]
    assert g.legal_actions(s, P1) == (Step(P3, 0), Step(P3, 1))
    s = act(g, s, P1, Step(P3, 1))
    assert g.legal_actions(s, P1) == (Step(P2, 0), Step(P2, 1))
    s, events = run(g, s, (P1, Step(P2, 0)))
    assert of_kind(events, "token_placed") == [{"player": P2, "to": [3, 0]}]
    assert (where(s, P1), where(s, P2), where(s, P3)) == ((2, 0), (3, 0), (1, 1))
    assert s.phase == "hand"
    assert_conserved(g, s)


def test_revamp_remove_offers_only_free_cards_of_the_row() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (2, 1)}, hands={P1: ["REVAMP", "DRAW"]})
    s = act(g, s, P1, play("REVAMP", mode="remove", lane=1))
    # P2 is displaced in row 2, where P1 holds lane 0: lane 1 (the old lane 2) is the only free
    # card, so the placement needs no decision.
    assert s.phase == "hand" and where(s, P2) == (2, 1)


def test_revamp_keeps_between_two_and_six_lanes() -> None:
    """ "There must always be a minimum of two and a maximum of six lanes"."""
    g2 = make(2)
    s = build(g2, tokens={P1: (2, 0)}, hands={P1: ["REVAMP", "DRAW"]})
    assert {a.mode for a in plays_of(g2, s, P1, "REVAMP")} == {"add-left", "add-right"}
    g6 = make(3, lanes=6)
    s = build(g6, tokens={P1: (2, 0)}, hands={P1: ["REVAMP", "DRAW"]})
    assert {a.mode for a in plays_of(g6, s, P1, "REVAMP")} == {"remove"}


def test_revamp_removes_no_lane_while_a_row_is_full() -> None:
    """ "If all cards in a row are occupied, no lanes can be removed"."""
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (2, 1), P3: (2, 2)}, hands={P1: ["REVAMP", "DRAW"]})
    assert {a.mode for a in plays_of(g, s, P1, "REVAMP")} == {"add-left", "add-right"}
    g2 = make(2, lanes=2, min_lanes=2, max_lanes=2)
    s = build(g2, tokens={P1: (2, 0), P2: (2, 1)}, hands={P1: ["REVAMP", "DRAW"]})
    assert plays_of(g2, s, P1, "REVAMP") == [play("REVAMP")]  # no effect (FAQ 4)


# -- SKIP ------------------------------------------------------------------------------------


def test_board_skip_loses_the_whole_turn_once_per_arrival() -> None:
    """ "A SKIP only applies to one turn, unless the player's token moves off and back on the
    SKIP card before his next turn" (SB-10)."""
    g = make(2, rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "SKIP", (2, 0): "BLOCK"},
        tokens={P1: (2, 0), P2: (2, 1)},
        hands={P1: ["MOVE+2"], P2: ["MOVE-1", "MOVE+1*"]},
    )
    s = turn_of(g, s, P2)
    # A Board Action (SB-10): declared; the window opens as after every declaration (SB-9
    # amended) and closes, nobody holding a BLOCK; the turn is lost.
    assert kinds(events_of(s))[1:] == [
        "turn_started",
        "declared",
        "window_opened",
        "window_closed",
        "turn_skipped",
        "turn_started",
    ]
    assert of_kind(events_of(s), "declared") == [
        {"player": P2, "source": "board", "play": {"type": "play", "card": "SKIP"}}
    ]
    assert of_kind(events_of(s), "turn_skipped") == [{"player": P2, "why": "board skip"}]
    assert len(s.hands[P2]) == 2  # no Draw Action either
    assert s.current == P1 and s.phase == "hand"
    s = turn_of(g, s, P2)  # the SKIP was spent: P2 plays this turn
    assert s.current == P2 and s.phase == "hand" and not of_kind(events_of(s), "turn_skipped")
    s, events = run(g, s, (P2, play("MOVE-1")), (P2, play("MOVE+1*")))  # off and back on
    assert moves(events)[:2] == [(P2, [2, 1], [1, 1], "MOVE"), (P2, [1, 1], [2, 1], "MOVE")]
    assert s.current == P1
    s = turn_of(g, s, P2)
    assert of_kind(events_of(s), "turn_skipped") == [{"player": P2, "why": "board skip"}]


def test_a_board_skip_blocked_by_its_own_player_lets_the_hand_action_follow() -> None:
    """The board SKIP is a Board Action, so it may be BLOCKed — by the player standing on it
    too (``self_block="board"``). Cancelled, it costs nothing: the card stays on the board and
    the Hand Action follows; the SKIP is spent for this arrival all the same."""
    g = make(2, rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "SKIP"},
        tokens={P2: (2, 1)},
        hands={P1: ["DRAW"], P2: ["BLOCK", "MOVE+1"]},
    )
    skip_card = s.grid[2][1]
    s = turn_of(g, s, P2)
    assert of_kind(events_of(s), "declared") == [
        {"player": P2, "source": "board", "play": {"type": "play", "card": "SKIP"}}
    ]
    assert s.phase == "window" and s.pending == (P2,) and s.skip_spent[P2]
    view = g.observe(s, P1)
    assert view.window_open and view.declared == {
        "player": P2,
        "source": "board",
        "play": {"type": "play", "card": "SKIP"},
    }
    s = act(g, s, P2, Block())
    # SB-9 amended: the BLOCK opens a window of its own, which the others can only pass.
    assert kinds(events_of(s)) == ["block_played", "window_opened", "window_closed", "cancelled"]
    assert "turn_skipped" not in kinds(events_of(s))
    assert s.grid[2][1] == skip_card and names(g, s.discard) == Counter({"BLOCK": 1})
    assert s.current == P2 and s.phase == "hand" and s.pending == (P2,)
    s = act(g, s, P2, play("MOVE+1"))  # the Hand Action, then the Draw Action
    assert moves(events_of(s)) == [(P2, [2, 1], [3, 1], "MOVE")]
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P2, "count": 3}]
    assert_conserved(g, s)


def test_a_board_skip_stands_after_a_block_on_the_block() -> None:
    """An opponent BLOCKs the board SKIP, its player BLOCKs that BLOCK: two BLOCKs, the SKIP
    stands and the turn is lost (no Hand Action, no Draw Action). SB-9 amended again: P2 may
    answer its own Board Action, but answering BLOCK at once with P1 it comes last in seating
    order after itself, so P1's BLOCK is played and P2 keeps its card for the next window."""
    g = make(rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "SKIP"},
        tokens={P1: (0, 0), P2: (2, 1)},
        hands={P1: ["BLOCK", "MOVE+1"], P2: ["BLOCK", "MOVE+1"], P3: ["CUT"]},
    )
    s = turn_of(g, s, P2)
    assert s.phase == "window" and s.pending == (P2, P1)
    s, events = run(g, s, (P1, Block()), (P2, Block()))
    assert of_kind(events, "block_played") == [{"player": P1, "blocks": 1}]
    assert s.phase == "window" and s.pending == (P2,)  # P3 holds none: passed for it
    assert names(g, s.hands[P2]) == Counter({"BLOCK": 1, "MOVE+1": 1})
    s, events = run(g, s, (P2, Block()))
    assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    assert of_kind(events, "turn_skipped") == [{"player": P2, "why": "board skip"}]
    assert "cards_drawn" not in kinds(events)
    assert names(g, s.hands[P2]) == Counter({"MOVE+1": 1}) and s.current == P3
    assert_conserved(g, s)


def test_a_board_skip_blocked_by_an_opponent() -> None:
    g = make(rows_removable=0)
    s = build(
        g,
        cells={(2, 1): "SKIP"},
        tokens={P1: (0, 0), P2: (2, 1)},
        hands={P1: ["BLOCK", "MOVE+1"], P2: ["MOVE+1"], P3: ["CUT"]},
    )
    s = turn_of(g, s, P2)
    assert s.pending == (P1,)
    s = act(g, s, P1, Block())
    assert of_kind(events_of(s), "cancelled") == [
        {"player": P2, "play": {"type": "play", "card": "SKIP"}}
    ]
    # P2's hand holds one non-FREE card: the Hand Action is played by P2 itself.
    assert s.current == P2 and s.phase == "hand" and s.pending == (P2,)


def test_skip_from_hand_is_placed_in_front_of_the_chosen_opponent() -> None:
    """The chosen player must discard the SKIP as the only action of his next turn."""
    g = make()
    s = build(
        g,
        tokens={P2: (1, 1)},
        hands={P1: ["SKIP", "DRAW"], P2: ["MOVE+1", "MOVE+2"], P3: ["MOVE+1"]},
    )
    assert plays_of(g, s, P1, "SKIP") == [play("SKIP", target=P2), play("SKIP", target=P3)]
    s, events = run(g, s, (P1, play("SKIP", target=P2)), (P1, EndHand()))
    assert of_kind(events, "skip_placed") == [{"player": P2}]
    assert of_kind(events, "turn_skipped") == [{"player": P2, "why": "skip card"}]
    assert s.skip_cards[P2] == [] and names(g, s.discard) == Counter({"SKIP": 1})
    assert len(s.hands[P2]) == 2 and where(s, P2) == (1, 1)  # no action, no draw
    assert s.current == P3


def test_a_skip_in_front_of_a_player_is_served_without_a_window() -> None:
    """Only a declared action opens a window: discarding the SKIP lying in front of one is no
    action, so nobody may BLOCK it (the SKIP was open to BLOCKs when it was played)."""
    g = make()
    s = build(g, hands={P1: ["SKIP", "BLOCK"], P2: ["BLOCK", "MOVE+1"], P3: ["BLOCK", "CUT"]})
    s = act(g, s, P1, play("SKIP", target=P2))
    assert s.pending == (P2, P3)  # the SKIP from hand opens a window (not for P1's own)
    s, events = run(g, s, (P2, Pass()), (P3, Pass()))
    # The window closes, the SKIP is placed; P1 holds only a BLOCK: its turn ends (a draw);
    # P2's turn is only discarding the SKIP, with no window, though everyone holds a BLOCK.
    assert kinds(events) == [
        "window_closed",
        "skip_placed",
        "cards_drawn",
        "turn_started",
        "turn_skipped",
        "turn_started",
    ]
    assert of_kind(events, "turn_skipped") == [{"player": P2, "why": "skip card"}]
    assert s.current == P3 and s.phase == "hand" and s.skip_cards[P2] == []
    assert names(g, s.hands[P2]) == Counter({"BLOCK": 1, "MOVE+1": 1})


def test_skips_stack_one_turn_each() -> None:
    """SB-10: several SKIPs in front of a player cost one turn each."""
    g = make()
    s = build(g, hands={P1: ["SKIP"], P2: ["SKIP"], P3: ["MOVE+1"]})
    s, events = run(g, s, (P1, play("SKIP", target=P3)), (P2, play("SKIP", target=P3)))
    assert of_kind(events, "skip_placed") == [{"player": P3}, {"player": P3}]
    assert of_kind(events, "turn_skipped") == [{"player": P3, "why": "skip card"}]
    assert len(s.skip_cards[P3]) == 1 and s.current == P1
    s = turn_of(g, s, P3)
    assert of_kind(events_of(s), "turn_skipped") == [{"player": P3, "why": "skip card"}]
    assert s.skip_cards[P3] == [] and s.current == P1
    s = turn_of(g, s, P3)
    assert of_kind(events_of(s), "turn_skipped") == [] and s.current == P3
    assert names(g, s.hands[P3]) == Counter({"MOVE+1": 1})  # two turns without a draw


def test_faq4_a_card_is_discarded_only_by_playing_it_even_for_no_effect() -> None:
    """FAQ 4: no discarding without playing; "you may play a FOE -1 on an opponent when they are
    on START or BLOCK" — no effect, and the card goes to the discards."""
    g = make()
    s = build(
        g,
        cells={(2, 1): "BLOCK"},
        tokens={P1: (0, 0), P2: (2, 1)},
        hands={P1: ["FOE-1", "FOE-1*", "DRAW"]},
    )
    legal = g.legal_actions(s, P1)
    assert all(isinstance(a, Play) for a in legal)  # no "discard" choice, no EndHand yet
    s, events = run(g, s, (P1, play("FOE-1*", target=P3)), (P1, play("FOE-1", target=P2)))
    assert of_kind(events, "no_effect") == [
        {"player": P3, "why": "on START"},
        {"player": P2, "why": "on BLOCK"},
    ]
    assert names(g, s.discard) == Counter({"FOE-1": 1, "FOE-1*": 1})
    assert (where(s, P2), where(s, P3)) == ((2, 1), "START")


# -- BLOCK -----------------------------------------------------------------------------------


def test_block_cancels_a_hand_action_and_is_not_replaced() -> None:
    """BLOCK is the only card played out of turn; "Do not redraw after playing one out of
    turn"; a cancelled card is discarded (SB-9)."""
    g = make()
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK", "MOVE+1"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    assert s.phase == "window" and s.pending == (P2,)
    assert g.legal_actions(s, P2) == (Block(), Pass()) and g.legal_actions(s, P1) == ()
    s = act(g, s, P2, Block())
    # SB-9 amended: the BLOCK opens a window of its own, which the others can only pass.
    assert kinds(events_of(s)) == ["block_played", "window_opened", "window_closed", "cancelled"]
    assert of_kind(events_of(s), "window_closed") == [{"blocks": 1, "cancelled": True}]
    assert where(s, P1) == (2, 0)
    assert names(g, s.discard) == Counter({"MOVE+1": 1, "BLOCK": 1})
    assert names(g, s.hands[P2]) == Counter({"MOVE+1": 1})  # not replaced
    assert s.phase == "hand" and s.pending == (P1,) and s.nonfree_played


def test_block_on_block_lets_the_action_stand() -> None:
    """ "A BLOCK may be played to cancel another BLOCK". SB-9 amended again: P2 and P3 answer
    BLOCK at once; P2, the first after P1 in seating order, plays it; P3 keeps its card and
    BLOCKs P2's BLOCK in the window that BLOCK opens."""
    g = make()
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK"], P3: ["BLOCK"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    assert s.pending == (P2, P3)
    s = act(g, s, P3, Block())
    assert s.phase == "window" and s.pending == (P2,) and events_of(s) == []
    s, events = run(g, s, (P2, Block()))
    assert of_kind(events, "block_played") == [{"player": P2, "blocks": 1}]
    assert s.pending == (P3,) and names(g, s.hands[P3]) == Counter({"BLOCK": 1})
    s, events = run(g, s, (P3, Block()))
    assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    assert where(s, P1) == (3, 0)
    assert names(g, s.discard) == Counter({"MOVE+1": 1, "BLOCK": 2})


def test_three_blocks_cancel() -> None:
    g = make()
    s = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "BLOCK", "DRAW"], P2: ["BLOCK"], P3: ["BLOCK"]},
    )
    s = act(g, s, P1, play("MOVE+1"))
    assert s.pending == (P2, P3)  # not P1: its own Hand Action (self_block="board", SB-9)
    s, events = run(g, s, (P2, Block()), (P3, Pass()))
    assert s.pending == (P1, P3)  # P1 may BLOCK the BLOCK on its action
    # SB-9 amended again: both BLOCK at once; P3 comes first after P2, P1 keeps its card.
    s, more = run(g, s, (P1, Block()), (P3, Block()))
    assert s.pending == (P1,)
    s, last = run(g, s, (P1, Block()))
    events += more + last
    assert of_kind(events, "window_closed") == [{"blocks": 3, "cancelled": True}]
    assert [e["player"] for e in of_kind(events, "block_played")] == [P2, P3, P1]
    assert where(s, P1) == (2, 0)


def test_the_actor_is_not_asked_about_its_own_hand_action() -> None:
    """SB-9 with the default ``self_block="board"``: blocking one's own Hand Action would only
    throw a card away (FAQ 4), so its player is not asked; the others are (SB-9 amended), and
    holding no BLOCK here they can only pass, so the action resolves."""
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["FOE+2", "BLOCK", "DRAW"]})
    declared = g.step(s, P1, play("FOE+2", target=P2, lane=0)).state
    assert declared.phase == "window" and declared.pending == (P2, P3)
    assert g.legal_actions(declared, P2) == (Pass(),) == g.legal_actions(declared, P3)
    s = act(g, s, P1, play("FOE+2", target=P2, lane=0))
    assert kinds(events_of(s))[1:3] == ["window_opened", "window_closed"]
    assert s.phase == "hand" and s.pending == (P1,)
    assert moves(events_of(s)) == [(P2, [-1, -1], [1, 0], "FOE")]
    assert names(g, s.hands[P1]) == Counter({"BLOCK": 1, "DRAW": 1})


def test_the_actor_may_block_its_own_board_action() -> None:
    """SB-9 with the default ``self_block="board"``: the card under one's token is not chosen,
    so its player may BLOCK it; the card stays on the board and the Hand Action follows."""
    g = make()
    s = build(
        g,
        cells={(2, 0): "FOE+2"},
        tokens={P1: (2, 0)},
        hands={P1: ["BLOCK", "MOVE+1"], P3: ["CUT"]},
    )
    board_card = s.grid[2][0]
    s = turn_of(g, s, P1)
    s = act(g, s, P1, play("FOE+2", target=P2, lane=0))
    assert s.phase == "window" and s.pending == (P1,)
    assert g.legal_actions(s, P1) == (Block(), Pass())
    s = act(g, s, P1, Block())
    assert of_kind(events_of(s), "cancelled") == [
        {"player": P1, "play": {"type": "play", "card": "FOE+2", "target": P2, "lane": 0}}
    ]
    assert where(s, P2) == "START" and s.grid[2][0] == board_card
    assert names(g, s.discard) == Counter({"BLOCK": 1})
    assert s.phase == "hand" and s.pending == (P1,)
    assert g.legal_actions(s, P1) == (play("MOVE+1"),)
    assert_conserved(g, s)


def test_passing_lets_the_action_stand() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK"], P3: ["BLOCK"]})
    s = act(g, s, P1, play("MOVE+1"))
    s = act(g, s, P2, Pass())
    assert s.phase == "window" and s.pending == (P3,) and events_of(s) == []
    s = act(g, s, P3, Pass())
    assert moves(events_of(s)) == [(P1, [2, 0], [3, 0], "MOVE")]
    assert len(s.hands[P2]) == len(s.hands[P3]) == 1


def test_a_cancelled_board_card_stays_on_the_board() -> None:
    g = make()
    s = build(
        g,
        cells={(2, 0): "MOVE+2"},
        tokens={P1: (2, 0)},
        hands={P1: ["DRAW"], P2: ["BLOCK"], P3: ["MOVE+1"]},
    )
    board_card = s.grid[2][0]
    s = turn_of(g, s, P1)
    assert of_kind(events_of(s), "declared")[-1]["source"] == "board"
    assert s.phase == "window" and s.pending == (P2,)
    s = act(g, s, P2, Block())
    assert s.grid[2][0] == board_card and board_card not in s.discard
    assert where(s, P1) == (2, 0) and s.phase == "hand" and s.pending == (P1,)
    assert_conserved(g, s)


def test_faq3_blocked_off_a_block_card_the_token_stays_protected() -> None:
    """FAQ 3: a player may block the hand action moving you off a BLOCK card; you stay on it
    and keep its protection."""
    g = make()
    s = build(
        g,
        cells={(2, 0): "BLOCK"},
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK", "FOE-1"]},
    )
    s, _ = run(g, s, (P1, play("MOVE+1")), (P2, Block()))
    assert where(s, P1) == (2, 0) and g.on_block(s, P1)
    s, _ = run(g, s, (P1, EndHand()))
    assert s.current == P2
    s, events = run(g, s, (P2, play("FOE-1", target=P1)))
    assert of_kind(events, "no_effect") == [{"player": P1, "why": "on BLOCK"}]


def test_a_block_card_on_the_board_has_no_board_action() -> None:
    g = make()
    s = build(g, cells={(1, 1): "BLOCK"}, tokens={P2: (1, 1)}, hands={P1: ["MOVE+1"], P2: ["CUT"]})
    s = turn_of(g, s, P2)
    assert s.phase == "hand" and s.current == P2 and of_kind(events_of(s), "declared") == []


def test_block_is_never_played_as_the_hand_action() -> None:
    """BLOCK only interrupts; a hand of BLOCKs alone discards one (SB-3)."""
    g = make()
    s = build(g, hands={P1: ["BLOCK", "MOVE+1"]})
    assert all(a.card.kind != "BLOCK" for a in g.legal_actions(s, P1) if isinstance(a, Play))
    s = build(g, hands={P1: ["BLOCK", "BLOCK"], P2: ["MOVE+1"]})
    assert g.legal_actions(s, P1) == (DiscardBlock(),)
    s = act(g, s, P1, DiscardBlock())
    assert of_kind(events_of(s), "block_discarded") == [{"player": P1}]
    assert names(g, s.discard) == Counter({"BLOCK": 1}) and s.current == P2


# -- FREE cards ------------------------------------------------------------------------------


def test_several_free_cards_and_one_non_free_card_in_any_order() -> None:
    g = make()
    s = build(
        g,
        tokens={P1: (0, 0)},
        hands={P1: ["MOVE+1*", "FOE-1*", "MOVE+2", "FOE-1"], P2: ["CUT"]},
    )
    s = act(g, s, P1, play("MOVE+1*"))  # a FREE card first
    assert where(s, P1) == (1, 0)
    legal = g.legal_actions(s, P1)
    assert play("MOVE+2") in legal and play("FOE-1", target=P2) in legal and EndHand() in legal
    s = act(g, s, P1, play("MOVE+2"))  # the one non-FREE card
    assert where(s, P1) == (3, 0)
    legal = g.legal_actions(s, P1)
    assert set(legal) == {play("FOE-1*", target=P2), play("FOE-1*", target=P3), EndHand()}
    s = act(g, s, P1, play("FOE-1*", target=P2))  # another FREE card after it
    # Only the non-FREE FOE-1 is left: the Hand Action ends by itself.
    assert s.current == P2 and names(g, s.hands[P1])["FOE-1"] == 1
    assert names(g, s.discard) == Counter({"MOVE+1*": 1, "MOVE+2": 1, "FOE-1*": 1})


def test_a_free_card_may_be_the_only_card_of_the_hand_action() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0)}, hands={P1: ["MOVE+1*", "MOVE+2"], P2: ["CUT"]})
    assert EndHand() not in g.legal_actions(s, P1)  # at least one card
    s = act(g, s, P1, play("MOVE+1*"))
    assert not s.nonfree_played and EndHand() in g.legal_actions(s, P1)
    s = act(g, s, P1, EndHand())
    assert s.current == P2 and names(g, s.hands[P1])["MOVE+2"] == 1


def test_a_free_card_on_the_board_is_a_regular_card() -> None:
    """ "When a FREE Card is on the board, the free action is disregarded"."""
    g = make()
    s = build(
        g, cells={(2, 0): "MOVE+1*"}, tokens={P1: (2, 0)}, hands={P1: ["MOVE+2"], P3: ["DRAW"]}
    )
    s = turn_of(g, s, P1)
    assert of_kind(events_of(s), "declared") == [
        {"player": P1, "source": "board", "play": {"type": "play", "card": "MOVE+1"}}
    ]
    assert where(s, P1) == (3, 0)
    assert play("MOVE+2") in g.legal_actions(s, P1)  # the board card is no Hand Action


BOARD_CARDS = [
    "MOVE+1",
    "MOVE+2",
    "MOVE-1",
    "MOVE-2",
    "FOE+1",
    "FOE-2",
    "ALL+2",
    "ALL-1",
    "SHIFT",
    "TRADE",
    "CUT",
    "DRAW",
    "REVAMP",
    "FOE-1*",
]


@pytest.mark.parametrize("name", BOARD_CARDS)
def test_every_card_acts_on_the_board_as_if_played_from_hand(name: str) -> None:
    """Board Action: "players perform the action of the card that their token occupies at the
    beginning of their turn" — the same choices as the card from hand (FREE disregarded, SB-3),
    declared by itself when there is only one; the card stays on the board."""
    g = make(rows_removable=0)
    tokens = {P1: (2, 0), P2: (3, 1)}
    s = build(g, cells={(2, 0): name}, tokens=tokens, hands={P1: ["DRAW"], P3: ["CUT"]})
    kind = card(name).kind
    regular = CardType(kind, card(name).amount, kind == "DRAW")  # DRAW is FREE by nature
    as_hand = build(g, tokens=tokens, hands={P1: [name]})
    hand_choices = [
        Play(regular, a.target, a.lane, a.other, a.mode) for a in plays_of(g, as_hand, P1, name)
    ]
    board_card = s.grid[2][0]
    s = turn_of(g, s, P1)
    if len(hand_choices) > 1:
        assert s.phase == "board" and s.pending == (P1,)
        assert list(g.legal_actions(s, P1)) == hand_choices
        s, events = run(g, s, (P1, hand_choices[-1]))
    else:
        events = list(events_of(s))
    declared = of_kind(events, "declared")
    assert declared[0] == {"player": P1, "source": "board", "play": hand_choices[-1].to_json()}
    assert action_from_json(declared[0]["play"]) == hand_choices[-1]  # its JSON reads back
    assert board_card in {c for row in s.grid for c in row}
    assert_conserved(g, s)


# -- bumps (FAQ 1) ---------------------------------------------------------------------------


def test_faq1_bump_chain_forward_into_finish_wins_for_the_bumped() -> None:
    g = make()
    s = build(g, tokens={P1: (3, 0), P2: (4, 0), P3: (5, 0)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert moves(events_of(s)) == [
        (P1, [3, 0], [4, 0], "MOVE"),
        (P2, [4, 0], [5, 0], "bumped"),
        (P3, [5, 0], "FINISH", "bumped"),
    ]
    assert s.is_terminal and s.winner == P3


def test_faq1_bump_chain_backward_to_start() -> None:
    g = make()
    s = build(g, tokens={P1: (2, 1), P2: (1, 1), P3: (0, 1)}, hands={P1: ["MOVE-1", "DRAW"]})
    s = act(g, s, P1, play("MOVE-1"))
    assert moves(events_of(s)) == [
        (P1, [2, 1], [1, 1], "MOVE"),
        (P2, [1, 1], [0, 1], "bumped"),
        (P3, [0, 1], "START", "bumped"),
    ]


def test_faq1_start_holds_any_number_of_tokens() -> None:
    g = make()
    s = build(g, tokens={P1: (0, 0)}, hands={P1: ["MOVE-1", "DRAW"]})
    s = act(g, s, P1, play("MOVE-1"))
    assert [where(s, p) for p in (P1, P2, P3)] == ["START"] * 3
    assert not [m for m in moves(events_of(s)) if m[3] == "bumped"]


# -- rows, the discards, the Draw Action -----------------------------------------------------


def test_the_first_row_goes_once_every_player_has_passed_it() -> None:
    """ "When ALL players pass the ROW closest to START, remove that ROW … move the START card
    up"; its cards go to the discards."""
    g = make()
    s = build(g, tokens={P1: (0, 0), P2: (1, 1), P3: (2, 2)}, hands={P1: ["MOVE+1", "DRAW"]})
    first_row = s.grid[0][:]
    s = act(g, s, P1, play("MOVE+1"))
    assert kinds(events_of(s))[:5] == [
        "declared",
        "window_opened",
        "window_closed",
        "token_moved",
        "row_removed",
    ]
    assert of_kind(events_of(s), "row_removed") == [{"removed": 1}]
    assert s.rows == 5 and s.rows_removed == 1 and set(first_row) <= set(s.discard)
    assert [where(s, p) for p in (P1, P2, P3)] == [(0, 0), (0, 1), (1, 2)]
    assert_conserved(g, s)


def test_start_moves_up_a_token_sent_back_enters_the_new_first_row() -> None:
    g = make()
    s = build(
        g,
        tokens={P1: (0, 0), P2: (1, 1), P3: (2, 2)},
        hands={P1: ["MOVE+1*", "FOE-2"], P2: ["MOVE+1"]},
    )
    s = act(g, s, P1, play("MOVE+1*"))
    assert s.rows_removed == 1 and where(s, P2) == (0, 1)
    s = act(g, s, P1, play("FOE-2", target=P2))
    assert where(s, P2) == "START" and s.current == P2  # the Hand Action ended by itself
    assert g.legal_actions(s, P2) == tuple(play("MOVE+1", lane=ln) for ln in range(3))
    s = act(g, s, P2, play("MOVE+1", lane=1))
    assert where(s, P2) == (0, 1) and s.rows == 5 and s.rows_removed == 1


def test_only_the_first_two_rows_are_removed() -> None:
    """Several rows may go at once, but "only the FIRST TWO ROWS are removed" per game."""
    g = make()
    s = build(g, tokens={P1: (2, 0), P2: (3, 1), P3: (4, 2)}, hands={P1: ["MOVE+1", "DRAW"]})
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "row_removed") == [{"removed": 1}, {"removed": 2}]
    assert s.rows == 4 and [where(s, p) for p in (P1, P2, P3)] == [(1, 0), (1, 1), (2, 2)]
    g = make(rows=4)
    s = build(g, tokens={P1: (1, 0), P2: (1, 1), P3: (2, 2)}, hands={P1: ["MOVE+1", "DRAW"]})
    s.rows_removed = 2
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "row_removed") == [] and s.rows == 4


def test_the_discards_are_shuffled_into_an_empty_draw_pile() -> None:
    """ "If the Draw Pile becomes depleted, shuffle the Discard Pile to create a new Draw
    Pile"."""
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1"], P2: ["CUT"]})
    s.discard, s.draw = s.draw, []
    pile = len(s.discard)
    s = act(g, s, P1, play("MOVE+1"))
    assert of_kind(events_of(s), "discards_reshuffled") == [{"cards": pile + 1}]
    assert of_kind(events_of(s), "cards_drawn")[0] == {"player": P1, "count": 3}
    assert len(s.draw) == pile + 1 - 3 and s.discard == []
    assert_conserved(g, s)


def test_the_draw_action_draws_up_to_three_or_one() -> None:
    """Draw back up to three cards; with three or more in hand, draw one."""
    g = make()
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1", "CUT"], P2: ["CUT"]})
    s = act(g, s, P1, play("MOVE+1"))  # only a non-FREE card left: the turn ends
    assert of_kind(events_of(s), "cards_drawn") == [{"player": P1, "count": 2}]
    assert len(s.hands[P1]) == 3 and s.current == P2
    s = build(g, tokens={P1: (1, 0)}, hands={P1: ["MOVE+1", "DRAW", "CUT", "SHIFT"], P2: ["CUT"]})
    s, events = run(g, s, (P1, play("DRAW")), (P1, play("MOVE+1")))
    assert of_kind(events, "cards_drawn") == [
        {"player": P1, "count": 2},
        {"player": P1, "count": 1},
    ]
    assert len(s.hands[P1]) == 5 and s.current == P2


def test_an_empty_hand_skips_the_hand_action_and_draws() -> None:
    g = make()
    s = build(g, hands={P1: ["MOVE+1"], P3: ["MOVE+1"]})
    s = turn_of(g, s, P2)
    assert of_kind(events_of(s), "cards_drawn")[-1] == {"player": P2, "count": 3}
    assert s.current == P3


def test_play_goes_clockwise() -> None:
    g = make(4)
    s = build(g, current=P4, hands={p: ["MOVE+1", "DRAW"] for p in range(4)})
    s, _ = run(g, s, (P4, play("DRAW")), (P4, EndHand()))
    assert s.current == P1
    s, _ = run(g, s, (P1, play("DRAW")), (P1, EndHand()))
    assert s.current == P2
