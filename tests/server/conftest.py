"""Every test of this folder runs against a real server in a thread whose every outbound
frame passes the leak checker (see :mod:`server.live`): ``server`` on real time, ``sim_server``
on simulated time (a test moves its clocks with :meth:`~server.live.LiveServer.advance`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.server.timekeeper import SimulatedClock
from server.live import FrameChecker, LiveServer, serving

SERVER_DB = "RACEDECK_TEST_SERVER_DB"
"""Set to ``sqlite`` or ``postgresql`` to run every server of this folder on that database."""


@pytest.fixture
def checker() -> FrameChecker:
    return FrameChecker()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run a module's servers on each database its ``SERVER_DATABASES`` names (SQLite by
    default; ``RACEDECK_TEST_SERVER_DB`` picks one for the whole folder)."""
    if "server_db" not in metafunc.fixturenames:
        return
    chosen = os.environ.get(SERVER_DB)
    kinds = (chosen,) if chosen else getattr(metafunc.module, "SERVER_DATABASES", ("sqlite",))
    if metafunc.definition.get_closest_marker("sqlite_server") is not None:
        kinds = ("sqlite",)
    metafunc.parametrize("server_db", kinds, indirect=True)


@pytest.fixture
def server_db(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """The database a test's server runs on: a SQLite file, or a fresh PostgreSQL database
    (the server then runs as each of several processes sharing one would: the sweep takes
    each table's automation, presence and clocks go through the database)."""
    if getattr(request, "param", "sqlite") == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "tables.sqlite"


@pytest.fixture
def server(server_db: str | Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A started :class:`LiveServer`; fails the test if any frame it sent leaked or was
    malformed."""
    with serving(server_db, checker) as live:
        yield live


@pytest.fixture
def sim_server(server_db: str | Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` on simulated time: its table clocks, disconnect grace
    periods and BLOCK windows move only by :meth:`~server.live.LiveServer.advance`, so a test
    never waits for them and a busy machine changes nothing. Fails the test if any frame it
    sent leaked or was malformed."""
    with serving(server_db, checker, clock=SimulatedClock()) as live:
        yield live
