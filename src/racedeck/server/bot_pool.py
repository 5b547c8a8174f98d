"""Where bots decide: a pool of worker processes (or threads), off the event loop.

A referee asks a bot with :class:`~racedeck.server.referee.messages.AskBot`; the pool runs
:func:`racedeck.server.bots.bot_decision` on the seat's view and hands back the action.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context

from racedeck.core.jsontypes import JSONObject
from racedeck.server.bots import bot_decision
from racedeck.server.referee.messages import AskBot

__all__ = ["BotPool"]

PARENT_CHECK_SECONDS = 1.0
"""How often a bot worker process looks whether the server that started it is still there."""


class BotPool:
    """Bot decisions in ``workers`` processes (``kind="process"``) or threads (``"thread"``),
    started on first use."""

    def __init__(self, kind: str = "process", workers: int = 2) -> None:
        self.kind = kind
        self.workers = workers
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.kind == "thread":
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
            else:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=get_context("spawn"),
                    initializer=_outlive_no_server,
                    initargs=(os.getpid(),),
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
            self._pool = None
            raise

    def close(self) -> None:
        """Stop the workers; decisions in progress are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _outlive_no_server(server: int) -> None:
    """In a worker process: end the process once ``server``, the process that started it, is
    gone.

    A server that stops closes its pool, but one that is killed (SIGKILL, the machine out of
    memory) cannot, and its workers would wait for work forever: each holds the writing end
    of the queue it reads from, so it never sees the queue close. Every restart would leave
    another worker behind.
    """

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
