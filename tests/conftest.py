"""Fixtures shared by the test folders: a PostgreSQL server for the tests that need one; and
the order the tests run in.

The server starts with the first test that asks for ``postgres_url`` and stops at the end of
the session (see :mod:`throwaway_postgres`); each such test gets a database of its own.

The slowest folders run first (:data:`HEAVY_FIRST`): ``make test`` hands tests to its worker
processes in this order, two at a time (``--dist load --maxschedchunk 2``), so the run ends
on short tests and no worker is left finishing a long one while the others wait.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playthrough import collecting_less
from throwaway_postgres import ENV, fresh_database, throwaway_server

# pytest-xdist's workers inherit a screen size (LINES, COLUMNS) that Rich would fix for the
# terminal's console when it is made; the terminal tests give each command its own.
for _size in ("LINES", "COLUMNS"):
    os.environ.pop(_size, None)


HEAVY_FIRST = (
    "tests/e2e/",
    "tests/test_ray.py",
    "tests/server/",
    "tests/report/",
    "tests/test_search.py",
    "tests/test_conformance.py",
    "tests/test_bots.py",
    "tests/referee/",
    "tests/cli/",
    "tests/rl/",
)
"""Where the long tests are, longest first (browsers, a Ray cluster, servers, reports, whole
games played many times);
everything else follows in the order it was collected. Tests marked ``first`` come before all:
one that compiles what later tests share, so that it is ready by the time they come."""


def _weight(item: pytest.Item) -> int:
    if item.get_closest_marker("first"):
        return -1
    path = item.nodeid.split("::", 1)[0]
    return next(
        (rank for rank, prefix in enumerate(HEAVY_FIRST) if path.startswith(prefix)),
        len(HEAVY_FIRST),
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked ``first``, then the slowest folders (a stable sort: within a
    folder, collection order)."""
    items.sort(key=_weight)


def pytest_sessionfinish() -> None:
    """Leave what the session allocated unwalked by the collector from here on
    (``gc.freeze``).

    A pytest-xdist worker ends with the collections of pytest's unconfigure, after it has
    reported its end; they walked the whole session's leftovers (3 to 4.5 million objects, 5 to
    7 seconds on this machine). Once every worker has reported, the controller tells them to
    stop, and execnet sends a worker still busy 5 seconds later a SIGINT: it surfaced as a
    ``KeyboardInterrupt`` in the collector's callbacks. Collecting here instead would add those
    seconds to every run (the controller waits for the report); the process ends anyway, and
    each test's own unraisable exceptions were reported with the test.
    """
    gc.freeze()


@pytest.fixture(autouse=True)
def _collecting_less() -> Iterator[None]:
    """Every test runs with less of the garbage collector's walking (see
    :func:`playthrough.collecting_less`): tests keep whole games, frames and views to compare
    them, and the collector walked them again and again (a fifth to two fifths of the time of
    the property and simulated-table tests). Nothing a test checks changes."""
    with collecting_less():
        yield


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server: ``RACEDECK_TEST_POSTGRES``, or a throwaway one."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    with throwaway_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """The URL of a new, empty database on the test server (dropped afterwards)."""
    with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind the stores support: a SQLite file, then PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "sub" / "tables.sqlite")
    url: str = request.getfixturevalue("postgres_url")
    return url
