"""One WebSocket at a table: the hello, then messages read and frames written until it closes.

The protocol is ``docs/protocol.md``'s: the first message must be ``hello`` (within
:data:`HELLO_TIMEOUT` seconds); every message after it is checked before it is looked at
(size, JSON, schema, the socket's rate budget) and handed to the
:class:`~racedeck.server.service.TableService`; the socket's outbox is written in order by a
task of its own.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from racedeck.core.errors import AuthError, InvalidMessage, RacedeckError
from racedeck.server.frames import encode
from racedeck.server.logs import table_log
from racedeck.server.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    Back,
    Hello,
    MessageTooLarge,
    Ping,
    describe_validation,
    load_json,
    parse_client_message,
)
from racedeck.server.metrics import Metrics
from racedeck.server.rooms import FLOOD_LIMIT, Connection, ServiceError
from racedeck.server.service import TableService

__all__ = ["HELLO_TIMEOUT", "RESTART_CLOSE", "RESTART_REASON", "serve_socket"]

HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to say ``hello``."""

RESTART_CLOSE = 1012
"""The WebSocket close code of a stopping server (*service restart*): reconnect."""
RESTART_REASON = "the server is restarting"
"""The close reason that goes with :data:`RESTART_CLOSE`."""

WRITER_SECONDS = 1.0
"""How long a socket the server closed has to send what is queued on it."""


async def serve_socket(websocket: WebSocket, service: TableService, table_id: str) -> None:
    """Serve one socket of table ``table_id`` from its hello to its close."""
    await websocket.accept()
    try:
        service.refuse_if_stopping()  # at once, rather than after the hello
    except ServiceError as exc:
        await _refuse(websocket, service.metrics, exc.code, str(exc))
        return
    room = service.find(table_id)
    if room is None:
        await _refuse(
            websocket, service.metrics, "table/not-found", f"there is no table {table_id!r}"
        )
        return
    try:
        text = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
        hello = parse_client_message(text)
        if not isinstance(hello, Hello):
            raise AuthError("the first message must be hello")
        if hello.token is None and not hello.spectator:
            raise AuthError("hello needs a token, or spectator: true")
        conn = await service.connect(room, hello.token)
    except (TimeoutError, WebSocketDisconnect):
        with suppress(Exception):
            await websocket.close()
        return
    except RacedeckError as exc:
        await _refuse(websocket, service.metrics, exc.code, str(exc))
        return
    writer = asyncio.create_task(_write(websocket, conn, service))
    try:
        await _read(websocket, service, conn)
    except WebSocketDisconnect:
        pass
    finally:
        # Closed by the server (the server stopping, say): the writer has what was queued
        # before the close to send first.
        closed_here = conn.closed
        await service.disconnect(conn)
        if closed_here:
            await asyncio.wait({writer}, timeout=WRITER_SECONDS)
        writer.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await writer


async def _receive_text(websocket: WebSocket) -> str:
    """The next message as text; a binary frame is refused as ``message/invalid``."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        if len(message.get("bytes") or b"") > MAX_MESSAGE_BYTES:
            raise MessageTooLarge(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
        raise InvalidMessage("messages are JSON text, not binary")
    return str(text)


async def _refuse(websocket: WebSocket, metrics: Metrics, code: str, message: str) -> None:
    """Refuse a socket before it is greeted: one ``error``, then the close (a stopping server's
    is "service restart", so the client reconnects)."""
    metrics.error(code, "socket")
    with suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        if code == "server/stopping":
            await websocket.close(code=RESTART_CLOSE, reason=RESTART_REASON)
        else:
            await websocket.close(code=1008)


async def _write(websocket: WebSocket, conn: Connection, service: TableService) -> None:
    """Send the socket's outbox in order; a ``None`` closes the socket."""
    while True:
        frame = await conn.outbox.get()
        if frame is None:
            code, reason = (1008 if not conn.closed else 1000), None
            if service.stopping:
                code, reason = RESTART_CLOSE, RESTART_REASON
            with suppress(Exception):
                await websocket.close(code=code, reason=reason)
            return
        await websocket.send_text(encode(frame))


async def _read(websocket: WebSocket, service: TableService, conn: Connection) -> None:
    """Read messages until the socket closes; each one is validated before it is looked at."""
    while not conn.closed:
        try:
            text = await _receive_text(websocket)
        except InvalidMessage as exc:
            if conn.allow(service.clock.now()):
                service.send_error(conn, exc, None)
            continue
        if not conn.allow(service.clock.now()):
            _dropped(service, conn, text)
            continue
        try:
            msg = parse_client_message(text)
        except InvalidMessage as exc:
            service.send_error(conn, exc, None)
            continue
        except ValidationError as exc:  # pragma: no cover - parse_client_message wraps these
            service.send_error(conn, InvalidMessage(describe_validation(exc)), None)
            continue
        if isinstance(msg, Act):
            try:
                await service.act(conn, msg)
            except Exception:
                table_log(conn.room.id).exception("an action failed")
                service.send_error(
                    conn,
                    ServiceError("server/error", "the server failed on this message", 500),
                    msg.id,
                )
        elif isinstance(msg, Ping):
            service.pong(conn, msg.id)
        elif isinstance(msg, Back):
            await service.back(conn, msg.id)
        else:
            service.send_error(conn, InvalidMessage("already greeted: hello comes once"), None)


def _dropped(service: TableService, conn: Connection, text: str) -> None:
    """A message over the socket's rate is dropped. One with an ``id`` is answered with it, so
    its sender knows which one to send again; the others are answered at most once a second
    (:meth:`TableService.flooded`, which also closes a socket that keeps on)."""
    client_id = _client_id(text)
    if client_id is None or conn.dropped > FLOOD_LIMIT:
        service.flooded(conn)
        return
    error = ServiceError(
        "message/rate-limited",
        f"too many messages: this one was dropped; wait and send it again (at most "
        f"{conn.rate:g} a second on average, {conn.burst:g} at once)",
        429,
    )
    service.send_error(conn, error, client_id)


def _client_id(text: str) -> str | None:
    """The ``id`` a message gives itself, if it is a JSON object of the allowed size with an
    ``id`` text of the allowed length (nothing else of it is acted on)."""
    if len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        obj = load_json(text)
    except ValueError:
        return None
    client_id = obj.get("id") if isinstance(obj, dict) else None
    return client_id if isinstance(client_id, str) and len(client_id) <= 64 else None
