"""Creating a database's tables when another process may be creating them too."""

from __future__ import annotations

from sqlalchemy import MetaData
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

__all__ = ["create_schema"]

ATTEMPTS = 5


def create_schema(metadata: MetaData, engine: Engine) -> None:
    """Create ``metadata``'s missing tables in ``engine``'s database.

    ``create_all`` checks for each table, then creates it; a second process opening the same
    new database in between (a tournament writing while a report reads it) makes the
    ``CREATE`` fail with "already exists". The table is then there: check again.
    """
    for attempt in range(ATTEMPTS):
        try:
            metadata.create_all(engine)
            return
        except DBAPIError as exc:
            if "already exists" not in str(exc.orig) or attempt == ATTEMPTS - 1:
                raise
