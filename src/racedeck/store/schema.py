"""Creating a database's tables when another process may be creating them too."""

from __future__ import annotations

from sqlalchemy import MetaData, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

__all__ = ["create_schema"]

ATTEMPTS = 5

# Any fixed number: the PostgreSQL advisory lock that one process at a time creates tables under.
_SCHEMA_LOCK = 0x7261636564656B


def create_schema(metadata: MetaData, engine: Engine) -> None:
    """Create ``metadata``'s missing tables in ``engine``'s database.

    ``create_all`` checks for each table, then creates it; a second process opening the same
    new database in between (a tournament writing while a report reads it) makes the
    ``CREATE`` fail with "already exists". The table is then there: check again.

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
            if "already exists" not in str(exc.orig) or attempt == ATTEMPTS - 1:
                raise
