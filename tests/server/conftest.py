"""Every test of this folder runs against a real server in a thread whose every outbound
frame passes the leak checker (see :mod:`server.live`): ``server`` on real time, ``sim_server``
on simulated time (a test moves its clocks with :meth:`~server.live.LiveServer.advance`).

A module whose tests need no server of their own sets ``SHARED_SERVER = True``: its tests then
share one server per database (starting one costs more than most tests of a module), each
making its own tables; a test still fails on any frame it caused that leaked, its sockets are
closed after it, and a test that needs a server nobody else touched (a lobby that lists only
its tables, a store it breaks) takes ``own_server``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from throwaway_postgres import fresh_database

from racedeck.server.timekeeper import SimulatedClock
from server.live import FrameChecker, LiveServer, serving

SERVER_DB = "RACEDECK_TEST_SERVER_DB"
"""Set to ``sqlite`` or ``postgresql`` to run every server of this folder on that database."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run a module's servers on each database its ``SERVER_DATABASES`` names (SQLite by
    default; ``RACEDECK_TEST_SERVER_DB`` picks one for the whole folder)."""
    if "server_db" not in metafunc.fixturenames:
        return
    chosen = os.environ.get(SERVER_DB)
    kinds = (chosen,) if chosen else getattr(metafunc.module, "SERVER_DATABASES", ("sqlite",))
    if metafunc.definition.get_closest_marker("sqlite_server") is not None:
        kinds = ("sqlite",)
    # Module scope: the tests of a module on one database may share its server.
    metafunc.parametrize("server_db", kinds, indirect=True, scope="module")


class Databases:
    """Fresh databases of one kind: SQLite files in a folder, or new PostgreSQL databases on
    the test server (dropped at the end of the module)."""

    def __init__(self, kind: str, folder: Path, postgres: str | None) -> None:
        self.kind = kind
        self.folder = folder
        self.postgres = postgres
        self.stack = contextlib.ExitStack()
        self.count = itertools.count(1)

    def new(self) -> str | Path:
        """A database nobody used yet."""
        if self.postgres is not None:
            url: str = self.stack.enter_context(fresh_database(self.postgres))
            return url
        return self.folder / f"tables-{next(self.count)}.sqlite"


@pytest.fixture(scope="module")
def server_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Databases]:
    """Where a module's servers keep their tables: SQLite files, or fresh PostgreSQL
    databases (a server then runs as each of several processes sharing one would: the sweep
    takes each table's automation, presence and clocks go through the database)."""
    kind = getattr(request, "param", "sqlite")
    postgres: str | None = None
    if kind == "postgresql":
        postgres = request.getfixturevalue("postgres_server")
    databases = Databases(kind, tmp_path_factory.mktemp("server-db"), postgres)
    with databases.stack:
        yield databases


@pytest.fixture
def checker(request: pytest.FixtureRequest) -> FrameChecker:
    """The leak checker of the test's server (a new one when the test starts none)."""
    for name in ("server", "sim_server", "own_server", "own_sim_server"):
        if name in request.fixturenames:
            live: LiveServer = request.getfixturevalue(name)
            return live.checker
    return FrameChecker()


def _shared(request: pytest.FixtureRequest) -> bool:
    return bool(getattr(request.module, "SHARED_SERVER", False))


@contextlib.contextmanager
def _one_test(live: LiveServer) -> Iterator[LiveServer]:
    """A shared server for one test: its frames from here on, its sockets closed after it,
    and the test fails if any frame sent meanwhile leaked or was malformed."""
    with live.checker.checking, live.checker.lock:
        live.checker.frames.clear()
        live.checker.problems.clear()
    opened = len(live.clients)
    try:
        yield live
    finally:
        for client in live.clients[opened:]:
            client.close()
        del live.clients[opened:]
    with live.checker.lock:
        problems = list(live.checker.problems)
        live.checker.problems.clear()
    assert not problems, "\n".join(problems[:10])


@pytest.fixture(scope="module")
def _module_server(server_db: Databases) -> Iterator[LiveServer]:
    """The server the tests of a ``SHARED_SERVER`` module share (real time)."""
    with serving(server_db.new(), FrameChecker()) as live:
        yield live


@pytest.fixture(scope="module")
def _module_sim_server(server_db: Databases) -> Iterator[LiveServer]:
    """The server on simulated time the tests of a ``SHARED_SERVER`` module share."""
    with serving(server_db.new(), FrameChecker(), clock=SimulatedClock()) as live:
        yield live


@pytest.fixture
def own_server(server_db: Databases) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` of the test's own; fails the test if any frame it sent
    leaked or was malformed."""
    with serving(server_db.new(), FrameChecker()) as live:
        yield live


@pytest.fixture
def server(request: pytest.FixtureRequest, server_db: Databases) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` (the module's, in a ``SHARED_SERVER`` module); fails the
    test if any frame it sent leaked or was malformed."""
    if _shared(request):
        with _one_test(request.getfixturevalue("_module_server")) as live:
            yield live
        return
    with serving(server_db.new(), FrameChecker()) as live:
        yield live


@pytest.fixture
def sim_server(request: pytest.FixtureRequest, server_db: Databases) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` on simulated time: its table clocks, disconnect grace
    periods and BLOCK windows move only by :meth:`~server.live.LiveServer.advance`, so a test
    never waits for them and a busy machine changes nothing. Fails the test if any frame it
    sent leaked or was malformed."""
    if _shared(request):
        with _one_test(request.getfixturevalue("_module_sim_server")) as live:
            yield live
        return
    with serving(server_db.new(), FrameChecker(), clock=SimulatedClock()) as live:
        yield live


@pytest.fixture
def own_sim_server(server_db: Databases) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` on simulated time of the test's own; fails the test if
    any frame it sent leaked or was malformed."""
    with serving(server_db.new(), FrameChecker(), clock=SimulatedClock()) as live:
        yield live
