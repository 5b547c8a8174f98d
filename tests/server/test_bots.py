"""Bots at server tables: they decide in worker processes from their own view only, their
moves take the authoritative path, and a searching bot never holds up the service."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.live import FrameChecker, LiveServer, serving


@pytest.fixture
def process_server(tmp_path: Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A server whose bots decide in worker processes (as ``racedeck serve`` runs them)."""
    with serving(tmp_path / "tables.sqlite", checker, bot_pool="process", bot_workers=1) as live:
        yield live


def bots_moved(server: LiveServer, table_id: str) -> bool:
    """A move of seat 1 or 2 (the bots) is in the store."""
    stored = server.service.store.load(table_id)
    assert stored is not None
    return bool({s for s, _a in stored.actions} & {1, 2})


def test_a_searching_bot_does_not_stall_the_service(process_server: LiveServer) -> None:
    server = process_server
    # Two search bots at the largest budget keep the one worker busy for a while.
    busy = server.create("setback", ["human", "search@2000", "search@2000"], {"players": 3})
    ann = server.socket(busy["table_id"])
    ann.hello(busy["token"])
    assert ann.view is not None
    room = server.service.rooms[busy["table_id"]]
    # Play Ann's part until a bot is thinking (who goes first, and whether Ann's actions open a
    # BLOCK window the bots must answer, depends on the deal).
    deadline = time.monotonic() + 60
    while not room.thinking:
        assert time.monotonic() < deadline, "no bot started thinking"
        if ann.view["legal_actions"]:
            cid = f"go{ann.view['header']['move']}"
            ann.act(ann.view["legal_actions"][0], cid=cid)
            ann.until(lambda f, cid=cid: cid in (f.get("ack"), f.get("id")))
        else:
            with contextlib.suppress(TimeoutError):
                ann.recv(0.2)
    # While the bots think, the service answers at once: pings, the lobby, a new table. "At
    # once" is measured against the search itself, not the wall clock (a busy machine slows
    # both): every answer comes while the first bot's move is still out, where a service
    # stalled by the search would answer only once the bot had moved.
    for i in range(10):
        ann.send({"type": "ping", "id": str(i)})
        ann.until(lambda f, i=i: f["type"] == "pong" and f.get("id") == str(i))
        assert server.http.get("/api/tables").status_code == 200
    server.create("why-first", ["human", "random"])
    assert not bots_moved(server, busy["table_id"]), "the service answered only after the bot"
    # And the bots do move, through the same path (recorded like anyone's moves); Ann answers
    # when she is asked, so the game never waits on her.
    deadline = time.monotonic() + 120
    while not bots_moved(server, busy["table_id"]):
        assert time.monotonic() < deadline, "the bots never moved"
        if ann.view["legal_actions"]:
            legal = ann.view["legal_actions"]
            ann.act(next((a for a in legal if a["type"] == "pass"), legal[0]))
            ann.view = dict(ann.view, legal_actions=[])
        with contextlib.suppress(TimeoutError):
            ann.recv(0.2)


def test_bot_tables_play_to_the_end_and_again(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "random", "heuristic"], {"stages": 1})
    ann = server.socket(created["table_id"])
    ann.hello(created["token"])
    while True:
        assert ann.view is not None
        if ann.view["header"]["terminal"]:
            break
        if ann.view["legal_actions"]:
            ann.act(ann.view["legal_actions"][-1], cid="a")
            ann.until(lambda f: f["type"] == "error" or f.get("ack") == "a")
        else:
            ann.recv(20)
    outcome = ann.view["header"]["outcome"]
    assert outcome is not None and outcome["winners"]
    stored = server.service.store.load(created["table_id"])
    assert stored is not None and stored.status == "over"
    assert {s for s, _a in stored.actions} == {0, 1, 2}


def test_a_dead_bot_worker_is_replaced(process_server: LiveServer) -> None:
    server = process_server
    created = server.create("six-day-race", ["human", "search@300"], {"players": 2})
    ann = server.socket(created["table_id"])
    ann.hello(created["token"])
    room = server.service.rooms[created["table_id"]]
    # Wait until the bot is deciding in its worker, then kill the worker.
    deadline = time.monotonic() + 30
    while True:
        pool = server.service.bots._pool
        workers = list(getattr(pool, "_processes", {}).values()) if pool is not None else []
        if room.thinking and workers:
            break
        assert ann.view is not None
        if ann.view["legal_actions"]:
            ann.act(ann.view["legal_actions"][0], cid="a")
            ann.until(lambda f: f["type"] == "error" or f.get("ack") == "a")
        assert time.monotonic() < deadline
        time.sleep(0.01)
    moves = room.table.move if room.table is not None else 0
    for worker in workers:
        worker.kill()
    # The decision is retried in a fresh pool and the game goes on.
    ann.until(lambda f: f["type"] == "update" and f["move"] > moves, 60)
    assert room.failures >= 1
