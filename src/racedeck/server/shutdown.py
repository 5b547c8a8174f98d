"""A prompt, clean stop on SIGTERM (or Ctrl+C): ``racedeck serve`` runs the application under
:class:`GracefulServer` (:func:`run`).

uvicorn on its own, told to exit, stops listening, closes every connection (sockets with close
code 1012) while the application may still have frames to send, waits for the requests in
flight, runs the application's shutdown, then raises the signal again, so the process ends
"killed by SIGTERM" (status 143). Here the table service is told first:

1. at the signal, it takes no new work (``server/stopping``; ``/healthz`` answers 503);
2. once uvicorn's loop sees the signal (within a tenth of a second), the port is closed, each
   table finishes the command it is carrying out, and every socket is closed once it has sent
   what is queued on it, with close code 1012 (*service restart*): browsers reconnect;
3. then uvicorn's own shutdown closes what is left, waiting at most :data:`GRACE_SECONDS` for
   requests in flight, and the service releases its bots and its database;
4. the process exits with status 0: a stop that was asked for and went cleanly is a success.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Generator
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI

from racedeck.server.service import TableService

__all__ = ["GRACE_SECONDS", "SOCKETS_SECONDS", "GracefulServer", "run"]

SOCKETS_SECONDS = 2.0
"""How long the sockets have to close (their clients answer the close) before uvicorn cuts
them."""

GRACE_SECONDS = 5
"""How long uvicorn waits for HTTP requests in flight (a large record being checked, say)
before it cancels them."""

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class GracefulServer(uvicorn.Server):
    """uvicorn's server, stopping ``service`` first when told to exit (see the module
    docstring)."""

    def __init__(self, config: uvicorn.Config, service: TableService) -> None:
        super().__init__(config)
        self.service = service

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """The signal handler: uvicorn's (``should_exit``), and the service refuses new work at
        once, before uvicorn's loop gets to the rest (a flag only: this is a signal handler)."""
        super().handle_exit(sig, frame)
        self.service.begin_stop()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop listening, stop the service (its sockets closed with 1012 after what they
        hold), then uvicorn's shutdown of what is left."""
        for server in self.servers:
            server.close()
        await self.service.stop(SOCKETS_SECONDS)
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        """uvicorn's signal handlers for the server's life, without raising the signal again
        once it has stopped: the process then exits with 0, not as killed by the signal."""
        # Signal handlers can only be set from the main thread (a test runs servers in others).
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def run(app: FastAPI, **options: Any) -> None:
    """Serve ``app`` (made by :func:`~racedeck.server.app.create_app`) under
    :class:`GracefulServer` until a signal stops it; ``options`` are :class:`uvicorn.Config`'s."""
    options.setdefault("timeout_graceful_shutdown", GRACE_SECONDS)
    config = uvicorn.Config(app, **options)
    service: TableService = app.state.service
    GracefulServer(config, service).run()
