"""The authoritative table service: every action from a person or a bot takes one path.

For each message (in the shape of boardgame.io's master): authenticate (the socket's seat was
fixed by its token at ``hello``) → load the table → stale check (the move number the message
answers) → apply through the checked driver (:meth:`racedeck.core.table.Table.submit`) →
**commit** the action and the new move number to the database → send each seat its own view
and feed, spectators the public ones. Forced decisions (SB-9) and bots' answers go the same way.

One :class:`asyncio.Lock` per table serialises all of it, so simultaneous commits from several
sockets are applied one after another, each exactly once.

*Stale check.* An action answers the view of some move number. It is accepted when that is the
table's move number, and also when every action since was taken by another seat, unseen by the
others (:meth:`~racedeck.core.game.Game.conceals`: a face-down commit, a silent pass) while this
seat stayed pending: nothing this seat may know has changed, so its answer still holds. That is
what lets players of *Why First?* commit at the same time. Seats are sent an update after a
concealed action only when what they may know changed, so nobody learns by the timing of frames
who answered a silent window.

*Clocks.* Each seat asked has a clock and a bank (:mod:`racedeck.server.clocks`); one timer
per table hands a seat out of time, or away past the grace period, to the table's takeover bot,
and closes a silent window on its own clock. The clock goes out with every update and table
frame and is committed with every action.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime
from multiprocessing import get_context
from typing import Any, TypeVar

from racedeck.core.commitments import commitments_of
from racedeck.core.errors import (
    AuthError,
    InvalidConfig,
    InvalidRecord,
    RacedeckError,
    StaleMove,
)
from racedeck.core.events import PUBLIC, Event
from racedeck.core.fairness import commitment, fair_meta, game_seed, result_of
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import CLOCK_KEY
from racedeck.core.registry import available_games, get_spec
from racedeck.plugins import optional_plugin
from racedeck.server.bots import bot_choices, bot_decision, check_bot_name
from racedeck.server.clocks import (
    TableClock,
    clock_json,
    clock_options,
    hidden_asked,
    running_seats,
    window_deadline,
)
from racedeck.server.cluster import Cluster
from racedeck.server.face_down import Published, ledger_for, publish
from racedeck.server.frames import EventFeeds
from racedeck.server.live import (
    LiveTable,
    Step,
    history_json,
    public_summary,
    view_json,
)
from racedeck.server.messages import Act, CreateTable, JoinRequest
from racedeck.server.rooms import (
    FLOOD_LIMIT,
    RATE_BURST,
    RATE_PER_SECOND,
    Connection,
    Room,
    ServiceError,
    hash_token,
)
from racedeck.store.forks import FORK_KEY, ForkStore
from racedeck.store.tables import FinishedGame, SeatRow, StoredTable, TableStore

__all__ = ["FrameObserver", "TableService"]

log = logging.getLogger("racedeck.server")

MAX_TABLES = 10_000
"""Most tables the service holds at once (each is a few kilobytes)."""
MAX_CONNECTIONS_PER_TABLE = 64
"""Most sockets one table serves (seats and spectators together)."""
MAX_BOT_FAILURES = 5
"""Failed bot decisions at one table that are retried (a second apart) before giving up."""

T = TypeVar("T")


FrameObserver = Callable[["Room", "int | None", JSONObject], None]
"""Called with the table, the recipient's seat (``None``: a spectator) and every frame sent."""


def _derived_seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class TableService:
    """Tables, seats, sockets and the authoritative path of every action."""

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
    ) -> None:
        self.store = store
        self.forks = ForkStore(store.engine)
        self.rate = rate
        self.burst = burst
        self.rooms: dict[str, Room] = {}
        self.observers: list[FrameObserver] = []
        self.bot_delay = bot_delay
        self.public_url = public_url.rstrip("/")
        self._pool_kind = bot_pool
        self._bot_workers = bot_workers
        self._pool: Executor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the service runs on (set by :meth:`start`)."""
        self.cluster: Cluster | None = None
        """The other processes serving the same PostgreSQL database (``None`` on SQLite)."""

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every stored table and resume the games in progress (bots, forced moves)."""
        self.loop = asyncio.get_running_loop()
        origins = self.forks.load_all()
        if self.store.shared:
            self.cluster = Cluster(self)
            await self.cluster.start()
        for stored in self.store.load_all():
            try:
                room = self._restore(stored)
            except (InvalidRecord, InvalidConfig, KeyError) as exc:
                log.error("table %s cannot be restored: %s", stored.id, exc)
                continue
            room.origin = origins.get(room.id)
            self.rooms[room.id] = room
        if self.cluster is not None:
            self.cluster.load_presence()
        for room in list(self.rooms.values()):
            if room.table is not None and not room.table.is_over:
                async with room.lock:
                    self._settle(room)
                    self._clock_sync(room)
                    self._clock_arm(room)

    async def close(self) -> None:
        """Stop the bots' work and release the database."""
        for room in self.rooms.values():
            if room.clock.timer is not None:
                room.clock.timer.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        for room in self.rooms.values():
            for conn in room.connections:
                self._close_connection(conn)
        self.store.close()

    def _restore(self, stored: StoredTable) -> Room:
        spec = get_spec(stored.game)
        game = spec.factory(spec.make_config(**stored.config))
        room = Room(
            id=stored.id,
            game=game,
            config=stored.config,
            seats=stored.seats,
            status=stored.status,
            game_no=stored.game_no,
            seed=stored.seed,
            server_seed=stored.server_seed,
            client_seeds=list(stored.client_seeds) or [""] * len(stored.seats),
            clock=TableClock.from_store(stored.clock, len(stored.seats)),
        )
        self._mark_away(room)
        if stored.status != "open":
            table = LiveTable.from_record(stored.record(self._meta(room)))
            assert isinstance(table, LiveTable)
            room.table = table
            room.ledger = ledger_for(game, room.server_seed, table.record)
            if table.is_over and room.server_seed:
                room.next_server_seed = stored.next_server_seed or secrets.token_hex(32)
            # The steps before a restart are not known: answers to them must be exact.
            room.strict_below = table.move
        return room

    def _executor(self) -> Executor:
        if self._pool is None:
            if self._pool_kind == "thread":
                self._pool = ThreadPoolExecutor(self._bot_workers, thread_name_prefix="bot")
            else:
                self._pool = ProcessPoolExecutor(self._bot_workers, mp_context=get_context("spawn"))
        return self._pool

    # -- what anyone may read -----------------------------------------------------------------

    def games(self) -> list[JSONObject]:
        """Every game with its title, player range, options and bots (for ``/api/games``)."""
        out: list[JSONObject] = []
        for game_id in available_games():
            spec = get_spec(game_id)
            defaults = spec.config_type().to_json()
            out.append(
                {
                    "id": spec.id,
                    "title": spec.title,
                    "summary": spec.summary,
                    "rules_version": spec.rules_version,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                    "win_rule": _win_rule(spec.id),
                    "options": [
                        {
                            "name": o.name,
                            "default": defaults[o.name],
                            "help": o.help,
                            "allowed": o.allowed,
                        }
                        for o in spec.options()
                    ],
                    "bots": bot_choices(game_id),
                }
            )
        return out

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

    def _automates(self, room: Room) -> bool:
        """True when this process plays ``room``'s bots, forced moves and clocks: always when
        it is alone on its database, else when it holds the table (:meth:`Cluster.automates`)."""
        return self.cluster is None or self.cluster.automates(room)

    def _write(self, room: Room, block: Callable[[], T]) -> T:
        """Run ``block``, a write at ``room`` (the caller holds the table's lock): with other
        processes on the database, under its row lock, the table first brought up to what they
        stored (:meth:`Cluster.guard`)."""
        if self.cluster is None:
            return block()
        with self.cluster.guard(room):
            return block()

    def info(self, room: Room) -> JSONObject:
        """Public facts about a table: no token, no seed, nothing a seat's view hides."""
        spec = room.game.spec
        connected = {c.seat for c in room.connections if c.seat is not None}
        return {
            "id": room.id,
            "game": spec.id,
            "title": spec.title,
            "config": dict(room.config),
            "summary": public_summary(room.config, spec.config_type().to_json()),
            "status": room.status,
            "game_no": room.game_no,
            "move": room.table.move if room.table is not None else None,
            "players": len(room.seats),
            "free": sum(1 for s in room.seats if s.kind == "human" and s.token_hash is None),
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": room.names[i] if (s.kind == "bot" or s.token_hash) else None,
                    "taken": s.kind == "bot" or s.token_hash is not None,
                    "connected": s.kind == "bot" or i in connected,
                }
                for i, s in enumerate(room.seats)
            ],
            "spectators": sum(1 for c in room.connections if c.seat is None),
            "invite_url": f"{self.public_url}/t/{room.id}",
            "win_rule": _win_rule(spec.id),
            "fair": self._fair_info(room),
            "fork": room.origin if room.game_no == 1 else None,
            "clock": clock_json(room),
        }

    def finished_games(self, room: Room) -> list[JSONObject]:
        """The table's finished games: number, when it ended, the outcome and the winners'
        names, and where to download the record (for ``/api/tables/{id}/games``)."""
        out: list[JSONObject] = []
        clocks = self.store.clocks(room.id)
        for done in self.store.finished_games(room.id):
            outcome = done.outcome
            names = [str(n) for n in outcome.get("names", [])]
            played = clocks.get(done.game_no, {}).get("bot_played", [])
            ended = done.finished or datetime.now(UTC)
            out.append(
                {
                    "game_no": done.game_no,
                    "finished": (ended if ended.tzinfo else ended.replace(tzinfo=UTC)).isoformat(),
                    "outcome": outcome,
                    "winners": [names[i] for i in outcome.get("winners", []) if i < len(names)],
                    "bot_played": [i for i, p in enumerate(played) if p],
                    "record_url": f"{self.public_url}/api/tables/{room.id}/games/"
                    f"{done.game_no}/record",
                }
            )
        return out

    def finished_record(self, room: Room, game_no: int) -> JSONObject:
        """Finished game ``game_no`` as a record for ``racedeck replay`` and ``racedeck
        verify``, with its fairness facts in ``meta.fair`` (and, for the first game of a
        "what if" table, its origin in ``meta.fork``). Refused while that game is in play
        (``game/not-over``: its record would give the hands away) and for a game the table
        never had (``game/not-found``)."""
        if not 1 <= game_no <= room.game_no:
            raise ServiceError(
                "game/not-found",
                f"table {room.id} has no game {game_no} (games 1..{room.game_no})",
                404,
            )
        meta: JSONObject = {"table": room.id, "game_no": game_no, "names": room.names}
        if game_no == 1 and room.origin is not None:
            meta[FORK_KEY] = room.origin
        stored_clock = self.store.clocks(room.id).get(game_no)
        if stored_clock is not None:
            meta[CLOCK_KEY] = TableClock.from_store(stored_clock, len(room.seats)).record_json()
        record = self.store.finished_record(room.id, game_no, meta)
        if record is None:
            raise ServiceError(
                "game/not-over",
                f"game {game_no} at this table is not over; its record is ready at the end",
                409,
            )
        return record.to_json()

    def _finished(self, room: Room) -> FinishedGame:
        """The row that marks the current game finished (its public outcome, with names)."""
        assert room.table is not None
        header = view_json(room.table, None, room.names)["header"]
        fair = None
        if room.server_seed:
            result = result_of(room.table.record, room.table.state)
            # From the whole record: the ledger has not yet taken this last action.
            opened = commitments_of(room.table.record, room.server_seed)
            fair = fair_meta(room.server_seed, room.client_seeds, result, opened)
        return FinishedGame(
            game_no=room.game_no, seed=room.seed, outcome=header["outcome"], fair=fair
        )

    @staticmethod
    def _fair_info(room: Room) -> JSONObject | None:
        """The commitment to the current game's server seed; once the game is over, the
        server seed and the client seeds too (``None`` for a table from before fair deals)."""
        if not room.server_seed:
            return None
        over = room.table is not None and room.table.is_over
        return {
            "commitment": commitment(room.server_seed),
            "server_seed": room.server_seed if over else None,
            "client_seeds": list(room.client_seeds) if over else None,
            "next_commitment": (
                commitment(room.next_server_seed) if over and room.next_server_seed else None
            ),
            "commitments": room.ledger.public_json() if room.ledger is not None else [],
        }

    def record(self, table_id: str) -> JSONObject:
        """The record of the table's current game once it is over: the same as
        :meth:`finished_record` of its number (``game/not-over`` before the end)."""
        room = self.room(table_id)
        if room.table is None or not room.table.is_over:
            raise ServiceError("game/not-over", "the record is given once the game is over", 409)
        return self.finished_record(room, room.game_no)

    def lobby(self) -> list[JSONObject]:
        """Tables with a free seat, then games in progress, newest first."""
        rooms = sorted(self.rooms.values(), key=lambda r: -r.created)
        # A "what if" table is private: only the person who forked it knows its link.
        listed = [r for r in rooms if r.origin is None]
        open_ = [self.info(r) for r in listed if r.status == "open"]
        playing = [self.info(r) for r in listed if r.status == "playing"]
        return [_without_commitments(i) for i in (open_ + playing)[:200]]

    # -- seats ----------------------------------------------------------------------------------

    async def create(self, req: CreateTable) -> tuple[Room, int | None, str | None]:
        """Create a table; the creator takes the first person's seat. Returns the table, the
        creator's seat and token (``None`` when every seat is a bot: a game to watch)."""
        if len(self.rooms) >= MAX_TABLES:
            raise ServiceError("server/full", "the server holds all the tables it can", 503)
        try:
            spec = get_spec(req.game)
        except KeyError as exc:
            raise InvalidConfig(str(exc.args[0]), "game") from None
        options = dict(req.config)
        options.setdefault("players", len(req.seats))
        config = spec.make_config(**options)
        if config.players != len(req.seats):
            raise InvalidConfig(
                f"{spec.id}: {len(req.seats)} seats given for players={config.players}",
                "seats",
            )
        seats: list[SeatRow] = []
        for s in req.seats:
            if s.kind == "bot":
                if s.bot is None:
                    raise InvalidConfig("a bot seat must name its bot", "bot")
                seats.append(SeatRow(kind="bot", bot=check_bot_name(spec.id, s.bot)))
            else:
                seats.append(SeatRow(kind="human"))
        clock = TableClock.fresh(clock_options(req.clock, spec.id), len(seats))
        server_seed = secrets.token_hex(32)
        client_seeds = [""] * len(seats)
        room = Room(
            id=secrets.token_urlsafe(9),
            game=spec.factory(config),
            config=config.to_json(),
            seats=seats,
            status="open",
            game_no=1,
            seed=game_seed(server_seed, client_seeds),
            server_seed=server_seed,
            client_seeds=client_seeds,
            clock=clock,
        )
        self._mark_away(room)
        stored = StoredTable(
            id=room.id,
            game=spec.id,
            config=room.config,
            status=room.status,
            game_no=room.game_no,
            seed=room.seed,
            seats=seats,
            server_seed=server_seed,
            client_seeds=client_seeds,
            clock=room.clock.to_store(),
        )
        self.store.create(stored)
        self.rooms[room.id] = room
        seat: int | None = None
        token: str | None = None
        async with room.lock:
            if any(s.kind == "human" for s in seats):
                seat, token = self._write(
                    room, lambda: self._take_seat(room, None, req.name, req.client_seed)
                )
            else:
                self._write(room, lambda: self._start(room))
        return room, seat, token

    async def join(self, table_id: str, req: JoinRequest) -> tuple[int, str]:
        """Give a free seat (``req.seat`` or the first free one) to a person; returns the seat
        and its token. The game starts when the last seat is taken."""
        room = self.room(table_id)
        async with room.lock:
            return self._write(
                room, lambda: self._take_seat(room, req.seat, req.name, req.client_seed)
            )

    def _take_seat(
        self, room: Room, wanted: int | None, name: str | None, client_seed: str | None
    ) -> tuple[int, str]:
        free = [i for i, s in enumerate(room.seats) if s.kind == "human" and s.token_hash is None]
        if wanted is None:
            if not free:
                raise ServiceError("table/full", "every seat at this table is taken", 409)
            seat = free[0]
        else:
            if not 0 <= wanted < len(room.seats):
                raise ServiceError(
                    "seat/invalid", f"there is no seat {wanted} (0..{len(room.seats) - 1})", 400
                )
            if wanted not in free:
                raise ServiceError("seat/taken", f"seat {wanted} is taken", 409)
            seat = wanted
        token = secrets.token_urlsafe(24)
        row = SeatRow(
            kind="human", name=name.strip() if name else None, token_hash=hash_token(token)
        )
        status = "playing" if len(free) == 1 else "open"
        # The deal is derived from the committed server seed and every seat's client seed.
        client_seeds = list(room.client_seeds)
        client_seeds[seat] = client_seed or ""
        seed = game_seed(room.server_seed, client_seeds) if room.server_seed else room.seed
        self.store.take_seat(room.id, seat, row, status, client_seeds, seed)
        room.seats[seat] = row
        room.client_seeds = client_seeds
        room.seed = seed
        if status == "playing":
            self._start(room)
        else:
            self._broadcast_table(room)
        return seat, token

    def _start(self, room: Room) -> None:
        """Deal the current game, tell everyone, and let bots and forced moves play."""
        room.status = "playing"
        if room.table is not None:
            room.clock.new_game()  # play again: full banks, nobody taken over
        room.table = LiveTable(room.game, room.seed, self._meta(room))
        room.ledger = ledger_for(room.game, room.server_seed)
        room.steps = []
        room.strict_below = 0
        room.start_pending = room.table.pending
        room.seen_at = time.monotonic()
        self._clock_sync(room)
        self._save_clock(room)
        self._broadcast_table(room)
        self._broadcast(room, room.table.history[0][1], None)
        self._settle(room)
        self._clock_arm(room)

    async def again(self, table_id: str, token: str, client_seed: str | None = None) -> int:
        """A new game at the same table with the same seats, once the current one is over;
        ``token`` must be a seated person's, ``client_seed`` (optional) that seat's new one.
        Returns the new game's number.

        The new game's server seed is the one whose commitment was published when the last
        game ended (``next_commitment``): a client seed sent now was unknown to the server
        when it committed, so the server cannot pick its seed to suit the seats' seeds.
        """
        room = self.room(table_id)
        async with room.lock:
            return self._write(room, lambda: self._again(room, token, client_seed))

    def _again(self, room: Room, token: str, client_seed: str | None) -> int:
        """:meth:`again` under the table's locks."""
        seat = self._seat_of(room, token)
        if seat is None:
            raise AuthError("this token holds no seat at this table")
        if room.table is None or not room.table.is_over:
            raise ServiceError("game/not-over", "the game at this table is not over", 409)
        if room.origin is not None:
            # Its next deal's seed could not be committed before the seats' seeds.
            raise ServiceError(
                "fork/again",
                "a what-if game is played once: fork it again from its replay",
                409,
            )
        server_seed = room.next_server_seed or secrets.token_hex(32)
        client_seeds = list(room.client_seeds)
        if client_seed is not None and seat < len(client_seeds):
            client_seeds[seat] = client_seed
        seed = game_seed(server_seed, client_seeds)
        self.store.new_game(room.id, room.game_no + 1, seed, "playing", server_seed, client_seeds)
        room.game_no += 1
        room.seed = seed
        room.server_seed = server_seed
        room.client_seeds = client_seeds
        room.next_server_seed = ""
        self._start(room)
        return room.game_no

    def _meta(self, room: Room) -> JSONObject:
        return {"table": room.id, "game_no": room.game_no, "names": room.names}

    @staticmethod
    def _seat_of(room: Room, token: str) -> int | None:
        digest = hash_token(token)
        found = None
        for i, s in enumerate(room.seats):
            # Compare every seat, in constant time, so timing does not tell how close a guess is.
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = i
        return found

    # -- sockets ----------------------------------------------------------------------------------

    async def connect(self, room: Room, token: str | None) -> Connection:
        """Authenticate a socket (a token, or ``None`` for a spectator), register it and queue
        its welcome. Raises :class:`AuthError` for a token that holds no seat here."""
        async with room.lock:
            cluster = self.cluster
            if cluster is not None:
                cluster.sync(room)
            seat = None
            if token is not None:
                seat = self._seat_of(room, token)
                if seat is None:
                    raise AuthError("this token holds no seat at this table")
            if len(room.connections) >= MAX_CONNECTIONS_PER_TABLE:
                raise ServiceError("table/busy", "this table has too many connections", 503)
            conn = Connection(
                room=room, seat=seat, rate=self.rate, burst=self.burst, tokens=self.burst
            )
            room.connections.add(conn)
            if cluster is not None and seat is not None:
                cluster.announce(room)
            if seat is not None:
                # A person who reconnects is back: no bot plays their seat any more.
                room.clock.seats[seat].away = None
                self._give_back(room, seat, broadcast=False)
            welcome: JSONObject = {
                "type": "welcome",
                "seat": seat,
                "table": self.info(room),
                "game_no": room.game_no,
                "view": None,
                "events": [],
            }
            if room.table is not None:
                view = view_json(room.table, seat, room.names)
                welcome["view"] = view
                welcome["events"] = history_json(room.table, seat, room.names)
                conn.last_seen = _without_move(view)
            self._send(conn, welcome)
            self._broadcast_table(room, skip=conn)
            self._clock_arm(room)
            return conn

    async def disconnect(self, conn: Connection) -> None:
        """Forget a closed socket."""
        room = conn.room
        async with room.lock:
            room.connections.discard(conn)
            conn.closed = True
            if conn.seat is not None:
                if self.cluster is not None:
                    self.cluster.announce(room)
                self._mark_away(room)
                self._clock_arm(room)
            self._broadcast_table(room)

    async def act(self, conn: Connection, msg: Act) -> None:
        """A person's action from their socket; errors go back to that socket only."""
        room = conn.room
        seat = conn.seat

        def block() -> None:
            if seat is None:
                raise AuthError("spectators cannot act; join a seat to play")
            # Acting is coming back: the person plays this seat again from this move on.
            self._give_back(room, seat)
            self._apply(room, seat, msg.move, msg.action, (conn, msg.id))

        async with room.lock:
            try:
                self._write(room, block)
            except RacedeckError as exc:
                self.send_error(conn, exc, msg.id)

    async def back(self, conn: Connection, client_id: str | None) -> None:
        """ "I'm back" from a seat a bot took over: its person plays it again (a no-op when no
        bot plays it)."""
        room = conn.room
        seat = conn.seat
        if seat is None:
            self.send_error(conn, AuthError("spectators have no seat to come back to"), client_id)
            return
        async with room.lock:
            self._write(room, lambda: self._give_back(room, seat))

    def send_error(self, conn: Connection, exc: RacedeckError, client_id: str | None) -> None:
        """Send ``exc`` to one socket as an ``error`` frame."""
        frame: JSONObject = {"type": "error", "code": exc.code, "message": str(exc)}
        if client_id is not None:
            frame["id"] = client_id
        if isinstance(exc, StaleMove):
            frame["move"] = exc.current
        self._send(conn, frame)

    def flooded(self, conn: Connection) -> None:
        """A message over the socket's rate was dropped unread: tell the sender at most once a
        second, and close a socket that keeps on (it may reconnect)."""
        if conn.dropped > FLOOD_LIMIT:
            log.warning("table %s: closing a socket that floods", conn.room.id)
            self._close_connection(conn)
            return
        now = time.monotonic()
        if now - conn.warned >= 1.0:
            conn.warned = now
            self.send_error(
                conn,
                ServiceError(
                    "message/rate-limited", "too many messages; this one was dropped", 429
                ),
                None,
            )

    def pong(self, conn: Connection, client_id: str | None) -> None:
        """Answer a ping."""
        frame: JSONObject = {"type": "pong"}
        if client_id is not None:
            frame["id"] = client_id
        self._send(conn, frame)

    # -- the authoritative path ---------------------------------------------------------------

    def _apply(
        self,
        room: Room,
        seat: int,
        move: int,
        action: object,
        origin: tuple[Connection, str | None] | None = None,
    ) -> None:
        """Stale check → checked step → commit → send; then forced moves and bots.

        Called with the table's lock held. Raises the refusal (and changes nothing) when the
        action is stale, malformed or illegal.
        """
        table = room.table
        if table is None:
            raise ServiceError("table/not-started", "the game starts when every seat is taken")
        self._check_fresh(room, seat, move)
        before = table.state
        if room.deferred is not None and room.deferred[0] == seat:
            return  # this seat's answer is already in, waiting for the window's time
        if table.pending == (seat,) and self._window_hold(room) > 0:
            # SB-9: the last answer of a window would close it before its time. Check it now
            # (errors go back at once), apply it when the time is up.
            parsed = table.game.action_from_json(action) if isinstance(action, dict) else None
            if parsed is not None and room.game.conceals(before, seat, parsed):
                table.game.step(before, table.game.check_seat(seat), parsed)
                room.deferred = (seat, action, origin)
                self._settle_later(room, self._window_hold(room))
                return
        transition = table.submit_json(seat, action)
        parsed = table.game.action_from_json(table.last_action.action)
        concealed = room.game.conceals(before, seat, parsed)
        self._accepted(room, seat, concealed, transition.events, origin, before=before)
        self._settle(room)

    def _check_fresh(self, room: Room, seat: int, move: int) -> None:
        table = room.table
        assert table is not None
        current = table.move
        if move == current:
            return
        if not room.strict_below <= move < current:
            raise StaleMove(move, current)
        pending_then = room.steps[move - 1].pending if move > 0 else room.start_pending
        if seat not in pending_then:
            raise StaleMove(move, current)
        for step in room.steps[move:current]:
            if step.seat == seat or not step.concealed or seat not in step.pending:
                raise StaleMove(move, current)

    def _accepted(
        self,
        room: Room,
        seat: int,
        concealed: bool,
        events: Sequence[Event],
        origin: tuple[Connection, str | None] | None = None,
        *,
        before: object,
    ) -> None:
        """Commit the table's last action (taken in state ``before``), remember it, and send
        it out with the face-down commitment it makes (:mod:`racedeck.server.face_down`)."""
        table = room.table
        assert table is not None
        room.status = "over" if table.is_over else "playing"
        if table.is_over and room.server_seed:
            # Stored with the last move: every process publishes the same next commitment.
            room.next_server_seed = secrets.token_hex(32)
        self._clock_sync(room)
        try:
            self.store.append_action(
                room.id,
                room.game_no,
                table.move - 1,
                seat,
                table.last_action.action,
                room.status,
                self._finished(room) if table.is_over else None,
                room.next_server_seed if table.is_over else "",
                clock=room.clock.to_store(),
            )
        except Exception as exc:
            # The database did not take it: the move did not happen. Rebuild from what is stored.
            log.exception("table %s: commit failed; reloading it from the database", room.id)
            stored = self.store.load(room.id)
            if stored is not None:
                fresh = self._restore(stored)
                room.table, room.status, room.strict_below = (
                    fresh.table,
                    fresh.status,
                    fresh.strict_below,
                )
                if room.clock.timer is not None:
                    room.clock.timer.cancel()
                room.clock = fresh.clock
                self._mark_away(room)
                self._clock_sync(room)
            raise ServiceError(
                "server/error", "the move could not be stored; try again", 500
            ) from exc
        self._shown(room, seat, concealed, events, origin, before=before)

    def _shown(
        self,
        room: Room,
        seat: int,
        concealed: bool,
        events: Sequence[Event],
        origin: tuple[Connection, str | None] | None = None,
        *,
        before: object,
    ) -> None:
        """Remember the table's last action (stored already; taken in state ``before``) and
        send it out with the face-down commitment it makes (:mod:`racedeck.server.face_down`):
        after this process committed it, or another one (:meth:`Cluster.guard` catching up)."""
        table = room.table
        assert table is not None
        room.status = "over" if table.is_over else "playing"
        # Moves replayed at a restart have no steps: pad, so answers to them must be exact.
        while len(room.steps) < table.move - 1:
            room.steps.append(Step(len(room.steps) + 1, -1, False, ()))
        room.steps.append(Step(table.move, seat, concealed, table.pending))
        # SB-9: a window's clock starts at the last thing anyone could see. A concealed answer
        # can still make public events (the window it closes, what resolves, the next window).
        seen = not concealed or any(e.audience == PUBLIC for e in events)
        if seen:
            room.seen_at = time.monotonic()
        published = publish(
            room.ledger,
            before,
            seat,
            table.last_action.action,
            table.move - 1,
            table.state,
            events,
        )
        self._broadcast(room, events, room.steps[-1], origin, published)
        if seen:
            # Counted again from when the frames went out: a busy process may lose time between
            # the commit and the send, and a window must last its time as the seats see it.
            room.seen_at = time.monotonic()
        if table.is_over:
            self._broadcast_table(room)
        self._clock_arm(room)

    def _settle(self, room: Room) -> None:
        """Take the forced decisions, then ask the bots whose turn it is.

        SB-9: while a reaction window must stay open (:meth:`Game.window_minimum`, at a table
        with people), forced answers are held back — and bots whose answer is forced are not
        asked — until its time is up, so how long a window lasts says nothing of the hands.
        """
        table = room.table
        if table is None:
            return
        if not self._automates(room):
            return  # one process on the database plays the table's bots and forced moves
        hold = self._window_hold(room)
        while not table.is_over and hold <= 0:
            before = table.state
            transition = table.forced_step()
            if transition is None:
                break
            last = table.last_action
            parsed = table.game.action_from_json(last.action)
            self._accepted(
                room,
                last.seat,
                room.game.conceals(before, last.seat, parsed),
                transition.events,
                before=before,
            )
            hold = self._window_hold(room)
        if table.is_over:
            return
        if hold > 0:
            self._settle_later(room, hold)
        for seat in table.pending:
            bot = self._bot_of(room, seat)
            if bot is None or seat in room.thinking:
                continue
            if hold > 0 and room.game.forced_action(table.state, seat) is not None:
                continue  # answered by the driver when the window's time is up
            room.thinking.add(seat)
            view = table.view(seat).to_json()
            self._start_task(self._bot_turn(room, seat, bot, room.game_no, table.move, view))

    def _start_task(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the service cancels when it closes."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _window_hold(self, room: Room) -> float:
        """Seconds the forced answers of the open window must still wait (0: none)."""
        table = room.table
        assert table is not None
        if not room.has_people or table.is_over:
            return 0.0
        minimum = room.game.window_minimum(table.state)
        if minimum <= 0:
            return 0.0
        return max(0.0, room.seen_at + minimum - time.monotonic())

    def _settle_later(self, room: Room, delay: float) -> None:
        """Settle ``room`` again after ``delay`` seconds (one timer per table)."""
        if room.timer is not None:
            room.timer.cancel()
        game_no = room.game_no
        loop = asyncio.get_running_loop()

        def fire() -> None:
            room.timer = None
            self._start_task(self._resettle(room, game_no))

        room.timer = loop.call_later(delay, fire)

    async def _resettle(self, room: Room, game_no: int) -> None:
        async with room.lock:
            if room.game_no != game_no or room.table is None:
                return
            table = room.table
            deferred, room.deferred = room.deferred, None
            if deferred is not None:
                seat, action, origin = deferred
                try:
                    # Nothing moved meanwhile: the deferred seat was the only one asked.
                    self._write(room, lambda: self._apply(room, seat, table.move, action, origin))
                except RacedeckError as exc:
                    if origin is not None:
                        self.send_error(origin[0], exc, origin[1])
                return
            self._write(room, lambda: self._settle(room))

    async def _bot_turn(
        self, room: Room, seat: int, bot: str, game_no: int, move: int, view: JSONObject
    ) -> None:
        """A bot decides off the event loop from its view, then acts through :meth:`_apply`."""
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            loop = asyncio.get_running_loop()
            seed = _derived_seed(room.seed, game_no, seat, move)
            action = await loop.run_in_executor(
                self._executor(),
                bot_decision,
                room.game.spec.id,
                room.config_key,
                bot,
                seat,
                seed,
                view,
            )
        except asyncio.CancelledError:
            room.thinking.discard(seat)
            raise
        except Exception as exc:
            log.exception("table %s: bot %s at seat %d failed", room.id, bot, seat)
            if isinstance(exc, BrokenExecutor):
                self._pool = None  # a worker died: the next decision gets a fresh pool
            room.failures += 1
            if room.failures <= MAX_BOT_FAILURES:
                await asyncio.sleep(1.0)
                async with room.lock:
                    room.thinking.discard(seat)
                    if room.game_no == game_no:
                        self._write(room, lambda: self._settle(room))
            else:
                room.thinking.discard(seat)
            return
        async with room.lock:
            room.thinking.discard(seat)
            if room.game_no != game_no or room.table is None:
                return

            def play() -> None:
                # Checked after the guard: another process may have given the seat back.
                if self._bot_of(room, seat) == bot:
                    self._apply(room, seat, move, action)

            try:
                self._write(room, play)
            except RacedeckError as exc:
                # Only a stale answer can happen here (the game moved on); ask again.
                log.info("table %s: bot at seat %d: %s", room.id, seat, exc)
                self._write(room, lambda: self._settle(room))

    # -- clocks (racedeck.server.clocks) ------------------------------------------------------

    @staticmethod
    def _bot_of(room: Room, seat: int) -> str | None:
        """The bot that plays ``seat`` now: a bot seat's own, the takeover bot for a person a
        bot took over, else ``None``."""
        row = room.seats[seat]
        if row.kind == "bot":
            return row.bot
        return room.clock.options.bot if room.clock.seats[seat].bot else None

    def _mark_away(self, room: Room) -> None:
        """A person counts as away, from now, when no socket of theirs is open: on this
        process, or on another serving the same database (``room.elsewhere``)."""
        now = time.monotonic()
        connected = {c.seat for c in room.connections} | room.elsewhere
        for i, row in enumerate(room.seats):
            if row.kind == "bot":
                continue
            seat = room.clock.seats[i]
            if i in connected:
                seat.away = None
            elif seat.away is None:
                seat.away = now

    @staticmethod
    def _clock_sync(room: Room) -> None:
        """Run the clocks of the seats asked now, stop the others."""
        room.clock.sync(running_seats(room), time.monotonic())

    def _save_clock(self, room: Room) -> None:
        try:
            self.store.save_clock(room.id, room.game_no, room.clock.to_store())
        except Exception:
            # The next accepted action stores the clock again; the game goes on meanwhile.
            log.exception("table %s: the clock could not be stored", room.id)

    def _give_back(self, room: Room, seat: int, broadcast: bool = True) -> None:
        """The person of ``seat`` is back: no bot plays it from now on (noted for the record)."""
        table = room.table
        if table is None or table.is_over:
            return
        if not room.clock.give_back(seat, table.move):
            return
        self._clock_sync(room)
        self._save_clock(room)
        if broadcast:
            self._broadcast_table(room)
        self._clock_arm(room)

    def _clock_arm(self, room: Room) -> None:
        """Set the table's clock timer for the next thing its clocks must do (one per table)."""
        clock = room.clock
        if clock.timer is not None:
            clock.timer.cancel()
            clock.timer = None
        table = room.table
        if table is None or table.is_over:
            return
        if not self._automates(room):
            return  # the process that automates the table keeps its clocks
        due = [
            t
            for seat in range(len(room.seats))
            for t in (clock.timeout_at(seat), clock.away_at(seat))
            if t is not None
        ]
        window = window_deadline(room)
        if window is not None:
            due.append(window)
        if not due:
            return
        loop = asyncio.get_running_loop()
        game_no = room.game_no

        def fire() -> None:
            clock.timer = None
            self._start_task(self._clock_due(room, game_no))

        # A hair late rather than early: the deadline must have passed when it is checked.
        clock.timer = loop.call_later(max(0.0, min(due) - time.monotonic()) + 0.005, fire)

    async def _clock_due(self, room: Room, game_no: int) -> None:
        """A clock ran out: close a silent window, or hand seats out of time (or away past
        the grace period) to the takeover bot."""
        async with room.lock:
            self._write(room, lambda: self._clock_ran_out(room, game_no))

    def _clock_ran_out(self, room: Room, game_no: int) -> None:
        """:meth:`_clock_due` under the table's locks."""
        table = room.table
        if room.game_no != game_no or table is None or table.is_over:
            return
        now = time.monotonic()
        window = window_deadline(room)
        if window is not None and window <= now:
            self._close_window(room)
        clock = room.clock
        taken = False
        for seat in sorted(running_seats(room)):
            timeout, away = clock.timeout_at(seat), clock.away_at(seat)
            if timeout is not None and timeout <= now:
                clock.take_over(seat, "timeout", table.move, now)
            elif away is not None and away <= now:
                clock.take_over(seat, "away", table.move, now)
            else:
                continue
            taken = True
            log.info("table %s: a bot takes over seat %d", room.id, seat)
        if taken:
            self._save_clock(room)
            self._broadcast_table(room)
            self._settle(room)
        self._clock_arm(room)

    def _close_window(self, room: Room) -> None:
        """SB-9: the open window's clock ran out: the seats still asked take the game's
        timeout action (a pass), exactly as if they had chosen it, and the window closes."""
        table = room.table
        assert table is not None
        self._settle(room)  # forced answers first: the window's minimum is over
        opened = room.seen_at
        for seat in hidden_asked(room):
            if table.is_over or room.seen_at != opened or seat not in table.pending:
                break
            if room.deferred is not None and room.deferred[0] == seat:
                continue  # its answer is in; the window's own timer applies it
            action = room.game.timeout_action(table.state, seat)
            if action is None:
                continue
            before = table.state
            room.clock.notes.append({"move": table.move, "seat": seat, "kind": "window"})
            transition = table.submit(seat, action)
            self._accepted(
                room,
                seat,
                room.game.conceals(before, seat, action),
                transition.events,
                before=before,
            )
        self._settle(room)

    # -- sending ------------------------------------------------------------------------------

    def _broadcast(
        self,
        room: Room,
        events: Sequence[Event],
        step: Step | None,
        origin: tuple[Connection, str | None] | None = None,
        published: Published | None = None,
    ) -> None:
        """Send every socket its update for one transition (``step`` ``None``: the deal); the
        socket whose message caused it gets the message's id back as ``ack``, and every frame
        sent carries what ``published`` adds for its seat (face-down commitments)."""
        table = room.table
        assert table is not None
        names = room.names
        views: dict[int | None, JSONObject] = {}
        clock = clock_json(room)
        feeds = EventFeeds(table, events, names)
        for conn in list(room.connections):
            seat = conn.seat
            if seat not in views:
                views[seat] = view_json(table, seat, names)
            view = views[seat]
            seen = _without_move(view)
            feed = feeds.for_seat(seat)
            if (
                step is not None
                and step.concealed
                and not feed
                and seat != step.seat
                and seen == conn.last_seen
            ):
                continue  # nothing this socket may know changed: say nothing (SB-9)
            conn.last_seen = seen
            frame: JSONObject = {
                "type": "update",
                "game_no": room.game_no,
                "move": table.move,
                "view": view,
                "events": feed,
                "clock": clock,
            }
            if origin is not None and origin[0] is conn and origin[1] is not None:
                frame["ack"] = origin[1]
            if published is not None:
                frame.update(published.frame_part(seat))
            self._send(conn, frame)

    def _broadcast_table(self, room: Room, skip: Connection | None = None) -> None:
        info = self.info(room)
        for conn in list(room.connections):
            if conn is not skip:
                self._send(conn, {"type": "table", "table": info})

    def _send(self, conn: Connection, frame: JSONObject) -> None:
        if conn.closed:
            return
        for observe in self.observers:
            observe(conn.room, conn.seat, frame)
        try:
            conn.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            # Too slow to keep up: close it; the client reconnects and gets a fresh welcome.
            log.warning("table %s: closing a socket that does not read", conn.room.id)
            self._close_connection(conn)

    @staticmethod
    def _close_connection(conn: Connection) -> None:
        conn.closed = True
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        conn.outbox.put_nowait(None)


def _without_move(view: JSONObject) -> JSONObject:
    out = dict(view)
    header = dict(out.get("header", {}))
    header.pop("move", None)
    out["header"] = header
    return out


def _without_commitments(info: JSONObject) -> JSONObject:
    """A lobby entry: the table's facts without its face-down commitments (a game's worth of
    hashes per table would make the lobby's list heavy, and the lobby has no use for them)."""
    fair = info.get("fair")
    if isinstance(fair, dict):
        info["fair"] = {k: v for k, v in fair.items() if k != "commitments"}
    return info


def _win_rule(game_id: str) -> str:
    """The game's own words for who wins, from its ``web`` plugin, or empty."""
    module = optional_plugin(game_id, "web")
    return str(getattr(module, "WIN_RULE", "")) if module is not None else ""
