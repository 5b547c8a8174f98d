"""What the table service does on its own: let go of tables nobody plays, and stop cleanly.

Part of :class:`~racedeck.server.service.TableService` (mixed into it). Open tables nobody is
at expire (:meth:`~racedeck.server.limits.Gate.expired`), looked for on the service's clock.
A stopping service (:meth:`Upkeep.stop`) takes no new tables, seats, sockets or moves
(``server/stopping``), lets each table finish the command it is carrying out, and closes every
socket once it has sent what it was sent, with WebSocket close code 1012 (*service restart*):
clients reconnect, to this server restarted or to another process.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, cast

from racedeck.server.logs import log, table_log
from racedeck.server.outbox import finish
from racedeck.server.rooms import ServiceError

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["Upkeep"]


class Upkeep:
    """Expiry and stopping (mixed into :class:`~racedeck.server.service.TableService`)."""

    def _expire_later(self) -> None:
        svc = cast("TableService", self)
        every = min(60.0, svc.gate.limits.open_expiry / 4)
        svc._expiry = svc.clock.call_at(svc.clock.now() + every, svc._expire_now)

    def _expire_now(self) -> None:
        svc = cast("TableService", self)
        svc._start_task(svc._expire())
        svc._expire_later()

    async def _expire(self) -> None:
        """Let go of the open tables nobody is at and nothing happened at for a while
        (:meth:`Gate.expired`): they are stored as expired and no longer held."""
        svc = cast("TableService", self)
        for room in list(svc.rooms.values()):
            if not svc.gate.expired(room, svc.clock.now()):
                continue
            async with room.lock:
                if not svc.gate.expired(room, svc.clock.now()):
                    continue  # someone came meanwhile
                svc.store.expire(room.id)  # another process may have done it already
                svc.rooms.pop(room.id, None)
                if room.timer is not None:
                    room.timer.cancel()
                table_log(room.id).info("expired: nobody joined it")

    def begin_stop(self) -> None:
        """Take no new tables, seats, sockets or moves from now on (``server/stopping``): a
        signal handler calls this, so it only sets a flag; :meth:`stop` does the rest."""
        svc = cast("TableService", self)
        svc.stopping = True

    def refuse_if_stopping(self) -> None:
        """Raise ``server/stopping`` (503) once the service stops."""
        svc = cast("TableService", self)
        if svc.stopping:
            raise ServiceError(
                "server/stopping", "the server is restarting: try again in a few seconds", 503
            )

    async def stop(self, timeout: float = 2.0) -> None:
        """Take no new work, let each table finish the command it is carrying out (its lock),
        then close every socket once it has sent what is queued on it (close code 1012, the
        web layer's part: the browser reconnects), waiting up to ``timeout`` seconds for the
        sockets to close. Every accepted action is already stored: a move is committed before
        anyone is told of it."""
        svc = cast("TableService", self)
        svc.begin_stop()
        svc._sockets_gone = asyncio.Event()
        sockets = 0
        for room in list(svc.rooms.values()):
            async with room.lock:
                for conn in list(room.connections.values()):
                    finish(conn)
                    sockets += 1
        log.info("stopping: %d sockets told to reconnect", sockets)
        if timeout <= 0 or svc._no_sockets():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(svc._sockets_gone.wait(), timeout)
        if not svc._no_sockets():
            log.warning("stopping: sockets still open after %g s are cut", timeout)

    def _no_sockets(self) -> bool:
        svc = cast("TableService", self)
        return not any(room.connections for room in svc.rooms.values())
