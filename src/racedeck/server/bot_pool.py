"""Where bots decide: a pool of worker processes (or threads), off the event loop.

A referee asks a bot with :class:`~racedeck.server.referee.messages.AskBot`; the pool runs
:func:`racedeck.server.bots.bot_decision` on the seat's view and hands back the action.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from multiprocessing.connection import Connection

from racedeck.core.jsontypes import JSONObject
from racedeck.server.bots import bot_decision
from racedeck.server.referee.messages import AskBot

__all__ = ["BotPool"]


class BotPool:
    """Bot decisions in ``workers`` processes (``kind="process"``) or threads (``"thread"``),
    started on first use."""

    def __init__(self, kind: str = "process", workers: int = 2) -> None:
        self.kind = kind
        self.workers = workers
        self._pool: Executor | None = None
        self._lifeline: tuple[Connection, Connection] | None = None
        """The pipe the pool's workers watch (:func:`_outlive_no_server`): its reading end,
        handed to each worker as it starts, and its writing end, which only this process
        holds."""

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.kind == "thread":
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
            else:
                context = get_context("spawn")
                self._lifeline = context.Pipe(duplex=False)
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_outlive_no_server,
                    initargs=(self._lifeline[0],),
                )
        return self._pool

    async def decide(self, game_id: str, config_key: str, ask: AskBot) -> JSONObject:
        """The action the bot of ``ask`` takes, as JSON; raises what the decision raised (a
        worker that died is replaced for the next decision)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor(),
                bot_decision,
                game_id,
                config_key,
                ask.bot,
                ask.seat,
                ask.seed,
                ask.view,
            )
        except BrokenExecutor:
            self._let_go()
            raise

    def close(self) -> None:
        """Stop the workers; decisions in progress are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._let_go()

    def _let_go(self) -> None:
        """Forget the pool; closing the lifeline ends any of its workers still there."""
        self._pool = None
        if self._lifeline is not None:
            for end in self._lifeline:
                end.close()
            self._lifeline = None


def _outlive_no_server(lifeline: Connection) -> None:
    """In a worker process: end the process once the server that started it is gone.

    A server that stops closes its pool, but one that is killed (SIGKILL, the machine out of
    memory) cannot, and its workers would wait for work forever: each holds the writing end
    of the queue it reads from, so it never sees the queue close. ``lifeline`` is the reading
    end of a pipe whose writing end only the server holds: when the server is gone, the read
    ends (nothing is ever sent), and so does the worker — at once, without looking at a clock.
    """

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
