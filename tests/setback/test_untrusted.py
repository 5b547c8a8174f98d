"""*Setback* as a server would use it, with strangers at the table: SB-9 amended windows that
reveal nothing, event audiences, immutable views with their header, nothing secret left on the
shared game object, bounded configurations that always end, and refusals with stable codes for
every malformed seat, action, state and record.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.core.errors import (
    GameOver,
    IllegalAction,
    InvalidConfig,
    InvalidMessage,
    InvalidRecord,
    NotYourTurn,
)
from racedeck.core.events import PUBLIC, RECORD, Event, feed
from racedeck.core.record import GameRecord, replay
from racedeck.core.rng import Rng
from racedeck.core.table import Table, run
from racedeck.games.setback import Block, Pass, Play, Setback, SetbackState, SetbackView, Step
from racedeck.games.setback.preview import landing, protected

from .test_rulebook import P1, P2, P3, act, build, card, make, play

# -- SB-9 amended: a window reveals nothing about who holds a BLOCK ------------------------------


def _twins(g: Setback) -> tuple[SetbackState, SetbackState]:
    """Two states that differ only in whether P2 holds a BLOCK: in the second, P2's BLOCK and a
    CUT from deep in the draw pile have changed places (nobody but P2 can tell)."""
    holds = build(
        g,
        tokens={P1: (2, 0)},
        hands={P1: ["MOVE+1", "DRAW"], P2: ["BLOCK", "SHIFT"], P3: ["TRADE"]},
    )
    lacks = holds.clone()
    block = next(c for c in lacks.hands[P2] if g.types[c].kind == "BLOCK")
    depth, cut = next((i, c) for i, c in enumerate(lacks.draw) if g.types[c].kind == "CUT")
    lacks.hands[P2] = sorted([c for c in lacks.hands[P2] if c != block] + [cut])
    lacks.draw[depth] = block
    return holds, lacks


def _seen(g: Setback, s: SetbackState, events: tuple[Event, ...], who: int | None) -> Any:
    """Everything ``who`` (``None``: a spectator) receives after a transition."""
    return g.observe(s, who).to_json(), [e.to_json() for e in feed(events, who)]


def test_sb9_amended_having_no_block_and_choosing_to_pass_look_the_same() -> None:
    """SB-9 amended: P2 holds a BLOCK and chooses to pass, or holds none and its pass is forced
    (the driver answers it). Spectators, P1 and P3 receive exactly the same views and events
    through the whole window, and the window asks P2 in both; only P2's own view differs."""
    g = make()
    holds, lacks = _twins(g)
    assert g.observe(holds, P1) == g.observe(lacks, P1)
    assert g.observe(holds, P2) != g.observe(lacks, P2)  # P2's own hand
    steps = [(P1, play("MOVE+1")), (P3, Pass()), (P2, Pass())]
    states = {"holds": holds, "lacks": lacks}
    for k, (seat, action) in enumerate(steps):
        seen: dict[str, Any] = {}
        for name, s in states.items():
            if k == 1:  # the window is open: P2 and P3 are asked, in both worlds
                assert s.phase == "window" and s.pending == (P2, P3)
                assert g.public_acting(s) == ()
                assert "BLOCK window is open" in g.describe_waiting(s)
                assert g.observe(s, None).header.acting == ()
            t = g.step(s, seat, action)
            states[name] = t.state
            seen[name] = [_seen(g, t.state, t.events, who) for who in (None, P1, P3)]
            assert not any(e.kind == "pass" or "passed" in e.kind for e in t.events)
        assert seen["holds"] == seen["lacks"], f"step {k} tells the worlds apart"
    assert g.legal_actions(_twins(g)[0], P2) == ()  # not asked before a declaration
    declared = {
        n: g.step(s, P1, play("MOVE+1")).state for n, s in zip("hl", _twins(g), strict=True)
    }
    assert g.legal_actions(declared["h"], P2) == (Block(), Pass())
    assert g.legal_actions(declared["l"], P2) == (Pass(),)  # the seat's own view: its options
    assert g.observe(declared["l"], P2).legal_actions == (Pass(),)
    assert g.forced_action(declared["h"], P2) is None
    assert g.forced_action(declared["l"], P2) == Pass()
    assert g.forced_action(declared["l"], P1) is None  # not asked about its own Hand Action


def test_sb9_amended_the_window_closes_with_one_public_event_and_no_pass_is_published() -> None:
    g = make()
    s = g.step(_twins(g)[1], P1, play("MOVE+1")).state
    first = g.step(s, P2, Pass())
    assert first.events == ()  # a pass says nothing, not even that someone passed
    last = g.step(first.state, P3, Pass())
    public = [e.kind for e in last.events if e.is_public]
    assert public[:2] == ["window_closed", "token_moved"]
    assert [e.to_json() for e in last.events if e.kind == "window_closed"] == [
        {"kind": "window_closed", "blocks": 0, "cancelled": False}
    ]


def test_sb9_amended_a_driver_never_asks_a_seat_without_a_block() -> None:
    """``core.table.run`` answers forced passes itself: a player is asked in a window only
    when it holds a BLOCK, and every window still asks everyone who may answer."""

    class Watching:
        def __init__(self, game: Setback, seat: int) -> None:
            self.bot = make_bot("heuristic", game, seat, seat)
            self.windows = 0

        def act(self, view: SetbackView) -> Any:
            if view.window_open:
                assert Block() in view.legal_actions, "asked to pass without a choice"
                self.windows += 1
            return self.bot.act(view)

    for seed in range(3):
        g = make(3)
        table = Table(g, seed)
        players = [Watching(g, q) for q in range(3)]
        run(table, players)
        assert table.is_over and sum(p.windows for p in players) > 0
        restored = Table.from_record(
            GameRecord.from_json(json.loads(json.dumps(table.record.to_json())))
        )
        assert restored.state == table.state


# -- events: audiences -------------------------------------------------------------------------


def _random_transitions(g: Setback, seed: int) -> Iterator[tuple[SetbackState, tuple[Event, ...]]]:
    rng = random.Random(seed)
    t = g.start(seed)
    yield t.state, t.events
    while not t.state.is_terminal:
        s = t.state
        seat = rng.choice(s.pending)
        t = g.step(s, seat, rng.choice(g.legal_actions(s, seat)))
        yield t.state, t.events


def test_a_seats_cards_go_to_that_seat_only() -> None:
    """The deal and every draw tell the cards to their seat alone (private events); the table
    learns how many cards were drawn, never which."""
    g = make(4)
    private = 0
    for _, events in _random_transitions(g, 11):
        for e in events:
            if e.kind in ("hand_dealt", "cards_received"):
                assert e.audience == e.data["player"]
                private += 1
            elif e.kind in ("window_asked", "window_answered"):
                assert e.audience == RECORD
            else:
                assert e.audience == PUBLIC and "cards" not in e.data, e
    assert private > 4
    with pytest.raises(TypeError):
        e.data["player"] = 9  # type: ignore[index]


# -- views ------------------------------------------------------------------------------------


def _mutable_parts(value: Any, path: str = "view") -> Iterator[str]:
    if isinstance(value, list | dict | set | bytearray):
        yield path
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            yield from _mutable_parts(v, f"{path}[{i}]")
    elif hasattr(value, "items"):
        for k, v in value.items():
            yield from _mutable_parts(v, f"{path}[{k!r}]")


def test_views_are_immutable_and_share_nothing_with_the_state() -> None:
    """The issue: clearing ``view.context["left"]`` emptied the real ALL queue and stuck the
    game. Every part of a view is now immutable (tuples, read-only mappings)."""
    g = make(4)
    s = build(g, tokens={P1: (2, 0)}, hands={P1: ["ALL+1", "DRAW"]})
    s.row[P2], s.lane[P2] = 1, 1
    s = act(g, s, P1, play("ALL+1"))
    assert s.phase == "step" and s.context["left"]
    before = s.to_json()
    for who in (None, P1, P2):
        view = g.observe(s, who)
        for name in SetbackView.__dataclass_fields__:
            if name != "header":
                assert not list(_mutable_parts(getattr(view, name), name)), name
        with pytest.raises(AttributeError):
            view.context["left"].clear()  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            view.context["left"] = ()  # type: ignore[index]
        with pytest.raises(AttributeError):
            view.phase = "over"  # type: ignore[misc]
        assert g.view_from_json(json.loads(json.dumps(view.to_json()))) == view
    assert s.to_json() == before
    step = g.legal_actions(s, P1)[0]
    assert isinstance(step, Step) and g.step(s, P1, step).state.move == s.move + 1


def test_the_header_frames_the_table() -> None:
    g = make(3)
    s = build(g, tokens={P1: (2, 0), P2: (0, 1)}, hands={P1: ["MOVE+1", "DRAW"]})
    header = g.observe(s, None).header
    assert (header.game, header.rules_version, header.phase) == ("setback", "3", "hand")
    assert header.acting == (P1,) and header.waiting == "waiting for P1 (Hand Action)"
    assert header.scores == (3.0, 1.0, 0.0)  # rows reached: row 3, row 1, START
    assert header.score_names == ("P1", "P2", "P3") and not header.terminal
    assert header.move == 0 and g.observe(act(g, s, P1, play("MOVE+1")), P2).header.move == 3


def test_preview_says_where_a_token_lands_and_who_is_protected() -> None:
    g = make(3)
    s = build(g, cells={(1, 1): "BLOCK"}, tokens={P1: (4, 0), P2: (1, 1)})
    view = g.observe(s, P1)
    assert view.protected == (False, True, False) and protected(view, P2)
    assert landing(view, P1, 2).where == "FINISH" and landing(view, P1, -1).row == 3
    assert landing(view, P3, 2).row == 1 and not landing(view, P3, -1).moves
    assert landing(view, P2, -2).where == "START"


# -- the shared game object keeps no secret ----------------------------------------------------


def test_no_secret_outlives_a_call_on_the_shared_game() -> None:
    """Declaration tables, steps and the sampler are made from the configuration when the game
    is: asking for legal actions, views and samples along a game leaves the object exactly as it
    was (a lazily filled memo would tell which cards the seats have held)."""
    for players in (2, 4):
        g = make(players)
        fresh = pickle.dumps(g)
        for s, _ in _random_transitions(g, 5):
            for q in range(players):
                g.legal_actions(s, q)
                view = g.observe(s, q)
                if not s.is_terminal:
                    g.sample_state(view, Rng(q))
        assert pickle.dumps(g) == fresh
        assert pickle.dumps(g) == pickle.dumps(make(players))


# -- configuration ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"deck": [["MOVE+1", 30_000_000]]}, "deck", "above 60"),
        ({"deck": [["MOVE+1", 50]] * 9}, "deck", "at most 400 are allowed"),
        ({"deck": [["MOVE+1", 1]] * 41}, "deck", "at most 40 items"),
        ({"deck": [["BLOCK", 60]]}, "deck", "nobody could ever reach FINISH"),
        ({"deck": [["MOVE-1", 40], ["FOE-2", 40]]}, "deck", "moves a token forward"),
        ({"deck": [["MOVE+1", 2.5]]}, "deck", "expected an integer"),
        ({"rows": 21}, "rows", "above 20"),
        ({"rows": 2.5}, "rows", "expected an integer"),
        ({"lanes": 9}, "lanes", "above 8"),
        ({"max_lanes": 9}, "max_lanes", "above 8"),
        ({"players": True}, "players", "expected an integer"),
        ({"self_block": 1}, "self_block", "expected text"),
        ({"max_moves": 10}, "max_moves", "below 100"),
        ({"hand_size": 11}, "hand_size", "above 10"),
    ],
)
def test_options_are_bounded_and_named(options: dict[str, Any], option: str, message: str) -> None:
    with pytest.raises(InvalidConfig, match=message) as info:
        racedeck.make("setback", **options)
    assert info.value.option == option and info.value.code == "config/invalid"
    assert f"option {option}" in str(info.value) or f"option {option}=" in str(info.value)


def test_a_huge_deck_in_a_record_is_refused_at_once() -> None:
    """The issue: a 150-byte record with a deck count of 30,000,000 took ~3 GB."""
    record = GameRecord.from_json(
        {
            "game": "setback",
            "rules_version": racedeck.get_spec("setback").rules_version,
            "config": {"deck": [["MOVE+1", 30_000_000]]},
            "seed": 1,
            "actions": [],
        }
    )
    with pytest.raises(InvalidRecord, match="deck"):
        record.make_game()


def test_every_accepted_configuration_ends_max_moves_ranks_by_progress() -> None:
    """A deck that passes validation but hardly moves (one MOVE+1 among BLOCKs and DRAWs, whose
    Hand Actions can go on and on) ends at ``max_moves``: ranked by progress, the farthest
    winning (together when tied)."""
    deck = (("MOVE+1", 1), ("BLOCK", 30), ("DRAW", 20), ("MOVE-1", 20))
    g = racedeck.make("setback", players=3, deck=deck, max_moves=150)
    assert isinstance(g, Setback)
    for seed in range(3):
        steps = list(_random_transitions(g, seed))
        final, events = steps[-1]
        assert final.is_terminal and final.move <= 150
        outcome = g.outcome(final)
        assert outcome is not None
        if final.winner < 0:
            assert final.move == 150 and [e.kind for e in events][-2:] == [
                "move_limit",
                "game_over",
            ]
            best = max(outcome.scores)
            assert outcome.winners == {q for q in range(3) if outcome.scores[q] == best}
            assert all(outcome.ranks[q] == 1 for q in outcome.winners)


# -- hardened edges -------------------------------------------------------------------------------


@pytest.mark.parametrize("lane", [0.0, False, "0", None])
def test_action_fields_must_be_plain_integers(lane: Any) -> None:
    """The issue: ``lane=0.0`` or ``False`` equals 0, was accepted and written into the state and
    the record, which then failed to replay. Refused with ``action/illegal``, nothing changed."""
    g = make(3)
    s = build(g, hands={P1: ["MOVE+1", "DRAW"]})
    assert Play(card("MOVE+1"), lane=0) in g.legal_actions(s, P1)
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        g.step(s, P1, Play(card("MOVE+1"), lane=lane))
    assert info.value.code == "action/illegal" and s.to_json() == before
    with pytest.raises(InvalidMessage):
        g.action_from_json({"type": "play", "card": "MOVE+1", "lane": lane})


@pytest.mark.parametrize(
    "obj",
    [
        [],
        "pass",
        {"type": "jump"},
        {"type": "play"},
        {"type": "play", "card": "JUMP+1"},
        {"type": "play", "card": "MOVE+1", "mode": "sideways"},
        {"type": "play", "card": "MOVE+1", "target": True},
        {"type": "step", "token": 1.0},
        {"type": "pass", "extra": 1},
        {"type": ["play"]},
    ],
)
def test_malformed_action_json_is_an_invalid_message(obj: Any) -> None:
    g = make(3)
    with pytest.raises(InvalidMessage) as info:
        g.action_from_json(obj)
    assert info.value.code == "message/invalid"
    table = Table(g, 1)
    with pytest.raises(InvalidMessage):
        table.submit_json(table.pending[0], obj)
    assert table.move == 0


@pytest.mark.parametrize("seat", [None, "0", 0.0, True, -1, 3])
def test_a_seat_must_be_a_plain_integer_of_the_game(seat: Any) -> None:
    g = make(3)
    s = g.start(2).state
    action = g.legal_actions(s, s.pending[0])[0]
    with pytest.raises(IllegalAction, match="there is no seat"):
        g.step(s, seat, action)
    if seat is not None:  # None is the spectator
        with pytest.raises(IllegalAction):
            g.observe(s, seat)


def test_error_codes_say_not_your_turn_and_game_over() -> None:
    g = make(3)
    s = build(g, hands={P1: ["MOVE+1", "DRAW"]})
    with pytest.raises(NotYourTurn) as info:
        g.step(s, P2, play("MOVE+1", lane=0))
    assert info.value.code == "action/not-your-turn"
    with pytest.raises(NotYourTurn):
        g.parse_action("MOVE+1 lane 1", g.observe(s, P2))
    final = list(_random_transitions(g, 4))[-1][0]
    with pytest.raises(GameOver) as over:
        g.step(final, P1, Pass())
    assert over.value.code == "action/game-over"
    with pytest.raises(GameOver):
        g.parse_action("pass", g.observe(final, P1))


def test_parse_action_works_from_the_view_alone() -> None:
    g = make(3)
    s = build(g, hands={P1: ["MOVE+1", "DRAW"]})
    view = g.view_from_json(json.loads(json.dumps(g.observe(s, P1).to_json())))
    assert g.parse_action("move+1 lane 2", view) == play("MOVE+1", lane=1)
    with pytest.raises(IllegalAction, match="cannot read"):
        g.parse_action("jump", view)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.pop("grid"), "'grid' is missing"),
        (lambda o: o.update(move="3"), "'move' must be an integer"),
        (lambda o: o.update(row=[0]), "'row' must hold 3 items"),
        (lambda o: o.update(phase="dance"), "'phase' must be one of"),
        (lambda o: o.update(current=7), "out of range"),
        (lambda o: o["draw"].append(o["draw"][0]), "this deck, once each"),
        (lambda o: o.update(players=4), "one per player"),
        (lambda o: o.update(stack=[1]), "'stack' must be a list of objects"),
    ],
)
def test_state_from_json_refuses_bad_input_clearly(change: Any, message: str) -> None:
    g = make(3)
    obj = json.loads(json.dumps(g.start(3).state.to_json()))
    change(obj)
    with pytest.raises(ValueError, match=message):
        g.state_from_json(obj)
    with pytest.raises(ValueError, match="JSON object"):
        g.state_from_json([])  # type: ignore[arg-type]


def test_a_record_with_a_float_lane_does_not_replay() -> None:
    g = make(3)
    table = Table(g, 9)
    seat = table.pending[0]
    action = g.legal_actions(table.state, seat)[0].to_json()
    record = table.record.to_json()
    record["actions"] = [{"seat": seat, "action": {**action, "lane": 0.0}}]
    with pytest.raises(InvalidRecord):
        list(replay(GameRecord.from_json(record)))
