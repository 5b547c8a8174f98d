"""Two ``racedeck serve`` processes on one PostgreSQL database, with players on both: they
see the same game, and when the process that plays the table's bot is killed, the other takes
the bot over and the game goes on to its end.

The servers are processes of their own here, so frames are checked as they arrive: each
against the protocol's schema, none with another seat's private events or view, no token.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg

from racedeck.core.fairness import verify
from racedeck.core.record import GameRecord
from racedeck.server.cluster import APPLICATION_NAME, table_key
from racedeck.server.process import ServerProcess
from server.live import (
    Client,
    plain_http,
    process_client,
    protocol_errors,
    settle,
    view_move,
)


def open_client(server: ServerProcess, table_id: str, token: str | None) -> Client:
    return process_client(server.port, table_id, token)


def check(clients: list[Client], tokens: list[str]) -> None:
    """The leak rules on every frame received: the protocol's schema, only the recipient's
    own events and view, never a token."""
    for c in clients:
        for frame in c.frames:
            errors = protocol_errors(frame)
            assert not errors, errors[0]
            text = json.dumps(frame)
            assert not any(t in text for t in tokens), "a token was sent"
            for e in frame.get("events", []):
                assert e.get("audience", c.seat) == c.seat, "another seat's private event"
            if frame.get("view") is not None:
                assert frame["view"]["header"]["seat"] == c.seat, "another seat's view"


def bot_acting(c: Client, people: list[Client]) -> bool:
    """Whether ``c``'s view asks a seat none of ``people`` holds (the bot) to act."""
    assert c.view is not None
    seats = {p.seat for p in people}
    return any(seat not in seats for seat in c.view["header"]["acting"])


def over(c: Client) -> bool:
    return c.view is not None and bool(c.view["header"]["terminal"])


def play(clients: list[Client], rng: random.Random, moves: int) -> int:
    """Random legal actions by whoever may act, until ``moves`` were accepted or the end
    (within two minutes: a table whose bots nobody plays stops here). Every client has seen
    each move before the next, so no action is chosen from a stale view."""
    done = 0
    deadline = time.monotonic() + 120
    while done < moves and not all(over(c) for c in clients):
        assert time.monotonic() < deadline, f"the game stalled after {done} moves"
        movers = [c for c in clients if c.view is not None and c.view["legal_actions"]]
        if any(bot_acting(c, clients) for c in movers):
            # The bot places its card in the same round: people wait for it, so no move of
            # theirs is answered on a view the bot's move made stale.
            movers = []
        if not movers:
            # The bot's turn: every move is public, so the first view to change is the one
            # furthest behind.
            with contextlib.suppress(TimeoutError):
                min(clients, key=view_move).recv(0.2)
            settle(clients, ping=False)
            continue
        c = rng.choice(movers)
        assert c.view is not None
        c.act(rng.choice(c.view["legal_actions"]), cid=f"m{done}")
        frame = c.until(lambda f, n=done: f["type"] == "error" or f.get("ack") == f"m{n}", 60)
        assert frame["type"] == "update", frame
        done += 1
        settle(clients, ping=False)
    return done


def public_events(c: Client) -> list[str]:
    return [e["text"] for f in c.frames for e in f.get("events", []) if "audience" not in e]


def automating(database: str, table_id: str) -> int:
    """The process id of the server holding the table's advisory lock."""
    key = table_key(table_id) & (2**64 - 1)
    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            " AND l.classid = %s::bigint::oid AND l.objid = %s::bigint::oid",
            [key >> 32, key & 0xFFFFFFFF],
        ).fetchone()
    assert row is not None, "no server automates the table"
    name = str(row[0])
    assert name.startswith(APPLICATION_NAME)
    return int(name.split(" ")[-2])  # "racedeck serve PID ORIGIN"


def test_two_processes_then_the_bots_owner_is_killed(postgres_url: str, tmp_path: Path) -> None:
    extra = ["--bot-delay", "0", "--bot-workers", "1"]
    servers = [
        ServerProcess(postgres_url, extra=extra, log=tmp_path / f"serve-{i}.log") for i in range(2)
    ]
    try:
        # Both start at once: each waits mostly for its own imports.
        with ThreadPoolExecutor(2) as starting:
            list(starting.map(ServerProcess.start, servers))
        first, second = servers
        http = [plain_http(s.url) for s in servers]
        created = (
            http[0]
            .post(
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
                    "client_seed": "ann-1",
                },
            )
            .json()
        )
        tid = created["table_id"]
        joined = http[1].post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        tokens = [created["token"], joined["token"]]
        ann = open_client(first, tid, tokens[0])
        bob = open_client(second, tid, tokens[1])
        rng = random.Random(11)
        assert play([ann, bob], rng, 10) == 10
        settle([ann, bob], ping=False)
        assert ann.view is not None and bob.view is not None
        assert ann.view["header"]["move"] == bob.view["header"]["move"]
        assert public_events(ann) == public_events(bob)
        check([ann, bob], tokens)

        at_kill = ann.view["header"]["move"]
        owner_pid = automating(postgres_url, tid)
        owner = next(s for s in servers if s.proc is not None and s.proc.pid == owner_pid)
        survivor = second if owner is first else first
        owner.kill()
        # The person on the dead process reconnects to the other one.
        moved = ann if owner is first else bob
        moved.close()
        again = open_client(survivor, tid, tokens[0] if moved is ann else tokens[1])
        players = [again, bob] if moved is ann else [ann, again]
        play(players, rng, 10_000)
        for c in players:
            if not over(c):
                c.until(lambda f: f.get("view") is not None and f["view"]["header"]["terminal"])
        check([*players, ann, bob], tokens)

        info: dict[str, Any] = http[1 if owner is first else 0].get(f"/api/tables/{tid}").json()
        assert info["status"] == "over"
        host = http[1 if owner is first else 0]
        record = GameRecord.from_json(host.get(f"/api/tables/{tid}/record").json())
        assert verify(record) == []
        # The bot moved after its first owner was gone: the other process played it.
        assert any(a.seat == 2 for a in record.actions[at_kill:])
    finally:
        for s in servers:
            s.stop()
