"""A real ``racedeck serve`` killed with SIGKILL mid-game comes back with every accepted move;
people reconnect with their tokens, get their exact view back and finish the game.

The server runs in its own process here, so the frames are checked on arrival: each against
the protocol's schema, and each view against the view the stored record replays to.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
from pathlib import Path
from typing import Any

from racedeck.core.fairness import verify
from racedeck.core.record import GameRecord
from racedeck.core.table import Table
from racedeck.server.live import view_json
from racedeck.server.process import ServerProcess
from racedeck.store.tables import TableStore
from server.live import (
    Client,
    plain_http,
    process_client,
    protocol_errors,
    settle,
    view_move,
)


def children(pid: int) -> set[int]:
    """The processes ``pid`` started that are still there (its bot workers, say)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat[stat.rfind(")") + 2 :].split()[1]) == pid:
                    found.add(int(entry))
    return found


def ended(pid: int) -> bool:
    """Wait for process ``pid`` (not a child of ours) to end; ``False`` if it does not.

    Its pidfd becomes readable when it ends: nothing here looks at a clock or sleeps. The
    bound only keeps a broken build from hanging (the workers end at once, on an event).
    """
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], 120)
        return bool(readable)
    finally:
        os.close(fd)


def open_client(server: ServerProcess, table_id: str, token: str) -> Client:
    return process_client(server.port, table_id, token)


def stored_view(db: Path, table_id: str, seat: int) -> dict[str, Any]:
    """The seat's view as the stored record replays it (what a restart must give back)."""
    store = TableStore(db)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    table = Table.from_record(stored.record())
    names = [s.name or f"{s.bot} bot" for s in stored.seats]
    return view_json(table, seat, names)


def check(clients: list[Client]) -> None:
    """Every frame matches the protocol and holds only its recipient's events and view."""
    for c in clients:
        for frame in c.frames:
            errors = protocol_errors(frame)
            assert not errors, errors[0]
            for e in frame.get("events", []):
                assert e.get("audience", c.seat) == c.seat
            if frame.get("view") is not None:
                assert frame["view"]["header"]["seat"] == c.seat


def play_some(clients: list[Client], rng: random.Random, moves: int) -> int:
    """Random legal actions by whoever may act, until ``moves`` were accepted or the end."""
    done = 0
    while done < moves:
        if all(c.view is not None and c.view["header"]["terminal"] for c in clients):
            break
        movers = [c for c in clients if c.view is not None and c.view["legal_actions"]]
        if not movers:
            # The bot's turn: every move is public, so the first view to change is the one
            # furthest behind; then everyone reads on to the same move.
            with contextlib.suppress(TimeoutError):
                min(clients, key=view_move).recv(0.2)
            settle(clients, ping=False)
            continue
        c = rng.choice(movers)
        assert c.view is not None
        c.act(rng.choice(c.view["legal_actions"]), cid="m")
        frame = c.until(lambda f: f["type"] == "error" or f.get("ack") == "m")
        if frame["type"] == "error" and frame["code"] == "action/stale":
            # The bot moved after this client last read its socket (its update came before
            # the refusal): the others read on to it too, and someone chooses again.
            settle(clients, ping=False)
            continue
        assert frame["type"] == "update", frame
        done += 1
        settle(clients, ping=False)
    return done


def test_sigkill_mid_game_then_finish(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    server = ServerProcess(db, extra=["--bot-delay", "0", "--bot-workers", "1"]).start()
    try:
        http = plain_http(server.url)
        created = http.post(
            "/api/tables",
            json={
                "game": "why-first",
                "config": {"players": 3, "stages": 2},
                "seats": [
                    {"kind": "human"},
                    {"kind": "human"},
                    {"kind": "bot", "bot": "heuristic"},
                ],
                "name": "Ann",
                "client_seed": "ann-7",
            },
        ).json()
        tid = created["table_id"]
        committed = created["table"]["fair"]["commitment"]
        joined = http.post(
            f"/api/tables/{tid}/join", json={"name": "Bob", "client_seed": "bob-9"}
        ).json()
        tokens = [created["token"], joined["token"]]
        clients = [open_client(server, tid, t) for t in tokens]
        rng = random.Random(3)
        assert play_some(clients, rng, 12) == 12
        for c in clients:
            # The bot (seat 2) may still be placing its card: what the seats saw last is the
            # table once it waits for people only.
            assert c.view is not None
            if 2 in c.view["header"]["acting"]:
                c.until(
                    lambda f: f.get("view") is not None and 2 not in f["view"]["header"]["acting"]
                )
        before = {c.seat: c.view for c in clients}
        assert not any(v is None or v["header"]["terminal"] for v in before.values())
        check(clients)

        assert server.proc is not None
        left = children(server.proc.pid)
        assert left, "the bot played: the server has a bot worker"
        server.kill()
        for c in clients:
            c.close()
        # A killed server's bot worker does not wait for work forever.
        assert all(ended(pid) for pid in left), "the killed server's bot worker is still there"
        server.start()

        clients = [open_client(server, tid, t) for t in tokens]
        for c in clients:
            assert c.seat is not None
            # The exact view back: what the seat last saw, and what the record replays to.
            assert c.view == before[c.seat]
            assert c.view == stored_view(db, tid, c.seat)
        play_some(clients, rng, 10_000)
        for c in clients:
            if not (c.view is not None and c.view["header"]["terminal"]):
                c.until(lambda f: f.get("view") is not None and f["view"]["header"]["terminal"])
            assert c.view is not None and c.view["header"]["outcome"] is not None
        check(clients)
        info = http.get(f"/api/tables/{tid}").json()
        assert info["status"] == "over"
        assert json.dumps(info).find(tokens[0]) == -1
        # The server seed and the client seeds survived the restart: the record verifies
        # against the commitment published before the deal.
        assert info["fair"]["commitment"] == committed
        assert info["fair"]["client_seeds"] == ["ann-7", "bob-9", ""]
        record = GameRecord.from_json(http.get(f"/api/tables/{tid}/record").json())
        assert verify(record) == []
    finally:
        server.stop()
