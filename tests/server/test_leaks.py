"""The leak checker itself can fail, and whole games of every title pass it on every frame.

Each game is played to the end by people's sockets (random legal choices) and bots, with a
spectator watching; every frame any of them receives goes through the checker of
:mod:`server.live`.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from racedeck.server.live import view_json
from server.live import Client, FrameChecker, LiveServer, seated, view_move

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


def play_to_the_end(
    clients: list[Client], rng: random.Random, watchers: list[Client], limit: int = 3000
) -> None:
    """Each person answers with a random legal action whenever their view offers one."""
    for _ in range(limit):
        if all(c.view is not None and c.view["header"]["terminal"] for c in clients):
            return
        movers = [c for c in clients if c.view is not None and c.view["legal_actions"]]
        if movers:
            c = rng.choice(movers)
            assert c.view is not None
            c.act(rng.choice(c.view["legal_actions"]))
            if c.view["phase"] == "window":
                # SB-9: a window's answer is sealed: nothing comes back before the close.
                c.view = dict(c.view, legal_actions=[])
            else:
                frame = c.until(lambda f: f["type"] in ("update", "error"))
                assert frame["type"] == "update" or frame["code"] == "action/stale", frame
        else:
            # Nobody may act: a bot decides, or a move is on its way to whoever is behind.
            # Every move is public, so the socket furthest behind hears of the next one.
            behind = min(clients + watchers, key=view_move)
            with contextlib.suppress(TimeoutError):
                behind.recv(0.5)
        # Read what the others were sent (up to now: a ping's round trip, not a wait).
        for other in clients + watchers:
            other.catch_up()
    raise AssertionError("the game did not end")


GAMES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("why-first", ["human", "human", "heuristic"], {"stages": 2}),
    ("why-first", ["human", "random"], {"players": 2, "stages": 1, "variant": "tactical"}),
    ("six-day-race", ["human", "human", "random"], {"races": 2}),
    # Windows close as soon as everyone has answered here (window_seconds=0): the test is
    # about what is sent, not when (tests/server/test_windows.py holds the clock).
    ("setback", ["human", "human", "heuristic"], {"window_seconds": 0}),
    ("setback", ["human", "human"], {"players": 2, "window_seconds": 0}),
]


@pytest.mark.parametrize(("game", "seats", "config"), GAMES)
def test_whole_games_leak_nothing(
    server: LiveServer, checker: FrameChecker, game: str, seats: list[str], config: dict[str, Any]
) -> None:
    table_id, clients, watcher = seated(server, game, seats, config)
    play_to_the_end(clients, random.Random(7), [watcher])
    if not (watcher.view is not None and watcher.view["header"]["terminal"]):
        watcher.until(lambda f: f.get("view") is not None and f["view"]["header"]["terminal"])
    seen = {seat for tid, seat, _f in checker.frames if tid == table_id}
    assert seen == {None, *range(len(clients))}
    assert sum(1 for tid, _s, f in checker.frames if tid == table_id and f["type"] == "update") > 10


def test_the_checker_catches_another_seats_view(server: LiveServer, checker: FrameChecker) -> None:
    created = server.create("why-first", ["human", "random", "random"])
    room = server.service.rooms[created["table_id"]]
    assert room.table is not None
    other = view_json(room.table, 1, room.names)
    before = len(checker.problems)
    checker(
        room,
        0,
        {"type": "update", "game_no": 1, "move": room.table.move, "view": other, "events": []},
    )
    assert len(checker.problems) == before + 1
    secret = {"type": "error", "code": "action/illegal", "message": created["token"]}
    checker(room, 0, secret)
    assert len(checker.problems) == before + 2
    checker(room, 0, {"type": "table", "table": {**server.service.info(room), "seed": 1}})
    assert len(checker.problems) == before + 3
    private = [e for e in room.table.history[0][1] if e.audience == 1]
    events = [dict(e.to_json(), text="x") for e in private]
    mine = view_json(room.table, 0, room.names)
    checker(
        room,
        0,
        {
            "type": "update",
            "game_no": 1,
            "move": room.table.move,
            "view": mine,
            "events": events or [{"kind": "card_dealt", "audience": 1, "text": "x"}],
        },
    )
    assert len(checker.problems) == before + 4
    checker.problems.clear()
