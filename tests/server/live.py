"""A real server in a thread, a leak checker on every frame it sends, and a test client.

``server`` runs uvicorn on a free 127.0.0.1 port over a fresh SQLite file (bots decide in a
thread pool, at once); ``sim_server`` does too, on simulated time (:meth:`LiveServer.advance`
moves its clocks, grace periods and windows on at once, without sleeping). Every test server
deals known games: its secret server seeds come from :class:`Seeds`.

Every frame the service sends to any socket passes the :class:`FrameChecker` before it is
queued: it must match the protocol's JSON schema, and it may hold nothing outside the
recipient's information set — its view must equal ``game.observe(state, seat)`` (the game part)
and ``game.header(state, seat)`` (the header), its events must be exactly the recipient's feed
of the transition, and no token, seed, RNG state or other seat's secret may appear anywhere in
it; the table's secret server seed (provably fair deals) may appear only once its game is
over, and the salt of a face-down commitment only on the acting seat's own frames until it is
opened. Violations are collected and fail the test at teardown, so every test of this folder
checks every frame it causes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import jsonschema_rs
import uvicorn
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from websockets.sync.client import ClientConnection, connect

from racedeck.core.events import feed
from racedeck.core.table import Table
from racedeck.server.app import create_app
from racedeck.server.limits import Limits
from racedeck.server.messages import MAX_FRAME_BYTES
from racedeck.server.process import free_port
from racedeck.server.rooms import Room
from racedeck.server.service import TableService
from racedeck.server.timekeeper import SimulatedClock

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
BASE = "https://racedeck.example/schemas/"


def _documents() -> list[tuple[str, Any]]:
    """Every schema of ``docs/schemas`` with the URI the others refer to it by."""
    documents = [
        (BASE + path.name, json.loads(path.read_text())) for path in SCHEMAS.glob("*.json")
    ]
    for path in (SCHEMAS / "protocol").glob("*.json"):
        doc = json.loads(path.read_text())
        documents.append((doc["$id"], doc))
    return documents


DOCUMENTS = _documents()
REGISTRY = Registry().with_resources((uri, Resource.from_contents(doc)) for uri, doc in DOCUMENTS)


def validator(name: str) -> Draft202012Validator:
    """The validator of protocol schema ``name`` (``welcome``, ``create-table-request`` …)."""
    schema = REGISTRY.contents(f"{BASE}protocol/{name}.json")
    return Draft202012Validator(schema, registry=REGISTRY)


SERVER_MESSAGE = validator("server-message")

_FAST_SERVER_MESSAGE = jsonschema_rs.Draft202012Validator(
    {"$ref": f"{BASE}protocol/server-message.json"},
    registry=jsonschema_rs.Registry(DOCUMENTS),
    validate_formats=False,
)
"""The same schema in ``jsonschema_rs``, a hundred times faster (as ``tests/test_json_schemas.py``
uses it): the leak checker validates every frame a test causes, thousands in a whole game.
Formats are annotations only, as ``jsonschema`` treats them by default."""


def protocol_errors(frame: Any) -> list[str]:
    """What makes ``frame`` no server message of the protocol (nothing when it is one): the
    fast validator decides, ``jsonschema`` explains a refusal, and the two must agree."""
    if _FAST_SERVER_MESSAGE.is_valid(frame):
        return []
    errors = sorted(SERVER_MESSAGE.iter_errors(frame), key=str)
    if not errors:
        return ["jsonschema_rs rejects a frame that jsonschema accepts"]
    return [error.message for error in errors]


SWEEP = 0.2
"""Seconds between a test server's sweeps on PostgreSQL (the cluster's hand-over of tables in
play that no process automates, e.g. one of bots only: real time, so short in tests)."""

T = TypeVar("T")


def plain_http(url: str) -> httpx.Client:
    """An HTTP client of a test server on the loopback: plain HTTP, so no TLS context with the
    system's certificates is built for it (loading them costs a test server's start-up time
    again, for nothing), and no proxy from the environment."""
    return httpx.Client(base_url=url, trust_env=False, timeout=10, verify=False)


def seed(n: int) -> str:
    """The server seed numbered ``n``: ``n`` as 64 hex digits (a valid secret server seed)."""
    return f"{n:064x}"


class Seeds:
    """A test server's secret server seeds: ``seed(1)``, ``seed(2)`` … in the order the server
    draws them (a table's first deal, then each next deal when a game ends), so every deal is
    known in advance; :meth:`then` says which come next, to deal a game chosen beforehand
    (:mod:`server.deals`)."""

    def __init__(self) -> None:
        self._count = itertools.count(1)
        self._chosen: collections.deque[str] = collections.deque()

    def __call__(self) -> str:
        with contextlib.suppress(IndexError):
            return self._chosen.popleft()
        return seed(next(self._count))

    def then(self, *seeds: str) -> None:
        """The next seeds the server draws are ``seeds``, in order (then the count goes on)."""
        self._chosen.extend(seeds)


CHANGED = threading.Condition()
"""Notified after every command any test server's referees take (:class:`LiveServer` wraps
its service's ``feed``): the only moments a table's state changes."""
_changes = [0]
"""How many commands the test servers have taken (guarded by :data:`CHANGED`)."""


def eventually(check: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    """Wait until ``check()`` is true: for what comes over a socket or the database (another
    server hearing of a write, the sweep taking a table, bots deciding), never for game
    time, which a test on simulated time moves itself. ``check`` is looked at again each time
    a server's referee has taken a command, not on a timer; ``timeout`` only bounds a wait
    for something that never comes."""
    deadline = time.monotonic() + timeout
    while True:
        with CHANGED:
            seen = _changes[0]
        # Looked at without the condition's lock: a check may wait on a server's loop, which
        # takes that lock to say it changed something.
        if check():
            return
        with CHANGED:
            left = deadline - time.monotonic()
            changed = CHANGED.wait_for(lambda seen=seen: _changes[0] != seen, max(0.0, left))
        if not changed:
            raise AssertionError(f"not within {timeout} s: {what}")


# Setback calls its pieces "tokens": seat tokens are caught by value (FrameChecker.tokens).
FORBIDDEN_KEYS = {"token_hash", "seed", "rng", "rng_state", "deck_order"}


@dataclass
class FrameChecker:
    """Checks every outbound frame (see the module docstring) and keeps them all."""

    tokens: set[str] = field(default_factory=set)
    frames: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    checking: threading.Lock = field(default_factory=threading.Lock)
    """Held for a whole check: the servers of a cluster test call the checker from their own
    threads, and a check steps a shared shadow game to its frame's move."""
    shadows: dict[tuple[str, int], Table] = field(default_factory=dict)
    """Each game replayed as far as its frames went: one command to a table's referee may
    step its game several times (forced moves, a window's answers) and sends a frame for
    each, so a frame is checked against the game at its own move number."""

    def __call__(self, room: Room, seat: int | None, frame: dict[str, Any]) -> None:
        copy = json.loads(json.dumps(frame))
        with self.lock:
            self.frames.append((room.id, seat, copy))
        try:
            with self.checking:
                self.check(room, seat, copy)
        except AssertionError as exc:
            with self.lock:
                self.problems.append(f"table {room.id} seat {seat} {frame.get('type')}: {exc}")

    def check(self, room: Room, seat: int | None, frame: dict[str, Any]) -> None:
        errors = protocol_errors(frame)
        assert not errors, f"frame does not match the protocol: {errors[0]}"
        text = json.dumps(frame)
        for token in self.tokens:
            assert token not in text, "a seat token was sent on a socket"
        _no_forbidden_keys(frame)
        table = self._at(room, frame)
        if room.server_seed and room.server_seed in text:
            assert table is not None and table.is_over, "the server seed was sent before the end"
        if room.ledger is not None:
            for sealed in room.ledger.entries[room.ledger.opened :]:
                if seat != sealed.seat:
                    assert sealed.salt not in text, "a face-down salt was sent before the reveal"
        clock = frame.get("clock") or (frame.get("table") or {}).get("clock")
        if clock is not None and table is not None:
            # A clock runs only for seats everyone may know are asked (SB-9: nobody in a
            # silent window), so no clock tells who is asked or who has answered.
            public = set() if table.is_over else set(room.game.public_acting(table.state))
            running = {i for i, s in enumerate(clock["seats"]) if s["running"]}
            assert running <= public, "a clock runs for a seat not known to be asked"
            if any(s["bot"] for s in clock["seats"]):
                bots = {i for i, s in enumerate(clock["seats"]) if s["bot"]}
                assert not (running & bots), "a clock runs for a bot"
        if "view" in frame and frame["view"] is not None:
            assert table is not None, "a view of a table with no game"
            view = frame["view"]
            game = room.game
            expected = game.observe(table.state, seat).to_json()
            expected_header = expected.pop("header")
            got = dict(view)
            header = got.pop("header")
            assert got == expected, "the view is not the recipient's own view"
            assert header["seat"] == seat, "a view of another seat"
            # ``waiting`` is the game's words with the people's names put in.
            for key in ("game", "config", "phase", "acting", "scores", "terminal"):
                assert header[key] == expected_header[key], f"header {key} differs from the game's"
            # The outcome names the people as the seats do; the rest is the game's.
            outcome, expected_outcome = header["outcome"], expected_header["outcome"]
            assert (outcome is None) == (expected_outcome is None), "the outcome differs"
            if outcome is not None:
                names = outcome["names"][: len(room.names)]
                assert names == room.names, "the outcome names other people"
                same = {**outcome, "names": None} == {**expected_outcome, "names": None}
                assert same, "the outcome differs from the game's"
            assert header["move"] == table.move, f"move {header['move']}, game at {table.move}"
        if frame["type"] in ("update", "welcome") and frame.get("view") is not None:
            assert table is not None, "events of a table with no game"
            got_events = [{k: v for k, v in e.items() if k != "text"} for e in frame["events"]]
            if frame["type"] == "update":
                # The events of the last transition, or of the last few at once (a concealed
                # window's answers are shown together when it closes, SB-9).
                events: tuple[Any, ...] = ()
                for first in range(len(table.history) - 1, -1, -1):
                    events = table.history[first][1] + events
                    want = [e.to_json() for e in feed(events, seat)]
                    if want == got_events or len(want) > len(got_events):
                        break
            else:
                events = tuple(e for _m, evs in table.history for e in evs)
                want = [e.to_json() for e in feed(events, seat)]
            assert got_events == want, "the events are not the recipient's feed"
            for e in frame["events"]:
                assert e.get("audience", seat) == seat, "another seat's private event"

    def _at(self, room: Room, frame: dict[str, Any]) -> Table | None:
        """The table's game at the move number ``frame`` shows (its view's, or its table
        info's); the game as it is now when the frame names none."""
        live = room.table
        if live is None:
            return None
        move = frame.get("move")
        if frame.get("view") is not None:
            move = frame["view"]["header"]["move"]
        elif isinstance(frame.get("table"), dict):
            move = frame["table"].get("move")
        game_no = frame.get("game_no", (frame.get("table") or {}).get("game_no", room.game_no))
        if type(move) is not int or game_no != room.game_no or move > live.move:
            return live
        key = (room.id, room.game_no)
        shadow = self.shadows.get(key)
        if shadow is None or shadow.move > move or shadow.seed != live.seed:
            shadow = Table(room.game, live.seed)
            self.shadows[key] = shadow
        actions = live.record.actions
        while shadow.move < move:
            done = actions[shadow.move]
            shadow.submit_json(done.seat, done.action)
        return shadow


def _no_forbidden_keys(obj: Any) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert k.lower() not in FORBIDDEN_KEYS, f"key {k!r} must never be sent"
            _no_forbidden_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            _no_forbidden_keys(v)


class LiveServer:
    """uvicorn serving :func:`create_app` in a thread, on 127.0.0.1 (its server seeds from a
    :class:`Seeds` unless ``seeds`` is given; ``clock=SimulatedClock()`` for simulated time)."""

    def __init__(self, db: str | Path, checker: FrameChecker, **options: Any) -> None:
        self.db = db
        self.checker = checker
        self.port = free_port()
        options.setdefault("bot_pool", "thread")
        # Test clients play far faster than people; the flood tests use the real limits.
        options.setdefault("rate", 1000.0)
        options.setdefault("burst", 1000.0)
        # One test client creates many tables from one address; the limit tests set their own.
        options.setdefault("limits", Limits(creations=100_000))
        options.setdefault("seeds", Seeds())
        # Several processes on PostgreSQL take a table nobody automates within this.
        options.setdefault("sweep", SWEEP)
        self.seeds = options["seeds"]
        """Where the server's secret server seeds come from."""
        self.app = create_app(db, **options)
        self.service: TableService = self.app.state.service
        self.service.observers.append(checker)
        feed = self.service.feed

        def feed_and_tell(room: Room, command: Any, *, conn: Any = None) -> None:
            try:
                feed(room, command, conn=conn)
            finally:
                with CHANGED:
                    _changes[0] += 1
                    CHANGED.notify_all()

        self.service.feed = feed_and_tell  # type: ignore[method-assign]
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=MAX_FRAME_BYTES,  # as racedeck serve has it
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.http = plain_http(self.url)
        self.clients: list[Client] = []
        """Every socket :meth:`socket` opened (a server shared by tests closes a test's)."""

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The server's event loop (to run a coroutine on it from a test)."""
        assert self.service.loop is not None
        return self.service.loop

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(15)

    # -- simulated time --------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Move the server's simulated clock ``seconds`` on, firing every timer due on the way
        (clocks running out, the disconnect grace, BLOCK windows closing) in time order on this
        server's loop, each carried out before the next. Servers may share one clock: advance
        the one that automates the table, the only one that sets the table's timers."""
        clock = self.service.clock
        assert isinstance(clock, SimulatedClock), "this server runs on real time"
        clock.advance(seconds)

    def inspect(self, table_id: str, look: Callable[[Room], T]) -> T:
        """``look(room)`` on the server's loop with the table's lock held, so it sees the table
        with every command it took carried out: its frames queued, its timer set."""
        room = self.service.rooms[table_id]

        async def locked() -> T:
            async with room.lock:
                return look(room)

        return asyncio.run_coroutine_threadsafe(locked(), self.loop).result(10)

    def automating(self, table_id: str, timeout: float = 10.0) -> Room:
        """The table, once this server automates it (plays its bots, forced moves, clocks and
        windows, its timer set): at once alone on SQLite; on PostgreSQL once the sweep took it,
        which a game's start asks for at once."""
        eventually(
            lambda: (
                table_id in self.service.rooms
                and self.inspect(table_id, lambda r: r.referee.automates)
            ),
            f"the server automates table {table_id}",
            timeout,
        )
        return self.service.rooms[table_id]

    # -- helpers for tests ---------------------------------------------------------------------

    def create(
        self,
        game: str,
        seats: list[Any],
        config: dict[str, Any] | None = None,
        name: str | None = "Ann",
        client_seed: str | None = None,
        clock: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """POST /api/tables; seats are "human" or a bot name; ``clock`` the table's clock."""
        body: dict[str, Any] = {
            "game": game,
            "config": config or {},
            "seats": [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ],
            "name": name,
        }
        if client_seed is not None:
            body["client_seed"] = client_seed
        if clock is not None:
            body["clock"] = clock
        res = self.http.post("/api/tables", json=body)
        assert res.status_code == 201, res.text
        data: dict[str, Any] = res.json()
        if data["token"]:
            self.checker.tokens.add(data["token"])
        return data

    def join(
        self,
        table_id: str,
        name: str = "Bob",
        seat: int | None = None,
        client_seed: str | None = None,
    ) -> dict[str, Any]:
        """POST /api/tables/{id}/join."""
        body: dict[str, Any] = {"name": name, "seat": seat}
        if client_seed is not None:
            body["client_seed"] = client_seed
        res = self.http.post(f"/api/tables/{table_id}/join", json=body)
        assert res.status_code == 200, res.text
        data: dict[str, Any] = res.json()
        self.checker.tokens.add(data["token"])
        return data

    def socket(self, table_id: str) -> Client:
        """A WebSocket client on the table (not yet greeted)."""
        client = Client(
            connect(
                f"ws://127.0.0.1:{self.port}/ws/{table_id}",
                proxy=None,
                legacy=True,
                open_timeout=10,
                max_queue=None,
                ping_interval=None,
                max_size=2**22,
            )
        )
        self.clients.append(client)
        return client


@contextlib.contextmanager
def serving(db: str | Path, checker: FrameChecker, **options: Any) -> Iterator[LiveServer]:
    """A started :class:`LiveServer` (``options`` as for it), stopped afterwards; fails the
    test if any frame it sent leaked or was malformed."""
    live = LiveServer(db, checker, **options).start()
    try:
        yield live
    finally:
        live.stop()
    assert not checker.problems, "\n".join(checker.problems[:10])


class Client:
    """A test's WebSocket client: send messages, read frames with a timeout."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.frames: list[dict[str, Any]] = []

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        if frame.get("view") is not None:
            self.view = frame["view"]
        return frame

    def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Read frames until one satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no expected frame within {timeout} s; last: {self.frames[-3:]}"
            frame = self.recv(left)
            if pred(frame):
                return frame

    def catch_up(self, timeout: float = 10.0) -> None:
        """Read every frame the server queued for this socket before it reads a ping: the
        server answers a socket's messages in order, its pong behind what is queued. A
        round trip instead of a wait for frames that might still come (for the test
        servers, whose message rate is far above a person's: see :func:`settle`)."""
        self.send({"type": "ping", "id": "catch-up"})
        self.until(lambda f: f["type"] == "pong" and f.get("id") == "catch-up", timeout)

    def hello(self, token: str | None) -> dict[str, Any]:
        self.send(
            {"type": "hello", "token": token} if token else {"type": "hello", "spectator": True}
        )
        frame = self.recv()
        assert frame["type"] == "welcome", frame
        self.seat = frame["seat"]
        return frame

    def act(self, action: dict[str, Any], move: int | None = None, cid: str | None = None) -> None:
        assert self.view is not None
        msg: dict[str, Any] = {
            "type": "act",
            "move": self.view["header"]["move"] if move is None else move,
            "action": action,
        }
        if cid is not None:
            msg["id"] = cid
        self.send(msg)

    def close(self) -> None:
        self.ws.close()


def view_move(client: Client) -> int:
    """The move number of the client's last view (-1 before its first)."""
    return -1 if client.view is None else int(client.view["header"]["move"])


def settle(clients: list[Client], timeout: float = 60.0, *, ping: bool = True) -> None:
    """Read on until every client's view is at the same move (each is sent every move of
    its table): whoever is behind waits for its next frame, which a move made through
    another server sends once that server has heard of it from the database. With ``ping``
    each first reads what its server queued (a ping's round trip); a ``racedeck serve``
    process keeps the real message rate (``RATE_PER_SECOND``), which a ping after every move
    would run through, so its clients settle without (``ping=False``)."""
    deadline = time.monotonic() + timeout
    while True:
        if ping:
            for client in clients:
                client.catch_up()
        if len({view_move(c) for c in clients}) == 1:
            return
        left = deadline - time.monotonic()
        assert left > 0, f"the views stay apart: {[view_move(c) for c in clients]}"
        min(clients, key=view_move).recv(left)


def process_client(port: int, table_id: str, token: str | None) -> Client:
    """A socket to a ``racedeck serve`` process on ``port`` that has said hello (``token``
    ``None``: a spectator)."""
    ws = connect(
        f"ws://127.0.0.1:{port}/ws/{table_id}",
        proxy=None,
        legacy=True,
        max_queue=None,
        ping_interval=None,
    )
    c = Client(ws)
    c.hello(token)
    return c


def seated(server: LiveServer, game: str, seats: list[str], config: dict[str, Any]) -> Any:
    """A table with a socket per person (in seat order) and a spectator's."""
    created = server.create(game, seats, config)
    table_id = created["table_id"]
    tokens = [created["token"]]
    for i in range(1, sum(1 for s in seats if s == "human")):
        tokens.append(server.join(table_id, name=f"P{i}")["token"])
    clients = []
    for token in tokens:
        c = server.socket(table_id)
        c.hello(token)
        clients.append(c)
    watcher = server.socket(table_id)
    watcher.hello(None)
    return table_id, clients, watcher
