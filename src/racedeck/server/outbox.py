"""Frames onto sockets: a referee's :class:`~racedeck.server.referee.messages.Send` delivered to
the connections it names, each frame shown to the observers (the tests' leak checker), counted
(:class:`~racedeck.server.metrics.Metrics`) and queued on the socket's outbox."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from racedeck.core.jsontypes import JSONObject
from racedeck.server.logs import table_log
from racedeck.server.metrics import Metrics
from racedeck.server.referee import messages as m
from racedeck.server.rooms import Connection, Room

__all__ = ["FrameObserver", "close", "deliver", "finish", "send"]

FrameObserver = Callable[[Room, "int | None", JSONObject], None]
"""Called with the table, the recipient's seat (``None``: a spectator) and every frame sent."""


def deliver(
    room: Room, effect: m.Send, observers: Iterable[FrameObserver], metrics: Metrics
) -> None:
    """Send ``effect``'s frame to every connection of ``room`` it names, with the ``ack``
    meant for each."""
    to = effect.to
    if isinstance(to, m.ToConn):
        conn = room.connections.get(to.conn)
        targets = [conn] if conn is not None else []
    elif isinstance(to, m.ToSeat):
        targets = [c for c in room.connections.values() if c.seat == to.seat]
    else:
        targets = [c for c in room.connections.values() if c.id != to.skip]
    for conn in targets:
        frame = effect.frame
        ack = effect.acks.get(conn.id)
        if ack is not None:
            frame = {**frame, "ack": ack}
        send(conn, frame, observers, metrics)


def send(
    conn: Connection, frame: JSONObject, observers: Iterable[FrameObserver], metrics: Metrics
) -> None:
    """Queue ``frame`` on ``conn`` (a closed socket gets nothing)."""
    if conn.closed:
        return
    for observe in observers:
        observe(conn.room, conn.seat, frame)
    try:
        conn.outbox.put_nowait(frame)
    except asyncio.QueueFull:
        # Too slow to keep up: close it; the client reconnects and gets a fresh welcome.
        table_log(conn.room.id).warning("closing a socket that does not read")
        close(conn)
        return
    metrics.frames.inc()
    if frame.get("type") == "error":
        metrics.error(str(frame["code"]), "socket")


def close(conn: Connection) -> None:
    """Close ``conn``: what it has not sent yet is dropped."""
    conn.closed = True
    while not conn.outbox.empty():
        conn.outbox.get_nowait()
    conn.outbox.put_nowait(None)


def finish(conn: Connection) -> None:
    """Close ``conn`` once it has sent what is queued (the server is stopping: every frame of
    what it did reaches its socket); nothing more is queued on it."""
    if conn.closed:
        return
    conn.closed = True
    try:
        conn.outbox.put_nowait(None)
    except asyncio.QueueFull:
        close(conn)  # a socket that does not read: it gets its welcome on reconnecting
