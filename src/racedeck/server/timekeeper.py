"""The service's time: what every referee is told it is, and its timers.

The referee decides by the time it is handed and asks for one timer per table; the service
gets both from a :class:`Timekeeper`. :class:`WallClock` is the real one (seconds since 1970,
timers on the event loop). :class:`SimulatedClock` is time that moves only when told: a test
runs a real server — sockets, store, bots — and moves its clocks, windows and grace periods
forward at once, without sleeping, and never fails because the machine was busy.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol

__all__ = ["SimulatedClock", "Timekeeper", "Timer", "WallClock", "pause"]


class Timer(Protocol):
    """A timer that may be cancelled before it fires."""

    def cancel(self) -> None:
        """Do not fire."""
        ...


class Timekeeper(Protocol):
    """Where the service reads the time and sets its timers."""

    def now(self) -> float:
        """The time, in seconds (the referee's time base)."""
        ...

    def call_at(self, at: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` on the event loop once the time is ``at`` or later."""
        ...


async def pause(clock: Timekeeper, seconds: float) -> None:
    """Wait ``seconds`` of ``clock``'s time (on a simulated clock: until a test moves it on)."""
    paused: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def over() -> None:
        if not paused.done():
            paused.set_result(None)

    clock.call_at(clock.now() + seconds, over)
    await paused


class WallClock:
    """Real time: seconds since 1970; timers on the running event loop."""

    def now(self) -> float:
        """:func:`time.time`."""
        return time.time()

    def call_at(self, at: float, callback: Callable[[], None]) -> Timer:
        """A timer a hair late rather than early: the deadline must have passed when the
        referee looks."""
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, at - time.time()) + 0.005, callback)


class _SimTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        """Do not fire."""
        self.cancelled = True


class SimulatedClock:
    """Time that moves only by :meth:`advance` (from any thread)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._timers: list[
            tuple[float, int, _SimTimer, Callable[[], None], asyncio.AbstractEventLoop]
        ] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def now(self) -> float:
        """The simulated time."""
        return self._now

    def call_at(self, at: float, callback: Callable[[], None]) -> Timer:
        """Fire ``callback`` when :meth:`advance` reaches ``at``."""
        loop = asyncio.get_running_loop()
        timer = _SimTimer()
        with self._lock:
            heapq.heappush(self._timers, (at, next(self._order), timer, callback, loop))
        return timer

    def advance(self, seconds: float) -> None:
        """Move the time ``seconds`` on, firing every timer due on the way in time order, each
        on the event loop that set it (several servers may share one clock)."""
        target = self._now + seconds
        while True:
            with self._lock:
                due = self._timers and self._timers[0][0] <= target
                if not due:
                    self._now = target
                    return
                at, _, timer, callback, loop = heapq.heappop(self._timers)
            self._now = max(self._now, at)
            if timer.cancelled:
                continue
            done: Future[None] = Future()

            def fire(cb: Callable[[], None] = callback, fut: Future[None] = done) -> None:
                try:
                    cb()
                finally:
                    fut.set_result(None)

            loop.call_soon_threadsafe(fire)
            done.result(timeout=30)
            self._drain(loop)

    @staticmethod
    def _drain(loop: asyncio.AbstractEventLoop) -> None:
        # What a timer starts (the table's command, its frames) runs in the loop's next few
        # turns: let it, so the next timer fires after it, as it would in real time.
        for _ in range(5):
            turn: Future[None] = Future()
            loop.call_soon_threadsafe(turn.set_result, None)
            turn.result(timeout=30)
