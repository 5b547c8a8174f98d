"""SB-9 amended, online: a BLOCK window's length tells nothing of the hands.

Forced passes (a seat with no BLOCK) are answered by the driver; the service holds them back
until the window has been open ``window_seconds`` since anything was seen, so a window closes
no sooner whether every asked seat had to pass or some chose to.
"""

from __future__ import annotations

import time
from typing import Any

from server.live import Client, LiveServer

# SB-9 windows are held by the process that automates the table: on PostgreSQL, the sweep's.
SERVER_DATABASES = ("sqlite", "postgresql")

SECONDS = 2


def _window_frames(watcher: Client, windows: int, players: list[Client]) -> list[float]:
    """Play the people's turns (first legal action; in a window: pass at once) and return how
    long each of ``windows`` windows stayed open, as the spectator saw it."""
    lengths: list[float] = []
    opened: float | None = None
    deadline = time.monotonic() + 60
    while len(lengths) < windows:
        assert time.monotonic() < deadline, f"only {len(lengths)} windows seen"
        for p in players:
            if p.view is not None and p.view["legal_actions"]:
                legal = p.view["legal_actions"]
                choice = next((a for a in legal if a["type"] == "pass"), legal[0])
                p.act(choice)
                p.view = dict(p.view, legal_actions=[])  # answered: wait for the next view
        # Read every frame the spectator has waiting before timing anything: a backlog read
        # one frame per loop would time a frame when it is read, not when it came.
        frames: list[tuple[float, dict[str, Any]]] = []
        wait = 0.05
        while True:
            try:
                frames.append((time.monotonic(), watcher.recv(wait)))
            except TimeoutError:
                break
            wait = 0.001
        for p in players:
            while True:
                try:
                    p.recv(0.01)
                except TimeoutError:
                    break
        for now, frame in frames:
            kinds = [e["kind"] for e in frame.get("events", [])]
            if "window_closed" in kinds and opened is not None:
                lengths.append(now - opened)
                opened = None
            if "window_opened" in kinds:
                opened = now
    return lengths


def _table(server: LiveServer, config: dict[str, Any]) -> tuple[Client, list[Client]]:
    created = server.create("setback", ["human", "human"], {"players": 2, **config})
    joined = server.join(created["table_id"])
    players = []
    for token in (created["token"], joined["token"]):
        c = server.socket(created["table_id"])
        c.hello(token)
        players.append(c)
    watcher = server.socket(created["table_id"])
    watcher.hello(None)
    return watcher, players


def test_a_window_stays_open_its_minimum_whoever_holds_a_block(server: LiveServer) -> None:
    watcher, players = _table(server, {"window_seconds": SECONDS})
    lengths = _window_frames(watcher, 4, players)
    # Every asked seat answers at once (forced or chosen): each window lasts its minimum. The
    # spectator sees both ends late by the same delivery lag, unless the machine is very busy:
    # half the minimum leaves room for that and still tells a held window from an instant one.
    assert all(length >= SECONDS / 2 for length in lengths), lengths


def test_without_a_minimum_forced_windows_close_at_once(server: LiveServer) -> None:
    """The control: with ``window_seconds=0`` the same answers close windows at once, so the
    minimum above is what makes them last."""
    watcher, players = _table(server, {"window_seconds": 0})
    lengths = _window_frames(watcher, 4, players)
    assert min(lengths) < SECONDS / 2, lengths


def test_bot_only_tables_hold_nothing_back(server: LiveServer) -> None:
    created = server.create("setback", ["random", "random"], {"players": 2})
    room = server.service.rooms[created["table_id"]]
    assert not room.has_people
    deadline = time.monotonic() + 30
    while room.table is None or not room.table.is_over:
        assert time.monotonic() < deadline, "bots alone should play without waiting"
        time.sleep(0.05)
