"""The write every accepted move makes, on SQLite's own connection.

A move is the one write a live table makes many times a second: the table's new move number,
the action, the clock. Through SQLAlchemy's execution machinery (a pooled connection checked
out, a transaction begun, each statement's parameters processed and its result wrapped) that
costs several times what SQLite takes to run the three statements, and it is most of what the
server spends on an action beyond the rules and the views. :class:`MoveWriter` runs them on one
``sqlite3`` connection it keeps, with the values converted exactly as the SQLAlchemy types of
the same columns convert them (so a row written here reads back through the store like any
other), in one transaction. PostgreSQL and the rarer writes keep the store's general path.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime
from sqlalchemy.engine import Engine

from racedeck.core.jsontypes import JSONObject

__all__ = ["Move", "MoveWriter"]


@dataclass(frozen=True, slots=True)
class Move:
    """Accepted action number ``idx`` (0-based) of game ``game_no`` at table ``table_id``,
    the table's status after it and the game's clock after it (``None``: unchanged)."""

    table_id: str
    game_no: int
    idx: int
    seat: int
    action: JSONObject
    status: str
    clock: JSONObject | None

    def conflict(self) -> str:
        """The words of a refusal of this move: the table is elsewhere."""
        return f"table {self.table_id} is not at move {self.idx} of game {self.game_no}"


_ADVANCE = (
    "UPDATE live_tables SET move = ?, status = ?, updated = ? "
    "WHERE id = ? AND game_no = ? AND move = ?"
)
_APPEND = "INSERT INTO live_actions (table_id, game_no, idx, seat, action) VALUES (?, ?, ?, ?, ?)"
_CLOCK = "UPDATE live_clocks SET clock = ? WHERE table_id = ? AND game_no = ?"


def _processor(engine: Engine, type_: Any) -> Callable[[Any], Any]:
    """How the engine's dialect converts a value of ``type_`` for the driver."""
    dialect = engine.dialect
    process = type_.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else (lambda value: value)


class MoveWriter:
    """Writes accepted moves to a SQLite database through one connection of its own.

    The connection belongs to the thread that first writes (SQLite's connections do); a call
    from another thread answers ``False`` and the caller takes the general path.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._json = _processor(engine, JSON())
        self._when = _processor(engine, DateTime(timezone=True))
        self._conn: Any = None  # SQLAlchemy's pooled connection, kept until close()
        self._driver: sqlite3.Connection | None = None
        self._thread: int | None = None

    def _connection(self) -> sqlite3.Connection | None:
        thread = threading.get_ident()
        if self._driver is None:
            self._conn = self._engine.raw_connection()
            driver = self._conn.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            self._driver, self._thread = driver, thread
        return self._driver if thread == self._thread else None

    def append(self, move: Move) -> bool | None:
        """Store ``move`` (and the game's clock) in one transaction.

        ``True`` when stored, ``False`` when the stored table is not at that move (nothing is
        written), ``None`` when this thread may not use the connection (nothing is written).
        A clock row that does not exist yet is left to the caller (``None``, nothing written).
        """
        db = self._connection()
        if db is None:
            return None
        try:
            with db:  # one transaction: committed, or rolled back by any error
                if db.isolation_level is None:  # the driver would commit each statement
                    db.execute("BEGIN")
                table_id, game_no, idx = move.table_id, move.game_no, move.idx
                now = self._when(datetime.now(UTC))
                moved = db.execute(_ADVANCE, (idx + 1, move.status, now, table_id, game_no, idx))
                if moved.rowcount != 1:
                    return False
                action = self._json(move.action)
                db.execute(_APPEND, (table_id, game_no, idx, move.seat, action))
                if move.clock is not None:
                    done = db.execute(_CLOCK, (self._json(move.clock), table_id, game_no))
                    if done.rowcount == 0:
                        raise _NoClockRow
        except _NoClockRow:
            return None
        return True

    def close(self) -> None:
        """Give the connection back."""
        if self._conn is not None:
            self._conn.close()
            self._conn = self._driver = self._thread = None


class _NoClockRow(Exception):
    """The game's clock row is missing: the move is rolled back, for the general path."""
