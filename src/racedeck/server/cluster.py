"""Several ``racedeck serve`` processes on one PostgreSQL database, serving the same tables.

Every process holds every table in memory and may take any person's move, at any table. What
keeps them in step:

*A row lock per move.* A write at a table (a move, a seat taken, play again) runs under
:meth:`Cluster.guard`: ``SELECT … FOR UPDATE`` on the table's ``live_tables`` row; when the
stored move number is ahead of this process's memory, the moves it missed are read from
``live_actions`` and applied first (each sent to this process's sockets as if it had taken
it); then the move is checked and applied, inserted and committed, and only then sent out.
The many commands (a person's move, a bot's, a timer's) run in :meth:`Cluster.block`
instead: the same lock taken with ``BEGIN`` in one round trip, and their writes (one
statement a move, its notice included) sent with the ``COMMIT`` in a second, both awaited on
a connection of its own, so that the event loop serves other tables meanwhile. Two
processes taking moves at one table at once therefore queue on the row for the few
milliseconds a move takes, the second seeing the first's move before it checks its own — so
neither refuses a move the game allows (Why First?'s simultaneous commits, WF-4) and they never
both commit the same move number (``live_actions`` is keyed by it, and the conditional
``UPDATE`` of :meth:`~racedeck.store.tables.TableStore.append_action` checks it too).

We chose this over one process owning all of a table's writes: with a row lock, a move is
taken where its player's socket is, in one round trip to the database, instead of being
forwarded to an owner and its answer forwarded back; no process is in the path of another's
players, and a process that dies takes nobody's moves down with it.

*NOTIFY.* Each write sends ``NOTIFY racedeck_tables`` in its own transaction, so the notice
arrives exactly when the write is committed: its payload names the process, the kind of
write (``table``, ``seat``, ``move``, ``game``), the table, the game and the move number. Every
other process ``LISTEN``\\s, catches the table up from the store and sends its own sockets their
views and events through the same code as a local move — so the same leak rules hold
(concealed steps send only what a seat may know, SB-9). The store, not the payload, is the
truth: a lost notice (the listening connection dropped) is made good by catching up every
table when it is back.

*One process automates a table.* Bots, forced moves and SB-9's window holds of a table run in
exactly one process: the holder of the table's PostgreSQL advisory lock (a session lock on a
connection of its own). Each process tries, every :data:`SWEEP_SECONDS` and at once when a game
starts, to take the lock of every table in play it does not hold; when the holder dies its
session ends, PostgreSQL releases its locks and another process takes the table over on its
next try. A table's lock is released when its game is over (nothing to automate), so a process
holds about as many locks as it automates games (PostgreSQL's lock table holds
``max_locks_per_transaction`` × ``max_connections`` locks in all, 6,400 by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import secrets
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from racedeck.core.errors import RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.logs import log, table_log
from racedeck.server.referee import messages as m
from racedeck.server.rooms import Room
from racedeck.store.tables import ACTIONS_FROM_PG, LOCK_PG, Progress, Queued, locked_progress

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["CHANNEL", "SWEEP_SECONDS", "Cluster", "table_key"]


CHANNEL = "racedeck_tables"
"""The ``LISTEN``/``NOTIFY`` channel of table writes."""
SWEEP_SECONDS = 2.0
"""How often a process tries to take the automation of tables in play that nobody holds."""
LISTEN_TIMEOUT = 30.0
"""Seconds a starting process waits for its listening connection."""
BLOCK_CONNECTIONS = 32
"""Connections a process holds for :meth:`Cluster.block` at most (tables written at once)."""
APPLICATION_NAME = "racedeck serve"
"""How the cluster's connections name themselves to PostgreSQL (``pg_stat_activity``), with
the process id: the one holding a table's advisory lock is the one automating it."""

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def table_key(table_id: str) -> int:
    """The table's advisory lock key: 64 bits of a SHA-256 of its id (a signed ``bigint``)."""
    digest = hashlib.sha256(f"racedeck-table:{table_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Cluster:
    """This process's part among the processes that share the service's PostgreSQL database
    (see the module docstring): notices out and in, catching up, and which tables it
    automates."""

    def __init__(self, service: TableService, *, sweep: float = SWEEP_SECONDS) -> None:
        self.service = service
        self.store = service.store
        self.sweep_seconds = sweep
        self.origin = secrets.token_hex(8)
        """This process's name in the notices it sends (its own are not read back)."""
        self.conninfo = (
            make_url(self.store.url).set(drivername="postgresql").render_as_string(False)
        )
        self.owned: set[str] = set()
        """The tables whose advisory lock this process holds: it plays their automation."""
        self.listening = asyncio.Event()
        self._asked: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._said: dict[str, frozenset[int]] = {}
        """The seats this process last said it has sockets for, per table."""
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        """Connections of :meth:`block` not in use."""
        self._slots = asyncio.Semaphore(BLOCK_CONNECTIONS)

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Announce this process's writes and listen for the others' (before the tables are
        loaded, so that no write committed meanwhile goes unheard)."""
        self.store.on_write = self._announce
        self.store.notice = self._notice
        self._tasks = [
            asyncio.create_task(self._listen(), name="racedeck-listen"),
            asyncio.create_task(self._sweeper(), name="racedeck-sweep"),
        ]
        await asyncio.wait_for(self.listening.wait(), LISTEN_TIMEOUT)

    async def close(self) -> None:
        """Stop listening and release every table's automation."""
        self._closing = True
        self.store.on_write = None
        self.store.notice = None
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._locks is not None:
            await self._locks.close()
        for conn in self._idle:
            with contextlib.suppress(Exception):
                await conn.close()
        self._idle.clear()
        self.owned.clear()

    # -- what service.py asks -------------------------------------------------------------------

    def want(self, room: Room) -> None:
        """``room`` is in play and this process does not automate it: ask for the table's lock
        (once per game; the sweep retries)."""
        if room.referee.automates or room.id in self.owned:
            return
        if room.status == "playing" and self._asked.get(room.id) != room.game_no:
            self._asked[room.id] = room.game_no
            self._wake.set()

    @contextlib.contextmanager
    def guard(self, room: Room) -> Iterator[None]:
        """The table's row lock for the block, with the table first brought up to what the
        store holds; the block's writes commit one by one under it (called with the table's
        :class:`asyncio.Lock` held, and nothing in the block awaits)."""
        with self.store.locked(room.id) as progress:
            if progress is not None:
                self._bring_up(room, progress)
            yield

    @contextlib.asynccontextmanager
    async def block(self, room: Room) -> AsyncIterator[None]:
        """:meth:`guard` without blocking the event loop, for a command whose writes are
        common moves: the row lock is taken (with BEGIN, one round trip) on a connection of
        the asynchronous pool, the table brought up to what is stored, and the block's moves,
        queued by the store (:meth:`TableStore.queueing`), are written with the commit in one
        more round trip when it ends. Any other write raises
        :class:`~racedeck.store.tables.NotCommon` there, and the block is rolled back whole."""
        async with self._slots:
            conn = self._idle.pop() if self._idle else await self._connect_block()
            kept = False
            try:
                # Each round trip one simple query (several statements, the parameters bound
                # here): psycopg's pipelines cost more of this process's time than they save.
                # The moves stored beyond the referee's come in the same round trip: a table
                # whose seats are in two processes has nearly always a move of the other's to
                # catch up with, and reading it apart was a query more, on the event loop.
                referee = room.referee
                table = referee.table
                start = table.move if table is not None else 0
                since = {"id": room.id, "game_no": referee.game_no, "start": start}
                cursor = psycopg.AsyncClientCursor(conn)
                await cursor.execute(
                    "BEGIN; "
                    + cursor.mogrify(LOCK_PG, {"id": room.id})
                    + "; "
                    + cursor.mogrify(ACTIONS_FROM_PG, since)
                )
                cursor.nextset()
                progress = locked_progress(await cursor.fetchone())
                cursor.nextset()
                stored = [(int(seat), dict(action)) for seat, action in await cursor.fetchall()]
                pending: list[Queued] = []
                with self.store.queueing(room.id, pending):
                    if progress is not None:
                        self._bring_up(room, progress, (referee.game_no, start, stored))
                    yield
                writes = [cursor.mogrify(statement, params) for statement, params in pending]
                await cursor.execute("; ".join([*writes, "COMMIT"]))
                kept = True
            finally:
                if not kept:
                    with contextlib.suppress(Exception):
                        await conn.execute("ROLLBACK")
                if kept or (not conn.closed and not conn.broken):
                    self._idle.append(conn)
                else:
                    with contextlib.suppress(Exception):
                        await conn.close()

    async def _connect_block(self) -> psycopg.AsyncConnection[Any]:
        name = f"{APPLICATION_NAME} {os.getpid()} {self.origin}"
        return await psycopg.AsyncConnection.connect(
            self.conninfo,
            autocommit=True,  # the block says BEGIN and COMMIT itself
            application_name=name,
        )

    def sync(self, room: Room) -> None:
        """Bring ``room`` up to what the store holds, without locking it (for a welcome)."""
        progress = self.store.progress(room.id)
        if progress is not None:
            self._bring_up(room, progress)

    def find(self, table_id: str) -> Room | None:
        """A table another process created that this one has not loaded yet (``None``: none)."""
        existing = self.service.rooms.get(table_id)
        if existing is not None:
            return existing
        stored = self.store.load(table_id)
        if stored is None:
            return None
        room = self.service.build(stored, self.service.forks.load_all().get(table_id))
        if room is None:
            return None
        self.service.rooms[room.id] = room
        return room

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        # The name carries the process's origin: the sweep tells the living processes by it.
        name = f"{APPLICATION_NAME} {os.getpid()} {self.origin}"
        return await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=name
        )

    # -- notices out ----------------------------------------------------------------------------

    def _announce(self, conn: Connection, note: JSONObject) -> None:
        """Inside a write's transaction: tell the other processes when it commits."""
        channel, payload = self._notice(note)
        conn.execute(_NOTIFY, {"channel": channel, "payload": payload})

    def _notice(self, note: JSONObject) -> tuple[str, str]:
        """The channel and payload of the notice of a write (``note`` as the store gives it)."""
        return CHANNEL, json.dumps({"origin": self.origin, **note}, separators=(",", ":"))

    # -- notices in -----------------------------------------------------------------------------

    async def _listen(self) -> None:
        """Read the other processes' notices; after a lost connection, catch every table up."""
        first = True
        while True:
            try:
                conn = await self._connect()
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        await self._catch_up_all()
                        await self._announce_all()
                    first = False
                    self.listening.set()
                    async for note in conn.notifies():
                        try:
                            await self._heard(note.payload)
                        except Exception:
                            log.exception("a notice from another process failed: %s", note)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening to the database failed (%s); again in a second", exc)
                await asyncio.sleep(1.0)

    async def _heard(self, payload: str) -> None:
        note = json.loads(payload)
        if note.get("origin") == self.origin:
            return
        table_id = str(note["table"])
        room = self.service.rooms.get(table_id)
        if room is None:
            self.find(table_id)
            return
        if note.get("kind") == "presence":
            await self._presence_heard(room)
            return
        if (
            note.get("kind") == "move"
            and room.table is not None
            and room.game_no == note.get("game_no")
            and room.table.move >= int(note.get("move", 0))
        ):
            return  # caught up already (an earlier notice's catch-up read this move too)
        await self._refresh(room)

    async def _refresh(self, room: Room) -> None:
        """Catch ``room`` up; the process that automates it then settles it."""
        if room.referee.automates:
            await self.service.run(room, m.Automate(True))
        else:
            async with room.lock:
                self.sync(room)

    async def _catch_up_all(self) -> None:
        for room in list(self.service.rooms.values()):
            try:
                await self._refresh(room)
            except RacedeckError as exc:
                table_log(room.id).error("catching up failed: %s", exc)

    # -- catching up ----------------------------------------------------------------------------

    def _bring_up(
        self,
        room: Room,
        progress: Progress,
        read: tuple[int, int, list[tuple[int, JSONObject]]] | None = None,
    ) -> None:
        """Hand ``room``'s referee what the store holds beyond it (a seat taken, a new game,
        moves, the clock), so it sends each socket of this process what it would have got
        from a local write. ``read``: game number, first move and the stored actions from
        it, read with ``progress`` (else they are read here when needed)."""
        referee = room.referee
        table = referee.table
        service = self.service
        if (
            referee.status == "open"
            or progress.game_no != referee.game_no
            or (table is None) != (progress.status == "open")
        ):
            stored = self.store.load(room.id)
            if stored is not None:
                service.feed(room, m.Reload(stored))
            return
        if table is None or progress.game_no != referee.game_no:
            return
        if progress.move > table.move:
            # Only as far as the clock read with it: without the row lock more may be stored.
            if read is not None and read[:2] == (referee.game_no, table.move):
                actions = read[2]
            else:
                actions = self.store.actions_from(room.id, referee.game_no, table.move)
            actions = actions[: progress.move - table.move]
            if progress.status == "over" and referee.server_seed:
                # Stored with the last move: every process publishes the same next commitment.
                stored = self.store.load(room.id)
                if stored is not None:
                    referee.next_server_seed = stored.next_server_seed
            service.feed(room, m.CatchUp(table.move, tuple(actions), progress.clock))
        elif progress.clock is not None and progress.clock != referee.clock_store():
            service.feed(room, m.CatchUp(table.move, (), progress.clock))

    # -- who is connected where -----------------------------------------------------------------

    def announce(self, room: Room) -> None:
        """Tell the other processes which seats of ``room`` have a socket here (when that
        changed), so that a person gone from every process is handed to a bot after the grace
        and one back on any process is no longer away. Called with the table's lock held."""
        seats = frozenset(c.seat for c in room.connections.values() if c.seat is not None)
        if self._said.get(room.id, frozenset()) == seats:
            return
        self._said[room.id] = seats
        self.store.set_presence(self.origin, room.id, seats)

    async def _announce_all(self) -> None:
        """Say every table's seats again (after a lost connection the others may have dropped
        what this process said)."""
        self._said.clear()
        for room in list(self.service.rooms.values()):
            async with room.lock:
                self.announce(room)

    async def load_presence(self) -> None:
        """Learn which seats have sockets on the other processes (at start)."""
        known = self.store.presence()
        for table_id, pairs in known.items():
            room = self.service.rooms.get(table_id)
            if room is not None:
                elsewhere = frozenset(seat for origin, seat in pairs if origin != self.origin)
                await self.service.run(room, m.Presence(elsewhere), guard=False)

    async def _presence_heard(self, room: Room) -> None:
        """Another process's sockets at ``room`` changed: who is away may have."""
        known = self.store.presence(room.id)
        pairs = known.get(room.id, set())
        elsewhere = frozenset(seat for origin, seat in pairs if origin != self.origin)
        await self.service.run(room, m.Presence(elsewhere), guard=False)

    async def _forget_the_gone(self, locks: psycopg.AsyncConnection[Any]) -> None:
        """Drop what processes that are gone said of their sockets: they closed with them."""
        cursor = await locks.execute(
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE %s",
            [f"{APPLICATION_NAME} %"],
        )
        alive = {str(name).rsplit(" ", 1)[-1] for (name,) in await cursor.fetchall()}
        alive.add(self.origin)
        changed = self.store.forget_presence(alive)
        for table_id in changed:
            room = self.service.rooms.get(table_id)
            if room is not None:
                await self._presence_heard(room)

    # -- automation -----------------------------------------------------------------------------

    async def _sweeper(self) -> None:
        """Take the automation of tables in play that nobody holds; release finished ones."""
        # Not ``while True``: Python 3.11's wait_for can swallow the cancellation that
        # close() sends when the wake-up comes at the same moment.
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.sweep_seconds)
            self._wake.clear()
            try:
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # The lock connection is gone, and with it every lock: another process may
                # take the tables over; this one tries again on a fresh connection.
                log.warning("the tables' locks are lost (%s); taking them again", exc)
                await self._release(list(self.owned))
                if self._locks is not None:
                    with contextlib.suppress(Exception):
                        await self._locks.close()
                    self._locks = None
                await asyncio.sleep(1.0)

    async def _sweep(self) -> None:
        if self._locks is None or self._locks.closed:
            await self._release(list(self.owned))
            self._locks = await self._connect()
        locks = self._locks
        await self._forget_the_gone(locks)
        rooms = self.service.rooms
        playing = {rid for rid, r in rooms.items() if r.status == "playing"}
        done = [rid for rid in self.owned if rid not in playing]
        if done:
            await locks.execute(
                "SELECT pg_advisory_unlock(k) FROM unnest(%s::bigint[]) AS k",
                [[table_key(rid) for rid in done]],
            )
            await self._release(done)
        wanted = sorted(playing - self.owned)
        if not wanted:
            return
        cursor = await locks.execute(
            "SELECT k, pg_try_advisory_lock(k) FROM unnest(%s::bigint[]) AS k",
            [[table_key(rid) for rid in wanted]],
        )
        got = {int(k) for k, ok in await cursor.fetchall() if ok}
        for rid in wanted:
            if table_key(rid) not in got:
                continue
            self.owned.add(rid)
            table_log(rid).info("this process plays its bots and forced moves")
            try:
                # Its clocks are this process's now: a table nobody moves at must still time
                # out (the game may have started before this process held it).
                await self.service.run(rooms[rid], m.Automate(True))
            except RacedeckError as exc:
                table_log(rid).error("taking it over failed: %s", exc)

    async def _release(self, table_ids: Sequence[str]) -> None:
        """This process no longer automates these tables."""
        self.owned.difference_update(table_ids)
        for rid in table_ids:
            room = self.service.rooms.get(rid)
            if room is not None and room.referee.automates:
                await self.service.run(room, m.Automate(False), guard=False)
