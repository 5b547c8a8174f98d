"""SB-9 amended, online: a BLOCK window's length tells nothing of the hands.

Forced passes (a seat with no BLOCK) are answered by the driver; the service holds them back
until the window has been open ``window_seconds`` since anything was seen, so a window closes
no sooner whether every asked seat had to pass or some chose to.

The server runs on simulated time: a test moves the time on only while a window waits for it,
and reads each window's length from the clock in the frames that open and close it, so the
lengths are exact, however busy the machine. The deal is chosen in advance
(:mod:`server.deals`): its windows alternate between one a person holds a BLOCK in and one
where every pass is forced.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from racedeck.server.rooms import Room
from server.deals import HELD_THEN_FORCED, windows
from server.live import Client, LiveServer, eventually, seed

# SB-9 windows are held by the process that automates the table: on PostgreSQL, the sweep's.
SERVER_DATABASES = ("sqlite", "postgresql")
SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables
and moves the shared simulated time only on (others' timers due meanwhile fire too)."""

SECONDS = 2
STEP = 0.25
"""Seconds the time moves on at once while a window waits for it."""


def _waiting(pass_at_once: bool) -> Any:
    """Whether the table waits for nothing but time: a window is open at the process that
    automates it, and every answer the people will give is in."""

    def waits(room: Room) -> bool:
        ref = room.referee
        window = ref.window
        return ref.automates and window is not None and (window.complete or not pass_at_once)

    return waits


def read_waiting(c: Client, first: float = 0.05) -> list[dict[str, Any]]:
    """Every frame ``c`` has waiting (the first waited for up to ``first`` seconds)."""
    frames = []
    wait = first
    while True:
        try:
            frames.append(c.recv(wait))
        except TimeoutError:
            return frames
        wait = 0.001


def catch_up(server: LiveServer, table_id: str, c: Client) -> None:
    """Read ``c``'s frames until its view is at the table's current move."""
    move = server.inspect(table_id, lambda room: room.referee.table.move)
    while c.view is None or c.view["header"]["move"] < move:
        c.recv()


def play_windows(
    server: LiveServer,
    table_id: str,
    watcher: Client,
    count: int,
    players: list[Client],
    *,
    pass_at_once: bool = True,
    others: tuple[Client, ...] = (),
) -> tuple[list[float], list[int]]:
    """Play the people's turns (the first legal action; in a window: pass at once, or with
    ``pass_at_once=False`` never answer) and move ``server``'s time on while a window waits
    for it, until ``count`` windows closed. Return how long each stayed open, by the table's
    clock in the spectator's frames that open and close it, and the move numbers they opened
    at. ``server`` automates the table; ``others`` are sockets only read along."""
    lengths: list[float] = []
    moves: list[int] = []
    opened: float | None = None
    read = len(watcher.frames)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"only {len(lengths)} windows seen"
        # The spectator's frames may lag behind the table on a busy machine: read them up to
        # the table's move before anyone acts, or the people would play on past the last
        # window counted and the time would run through the next one.
        catch_up(server, table_id, watcher)
        for frame in watcher.frames[read:]:
            if frame["type"] != "update":
                continue
            kinds = [e["kind"] for e in frame["events"]]
            now = frame["clock"]["now"]
            if "window_closed" in kinds and opened is not None:
                lengths.append(now - opened)
                opened = None
            if "window_opened" in kinds:
                opened = now
                moves.append(frame["move"])
        read = len(watcher.frames)
        if len(lengths) >= count:
            break
        for p in players:
            view = p.view
            if view is None or not view["legal_actions"]:
                continue
            if view["phase"] == "window":
                if not pass_at_once:
                    continue
                p.act(next(a for a in view["legal_actions"] if a["type"] == "pass"))
            else:
                p.act(view["legal_actions"][0])
            p.view = dict(view, legal_actions=[])  # answered: wait for the next view
        for p in [*players, *others]:
            read_waiting(p, 0.01)
        # A socket on another server shows what it hears of the table at that server's time:
        # it must have heard of the window before the time moves on (or it opened later there).
        for o in others:
            catch_up(server, table_id, o)
        while server.inspect(table_id, _waiting(pass_at_once)):
            server.advance(STEP)
    return lengths, moves


def _table(server: LiveServer, config: dict[str, Any]) -> tuple[str, Client, list[Client]]:
    server.seeds.then(seed(HELD_THEN_FORCED))
    created = server.create("setback", ["human", "human"], {"players": 2, **config})
    table_id = created["table_id"]
    joined = server.join(table_id)
    server.automating(table_id)
    players = []
    for token in (created["token"], joined["token"]):
        c = server.socket(table_id)
        c.hello(token)
        players.append(c)
    watcher = server.socket(table_id)
    watcher.hello(None)
    return table_id, watcher, players


PLANNED = windows(HELD_THEN_FORCED)[:4]


def test_the_deal_alternates_held_and_forced_windows() -> None:
    """The deal the tests below play: a person holds a BLOCK in its first and third windows,
    nobody in its second and fourth."""
    assert [(w.move, w.holders) for w in PLANNED] == [(1, (0,)), (3, ()), (5, (0,)), (7, ())]


def test_a_window_stays_open_its_minimum_whoever_holds_a_block(sim_server: LiveServer) -> None:
    table_id, watcher, players = _table(sim_server, {"window_seconds": SECONDS})
    lengths, moves = play_windows(sim_server, table_id, watcher, 4, players)
    assert moves == [w.move for w in PLANNED]
    # Every asked seat answers at once (forced or chosen): each window lasts its minimum,
    # exactly, whether a person held a BLOCK in it or not.
    assert lengths == pytest.approx([SECONDS] * 4), lengths


def test_without_a_minimum_forced_windows_close_at_once(sim_server: LiveServer) -> None:
    """The control: with ``window_seconds=0`` the same answers close windows at once, so the
    minimum above is what makes them last."""
    table_id, watcher, players = _table(sim_server, {"window_seconds": 0})
    lengths, moves = play_windows(sim_server, table_id, watcher, 4, players)
    assert moves == [w.move for w in PLANNED]
    assert lengths == [0.0] * 4, lengths


def test_bot_only_tables_hold_nothing_back(sim_server: LiveServer) -> None:
    """Bots alone play to the end without the time ever moving: nothing is held back for
    anyone to read the window's timing."""
    created = sim_server.create("setback", ["random", "random"], {"players": 2})
    room = sim_server.service.rooms[created["table_id"]]
    assert not room.has_people
    eventually(
        lambda: room.table is not None and room.table.is_over,
        "bots alone play to the end without waiting",
        30,
    )
    assert room.table is not None and room.table.move > 0
