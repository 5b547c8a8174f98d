"""Where a "what if" table came from, stored beside the live tables.

A fork is a private table dealt from a finished game's seed with the first actions of that
game already played (:mod:`racedeck.server.replays`). ``live_forks`` keeps, per such table, the
origin its first game's record names in ``meta.fork``, and so marks the table private (it is
not listed in the lobby) across restarts.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, MetaData, String, Table, select
from sqlalchemy.engine import Engine

from racedeck.core.jsontypes import JSONObject
from racedeck.store.schema import create_schema

__all__ = ["FORK_KEY", "ForkStore"]

FORK_KEY = "fork"
"""The key of a record's ``meta`` that says which game and step a "what if" game was forked
from."""

metadata = MetaData()

live_forks = Table(
    "live_forks",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("origin", JSON, nullable=False),
)


class ForkStore:
    """The origins of fork tables, in the live tables' database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_schema(metadata, engine)

    def save(self, table_id: str, origin: JSONObject) -> None:
        """Remember that table ``table_id`` is a fork of ``origin``."""
        with self.engine.begin() as conn:
            conn.execute(live_forks.insert().values(table_id=table_id, origin=origin))

    def load_all(self) -> dict[str, JSONObject]:
        """Every fork table's origin, by table id."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(live_forks)).all()
        return {r.table_id: dict(r.origin) for r in rows}
