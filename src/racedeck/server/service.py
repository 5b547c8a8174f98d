"""The table service: carries out what each table's referee decides.

Every table has a :class:`~racedeck.server.referee.Referee` that decides everything — who may
act, the stale rule, forced moves, SB-9's concealed windows, clocks, takeovers, fair deals,
play again — purely, with the time handed in. The service feeds it one command at a time
under the table's :class:`asyncio.Lock` (and, with other processes on a PostgreSQL database,
under the table's row lock, the referee first brought up to what they stored:
:meth:`Cluster.guard`), then carries out the effects in order: rows committed before the
frames that show them, frames queued on sockets, the table's one timer set, bots asked in
the executor.

Its sockets are in :mod:`racedeck.server.connections`, its seats in
:mod:`racedeck.server.seating`; what it does on its own — letting go of
tables nobody plays, stopping cleanly — in :mod:`racedeck.server.upkeep`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from typing import Any

import psycopg
from sqlalchemy.exc import SQLAlchemyError

from racedeck.core.errors import InvalidConfig, InvalidRecord
from racedeck.core.jsontypes import JSONObject
from racedeck.server.bot_pool import BotPool
from racedeck.server.cluster import SWEEP_SECONDS, Cluster
from racedeck.server.connections import Connections
from racedeck.server.limits import Gate, Limits
from racedeck.server.logs import table_log
from racedeck.server.metrics import Metrics
from racedeck.server.outbox import FrameObserver, close, deliver
from racedeck.server.referee import messages as m
from racedeck.server.referee import restore
from racedeck.server.rooms import (
    RATE_BURST,
    RATE_PER_SECOND,
    Connection,
    Room,
    ServiceError,
)
from racedeck.server.seating import Seating
from racedeck.server.timekeeper import Timekeeper, Timer, WallClock, pause
from racedeck.server.upkeep import Upkeep
from racedeck.server.writes import commit
from racedeck.store.forks import ForkStore
from racedeck.store.tables import NotCommon, StoredTable, TableStore

__all__ = ["FrameObserver", "TableService"]

MAX_BOT_FAILURES = 5
"""Failed bot decisions at one table that are retried (a second apart) before giving up."""


PEOPLE_COMMANDS = (m.Join, m.Connect, m.Disconnect, m.Act, m.Back, m.PlayAgain)
"""What a person does at a table: the lobby lists, and expiry spares, tables with such."""


def server_seed() -> str:
    """A fresh secret server seed: 256 random bits as hex (:mod:`racedeck.core.fairness`)."""
    return secrets.token_hex(32)


BLOCK_COMMANDS = (m.Act, m.BotAnswer, m.TimerFired, m.Automate)
"""The commands a cluster takes in an asynchronous locked block (:meth:`Cluster.block`): the
many ones, whose writes are moves and clocks (an automating process settles a table it caught
up with Automate, on every notice); the rest take the general path. A process whose loop
waited for a row lock that another process's block holds would hold up its own blocks."""


class _CommitFailed(Exception):
    """A write in a locked block failed: the block rolls back (see ``TableService._guarded``)."""


class _Unstored(ServiceError):
    """The database did not take a write: it did not happen."""

    def __init__(self) -> None:
        super().__init__("server/error", "the move could not be stored; try again", 500)


def _unstored(cause: BaseException) -> _Unstored:
    error = _Unstored()
    error.__cause__ = cause
    return error


class TableService(Connections, Seating, Upkeep):
    """Tables, seats, sockets, and the interpreter of every table's referee."""

    def __init__(
        self,
        store: TableStore,
        *,
        bot_pool: str = "process",
        bot_workers: int = 2,
        bot_delay: float = 0.0,
        public_url: str = "",
        rate: float = RATE_PER_SECOND,
        burst: float = RATE_BURST,
        clock: Timekeeper | None = None,
        seeds: Callable[[], str] = server_seed,
        sweep: float = SWEEP_SECONDS,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.gate = Gate(limits or Limits())
        """What strangers may do: tables, sockets, the lobby, expiry (:mod:`.limits`)."""
        self.clock: Timekeeper = clock or WallClock()
        """The time every referee is told, and the tables' timers."""
        self.seeds = seeds
        self.sweep = sweep
        """Seconds between a cluster's tries to take the tables nobody automates."""
        """Where server seeds come from: secret random ones (a test may fix them, to choose
        a deal)."""
        self.forks = ForkStore(store.engine)
        self.rate = rate
        self.burst = burst
        self.rooms: dict[str, Room] = {}
        self.observers: list[FrameObserver] = []
        self.bot_delay = bot_delay
        self.public_url = public_url.rstrip("/")
        self.bots = BotPool(bot_pool, bot_workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._expiry: Timer | None = None
        self._next_conn = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the service runs on (set by :meth:`start`)."""
        self.cluster: Cluster | None = None
        """The other processes serving the same PostgreSQL database (``None`` on SQLite)."""
        self._later: list[m.Effect] | None = None
        """In a locked block of a cluster: the effects to carry out once its writes commit."""
        self.metrics = Metrics()
        """What the service counts, for ``GET /metrics``."""
        self.metrics.watch(self)
        self.stopping = False
        """Set when the service stops (:meth:`begin_stop`): it takes no new work."""
        self._sockets_gone: asyncio.Event | None = None

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every stored table and resume the games in progress (bots, forced moves)."""
        self.loop = asyncio.get_running_loop()
        origins = self.forks.load_all()
        if self.store.shared:
            self.cluster = Cluster(self, sweep=self.sweep)
            await self.cluster.start()
        rooms = []
        for stored in self.store.load_all():
            room = self.build(stored, origins.get(stored.id))
            if room is not None:
                self.rooms[room.id] = room
                rooms.append(room)
        if self.cluster is not None:
            await self.cluster.load_presence()
        else:
            for room in rooms:
                await self.run(room, m.Automate(True))
        self._expire_later()

    async def close(self) -> None:
        """Stop (:meth:`stop`, if not yet), stop the bots' work and release the database."""
        if self._sockets_gone is None:
            await self.stop(timeout=0.0)
        if self._expiry is not None:
            self._expiry.cancel()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self.bots.close()
        for room in self.rooms.values():
            for conn in room.connections.values():
                close(conn)
        self.store.close()

    def build(self, stored: StoredTable, origin: JSONObject | None = None) -> Room | None:
        """The room of a stored table, its referee restored (``None``, logged, when the stored
        table cannot be played on). Nobody is connected yet: every person counts as away."""
        created = stored.created.timestamp() if stored.created is not None else self.clock.now()
        try:
            referee = restore(
                stored,
                entropy=self.seeds,
                public_url=self.public_url,
                origin=origin,
                created=created,
            )
        except (InvalidRecord, InvalidConfig, KeyError) as exc:
            table_log(stored.id).error("cannot be restored: %s", exc)
            return None
        referee.handle(m.Presence(frozenset()), self.clock.now())
        return Room(referee)

    async def add(self, stored: StoredTable, origin: JSONObject | None = None) -> Room:
        """Build and hold the room of a table just stored; alone on the database, this
        process plays its bots, forced moves and clocks."""
        room = self.build(stored, origin)
        if room is None:
            raise ServiceError("server/error", "the table could not be loaded", 500)
        self.rooms[room.id] = room
        if self.cluster is None:
            await self.run(room, m.Automate(True))
        else:
            self.cluster.want(room)  # a table of bots only is in play at once
        return room

    # -- finding tables -----------------------------------------------------------------------

    def room(self, table_id: str) -> Room:
        """The table ``table_id``; :class:`ServiceError` ``table/not-found`` (404) if none."""
        room = self.find(table_id)
        if room is None:
            raise ServiceError("table/not-found", f"there is no table {table_id!r}", 404)
        return room

    def find(self, table_id: str) -> Room | None:
        """The table ``table_id``, or ``None``; with other processes on the database, one they
        created and this one has not heard of yet is loaded from it."""
        room = self.rooms.get(table_id)
        if room is None and self.cluster is not None:
            room = self.cluster.find(table_id)
        return room

    def info(self, room: Room) -> JSONObject:
        """Public facts about a table: no token, no seed, nothing a seat's view hides."""
        return room.referee.info(self.clock.now())

    # -- running a referee --------------------------------------------------------------------

    async def run(
        self,
        room: Room,
        command: m.Command | Callable[[], m.Command],
        *,
        conn: Connection | None = None,
        guard: bool = True,
    ) -> None:
        """Feed ``room``'s referee ``command`` (or the command ``command()`` makes once the
        table is caught up) under its locks and carry out the effects. A refusal of
        :class:`~racedeck.server.referee.messages.Join` or ``PlayAgain`` is raised; a write
        the database refuses rebuilds the referee from the store and is raised as
        ``server/error`` (to ``conn``, the socket whose message it was, if any)."""
        async with room.lock:
            done = False
            if self.cluster is not None and guard and isinstance(command, BLOCK_COMMANDS):
                done = await self._fed_in_block(room, command, conn)
            if not done:
                cmd: m.Command | None = None
                try:
                    with self._guarded(room, guard):
                        cmd = command() if callable(command) else command
                        self.feed(room, cmd, conn=conn)
                except _Unstored as exc:
                    self._tell_unstored(cmd, conn, exc)
            if self.cluster is not None:
                self.cluster.want(room)

    def _tell_unstored(
        self, cmd: m.Command | None, conn: Connection | None, exc: _Unstored
    ) -> None:
        """A socket's move is answered ``server/error``; a refused Join or PlayAgain (or a
        failure before the command was made) is raised."""
        if isinstance(cmd, m.Act | m.Back) and conn is not None:
            self.send_error(conn, exc, cmd.id)
        elif cmd is None or isinstance(cmd, m.Join | m.PlayAgain):
            raise exc

    async def _fed_in_block(
        self, room: Room, command: m.Command | Callable[[], m.Command], conn: Connection | None
    ) -> bool:
        """Feed the command in an asynchronous locked block (:meth:`Cluster.block`): the
        lock and the commit are awaited, so other tables go on meanwhile. ``False`` when the
        command wrote something the block does not queue (anything but moves and clocks):
        then nothing was written or sent, the referee is rebuilt from the store and the
        caller takes the command again on the general path."""
        assert self.cluster is not None
        later: list[m.Effect] = []
        cmd: m.Command | None = None
        try:
            async with self.cluster.block(room):
                self._later = later
                try:
                    cmd = command() if callable(command) else command
                    self.feed(room, cmd, conn=conn)
                finally:
                    self._later = None
        except NotCommon:
            self._rebuild(room)
            return False
        except (_CommitFailed, SQLAlchemyError, psycopg.Error) as exc:
            table_log(room.id).exception("commit failed; reloading it from the database")
            self._rebuild(room)
            self._tell_unstored(cmd, conn, _unstored(exc))
            return True
        except BaseException:
            # A refusal changed nothing; what catching up brought is still sent.
            self._carry_out(room, later)
            raise
        self._carry_out(room, later)
        return True

    @contextlib.contextmanager
    def _guarded(self, room: Room, guard: bool) -> Iterator[None]:
        """Under the table's row lock when other processes share the database (and ``guard``):
        the block's writes commit together when it ends, and only then is anything of them
        sent, timed or asked of a bot (nobody sees a move before it is stored). A write the
        database refuses rolls the block back, rebuilds the referee from what is stored and
        raises :class:`_Unstored`."""
        if self.cluster is None or not guard:
            yield
            return
        later: list[m.Effect] = []
        try:
            with self.cluster.guard(room):
                # Held from here: what catching up brought (moves other processes stored) is
                # sent at once, before a socket connected in the block is greeted.
                self._later = later
                yield
        except (_CommitFailed, SQLAlchemyError, psycopg.Error) as exc:
            self._later = None
            table_log(room.id).exception("commit failed; reloading it from the database")
            self._rebuild(room)
            raise _Unstored() from exc
        except BaseException:
            # A refusal (of a Join, a PlayAgain) changed nothing; what was queued goes out.
            self._later = None
            self._carry_out(room, later)
            raise
        finally:
            self._later = None
        self._carry_out(room, later)

    def feed(self, room: Room, command: m.Command, *, conn: Connection | None = None) -> None:
        """Hand the referee one command and carry out its effects (the caller holds the
        table's lock)."""
        now = self.clock.now()
        if isinstance(command, PEOPLE_COMMANDS):
            room.active = now
        effects = room.referee.handle(command, now)
        failed = self._carry_out(room, effects)
        if failed is None:
            return
        self._rebuild(room)
        self._tell_unstored(command, conn, _unstored(failed))

    def _carry_out(self, room: Room, effects: Sequence[m.Effect]) -> Exception | None:
        """Carry out ``effects`` in order; a commit the database refuses stops them there
        (the frames after it must not show what was not stored) and is returned."""
        later = self._later
        for effect in effects:
            if isinstance(effect, m.Commit):
                started = time.perf_counter()
                try:
                    commit(self.store, room.id, effect.write)
                except NotCommon:
                    raise  # the block rolls back; the command is taken on the general path
                except Exception as exc:
                    if later is not None:  # the locked block rolls back (see _guarded)
                        raise _CommitFailed(str(exc)) from exc
                    table_log(room.id).exception("commit failed; reloading it from the database")
                    return exc
                if isinstance(effect.write, m.Append):
                    self.metrics.commit_seconds.observe(time.perf_counter() - started)
                    self.metrics.actions.inc()
            elif later is not None:
                later.append(effect)  # after the locked block commits
            elif isinstance(effect, m.Send):
                deliver(room, effect, self.observers, self.metrics)
            elif isinstance(effect, m.SetTimer):
                self._set_timer(room, effect.at)
            else:
                self._start_task(self._bot_turn(room, effect))
        return None

    def _rebuild(self, room: Room) -> None:
        """The database did not take a write: it did not happen. The referee is rebuilt from
        what is stored, with the sockets it had and whether it automates the table."""
        old = room.referee
        stored = self.store.load(room.id)
        fresh = self.build(stored, old.origin) if stored is not None else None
        if fresh is None:
            return
        referee = fresh.referee
        referee.conns = dict(old.conns)
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        room.referee = referee
        now = self.clock.now()
        effects = referee.handle(m.Presence(old.elsewhere), now)
        if old.automates:
            effects += referee.handle(m.Automate(True), now)
        if self._carry_out(room, effects) is not None:
            table_log(room.id).error("the table could not be stored again")

    def _set_timer(self, room: Room, at: float | None) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if at is None:
            return
        referee = room.referee

        def fire() -> None:
            room.timer = None
            if room.referee is referee:
                self._start_task(self.run(room, m.TimerFired()))

        room.timer = self.clock.call_at(at, fire)

    def _start_task(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the service cancels when it closes."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_turn(self, room: Room, ask: m.AskBot) -> None:
        """A bot decides off the event loop from its view; its answer goes to the referee.
        A failed decision is tried again a second later, up to the table's limit."""
        if self.bot_delay:
            await pause(self.clock, self.bot_delay)
        while True:
            try:
                action = await self.bots.decide(room.game.spec.id, room.config_key, ask)
                break
            except Exception:
                table_log(room.id).exception("bot %s at seat %d failed", ask.bot, ask.seat)
                room.failures += 1
                if room.failures > MAX_BOT_FAILURES:
                    return
                await pause(self.clock, 1.0)
        await self.run(room, m.BotAnswer(ask.ask, action))
