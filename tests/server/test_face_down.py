"""Face-down commitments at a real server: a *Why First?* card placed face down (WF-4) is
committed to everyone the moment it is placed, its salt goes to its own seat alone until the
cards are turned up, and the record's commitments are the ones published. Setback's silent
BLOCK window answers (SB-9) never make one. The leak checker of :mod:`server.live` also fails
any frame that carries a sealed salt to another seat or a spectator."""

from __future__ import annotations

import json
import random
from typing import Any

from racedeck.core.commitments import digest
from racedeck.core.fairness import commitment, verify
from racedeck.core.record import GameRecord, replay
from racedeck.server.face_down import ledger_for
from server.live import Client, FrameChecker, LiveServer, seated
from server.test_leaks import play_to_the_end

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


def update_after(client: Client, move: int) -> dict[str, Any]:
    """The update of the step that made move number ``move``."""
    return client.until(lambda f: f["type"] == "update" and f["move"] == move)


def test_a_face_down_card_is_committed_at_once_and_opened_at_the_reveal(
    server: LiveServer, checker: FrameChecker
) -> None:
    table_id, clients, watcher = seated(
        server, "why-first", ["human", "human", "human"], {"stages": 1}
    )
    room = server.service.rooms[table_id]
    game_commitment = commitment(room.server_seed)
    placed: list[dict[str, Any]] = []
    published: list[dict[str, Any]] = []
    for seat in (1, 0):  # two of three seats place a card: nothing is turned up yet
        c = clients[seat]
        assert c.view is not None and c.view["legal_actions"]
        action = c.view["legal_actions"][-1]
        move = c.view["header"]["move"]
        c.act(action, cid=f"place-{seat}")
        own = update_after(c, move + 1)
        assert own["ack"] == f"place-{seat}"
        mine = own["commitment"]
        assert (mine["move"], mine["seat"]) == (move, seat)
        # The seat checks at once that the hash is of the card it chose.
        assert mine["hash"] == digest(game_commitment, move, seat, action, mine["salt"])
        assert "opened" not in own
        for other in [clients[s] for s in range(3) if s != seat] + [watcher]:
            theirs = update_after(other, move + 1)["commitment"]
            assert theirs == {"move": move, "seat": seat, "hash": mine["hash"]}
            assert mine["salt"] not in json.dumps(other.frames)
        placed.append(action)
        published.append(mine)

    # A spectator who comes now finds the hashes in the welcome, no salt.
    late = server.socket(table_id)
    welcome = late.hello(None)
    sealed = welcome["table"]["fair"]["commitments"]
    assert sealed == [{k: v for k, v in e.items() if k != "salt"} for e in published]
    assert not any(e["salt"] in json.dumps(welcome) for e in published)
    # The lobby's list leaves them out (it has no use for a game's worth of hashes).
    listed = [t for t in server.http.get("/api/tables").json() if t["id"] == table_id]
    assert listed and "commitments" not in listed[0]["fair"]
    assert server.http.get(f"/api/tables/{table_id}").json()["fair"]["commitments"] == sealed
    # What a restarted server rebuilds from the stored actions is what was published.
    assert room.table is not None and room.ledger is not None
    rebuilt = ledger_for(room.game, room.server_seed, room.table.record)
    assert rebuilt is not None and rebuilt.public_json() == sealed

    # The last card: every card is turned up (WF-4) and every salt with it.
    last = clients[2]
    assert last.view is not None
    move = last.view["header"]["move"]
    last.act(last.view["legal_actions"][0])
    for c in [*clients, watcher, late]:
        frame = update_after(c, move + 1)
        assert any(e["kind"] == "cards_revealed" for e in frame["events"])
        assert [e["move"] for e in frame["opened"]] == [0, 1, 2]
        assert frame["opened"][:2] == published
        assert frame["commitment"]["hash"] == frame["opened"][2]["hash"]

    play_to_the_end(clients, random.Random(5), [watcher, late])
    record = GameRecord.from_json(server.http.get(f"/api/tables/{table_id}/record").json())
    assert verify(record) == []
    entries = record.meta["fair"]["commitments"]
    assert entries[:2] == published
    # Every card placed face down was committed (WF-5's automatic last round is no decision),
    # and the spectator saw each hash as it was placed.
    assert len(entries) == sum(1 for a in record.actions if a.action["type"] == "place") == 12
    to_watcher = [f for tid, s, f in checker.frames if tid == table_id and s is None]
    seen = [f["commitment"] for f in to_watcher if "commitment" in f]
    # Each hash once per spectator (the second came after two cards), never with its salt.
    twice = [e["hash"] for e in entries[2:] for _ in range(2)]
    assert [e["hash"] for e in seen] == [e["hash"] for e in entries[:2]] + twice
    assert not any("salt" in e for e in seen)
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["fair"]["commitments"] == entries  # the end opens them all


def test_bots_face_down_cards_are_committed_too(server: LiveServer, checker: FrameChecker) -> None:
    # A bot's commit takes the same path: the person sees its hash, not its salt, until the
    # reveal (the leak checker watches every frame).
    table_id, clients, watcher = seated(
        server, "why-first", ["human", "random"], {"players": 2, "stages": 1, "variant": "tactical"}
    )
    play_to_the_end(clients, random.Random(2), [watcher])
    record = GameRecord.from_json(server.http.get(f"/api/tables/{table_id}/record").json())
    assert verify(record) == []
    entries = record.meta["fair"]["commitments"]
    assert {e["seat"] for e in entries} == {0, 1}
    to_person = [f for tid, s, f in checker.frames if tid == table_id and s == 0]
    # What the bot placed before the person's socket came is in its welcome; the rest came
    # one update at a time.
    welcome = next(f for f in to_person if f["type"] == "welcome")
    early = welcome["table"]["fair"]["commitments"]
    assert all("salt" not in e for e in early)
    assert early + [f["commitment"] for f in to_person if "commitment" in f] == [
        e if e["seat"] == 0 else {k: v for k, v in e.items() if k != "salt"} for e in entries
    ]


def test_setback_windows_make_no_commitment(server: LiveServer, checker: FrameChecker) -> None:
    # SB-9: who answers a BLOCK window, and who was asked, is nobody's business; a commitment
    # to a silent pass would tell it. People's sockets answer the windows here.
    table_id, clients, watcher = seated(
        server, "setback", ["human", "human", "heuristic"], {"window_seconds": 0}
    )
    play_to_the_end(clients, random.Random(11), [watcher])
    record = GameRecord.from_json(server.http.get(f"/api/tables/{table_id}/record").json())
    assert verify(record) == []
    game = record.make_game()
    state = game.start(record.seed).state
    silent = 0
    for step in replay(record):
        silent += step.seat in (0, 1) and game.conceals(state, step.seat, step.action)
        state = step.state
    assert silent > 0, "no person answered a window"
    assert record.meta["fair"]["commitments"] == []
    frames = [f for tid, _s, f in checker.frames if tid == table_id]
    assert not any("commitment" in f or "opened" in f for f in frames)
    tables = [f["table"]["fair"] for f in frames if f["type"] in ("table", "welcome")]
    assert tables and all(fair["commitments"] == [] for fair in tables)


def test_the_checker_catches_a_sealed_salt(server: LiveServer, checker: FrameChecker) -> None:
    table_id, clients, _watcher = seated(
        server, "why-first", ["human", "human", "human"], {"stages": 1}
    )
    c = clients[0]
    assert c.view is not None
    c.act(c.view["legal_actions"][0])
    own = update_after(c, 1)["commitment"]
    room = server.service.rooms[table_id]
    before = len(checker.problems)
    for seat in (0, 1, None):  # its own seat may hold it; another seat, a spectator may not
        checker(room, seat, {"type": "error", "code": "server/error", "message": own["salt"]})
    assert len(checker.problems) == before + 2
    assert all("face-down salt" in p for p in checker.problems[before:])
    checker.problems.clear()
