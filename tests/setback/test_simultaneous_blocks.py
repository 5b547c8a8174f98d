"""SB-9 amended again: the answers in a BLOCK window are simultaneous and concealed.

Every asked player answers once, BLOCK (if it holds one) or pass. An answer only crosses the
seat off and notes a BLOCK in the state's hidden ``blockers``: it makes no event, no other seat's
view changes (the header's move number aside, which counts every accepted action), and the BLOCK
card stays in the hand. When the last answer is in, the first BLOCKer in seating order after the
player whose action is answered plays its BLOCK — the declarer for the first window, the last
BLOCKer for a window on a BLOCK, that player itself coming last when ``self_block`` asked it —
and the other BLOCKers keep their cards, unseen. The played BLOCK opens a window on itself; the
stack still resolves last played first.

Situations are built with the rulebook tests' :func:`build`; here every answer goes through the
checked step itself (``g.step``), forced passes included, so that each answer's transition can
be looked at. Seats: P1 = 0, P2 = 1 …
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import roundtrip

from racedeck.core.events import RECORD, feed
from racedeck.core.game import Transition
from racedeck.core.rng import Rng
from racedeck.games.setback import Block, Pass, Setback, SetbackAction, SetbackState, SetbackView

from .test_rulebook import (
    P1,
    P2,
    P3,
    P4,
    P5,
    assert_conserved,
    build,
    kinds,
    make,
    names,
    of_kind,
    play,
    turn_of,
    where,
)


def checked(
    g: Setback, s: SetbackState, seat: int, action: SetbackAction
) -> Transition[SetbackState]:
    """The checked step, the fast path checked against it on the way (equal states)."""
    t = g.step(s, seat, action)
    fast = s.clone()
    g.apply_unchecked(fast, seat, action)
    assert fast == t.state and fast.to_json() == t.state.to_json()
    return t


def step(g: Setback, s: SetbackState, seat: int, action: SetbackAction) -> SetbackState:
    """The state after :func:`checked`."""
    return checked(g, s, seat, action).state


def answer(
    g: Setback, s: SetbackState, answers: dict[int, SetbackAction]
) -> tuple[SetbackState, list[Any]]:
    """Every asked seat answers, in the order of ``answers`` (a seat left out passes, after
    the others); return the state after the last answer and the events of its transition."""
    order = [q for q in answers if q in s.pending] + [q for q in s.pending if q not in answers]
    assert sorted(order) == sorted(s.pending)
    events: list[Any] = []
    for q in order:
        t = checked(g, s, q, answers.get(q, Pass()))
        s, events = t.state, list(t.events)
    return s, events


def without_move(view: SetbackView) -> SetbackView:
    """``view`` with the header's move number set aside (it counts every accepted action)."""
    return dataclasses.replace(view, header=dataclasses.replace(view.header, move=0))


def four_at_the_table() -> tuple[Setback, SetbackState]:
    """Four players; P3 (on turn) declares a MOVE+1 from hand. P1 and P4 hold a BLOCK, P2 none;
    P3 holds one too, but is not asked about its own Hand Action (``self_block="board"``)."""
    g = make(4)
    s = build(
        g,
        current=P3,
        tokens={P3: (2, 0)},
        hands={
            P1: ["BLOCK", "CUT"],
            P2: ["DRAW"],
            P3: ["MOVE+1", "BLOCK", "DRAW"],
            P4: ["BLOCK", "MOVE-1"],
        },
    )
    s = step(g, s, P3, play("MOVE+1"))
    assert s.phase == "window" and s.pending == (P4, P1, P2)  # from the seat after P3 on
    return g, s


# -- who plays ---------------------------------------------------------------------------------


def test_sb9_of_two_blocks_the_first_in_seating_order_after_the_declarer_plays() -> None:
    """P1 and P4 both answer BLOCK to P3's action: P4 comes first after P3 (seat 3 before seat
    0, going round the table), so P4's BLOCK is played; P1 keeps its card, unplayed and unseen,
    and is asked about P4's BLOCK in the window it opens."""
    g, s = four_at_the_table()
    p1_hand = list(s.hands[P1])
    s, events = answer(g, s, {P1: Block(), P4: Block()})
    assert of_kind(events, "block_played") == [{"player": P4, "blocks": 1}]
    assert kinds(events) == ["block_played", "window_opened"]
    assert of_kind(events, "window_answered") == [{"blocks": 2}]  # for the record only
    assert [e.audience for e in events if e.kind == "window_answered"] == [RECORD]
    assert s.hands[P1] == p1_hand and names(g, s.hands[P4]) == Counter({"MOVE-1": 1})
    assert [item["by"] for item in s.stack] == [P3, P4] and s.blockers == []
    assert s.phase == "window" and s.pending == (P3, P1, P2)  # everyone but P4
    assert g.legal_actions(s, P1) == (Block(), Pass())
    for who in (None, P2, P3, P4):
        assert g.observe(s, who).blocks == (P4,)  # the played BLOCK is public, P1's answer not
    assert_conserved(g, s)


def test_sb9_on_a_block_the_first_after_the_last_blocker_plays_and_the_stack_resolves() -> None:
    """In the window on P4's BLOCK, P3 and P1 both answer BLOCK: P1 comes first after P4, so P1
    plays (P3 keeps its card); in the window on P1's BLOCK, P3 BLOCKs again. Three BLOCKs: the
    last played resolves first, so the action is cancelled."""
    g, s = four_at_the_table()
    s, _ = answer(g, s, {P4: Block()})
    assert s.pending == (P3, P1, P2)
    s, events = answer(g, s, {P3: Block(), P1: Block()})
    assert of_kind(events, "block_played") == [{"player": P1, "blocks": 2}]
    assert names(g, s.hands[P3]) == Counter({"BLOCK": 1, "DRAW": 1})  # kept, not played
    assert s.pending == (P3, P4, P2)
    s, events = answer(g, s, {P3: Block()})
    assert of_kind(events, "block_played") == [{"player": P3, "blocks": 3}]
    s, events = answer(g, s, {})  # nobody holds another BLOCK: P4, P1 and P2 pass
    assert of_kind(events, "window_closed") == [{"blocks": 3, "cancelled": True}]
    assert of_kind(events, "cancelled") == [
        {"player": P3, "play": {"type": "play", "card": "MOVE+1"}}
    ]
    assert where(s, P3) == (2, 0) and s.phase == "hand" and s.current == P3
    assert names(g, s.discard) == Counter({"BLOCK": 3, "MOVE+1": 1})
    assert_conserved(g, s)


def test_sb9_a_block_on_a_block_lets_the_action_stand() -> None:
    """Two BLOCKs, whoever answered them and in whatever order: the action stands."""
    g, s = four_at_the_table()
    s, _ = answer(g, s, {P1: Block()})
    s, events = answer(g, s, {P4: Block()})
    assert of_kind(events, "block_played") == [{"player": P4, "blocks": 2}]
    s, events = answer(g, s, {})
    assert of_kind(events, "window_closed") == [{"blocks": 2, "cancelled": False}]
    assert where(s, P3) == (3, 0)
    assert_conserved(g, s)


def board_move(self_block: str) -> tuple[Setback, SetbackState]:
    """Three players; P1's turn starts on a MOVE+1 card, so its Board Action is declared by
    itself. P1 and P3 hold a BLOCK, P2 none (its forced pass is answered for it)."""
    g = make(3, self_block=self_block)
    s = build(
        g,
        cells={(2, 0): "MOVE+1"},
        tokens={P1: (2, 0)},
        hands={P1: ["BLOCK", "MOVE-1"], P2: ["CUT"], P3: ["BLOCK"]},
    )
    return g, turn_of(g, s, P1)


@pytest.mark.parametrize(("self_block", "asked"), [("board", True), ("all", True), ("none", False)])
def test_sb9_the_declarer_asked_under_self_block_comes_last(self_block: str, asked: bool) -> None:
    """A Board Action: under ``self_block`` "board" and "all" its player is asked and may BLOCK
    it; answering BLOCK at once with another, it comes last in seating order after itself, so
    the other's BLOCK is played and it keeps its own. Under "none" it is not asked."""
    g, s = board_move(self_block)
    assert s.phase == "window" and s.pending == ((P1, P3) if asked else (P3,))
    s, events = answer(g, s, {P1: Block(), P3: Block()} if asked else {P3: Block()})
    assert of_kind(events, "block_played") == [{"player": P3, "blocks": 1}]
    assert names(g, s.hands[P1]) == Counter({"BLOCK": 1, "MOVE-1": 1})
    # P1 may answer a BLOCK on its action whatever the option; P2 is asked too.
    assert s.pending == (P1, P2)
    assert_conserved(g, s)


@pytest.mark.parametrize("self_block", ["board", "all"])
def test_sb9_a_declarer_blocking_alone_plays_its_own_block(self_block: str) -> None:
    g, s = board_move(self_block)
    s, events = answer(g, s, {P1: Block(), P3: Pass()})
    assert of_kind(events, "block_played") == [{"player": P1, "blocks": 1}]
    assert s.pending == (P2, P3)  # everyone but P1, whose BLOCK is on top
    s, events = answer(g, s, {})
    assert of_kind(events, "cancelled") == [
        {"player": P1, "play": {"type": "play", "card": "MOVE+1"}}
    ]
    assert where(s, P1) == (2, 0) and s.phase == "hand"


def test_sb9_a_window_nobody_blocks_closes_as_before() -> None:
    g, s = four_at_the_table()
    s, events = answer(g, s, {})
    assert of_kind(events, "window_answered") == [{"blocks": 0}]
    assert kinds(events)[:1] == ["window_closed"]
    assert of_kind(events, "window_closed") == [{"blocks": 0, "cancelled": False}]
    assert where(s, P3) == (3, 0)
    assert names(g, s.hands[P1]) == Counter({"BLOCK": 1, "CUT": 1})


# -- concealed -------------------------------------------------------------------------------


def test_sb9_an_answer_before_the_last_shows_nothing_to_anyone() -> None:
    """No event at all (for no seat, no spectator, not even the record), and no other seat's
    view changes but for the header's move number; the answering seat's view only loses its
    legal actions and says what it answered. Every answer is concealed (``conceals``)."""
    g, s = four_at_the_table()
    for seat, action in ((P1, Block()), (P4, Pass())):
        assert g.conceals(s, seat, action)
        t = checked(g, s, seat, action)
        assert t.events == ()
        for who in (None, P1, P2, P3, P4):
            assert feed(t.events, who) == ()
            before, after = g.observe(s, who), g.observe(t.state, who)
            assert after.header.move == before.header.move + 1
            if who == seat:
                assert after.legal_actions == () and after.answer == action.to_json()["type"]
                assert before.answer == ""
                before = dataclasses.replace(before, legal_actions=(), answer=after.answer)
            assert without_move(after) == without_move(before)
        s = t.state
    assert s.blockers == [P1] and s.pending == (P2,) and s.asked == [P2]
    assert g.observe(s, P1).answer == "block" and g.observe(s, P4).answer == "pass"
    assert g.observe(s, P3).answer == "" and g.observe(s, None).answer == ""  # not asked
    # The last answer ends the concealment: P1's BLOCK is played, in public.
    assert g.conceals(s, P2, Pass())
    last = g.step(s, P2, Pass())
    assert [e.kind for e in feed(last.events, None)] == ["block_played", "window_opened"]


def test_sb9_whose_block_answer_is_in_changes_nothing_the_others_see() -> None:
    """Twins: P1 answered BLOCK in one, P4 in the other, the rest still to answer. Every view
    but the answering seats' own is the same."""
    g, s = four_at_the_table()
    one = step(g, s, P1, Block())
    other = step(g, s, P4, Block())
    for who in (None, P2, P3):
        assert g.observe(one, who) == g.observe(other, who)


def test_sb9_forced_and_timed_out_answers_are_passes_as_before() -> None:
    g, s = four_at_the_table()
    assert [g.forced_action(s, q) for q in (P1, P2, P3, P4)] == [None, Pass(), None, None]
    assert [g.timeout_action(s, q) for q in (P1, P2, P3, P4)] == [Pass(), Pass(), None, Pass()]
    s = step(g, s, P1, Block())
    assert g.timeout_action(s, P1) is None and g.forced_action(s, P1) is None  # answered
    assert g.legal_actions(s, P1) == () and g.public_acting(s) == ()


# -- the order of the answers ----------------------------------------------------------------


@functools.cache
def _five_players_all_asked() -> Setback:
    """The game of :func:`five_at_the_table`, made once for its many examples (making a
    Setback costs more than a window's answers)."""
    return make(5, self_block="all")


def five_at_the_table() -> tuple[Setback, SetbackState]:
    """Five players; P2's Board Action is declared with ``self_block="all"``, so all five are
    asked; four of them hold a BLOCK (P1 two), and P4's forced pass is answered for it."""
    g = _five_players_all_asked()
    s = build(
        g,
        current=P2,
        cells={(1, 1): "MOVE+2"},
        tokens={P2: (1, 1)},
        hands={
            P1: ["BLOCK", "BLOCK"],
            P2: ["BLOCK", "MOVE+1"],
            P3: ["BLOCK", "CUT"],
            P4: ["DRAW"],
            P5: ["BLOCK"],
        },
    )
    s = turn_of(g, s, P2)
    assert s.phase == "window" and s.pending == (P2, P3, P5, P1)
    return g, s


@settings(max_examples=60, deadline=None)
@given(
    blocks=st.lists(st.booleans(), min_size=4, max_size=4),
    order=st.permutations([P2, P3, P5, P1]),
)
def test_sb9_the_order_of_the_answers_changes_nothing(blocks: list[bool], order: list[int]) -> None:
    """Whatever order the same answers arrive in, the window ends in the same state with the
    same events: the first BLOCKer in seating order after P2 plays (P2 itself last), the other
    BLOCKers keep their cards. Every state on the way keeps every card once, the checked and
    fast paths agree, and the hidden ``blockers`` never depend on the order either."""
    g, s = five_at_the_table()
    chosen: dict[int, SetbackAction] = {
        q: Block() if b else Pass() for q, b in zip((P1, P2, P3, P5), blocks, strict=True)
    }
    blockers = sorted(q for q, a in chosen.items() if isinstance(a, Block))
    reference, reference_events = answer(g, s, {q: chosen[q] for q in s.pending})
    t, events = s, list[Any]()
    for i, q in enumerate(order):
        transition = checked(g, t, q, chosen[q])
        t, events = transition.state, list(transition.events)
        assert_conserved(g, t)
        if i < len(order) - 1:
            assert t.blockers == [p for p in blockers if p in order[: i + 1]]
    assert t == reference and events == reference_events
    played = of_kind(events, "block_played")
    held = {q: sum(g.types[c].kind == "BLOCK" for c in s.hands[q]) for q in range(5)}
    if blockers:
        first = min(blockers, key=lambda q: (q - P2 - 1) % 5)
        assert played == [{"player": first, "blocks": 1}]
        for q in range(5):
            left = sum(g.types[c].kind == "BLOCK" for c in t.hands[q])
            assert left == held[q] - (q == first)
    else:
        assert played == [] and of_kind(events, "window_closed")


# -- states ----------------------------------------------------------------------------------


def test_sb9_a_state_with_answers_pending_round_trips_and_clones() -> None:
    g, s = four_at_the_table()
    s = step(g, s, P1, Block())
    assert s.blockers == [P1]
    back = g.state_from_json(roundtrip(s.to_json()))
    assert back == s and back.blockers == [P1] and back.to_json() == s.to_json()
    clone = s.clone()
    assert clone == s
    clone.blockers.append(P4)
    assert s.blockers == [P1]  # the clone shares no list
    assert g.observe(back, P1) == g.observe(s, P1)
    # The rest of the window plays on the same from the copy.
    assert answer(g, back, {P4: Block()})[0] == answer(g, s, {P4: Block()})[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.update(blockers=[P2]), "without one"),  # P2 holds no BLOCK
        (lambda o: o.update(blockers=[P4, P1]), "ascending"),
        (lambda o: o.update(blockers=[P2], asked=[P2]), "no longer asked"),
        (lambda o: o.pop("blockers"), "blockers"),
    ],
)
def test_sb9_states_with_impossible_answers_are_refused(change: Any, message: str) -> None:
    g, s = four_at_the_table()
    s = step(g, s, P1, Block())
    s = step(g, s, P2, Pass())
    assert s.blockers == [P1] and s.asked == [P4]
    obj = roundtrip(s.to_json())
    change(obj)
    with pytest.raises(ValueError, match=message):
        g.state_from_json(obj)


def test_sb9_answers_outside_a_window_are_refused() -> None:
    g, s = four_at_the_table()
    s, _ = answer(g, s, {})
    obj = roundtrip(s.to_json())
    obj["blockers"] = [P1]
    with pytest.raises(ValueError, match="outside a window"):
        g.state_from_json(obj)


def test_sb9_the_move_limit_in_an_open_window_leaves_an_answered_block_in_its_hand() -> None:
    g, s = four_at_the_table()
    s.move = g.cfg.max_moves - 1
    t = g.step(s, P1, Block())
    assert t.state.is_terminal and t.state.blockers == [] and t.state.asked == []
    assert names(g, t.state.hands[P1]) == Counter({"BLOCK": 1, "CUT": 1})
    assert kinds(t.events)[:1] == ["move_limit"]
    assert_conserved(g, t.state)


def test_sb9_a_sampled_state_keeps_the_observers_own_answer() -> None:
    g, s = four_at_the_table()
    s = step(g, s, P1, Block())
    view = g.observe(s, P1)
    for k in range(30):
        sample = g.sample_state(view, Rng(k))
        assert P1 in sample.blockers and P1 not in sample.pending
        assert g.observe(sample, P1) == view
