"""The sockets of the table service: a socket greeted, gone, acting; its errors and pings.

Part of :class:`~racedeck.server.service.TableService` (mixed into it). A socket holds a seat
(its token's) or watches; what it may open is the :class:`~racedeck.server.limits.Gate`'s to
say, what it does goes to its table's referee through :meth:`TableService.run`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from racedeck.core.errors import AuthError, RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.logs import table_log
from racedeck.server.messages import Act
from racedeck.server.outbox import close, send
from racedeck.server.referee import messages as m
from racedeck.server.referee.frames import error_frame
from racedeck.server.rooms import FLOOD_LIMIT, Connection, Room, ServiceError

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["Connections"]


class Connections:
    """Sockets (mixed into :class:`~racedeck.server.service.TableService`)."""

    async def connect(self, room: Room, token: str | None) -> Connection:
        """Authenticate a socket (a token, or ``None`` for a spectator), register it and queue
        its welcome. Raises :class:`AuthError` for a token that holds no seat here, and
        ``server/stopping`` once the service stops."""
        svc = cast("TableService", self)
        async with room.lock:
            svc.refuse_if_stopping()
            with svc._guarded(room, True):
                # Under the row lock: a person back may store the clock (a takeover ends).
                seat = None
                if token is not None:
                    seat = svc.seat_of(room, token)
                    if seat is None:
                        raise AuthError("this token holds no seat at this table")
                svc.gate.admit_socket(room, seat)
                svc._next_conn += 1
                conn = Connection(
                    room=room,
                    seat=seat,
                    id=svc._next_conn,
                    rate=svc.rate,
                    burst=svc.burst,
                    tokens=svc.burst,
                    refilled=svc.clock.now(),
                )
                room.connections[conn.id] = conn
                if seat is None:
                    svc.gate.spectators += 1
                if svc.cluster is not None and seat is not None:
                    svc.cluster.announce(room)
                svc.feed(room, m.Connect(conn.id, seat))
                return conn

    async def disconnect(self, conn: Connection) -> None:
        """Forget a closed socket."""
        svc = cast("TableService", self)
        room = conn.room
        async with room.lock:
            if room.connections.pop(conn.id, None) is not None and conn.seat is None:
                svc.gate.spectators -= 1
            conn.closed = True
            if conn.seat is not None and svc.cluster is not None:
                svc.cluster.announce(room)
            svc.feed(room, m.Disconnect(conn.id))
        if svc._sockets_gone is not None and svc._no_sockets():
            svc._sockets_gone.set()

    async def act(self, conn: Connection, msg: Act) -> None:
        """A person's action from their socket; errors go back to that socket only. A
        stopping service takes none (``server/stopping``): it was not made, and the person
        makes it again once reconnected."""
        svc = cast("TableService", self)
        if svc._refused_when_stopping(conn, msg.id):
            return
        await svc.run(conn.room, m.Act(conn.id, msg.move, msg.action, msg.id), conn=conn)

    async def back(self, conn: Connection, client_id: str | None) -> None:
        """ "I'm back" from a seat a bot took over: its person plays it again (a no-op when no
        bot plays it)."""
        svc = cast("TableService", self)
        if svc._refused_when_stopping(conn, client_id):
            return
        await svc.run(conn.room, m.Back(conn.id, client_id), conn=conn)

    def _refused_when_stopping(self, conn: Connection, client_id: str | None) -> bool:
        svc = cast("TableService", self)
        try:
            svc.refuse_if_stopping()
        except ServiceError as exc:
            svc.send_error(conn, exc, client_id)
            return True
        return False

    def send_error(self, conn: Connection, exc: RacedeckError, client_id: str | None) -> None:
        """Send ``exc`` to one socket as an ``error`` frame."""
        svc = cast("TableService", self)
        send(conn, error_frame(exc, client_id), svc.observers, svc.metrics)

    def flooded(self, conn: Connection) -> None:
        """A message over the socket's rate was dropped unread: tell the sender at most once a
        second, and close a socket that keeps on (it may reconnect)."""
        svc = cast("TableService", self)
        if conn.dropped > FLOOD_LIMIT:
            table_log(conn.room.id).warning("closing a socket that floods")
            close(conn)
            return
        now = svc.clock.now()
        if now - conn.warned >= 1.0:
            conn.warned = now
            svc.send_error(
                conn,
                ServiceError(
                    "message/rate-limited", "too many messages; this one was dropped", 429
                ),
                None,
            )

    def pong(self, conn: Connection, client_id: str | None) -> None:
        """Answer a ping."""
        svc = cast("TableService", self)
        frame: JSONObject = {"type": "pong"}
        if client_id is not None:
            frame["id"] = client_id
        send(conn, frame, svc.observers, svc.metrics)
