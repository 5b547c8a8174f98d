"""The WebSocket protocol: every message type, every error code, and that a refusal changes
nothing (every frame also passes the leak checker of ``conftest.py``)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from racedeck.server.messages import MAX_MESSAGE_BYTES
from racedeck.server.rooms import RATE_BURST, RATE_PER_SECOND
from server.deals import HELD_THEN_FORCED, windows
from server.live import Client, FrameChecker, LiveServer, eventually, seed, serving

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


def two_seat_why_first(server: LiveServer) -> tuple[str, Client, Client]:
    """A 3-player Why First? table (Ann, Bob and a random bot), both people greeted once the
    bot has placed its card of the first round, so that nothing moves but what a test sends."""
    created = server.create("why-first", ["human", "human", "random"])
    joined = server.join(created["table_id"])
    # The bot decides off the loop (on PostgreSQL once the sweep gave the table to the server).
    eventually(lambda: stored_actions(server, created["table_id"]) == 1, "the bot places")
    ann = server.socket(created["table_id"])
    ann.hello(created["token"])
    bob = server.socket(created["table_id"])
    bob.hello(joined["token"])
    return created["table_id"], ann, bob


def stored_actions(server: LiveServer, table_id: str) -> int:
    stored = server.service.store.load(table_id)
    assert stored is not None
    return len(stored.actions)


def error(client: Client, code: str) -> dict[str, Any]:
    frame = client.until(lambda f: f["type"] == "error")
    assert frame["code"] == code, frame
    return frame


def test_welcome_holds_the_seat_view_and_feed(server: LiveServer) -> None:
    table_id, ann, bob = two_seat_why_first(server)
    assert ann.seat == 0 and bob.seat == 1
    assert ann.view is not None and ann.view["header"]["seat"] == 0
    assert ann.view["header"]["seat_names"][:2] == ["Ann", "Bob"]
    assert ann.frames[0]["events"] and all("text" in e for e in ann.frames[0]["events"])
    spectator = server.socket(table_id)
    welcome = spectator.hello(None)
    assert welcome["seat"] is None and welcome["view"]["legal_actions"] == []


def test_act_update_and_ping(server: LiveServer) -> None:
    _table_id, ann, bob = two_seat_why_first(server)
    assert ann.view is not None
    before = ann.view["header"]["move"]
    ann.act(ann.view["legal_actions"][0], cid="c1")
    mine = ann.until(lambda f: f["type"] == "update" and f["move"] > before)
    assert mine["view"]["header"]["move"] == mine["move"]
    ann.send({"type": "ping", "id": "p"})
    assert ann.until(lambda f: f["type"] == "pong") == {"type": "pong", "id": "p"}
    bob.send({"type": "ping"})
    assert bob.until(lambda f: f["type"] == "pong")["type"] == "pong"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "message/invalid"),
        ("[1, 2]", "message/invalid"),
        (json.dumps({"type": "dance"}), "message/invalid"),
        (json.dumps({"type": "act", "move": 0}), "message/invalid"),
        (json.dumps({"type": "act", "move": "0", "action": {"type": "commit"}}), "message/invalid"),
        (json.dumps({"type": "act", "move": -1, "action": {}}), "message/invalid"),
        (
            json.dumps({"type": "act", "move": 0, "action": {"type": "x"}, "seat": 1}),
            "message/invalid",
        ),
        (json.dumps({"type": "act", "move": 0, "action": {"type": "nonsense"}}), "message/invalid"),
        (json.dumps({"type": "hello", "token": "again"}), "message/invalid"),
        (json.dumps({"type": "ping", "x": 1}), "message/invalid"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "message/too-large"),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(
    server: LiveServer, message: str, code: str
) -> None:
    table_id, ann, _bob = two_seat_why_first(server)
    before = stored_actions(server, table_id)
    ann.send(message)
    error(ann, code)
    assert stored_actions(server, table_id) == before
    ann.send({"type": "ping"})
    ann.until(lambda f: f["type"] == "pong")


def test_binary_frame_is_refused(server: LiveServer) -> None:
    _table_id, ann, _bob = two_seat_why_first(server)
    ann.ws.send(b"\x00\x01")
    error(ann, "message/invalid")


def test_illegal_and_stale_actions(server: LiveServer) -> None:
    table_id, ann, bob = two_seat_why_first(server)
    assert ann.view is not None and bob.view is not None
    move = ann.view["header"]["move"]
    # Well formed, but nobody holds a +9 card.
    ann.act({"type": "place", "value": 9, "target": 0}, cid="bad")
    assert error(ann, "action/illegal")["id"] == "bad"
    # A form the game does not know is a malformed message, not an illegal action.
    ann.act({"type": "commit", "card": 999, "figure": 0}, cid="odd")
    assert error(ann, "message/invalid")["id"] == "odd"
    ann.act(ann.view["legal_actions"][0], move=move + 5)
    assert error(ann, "action/stale")["move"] == move
    before = stored_actions(server, table_id)
    # Ann commits; her own earlier move number is then stale for her.
    ann.act(ann.view["legal_actions"][0])
    ann.until(lambda f: f["type"] == "update")
    ann.act(ann.view["legal_actions"][0] if ann.view["legal_actions"] else {"type": "x"}, move=move)
    error(ann, "action/stale")
    assert stored_actions(server, table_id) == before + 1


def test_not_your_turn_and_acting_for_another_seat(server: LiveServer) -> None:
    created = server.create("six-day-race", ["human", "human"], {"players": 2})
    joined = server.join(created["table_id"])
    ann = server.socket(created["table_id"])
    ann.hello(created["token"])
    bob = server.socket(created["table_id"])
    bob.hello(joined["token"])
    assert ann.view is not None and bob.view is not None
    acting = ann.view["header"]["acting"]
    waiter, mover = (ann, bob) if acting == [1] else (bob, ann)
    assert mover.view is not None
    before = stored_actions(server, created["table_id"])
    # The waiting seat sends exactly the action the mover may take: refused, nothing changes.
    waiter.act(mover.view["legal_actions"][0])
    error(waiter, "action/not-your-turn")
    assert stored_actions(server, created["table_id"]) == before
    mover.act(mover.view["legal_actions"][0])
    mover.until(lambda f: f["type"] == "update")
    assert stored_actions(server, created["table_id"]) == before + 1


def test_spectator_cannot_act(server: LiveServer) -> None:
    table_id, _ann, _bob = two_seat_why_first(server)
    watcher = server.socket(table_id)
    watcher.hello(None)
    assert watcher.view is not None
    watcher.act({"type": "commit", "card": 1, "figure": 0})
    error(watcher, "auth/invalid")


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello", "token": "not-a-token"},
        {"type": "hello"},
        {"type": "ping"},
        {"type": "hello", "token": ""},
    ],
)
def test_bad_hello_closes_the_socket(server: LiveServer, hello: dict[str, Any]) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    client = server.socket(created["table_id"])
    client.send(hello)
    frame = client.recv()
    assert frame["type"] == "error" and frame["code"] in ("auth/invalid", "message/invalid")
    with pytest.raises(ConnectionClosed):
        client.recv(5)


def test_token_of_another_table_is_refused(server: LiveServer) -> None:
    first = server.create("why-first", ["human", "random", "random"])
    second = server.create("why-first", ["human", "random", "random"])
    client = server.socket(second["table_id"])
    client.send({"type": "hello", "token": first["token"]})
    assert client.recv()["code"] == "auth/invalid"


def test_unknown_table(server: LiveServer) -> None:
    client = server.socket("no-such-table")
    assert client.recv()["code"] == "table/not-found"


def test_act_before_the_game_starts(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    ann = server.socket(created["table_id"])
    welcome = ann.hello(created["token"])
    assert welcome["view"] is None and welcome["table"]["status"] == "open"
    ann.send({"type": "act", "move": 0, "action": {"type": "commit", "card": 1, "figure": 0}})
    error(ann, "table/not-started")
    # The game starts when Bob joins: Ann is told and sent her view.
    server.join(created["table_id"])
    ann.until(lambda f: (f["type"] == "update" and f["move"] == 0) or f["type"] == "update")
    assert ann.view is not None and ann.view["header"]["seat"] == 0


def test_game_over_then_play_again(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "random"], {"players": 2, "stages": 1})
    ann = server.socket(created["table_id"])
    ann.hello(created["token"])
    moves = 0
    while True:
        assert ann.view is not None
        if ann.view["header"]["terminal"]:
            break
        if ann.view["legal_actions"]:
            cid = str(moves)
            ann.act(ann.view["legal_actions"][0], cid=cid)
            ann.until(lambda f, cid=cid: cid in (f.get("id"), f.get("ack")))
            moves += 1
        else:
            ann.until(lambda f: f["type"] == "update")
        assert moves < 500
    assert ann.view["header"]["outcome"] is not None
    ann.act({"type": "place", "value": 1, "target": 0}, cid="late")
    late = ann.until(lambda f: f.get("id") == "late")
    assert late["code"] == "action/game-over"
    res = server.http.post(
        f"/api/tables/{created['table_id']}/again", json={"token": created["token"]}
    )
    assert res.status_code == 200 and res.json()["game_no"] == 2
    fresh = ann.until(lambda f: f["type"] == "update" and f["game_no"] == 2)
    assert fresh["move"] == 0 and not fresh["view"]["header"]["terminal"]


@pytest.fixture
def limited(tmp_path: Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A server with the real rate limits (10 messages a second, 30 at once)."""
    with serving(
        tmp_path / "tables.sqlite", checker, rate=RATE_PER_SECOND, burst=RATE_BURST
    ) as live:
        yield live


def test_a_flood_is_bounded_and_the_table_goes_on(limited: LiveServer) -> None:
    server = limited
    table_id, ann, bob = two_seat_why_first(server)
    before = stored_actions(server, table_id)
    for _ in range(400):
        ann.send({"type": "act", "move": 0, "action": {"type": "commit", "card": 999, "figure": 0}})
    limited = ann.until(lambda f: f["type"] == "error" and f["code"] == "message/rate-limited")
    assert limited["message"]
    errors = [f for f in ann.frames if f["type"] == "error"]
    # Most of the flood was dropped unread: at most the burst was answered, plus a few warnings.
    assert len(errors) < 60
    assert stored_actions(server, table_id) == before
    assert bob.view is not None
    bob.act(bob.view["legal_actions"][0])
    bob.until(lambda f: f["type"] == "update")
    assert stored_actions(server, table_id) == before + 1
    time.sleep(1.5)
    ann.send({"type": "ping"})
    ann.until(lambda f: f["type"] == "pong")


def test_a_socket_that_keeps_flooding_is_closed(limited: LiveServer) -> None:
    server = limited
    table_id, ann, bob = two_seat_why_first(server)
    for _ in range(700):
        try:
            ann.send({"type": "ping"})
        except ConnectionClosed:
            break
    with pytest.raises(ConnectionClosed):
        while True:
            ann.recv(5)
    bob.send({"type": "ping"})
    bob.until(lambda f: f["type"] == "pong")
    again = server.socket(table_id)
    assert again.hello(None)["type"] == "welcome"


def test_a_window_answer_is_sealed_until_the_window_closes(sim_server: LiveServer) -> None:
    """SB-9: the answer of a person who holds a BLOCK to a window shows to nobody — no frame
    to anyone, the answerer included — until the window closes; then it is acknowledged with
    the close. The same answer sent twice is refused (``action/not-your-turn``)."""
    server = sim_server
    # The deal's first window (move 1) asks Ann, who holds a BLOCK (server.deals).
    first = windows(HELD_THEN_FORCED)[0]
    assert (first.move, first.asked, first.holders) == (1, (0,), (0,)), "not the deal planned"
    server.seeds.then(seed(HELD_THEN_FORCED))
    created = server.create(
        "setback", ["human", "human"], {"players": 2, "window_seconds": 2}, clock={"move": 60}
    )
    table_id = created["table_id"]
    tokens = [created["token"], server.join(table_id)["token"]]
    server.automating(table_id)
    players = []
    for token in tokens:
        c = server.socket(table_id)
        c.hello(token)
        players.append(c)
    watcher = server.socket(table_id)
    watcher.hello(None)
    mover = next(p for p in players if p.view is not None and p.view["legal_actions"])
    assert mover.view is not None
    mover.act(mover.view["legal_actions"][0])

    def opens(f: dict[str, Any]) -> bool:
        return f["type"] == "update" and "window_opened" in [e["kind"] for e in f["events"]]

    for p in [*players, watcher]:
        p.until(opens)
    opened = watcher.frames[-1]
    asked = players[0]
    assert asked.view is not None and asked.view["header"]["move"] == first.move
    assert any(a["type"] != "pass" for a in asked.view["legal_actions"]), "Ann holds a BLOCK"
    others = [p for p in [*players, watcher] if p is not asked]
    seen = [len(p.frames) for p in others]
    answer = next(a for a in asked.view["legal_actions"] if a["type"] == "pass")
    asked.act(answer, cid="w1")
    asked.act(answer, cid="w2")
    refused = asked.until(lambda f: f["type"] in ("error", "update"))
    assert (refused["type"], refused.get("code"), refused.get("id")) == (
        "error",
        "action/not-your-turn",
        "w2",
    )
    # Every answer is in, but the window stays open its minimum (2 s).
    server.advance(1.5)
    assert server.inspect(table_id, lambda r: r.table is not None and r.table.move) == first.move
    server.advance(0.5)
    closed = asked.until(lambda f: f.get("ack") == "w1")
    assert "window_closed" in [e["kind"] for e in closed["events"]]
    assert closed["clock"]["now"] - opened["clock"]["now"] == 2
    for p, before in zip(others, seen, strict=True):
        frame = p.until(lambda f: f["type"] == "update")
        assert len(p.frames) - 1 == before or frame["move"] == closed["move"]
        assert "window_closed" in [e["kind"] for e in frame["events"]]
