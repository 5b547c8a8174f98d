"""What a table service counts, for Prometheus to scrape at ``GET /metrics``.

Each :class:`~racedeck.server.service.TableService` has its own :class:`Metrics` and its own
registry (not ``prometheus_client``'s global one), so several services in one process (the
tests' servers) count apart. Counters and the commit histogram move where things happen, one
increment each; what is held now (tables, sockets) is read from the service when Prometheus
scrapes, so nothing on the hot path keeps a gauge up to date. The names are listed in
``docs/deploy.md``.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["COMMIT_BUCKETS", "CONTENT_TYPE", "STATUSES", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The Prometheus text format's content type, as the installed ``prometheus_client`` writes it."""

COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: a commit takes about a millisecond on SQLite and a few on PostgreSQL; the upper
buckets are for a database in trouble."""

STATUSES = ("open", "playing", "over")
"""A table's statuses, each reported even when no table has it (a series that comes and goes
makes gaps in a graph)."""


class Metrics:
    """A service's counters and its registry; :meth:`watch` adds what it holds."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "racedeck_actions_accepted",
            "Actions accepted and stored: people's, bots' and forced ones.",
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "racedeck_action_commit_seconds",
            "Seconds the database took to store an accepted action.",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.frames = Counter(
            "racedeck_frames_sent",
            "Frames queued on sockets (each socket's copy counts).",
            registry=self.registry,
        )
        self._errors = Counter(
            "racedeck_errors_sent",
            "Refusals and failures answered, by code and by way (socket frame or HTTP).",
            ["code", "via"],
            registry=self.registry,
        )

    def error(self, code: str, via: Literal["socket", "http"]) -> None:
        """Count one error answered with ``code`` on a socket or over HTTP."""
        self._errors.labels(code, via).inc()

    def watch(self, service: TableService) -> None:
        """Report what ``service`` holds (tables, sockets) at every scrape."""
        self.registry.register(_Held(service))

    def exposition(self) -> bytes:
        """Everything counted, in the Prometheus text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


class _Held(Collector):
    """The gauges, counted from the service's tables when scraped (on its event loop, so no
    table changes meanwhile)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def collect(self) -> Iterator[Metric]:
        rooms = list(self.service.rooms.values())
        tables = GaugeMetricFamily("racedeck_tables", "Tables held, by status.", labels=["status"])
        by_status = Tally(room.status for room in rooms)
        for status in sorted(set(STATUSES) | set(by_status)):
            tables.add_metric([status], by_status[status])
        yield tables
        seats = sum(
            len({c.seat for c in room.connections.values() if c.seat is not None}) for room in rooms
        )
        yield GaugeMetricFamily(
            "racedeck_seats_connected", "Seats with a socket open to this process.", value=seats
        )
        yield GaugeMetricFamily(
            "racedeck_spectators_connected",
            "Spectator sockets open to this process.",
            value=self.service.gate.spectators,
        )
