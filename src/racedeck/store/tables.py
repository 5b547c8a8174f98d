"""Live tables of the online service, stored in SQL so a restarted server continues every game.

Four tables: ``live_tables`` (one row per table: game, configuration, the current game's seed and
number, its status and move number), ``live_seats`` (who sits where: a person with the SHA-256 of
their token, or a bot by name), ``live_actions`` (one row per accepted action of every game at
the table) and ``live_games`` (one row per finished game: its seed, when it ended and its
outcome, so every finished game stays downloadable as a record after the next one is dealt).
``live_clocks`` keeps each game's clock (options, banks, who a bot plays, the timeout, takeover
and return notes), written with the action that changed it.
An accepted action and the table's new move number are committed in one transaction (with the
``live_games`` row when the action ends the game), so after a crash the stored record replays to
exactly the state the players last saw. ``live_fairness`` holds the current game's server and
client seeds, ``live_game_fairness`` each finished game's revealed fairness facts.
``live_presence`` says, when several processes serve the database, which seats have a socket on
which process (so that a person gone from all of them is handed to a bot).

Several server processes may share one PostgreSQL database (:mod:`racedeck.server.cluster`):
:meth:`TableStore.locked` holds the table's row lock while a process catches up and writes, and
:attr:`TableStore.on_write` is called inside every write's transaction so that the other
processes can be told (``NOTIFY``) exactly when it commits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    Select,
    String,
    Table,
    and_,
    bindparam,
    create_engine,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DisconnectionError

from racedeck.core import jsontext
from racedeck.core.fairness import FAIR_KEY
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, RecordedAction
from racedeck.core.registry import get_spec
from racedeck.store.locations import DEFAULT_TABLES_DB, database_url
from racedeck.store.moves import Move, MoveWriter
from racedeck.store.schema import create_schema
from racedeck.store.tournaments import IntText, sqlite_pragmas

__all__ = [
    "ACTIONS_FROM_PG",
    "APPEND_PG",
    "DEFAULT_TABLES_DB",
    "LOCK_PG",
    "SAVE_CLOCK_PG",
    "FinishedGame",
    "NotCommon",
    "Progress",
    "Queued",
    "SeatRow",
    "StoreConflict",
    "StoredTable",
    "TableStore",
    "locked_progress",
]


metadata = MetaData()

live_tables = Table(
    "live_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("config", JSON, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("seed", IntText, nullable=False),
    Column("move", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

live_seats = Table(
    "live_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

live_actions = Table(
    "live_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
)

live_games = Table(
    "live_games",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seed", IntText, nullable=False),
    Column("finished", DateTime(timezone=True), nullable=False),
    Column("outcome", JSON, nullable=False),
)

live_clocks = Table(
    "live_clocks",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("clock", JSON, nullable=False),
)
live_presence = Table(
    "live_presence",
    metadata,
    Column("origin", String(64), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
)
live_next_seeds = Table(
    "live_next_seeds",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("game_no", Integer, nullable=False),
    Column("server_seed", String(64), nullable=False),
)
"""The server seed drawn for the game after ``game_no`` when that game ended: its commitment
is published then, so every process (and a restarted one) must deal the next game with it."""

live_fairness = Table(
    "live_fairness",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("client_seeds", JSON, nullable=False),
)

live_game_fairness = Table(
    "live_game_fairness",
    metadata,
    Column("table_id", String(32), ForeignKey("live_tables.id"), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("fair", JSON, nullable=False),
)
"""Each finished game's fairness facts (``meta.fair`` of its record: the commitment, the
revealed server seed, the client seeds, the result), written with its ``live_games`` row."""


# The three statements of every accepted action, written out once: building them with the
# expression language on each call costs several times what SQLite takes to run them.
_ADVANCE = text(
    "UPDATE live_tables SET move = :move, status = :status, updated = :updated "
    "WHERE id = :id AND game_no = :game_no AND move = :idx"
).bindparams(bindparam("updated", type_=DateTime(timezone=True)))
_SAVE_CLOCK = text(
    "UPDATE live_clocks SET clock = :clock WHERE table_id = :id AND game_no = :game_no"
).bindparams(bindparam("clock", type_=JSON))
_APPEND = text(
    "INSERT INTO live_actions (table_id, game_no, idx, seat, action) "
    "VALUES (:id, :game_no, :idx, :seat, :action)"
).bindparams(bindparam("action", type_=JSON))


WriteHook = Callable[[Connection, JSONObject], None]
"""Called inside a write's transaction with what it changed: ``kind`` (``table``, ``seat``,
``move`` or ``game``), ``table``, ``game_no`` and ``move``."""


NoticeHook = Callable[[JSONObject], tuple[str, str]]
"""The ``NOTIFY`` channel and payload announcing a write (described as for :data:`WriteHook`)."""

# A move in a locked block on PostgreSQL, in one statement: the conditional move number, the
# action, the clock (inserted or replaced) and the notice (sent when the block commits). A
# table that is not at the move fails the statement (a division by zero), so the block's
# transaction, queued moves and notices included, is rolled back whole.
APPEND_PG = """
WITH moved AS (
    UPDATE live_tables SET move = %(move)s, status = %(status)s, updated = %(updated)s
    WHERE id = %(id)s AND game_no = %(game_no)s AND move = %(idx)s
    RETURNING id
), added AS (
    INSERT INTO live_actions (table_id, game_no, idx, seat, action)
    SELECT id, %(game_no)s, %(idx)s, %(seat)s, %(action)s::json FROM moved
), clocked AS (
    INSERT INTO live_clocks (table_id, game_no, clock)
    SELECT id, %(game_no)s, %(clock)s::json FROM moved WHERE %(clock)s::text IS NOT NULL
    ON CONFLICT (table_id, game_no) DO UPDATE SET clock = EXCLUDED.clock
)
SELECT 1 / (SELECT count(*) FROM moved)::int, pg_notify(%(channel)s, %(payload)s)
"""
SAVE_CLOCK_PG = """
WITH saved AS (
    INSERT INTO live_clocks (table_id, game_no, clock)
    VALUES (%(id)s, %(game_no)s, %(clock)s::json)
    ON CONFLICT (table_id, game_no) DO UPDATE SET clock = EXCLUDED.clock
)
SELECT pg_notify(%(channel)s, %(payload)s)
"""
LOCK_PG = """
SELECT t.game_no, t.move, t.status, c.clock
FROM live_tables AS t
LEFT OUTER JOIN live_clocks AS c ON c.table_id = t.id AND c.game_no = t.game_no
WHERE t.id = %(id)s
FOR UPDATE OF t
"""
ACTIONS_FROM_PG = """
SELECT seat, action FROM live_actions
WHERE table_id = %(id)s AND game_no = %(game_no)s AND idx >= %(start)s
ORDER BY idx
"""
"""A game's stored actions from number ``start`` on (:meth:`TableStore.actions_from`), for the
round trip that takes the row lock (:data:`LOCK_PG`): run after it, it sees every move
committed before the lock was granted."""


Queued = tuple[str, dict[str, Any]]
"""A statement and its parameters, for psycopg."""


class NotCommon(RuntimeError):
    """A write that :meth:`TableStore.queueing` does not queue: nothing was written."""


class StoreConflict(RuntimeError):
    """The stored table is not where the caller believes it is (another writer, or a bug)."""


@dataclass(slots=True)
class SeatRow:
    """One seat: ``kind`` is ``"human"`` or ``"bot"``; a person's seat is free while
    ``token_hash`` is ``None``."""

    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


@dataclass(slots=True)
class StoredTable:
    """A table as stored: everything needed to rebuild its current game."""

    id: str
    game: str
    config: JSONObject
    status: str
    game_no: int
    seed: int
    seats: list[SeatRow]
    actions: list[tuple[int, JSONObject]] = field(default_factory=list)
    created: datetime | None = None
    server_seed: str = ""
    """The current game's secret server seed (empty for a table stored before fair deals)."""
    client_seeds: list[str] = field(default_factory=list)
    """Each seat's client seed, in seat order (empty text: none given)."""
    clock: JSONObject | None = None
    """The current game's clock (``None``: a table stored before clocks)."""
    next_server_seed: str = ""
    """The next game's server seed, once the current game is over (empty: none stored)."""

    def record(self, meta: JSONObject | None = None) -> GameRecord:
        """The current game as a record (its config, seed and the actions so far) to replay."""
        spec = get_spec(self.game)
        return GameRecord(
            game=spec.id,
            rules_version=spec.rules_version,
            config=self.config,
            seed=self.seed,
            actions=tuple(RecordedAction(s, a) for s, a in self.actions),
            meta={} if meta is None else meta,
        )


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a stored table is: its current game, the move number, the status and the
    current game's clock as last stored (``None``: none stored)."""

    game_no: int
    move: int
    status: str
    clock: JSONObject | None = None


@dataclass(slots=True)
class FinishedGame:
    """A finished game at a table: its number, the seed it was dealt from, its outcome (the
    public ``outcome`` of the final view: scores, ranks, winners, names) and when it ended."""

    game_no: int
    seed: int
    outcome: JSONObject
    finished: datetime | None = None
    fair: JSONObject | None = None
    """Its fairness facts (:func:`racedeck.core.fairness.fair_meta`), ``None`` for a game
    dealt without a committed server seed."""


class TableStore:
    """The service's tables in a SQL database (any SQLAlchemy URL; a path means a SQLite file)."""

    def __init__(self, target: str | Path = DEFAULT_TABLES_DB) -> None:
        url = database_url(target)
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.url = url
        self.shared = parsed.get_backend_name() == "postgresql"
        """True for PostgreSQL, which several server processes may share."""
        # JSON columns (actions, clocks, records) written and read by orjson: a move writes
        # two, and the standard library's encoder was a fifth of the write's cost.
        self.engine: Engine = create_engine(
            url, json_serializer=jsontext.dumps, json_deserializer=jsontext.loads
        )
        if self.shared:
            ping_when_idle(self.engine, IDLE_PING_SECONDS)
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", sqlite_pragmas)
        create_schema(metadata, self.engine)
        self.on_write: WriteHook | None = None
        """Called inside every write's transaction (see :data:`WriteHook`)."""
        self.notice: NoticeHook | None = None
        """The channel and payload of a write's ``NOTIFY`` (see :data:`NoticeHook`): with it,
        the common move in a locked block sends its notice in its own statement."""
        self._bound: tuple[str, Connection] | None = None
        self._queue: tuple[str, list[Queued]] | None = None
        self._moves = MoveWriter(self.engine) if not self.shared else None

    def close(self) -> None:
        """Release the database connections."""
        if self._moves is not None:
            self._moves.close()
        self.engine.dispose()

    # -- one writer at a time --------------------------------------------------------------------

    @contextmanager
    def locked(self, table_id: str) -> Iterator[Progress | None]:
        """Hold the table's row lock (``SELECT … FOR UPDATE``) for the block and give where the
        table is (``None``: no such table). The writes to this table made in the block run on
        the locked connection, in one transaction committed when the block ends: a caller
        sends nothing of them before (nobody sees a move before it is stored). An error
        rolls the whole block back. SQLite, with one writer at a time anyway, has no row
        locks: the block is a plain transaction there."""
        with self.engine.connect() as conn:
            progress = self._lock(conn, table_id)
            self._bound = (table_id, conn)
            try:
                yield progress
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
            finally:
                self._bound = None

    def _lock(self, conn: Connection, table_id: str) -> Progress | None:
        if not self.shared:
            return _progress(conn.execute(_progress_query(table_id)).first())
        # BEGIN and the locking read in one round trip (psycopg's pipeline); SQLAlchemy is
        # told of the transaction so that its commit commits it.
        conn.begin()
        driver = conn.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        with driver.pipeline():
            row = driver.execute(LOCK_PG, {"id": table_id}).fetchone()
        return locked_progress(row)

    @contextmanager
    def _transaction(self, table_id: str) -> Iterator[Connection]:
        """A transaction for one write: inside :meth:`locked` for this table, the block's
        (committed when it ends), else one of its own on a connection of its own."""
        queue = self._queue
        if queue is not None and queue[0] == table_id:
            raise NotCommon(f"table {table_id}: this write is made on the general path")
        bound = self._bound
        if bound is None or bound[0] != table_id:
            with self.engine.begin() as conn:
                yield conn
            return
        yield bound[1]

    def _announce(
        self, conn: Connection, kind: str, table_id: str, game_no: int, move: int
    ) -> None:
        if self.on_write is not None:
            self.on_write(conn, {"kind": kind, "table": table_id, "game_no": game_no, "move": move})

    def progress(self, table_id: str) -> Progress | None:
        """Where the stored table is now (``None``: no such table), without locking it."""
        with self.engine.connect() as conn:
            row = conn.execute(_progress_query(table_id)).first()
        return _progress(row)

    def actions_from(self, table_id: str, game_no: int, start: int) -> list[tuple[int, JSONObject]]:
        """Game ``game_no``'s stored actions from number ``start`` (0-based) on, as ``(seat,
        action)`` in order: what a process that saw the first ``start`` still has to apply."""
        bound = self._bound
        query = (
            select(live_actions.c.seat, live_actions.c.action)
            .where(
                live_actions.c.table_id == table_id,
                live_actions.c.game_no == game_no,
                live_actions.c.idx >= start,
            )
            .order_by(live_actions.c.idx)
        )
        if bound is not None and bound[0] == table_id:
            rows = bound[1].execute(query).all()
        else:
            with self.engine.connect() as conn:
                rows = conn.execute(query).all()
        return [(r.seat, dict(r.action)) for r in rows]

    # -- writing ----------------------------------------------------------------------------------

    def create(self, table: StoredTable) -> None:
        """Store a new table with its seats (and its clock, when it has one)."""
        now = datetime.now(UTC)
        with self._transaction(table.id) as conn:
            conn.execute(
                live_tables.insert().values(
                    id=table.id,
                    game=table.game,
                    config=table.config,
                    status=table.status,
                    game_no=table.game_no,
                    seed=table.seed,
                    move=0,
                    created=now,
                    updated=now,
                )
            )
            conn.execute(
                live_seats.insert(),
                [_seat_values(table.id, i, s) for i, s in enumerate(table.seats)],
            )
            conn.execute(
                live_fairness.insert().values(
                    table_id=table.id,
                    server_seed=table.server_seed,
                    client_seeds=list(table.client_seeds),
                )
            )
            if table.clock is not None:
                _save_clock(conn, table.id, table.game_no, table.clock)
            self._announce(conn, "table", table.id, table.game_no, 0)

    def take_seat(
        self,
        table_id: str,
        seat: int,
        row: SeatRow,
        status: str,
        client_seeds: Sequence[str],
        seed: int,
    ) -> None:
        """Give a free seat to a person (``row`` holds their name and token hash), and set the
        table's status (it starts when the last seat is taken), the seats' client seeds and the
        seed derived with them, in one transaction."""
        with self._transaction(table_id) as conn:
            done = conn.execute(
                update(live_seats)
                .where(
                    live_seats.c.table_id == table_id,
                    live_seats.c.seat == seat,
                    live_seats.c.token_hash.is_(None),
                )
                .values(name=row.name, token_hash=row.token_hash)
            )
            if done.rowcount != 1:
                raise StoreConflict(f"seat {seat} of table {table_id} is not free")
            opened = conn.execute(
                update(live_tables)
                .where(live_tables.c.id == table_id, live_tables.c.status != "expired")
                .values(status=status, seed=seed, updated=datetime.now(UTC))
            )
            if opened.rowcount != 1:
                raise StoreConflict(f"table {table_id} has expired")
            conn.execute(
                update(live_fairness)
                .where(live_fairness.c.table_id == table_id)
                .values(client_seeds=list(client_seeds))
            )
            self._announce(conn, "seat", table_id, 0, 0)

    def append_action(
        self,
        table_id: str,
        game_no: int,
        idx: int,
        seat: int,
        action: JSONObject,
        status: str,
        finished: FinishedGame | None = None,
        next_server_seed: str = "",
        clock: JSONObject | None = None,
    ) -> None:
        """Store accepted action number ``idx`` (0-based) of game ``game_no`` and the table's new
        move number ``idx + 1`` in one transaction, with ``finished`` when this action ended
        the game (and the server seed drawn for the next game, when there is one) and the
        game's ``clock`` (its banks after the action) when given.

        Raises :class:`StoreConflict` when the stored table is not at move ``idx`` of that game.
        """
        common = finished is None and not next_server_seed
        move = Move(table_id, game_no, idx, seat, action, status, clock)
        if common and self._moves is not None and self.on_write is None and self._bound is None:
            # The common move, on SQLite: on the driver's connection (see racedeck.store.moves).
            stored = self._moves.append(move)
            if stored is False:
                raise StoreConflict(move.conflict())
            if stored:
                return
        queue = self._queue
        if queue is not None and queue[0] == table_id:
            self._queue_move(queue[1], move, finished, next_server_seed)
            return
        bound = self._bound
        if common and self.notice is not None and bound is not None and bound[0] == table_id:
            # The common move on PostgreSQL, in the locked block: one statement, one round trip.
            self._append_pg(bound[1], move)
            return
        with self._transaction(table_id) as conn:
            moved = conn.execute(
                _ADVANCE,
                {
                    "id": table_id,
                    "game_no": game_no,
                    "idx": idx,
                    "move": idx + 1,
                    "status": status,
                    "updated": datetime.now(UTC),
                },
            )
            if moved.rowcount != 1:
                raise StoreConflict(move.conflict())
            conn.execute(
                _APPEND,
                {"id": table_id, "game_no": game_no, "idx": idx, "seat": seat, "action": action},
            )
            for statement in _game_end(move, finished, next_server_seed):
                conn.execute(statement)
            if clock is not None:
                _save_clock(conn, table_id, game_no, clock)
            self._announce(conn, "move", table_id, game_no, idx + 1)

    def _append_pg(self, conn: Connection, move: Move) -> None:
        driver = conn.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        try:
            driver.execute(APPEND_PG, self._move_params(move))
        except psycopg.errors.DivisionByZero as exc:
            raise StoreConflict(move.conflict()) from exc

    def _queue_move(
        self, pending: list[Queued], move: Move, finished: FinishedGame | None, next_seed: str
    ) -> None:
        """The statements of a move for :meth:`queueing`: the move itself (with its notice),
        and a game's end (its ``live_games`` row, its fairness facts, the next game's seed)."""
        if self.notice is None:
            raise NotCommon(f"table {move.table_id}: moves are queued with a notice only")
        pending.append((APPEND_PG, self._move_params(move)))
        pending.extend(self._compiled(s) for s in _game_end(move, finished, next_seed))

    def _compiled(self, statement: Any) -> Queued:
        """``statement`` as psycopg takes it: the SQL text, and the parameters converted as
        the columns' SQLAlchemy types convert them."""
        dialect = self.engine.dialect
        compiled = statement.compile(dialect=dialect)
        params: dict[str, Any] = {}
        for key, value in compiled.construct_params().items():
            process = compiled.binds[key].type.dialect_impl(dialect).bind_processor(dialect)
            params[key] = process(value) if process is not None else value
        return str(compiled), params

    def _move_params(self, move: Move) -> dict[str, Any]:
        """The parameters of :data:`APPEND_PG` for ``move``."""
        assert self.notice is not None
        note: JSONObject = {"kind": "move", "table": move.table_id, "game_no": move.game_no}
        channel, payload = self.notice({**note, "move": move.idx + 1})
        return {
            "id": move.table_id,
            "game_no": move.game_no,
            "idx": move.idx,
            "move": move.idx + 1,
            "status": move.status,
            "updated": datetime.now(UTC),
            "seat": move.seat,
            "action": jsontext.dumps(move.action),
            "clock": None if move.clock is None else jsontext.dumps(move.clock),
            "channel": channel,
            "payload": payload,
        }

    @contextmanager
    def queueing(self, table_id: str, pending: list[Queued]) -> Iterator[None]:
        """For the block, the moves (a game's end included) and clocks of table ``table_id``
        are not written but added to ``pending`` (statements and parameters, each with its
        notice) for the caller to run, in a transaction of its own that holds the table's row
        lock (an asynchronous one: see :meth:`racedeck.server.cluster.Cluster.block`); any
        other write to the table raises :class:`NotCommon` and writes nothing."""
        self._queue = (table_id, pending)
        try:
            yield
        finally:
            self._queue = None

    def save_clock(self, table_id: str, game_no: int, clock: JSONObject) -> None:
        """Store game ``game_no``'s clock (a takeover, a return, a new game); under the
        table's row lock when this process holds it (:meth:`locked`)."""
        queue = self._queue
        if queue is not None and queue[0] == table_id and self.notice is not None:
            channel, payload = self.notice(
                {"kind": "clock", "table": table_id, "game_no": game_no, "move": 0}
            )
            params = {"id": table_id, "game_no": game_no, "clock": jsontext.dumps(clock)}
            queue[1].append((SAVE_CLOCK_PG, {**params, "channel": channel, "payload": payload}))
            return
        with self._transaction(table_id) as conn:
            _save_clock(conn, table_id, game_no, clock)
            self._announce(conn, "clock", table_id, game_no, 0)

    def expire(self, table_id: str) -> bool:
        """Mark a table that is still open (waiting for people) as expired: it is loaded no
        more, and no seat of it can be taken. ``False`` when it is not open (any more)."""
        with self._transaction(table_id) as conn:
            done = conn.execute(
                update(live_tables)
                .where(live_tables.c.id == table_id, live_tables.c.status == "open")
                .values(status="expired", updated=datetime.now(UTC))
            )
            return bool(done.rowcount == 1)

    # -- who is connected where (several processes) ----------------------------------------------

    def set_presence(self, origin: str, table_id: str, seats: Iterable[int]) -> None:
        """Say which seats of ``table_id`` have a socket on the process named ``origin``
        (replacing what it said before) and tell the other processes."""
        with self.engine.begin() as conn:
            conn.execute(
                live_presence.delete().where(
                    live_presence.c.origin == origin, live_presence.c.table_id == table_id
                )
            )
            rows = [{"origin": origin, "table_id": table_id, "seat": s} for s in sorted(seats)]
            if rows:
                conn.execute(live_presence.insert(), rows)
            self._announce(conn, "presence", table_id, 0, 0)

    def presence(self, table_id: str | None = None) -> dict[str, set[tuple[str, int]]]:
        """Who is connected where: for each table (or only ``table_id``), the ``(origin, seat)``
        pairs of the sockets processes said they hold."""
        query = select(live_presence.c.table_id, live_presence.c.origin, live_presence.c.seat)
        if table_id is not None:
            query = query.where(live_presence.c.table_id == table_id)
        out: dict[str, set[tuple[str, int]]] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                out.setdefault(row.table_id, set()).add((row.origin, row.seat))
        return out

    def forget_presence(self, alive: Iterable[str]) -> list[str]:
        """Drop what processes not in ``alive`` said (they are gone, and so are their
        sockets); returns the tables whose presence changed, the others told."""
        names = list(alive)
        with self.engine.begin() as conn:
            gone = conn.execute(
                live_presence.delete()
                .where(live_presence.c.origin.not_in(names))
                .returning(live_presence.c.table_id)
            ).all()
            tables = sorted({row.table_id for row in gone})
            for table_id in tables:
                self._announce(conn, "presence", table_id, 0, 0)
        return tables

    def clocks(self, table_id: str) -> dict[int, JSONObject]:
        """Every stored game clock of the table, by game number."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(live_clocks.c.game_no, live_clocks.c.clock).where(
                    live_clocks.c.table_id == table_id
                )
            ).all()
        return {r.game_no: dict(r.clock) for r in rows}

    def new_game(
        self,
        table_id: str,
        game_no: int,
        seed: int,
        status: str,
        server_seed: str,
        client_seeds: Sequence[str],
    ) -> None:
        """Start game ``game_no`` at the table with a new server seed, the seats' client seeds
        and the seed derived from them (play again, same seats)."""
        with self._transaction(table_id) as conn:
            done = conn.execute(
                update(live_tables)
                .where(live_tables.c.id == table_id, live_tables.c.game_no == game_no - 1)
                .values(
                    game_no=game_no, seed=seed, move=0, status=status, updated=datetime.now(UTC)
                )
            )
            if done.rowcount != 1:
                raise StoreConflict(f"table {table_id} is not at game {game_no - 1}")
            conn.execute(
                update(live_fairness)
                .where(live_fairness.c.table_id == table_id)
                .values(server_seed=server_seed, client_seeds=list(client_seeds))
            )
            self._announce(conn, "game", table_id, game_no, 0)

    # -- reading ----------------------------------------------------------------------------------

    def load(self, table_id: str) -> StoredTable | None:
        """The stored table with its seats and the actions of its current game, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(live_tables).where(live_tables.c.id == table_id)).first()
            if row is None:
                return None
            return self._assemble(conn, row._mapping)

    def load_all(self, statuses: Sequence[str] = ("open", "playing", "over")) -> list[StoredTable]:
        """Every stored table whose status is one of ``statuses``, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(live_tables)
                .where(live_tables.c.status.in_(list(statuses)))
                .order_by(live_tables.c.created)
            ).all()
            return [self._assemble(conn, r._mapping) for r in rows]

    def finished_games(self, table_id: str) -> list[FinishedGame]:
        """The table's finished games, in the order they were played."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(live_games)
                .where(live_games.c.table_id == table_id)
                .order_by(live_games.c.game_no)
            ).all()
        return [
            FinishedGame(
                game_no=r.game_no, seed=r.seed, outcome=dict(r.outcome), finished=r.finished
            )
            for r in rows
        ]

    def finished_record(
        self, table_id: str, game_no: int, meta: JSONObject | None = None
    ) -> GameRecord | None:
        """Finished game ``game_no`` of the table as a record (config, seed, every action,
        and in ``meta.fair`` its fairness facts when it has them), or ``None`` when the table
        has no such finished game. A game still in play has no record here: its seed and
        actions would give away the hands."""
        with self.engine.connect() as conn:
            table = conn.execute(
                select(live_tables.c.game, live_tables.c.config).where(live_tables.c.id == table_id)
            ).first()
            done = conn.execute(
                select(live_games.c.seed).where(
                    live_games.c.table_id == table_id, live_games.c.game_no == game_no
                )
            ).first()
            if table is None or done is None:
                return None
            actions = conn.execute(
                select(live_actions.c.seat, live_actions.c.action)
                .where(live_actions.c.table_id == table_id, live_actions.c.game_no == game_no)
                .order_by(live_actions.c.idx)
            ).all()
            fair = conn.execute(
                select(live_game_fairness.c.fair).where(
                    live_game_fairness.c.table_id == table_id,
                    live_game_fairness.c.game_no == game_no,
                )
            ).first()
        meta = {} if meta is None else dict(meta)
        if fair is not None:
            meta[FAIR_KEY] = dict(fair.fair)
        spec = get_spec(table.game)
        return GameRecord(
            game=spec.id,
            rules_version=spec.rules_version,
            config=dict(table.config),
            seed=done.seed,
            actions=tuple(RecordedAction(a.seat, dict(a.action)) for a in actions),
            meta=meta,
        )

    def _assemble(self, conn: Any, m: Any) -> StoredTable:
        seats = conn.execute(
            select(live_seats).where(live_seats.c.table_id == m["id"]).order_by(live_seats.c.seat)
        ).all()
        actions = conn.execute(
            select(live_actions.c.seat, live_actions.c.action)
            .where(live_actions.c.table_id == m["id"], live_actions.c.game_no == m["game_no"])
            .order_by(live_actions.c.idx)
        ).all()
        fair = conn.execute(
            select(live_fairness).where(live_fairness.c.table_id == m["id"])
        ).first()
        clock = conn.execute(
            select(live_clocks.c.clock).where(
                live_clocks.c.table_id == m["id"], live_clocks.c.game_no == m["game_no"]
            )
        ).first()
        following = conn.execute(
            select(live_next_seeds.c.server_seed).where(
                live_next_seeds.c.table_id == m["id"], live_next_seeds.c.game_no == m["game_no"]
            )
        ).first()
        return StoredTable(
            id=m["id"],
            game=m["game"],
            config=dict(m["config"]),
            status=m["status"],
            game_no=m["game_no"],
            seed=m["seed"],
            seats=[
                SeatRow(kind=s.kind, bot=s.bot, name=s.name, token_hash=s.token_hash) for s in seats
            ],
            actions=[(a.seat, dict(a.action)) for a in actions],
            created=m["created"],
            server_seed=fair.server_seed if fair is not None else "",
            client_seeds=list(fair.client_seeds) if fair is not None else [],
            clock=dict(clock.clock) if clock is not None else None,
            next_server_seed=following.server_seed if following is not None else "",
        )


IDLE_PING_SECONDS = 5.0
"""A pooled connection idle for longer is tested before use (see :func:`ping_when_idle`)."""


def ping_when_idle(engine: Engine, seconds: float) -> None:
    """Test a pooled connection before use when it has been idle more than ``seconds``.

    A restarted database server must not break the pool's idle connections for good; but
    SQLAlchemy's ``pool_pre_ping`` tests every checkout, a round trip on every move. A
    connection back in the pool a moment ago is trusted (a failure then is the write's
    error, and SQLAlchemy drops the connection); one idle for longer is tested, and replaced
    when dead.
    """

    @event.listens_for(engine, "connect")
    def fresh(_dbapi: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def back(_dbapi: Any, record: Any) -> None:
        if record is not None:
            record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def out(dbapi: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("idle_since", 0.0) <= seconds:
            return
        try:
            cursor = dbapi.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
        except Exception as exc:
            # The pool throws the connection away and tries a new one.
            raise DisconnectionError(str(exc)) from exc


def _progress_query(table_id: str) -> Select[Any]:
    """The table's game, move, status and current game's clock."""
    current = and_(
        live_clocks.c.table_id == live_tables.c.id, live_clocks.c.game_no == live_tables.c.game_no
    )
    return (
        select(live_tables.c.game_no, live_tables.c.move, live_tables.c.status, live_clocks.c.clock)
        .select_from(live_tables.outerjoin(live_clocks, current))
        .where(live_tables.c.id == table_id)
    )


def _game_end(move: Move, finished: FinishedGame | None, next_seed: str) -> list[Any]:
    """The statements that store a game's end with its last move: its ``live_games`` row,
    its fairness facts, and the server seed drawn for the next game."""
    table_id = move.table_id
    out: list[Any] = []
    if finished is not None:
        out.append(
            live_games.insert().values(
                table_id=table_id,
                game_no=finished.game_no,
                seed=finished.seed,
                finished=finished.finished or datetime.now(UTC),
                outcome=finished.outcome,
            )
        )
        if finished.fair is not None:
            out.append(
                live_game_fairness.insert().values(
                    table_id=table_id, game_no=finished.game_no, fair=finished.fair
                )
            )
    if next_seed:
        out.append(live_next_seeds.delete().where(live_next_seeds.c.table_id == table_id))
        out.append(
            live_next_seeds.insert().values(
                table_id=table_id, game_no=move.game_no, server_seed=next_seed
            )
        )
    return out


def locked_progress(row: Any) -> Progress | None:
    """Where the table is, from a row of :data:`LOCK_PG` (``None``: no such table)."""
    if row is None:
        return None
    game_no, move, status, clock = row
    return Progress(game_no, move, status, None if clock is None else dict(clock))


def _progress(row: Any) -> Progress | None:
    if row is None:
        return None
    clock = None if row.clock is None else dict(row.clock)
    return Progress(row.game_no, row.move, row.status, clock)


def _save_clock(conn: Any, table_id: str, game_no: int, clock: JSONObject) -> None:
    """Insert or replace the clock row of one game (an update first: the common case)."""
    done = conn.execute(_SAVE_CLOCK, {"id": table_id, "game_no": game_no, "clock": clock})
    if done.rowcount == 0:
        conn.execute(live_clocks.insert().values(table_id=table_id, game_no=game_no, clock=clock))


def _seat_values(table_id: str, seat: int, row: SeatRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat,
        "kind": row.kind,
        "bot": row.bot,
        "name": row.name,
        "token_hash": row.token_hash,
    }
