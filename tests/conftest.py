"""Fixtures shared by the test folders: a PostgreSQL server for the tests that need one.

The server starts with the first test that asks for ``postgres_url`` and stops at the end of
the session (see :mod:`throwaway_postgres`); each such test gets a database of its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from throwaway_postgres import ENV, fresh_database, throwaway_server

# pytest-xdist's workers inherit a screen size (LINES, COLUMNS) that Rich would fix for the
# terminal's console when it is made; the terminal tests give each command its own.
for _size in ("LINES", "COLUMNS"):
    os.environ.pop(_size, None)


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
