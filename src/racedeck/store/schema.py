"""Creating a database's tables when another process may be creating them too."""

from __future__ import annotations

import time

from sqlalchemy import MetaData, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

__all__ = ["create_schema"]

ATTEMPTS = 8

# Any fixed number: the PostgreSQL advisory lock that one process at a time creates tables under.
_SCHEMA_LOCK = 0x7261636564656B


def create_schema(metadata: MetaData, engine: Engine) -> None:
    """Create ``metadata``'s missing tables in ``engine``'s database.

    ``create_all`` checks for each table, then creates it; a second process opening the same
    new database in between (a tournament writing while a report reads it) makes the
    ``CREATE`` fail with "already exists". The table is then there: check again. SQLite may
    also answer "database is locked" at once, without waiting its busy timeout, when several
    connections set a new file up together (one turns it to WAL while another reads, or a
    reader's lock cannot be upgraded): wait a moment and try again.

    On PostgreSQL, where creating a table also creates its row type (so two processes collide
    on more than the name), the processes take turns under a transaction's advisory lock.
    """
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
            metadata.create_all(conn)
        return
    for attempt in range(ATTEMPTS):
        try:
            metadata.create_all(engine)
            return
        except DBAPIError as exc:
            message = str(exc.orig)
            locked = "database is locked" in message
            if not (locked or "already exists" in message) or attempt == ATTEMPTS - 1:
                raise
            if locked:
                time.sleep(0.02 * 2**attempt)  # 20 ms, 40 ms … 1.3 s: 2.5 s at most in all
