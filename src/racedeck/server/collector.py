"""Python's garbage collector kept from stopping every table at once.

A full collection walks every object the process holds. A table keeps its game's history
(each move's events, the record, the face-down commitments), so with a thousand seats a
server holds hundreds of thousands of objects, and Python collects them all whenever the
long-lived ones grew by a quarter: every few seconds under load, 150–200 ms each, during
which no table answers anyone (the p99 of ``benchmarks/server_load.py`` was those pauses).

:class:`Collector` freezes what has lived a while (``gc.freeze``: out of every automatic
collection) every ``freeze_every`` seconds, so an automatic full collection walks only what
came since; and every ``full_every`` seconds it unfreezes and collects everything once, so
garbage cycles that were frozen while they lived (a table let go of, a closed socket) are
freed after all. One pause of that size every ten minutes instead of several a minute.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

__all__ = ["Collector"]


@dataclass
class Collector:
    """When to freeze and when to collect everything (time in the service clock's seconds)."""

    freeze_every: float = 5.0
    full_every: float = 600.0
    _last_full: float | None = None

    def tick(self, now: float) -> bool:
        """Called every ``freeze_every`` seconds: freeze what exists now, or, when the last
        full collection is ``full_every`` old, collect everything first. ``True`` when it
        collected everything."""
        if self._last_full is None:
            self._last_full = now
        full = now - self._last_full >= self.full_every
        if full:
            gc.unfreeze()
            gc.collect()
            self._last_full = now
        gc.freeze()
        return full
