"""Load on the table server: N tables whose every seat is a WebSocket client, on loopback.

    python benchmarks/server_load.py                         # 250 tables, 1,000 seats, 1-3 s think
    python benchmarks/server_load.py --tables 50 --think 0   # as fast as the rate limit allows
    python benchmarks/server_load.py --processes 2 --db postgresql://user@127.0.0.1:5432/racedeck

*The workload.* ``--tables`` tables of ``--game`` with ``--players`` seats each (default 250
tables of four-player *Why First?*: 1,000 seats), every seat a person's socket. The benchmark
starts ``racedeck serve`` (a fresh SQLite file, or ``--db``), creates the tables over HTTP,
connects **every** seat, waits until all are connected and welcomed, and only then plays for
``--seconds``. A seat that is offered actions waits a think time drawn uniformly from
``--think`` (default ``1-3`` seconds, a person's pace) and sends a random legal action;
``--think 0`` is the max-throughput mode: a seat answers at once (but no more than 8 messages a
second, under the server's rate limit of 10). A finished game is played again at once (the
first seat asks). Clients offer permessage-deflate as browsers do (``--no-deflate``: they
don't); the server takes it only when started with ``--ws-deflate``
(``--serve-option=--ws-deflate``).

*Which game.* *Why First?* is the default: all seats commit at once each round, so every seat
of a table is busy. In *Setback* an answer that closes a BLOCK window is held until the window
has been open its minimum time (SB-9, 3 s by default), and its ``ack`` waits that long by
design; in *Six Day Race* one seat of a table acts at a time.

*The clients.* They are not the server's cost: ``--clients`` worker processes (default 2) each
run one asyncio loop with their share of the sockets and parse frames with orjson. Their CPU is
reported, so a run where they, not the server, fill the machine shows it.

*What is printed.* Accepted actions per second; p50/p95/p99 of the time from sending an action
to receiving one's own updated view (its ``ack``); stale answers (the view moved on during the
think time: a person would answer again); the server's CPU (share of one core, and per action)
and resident memory; how long its event loop was ready to run but waited for a CPU that other
processes held (on a shared machine that, not the server, makes the tail); the clients' CPU.
Then the **peer** measured in the same run with the same clients,
sockets, think times and frame sizes: a bare Starlette WebSocket echo (``--peer echo``) that
answers each action with an update of the measured median size to every seat of the table — the
floor that the transport and these clients cost on this machine — and the ratios of the server
to it. ``--peer none`` skips it.

``--processes N`` starts N server processes on one database (``--db``, a PostgreSQL URL: several
processes cannot share a SQLite file) and connects the seats of each table round-robin across
them, so every table has players on more than one process.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

try:
    import orjson

    def loads(raw: str | bytes) -> Any:
        """Parse a frame."""
        return orjson.loads(raw)

    def dumps(obj: Any) -> str:
        """A message as JSON text."""
        return orjson.dumps(obj).decode()

except ImportError:  # pragma: no cover - orjson is a dependency; plain json still works
    import json

    loads = json.loads

    def dumps(obj: Any) -> str:
        """A message as JSON text."""
        return json.dumps(obj, separators=(",", ":"))


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from racedeck.server.process import ServerProcess, free_port  # noqa: E402

MAX_TABLES = 1000
MAX_SECONDS = 600.0
SEND_INTERVAL = 0.125
"""Fewest seconds between two actions of one socket (8 a second, under the rate limit of 10)."""
CONNECT_TIMEOUT = 120.0
"""Seconds every seat has to connect and be welcomed before the run gives up."""


# -- one client process ----------------------------------------------------------------------


@dataclass
class Seat:
    """One seat's socket address, token, and the HTTP address that plays its table again."""

    ws_url: str
    http_url: str
    table_id: str
    token: str
    first: bool


@dataclass
class Tally:
    """What one client process measured (sent back to the parent, so plain data)."""

    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    sizes: list[int] = field(default_factory=list)
    cpu: float = 0.0
    failed: str = ""


async def _seat(
    seat: Seat,
    tally: Tally,
    rng: random.Random,
    think: tuple[float, float],
    deflate: bool,
    connected: asyncio.Queue[None],
    start: asyncio.Event,
    window: list[float],
    http: httpx.AsyncClient,
) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        seat.ws_url,
        max_size=2**22,
        ping_interval=None,
        proxy=None,
        compression="deflate" if deflate else None,
        open_timeout=CONNECT_TIMEOUT,
    ) as ws:
        await ws.send(dumps({"type": "hello", "token": seat.token}))
        welcome = loads(await ws.recv())
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")
        connected.put_nowait(None)
        view: dict[str, Any] | None = welcome.get("view")
        changed = asyncio.Event()
        changed.set()
        sent: dict[str, float] = {}
        await start.wait()
        stop_at = window[1]

        async def reader() -> None:
            nonlocal view
            async for raw in ws:
                now = time.monotonic()
                frame = loads(raw)
                kind = frame["type"]
                ack = frame.get("ack")
                if ack is not None and ack in sent:
                    began = sent.pop(ack)
                    if began >= window[0]:
                        tally.latencies.append(now - began)
                        tally.accepted += 1
                        if len(tally.sizes) < 2000:
                            tally.sizes.append(len(raw))
                if kind == "error":
                    code = frame["code"]
                    tally.errors[code] = tally.errors.get(code, 0) + 1
                    sent.pop(frame.get("id", ""), None)
                    changed.set()
                if frame.get("view") is not None:
                    view = frame["view"]
                    changed.set()

        reading = asyncio.create_task(reader())
        counter = 0
        last_send = 0.0
        try:
            while time.monotonic() < stop_at and not reading.done():
                remaining = stop_at - time.monotonic()
                try:
                    await asyncio.wait_for(changed.wait(), timeout=max(0.01, remaining))
                except TimeoutError:
                    break
                changed.clear()
                if view is None or sent:
                    continue
                header = view["header"]
                if header["terminal"]:
                    if seat.first:
                        if time.monotonic() >= window[0]:
                            tally.games += 1
                        await http.post(
                            f"{seat.http_url}/api/tables/{seat.table_id}/again",
                            json={"token": seat.token},
                        )
                    continue
                if not view["legal_actions"]:
                    continue
                pause = rng.uniform(*think) if think[1] > 0 else 0.0
                pause = max(pause, last_send + SEND_INTERVAL - time.monotonic())
                if pause > 0:
                    await asyncio.sleep(pause)
                # Answer the latest view: it may have moved on during the think time.
                header = view["header"]
                if header["terminal"] or not view["legal_actions"]:
                    changed.set()
                    continue
                last_send = time.monotonic()
                if last_send >= stop_at:
                    break
                counter += 1
                cid = str(counter)
                sent[cid] = last_send
                action = rng.choice(view["legal_actions"])
                await ws.send(
                    dumps({"type": "act", "move": header["move"], "action": action, "id": cid})
                )
        finally:
            reading.cancel()


async def _client(
    seats: list[Seat],
    think: tuple[float, float],
    deflate: bool,
    seed: int,
    ready: Any,
    go: Any,
    window: list[float],
) -> Tally:
    tally = Tally()
    connected: asyncio.Queue[None] = asyncio.Queue()
    start = asyncio.Event()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(trust_env=False, timeout=60, limits=limits) as http:
        tasks = [
            asyncio.create_task(
                _seat(
                    s,
                    tally,
                    random.Random(rng.random()),
                    think,
                    deflate,
                    connected,
                    start,
                    window,
                    http,
                )
            )
            for s in seats
        ]
        for _ in seats:
            getter = asyncio.ensure_future(connected.get())
            done, _pending = await asyncio.wait(
                [getter, *tasks], timeout=CONNECT_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
            )
            if getter not in done:
                getter.cancel()
                failed = [t for t in tasks if t.done()]
                raise RuntimeError(
                    f"a seat failed to connect: {failed[0].exception() if failed else 'timeout'}"
                )
        ready.put(len(seats))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, go.wait)
        window[0] = time.monotonic() + 0.0
        window[1] = window[0] + window[2]
        start.set()
        cpu_before = time.process_time()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        tally.cpu = time.process_time() - cpu_before
        problems = [r for r in results if isinstance(r, BaseException)]
        if problems:
            tally.failed = f"{len(problems)} seats failed, e.g. {problems[0]!r}"
    return tally


def client_process(
    seats: list[Seat],
    think: tuple[float, float],
    deflate: bool,
    seconds: float,
    seed: int,
    ready: Any,
    go: Any,
    out: Any,
) -> None:
    """A client worker: connect ``seats``, report ready, wait for ``go``, play, send a tally."""
    try:
        import uvloop

        run = uvloop.run
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        run = asyncio.run
    try:
        tally = run(_client(seats, think, deflate, seed, ready, go, [0.0, 0.0, seconds]))
    except BaseException as exc:  # reported to the parent, which stops the run
        ready.put(-1)
        tally = Tally(failed=repr(exc))
    out.put(tally)


# -- the run ---------------------------------------------------------------------------------


@dataclass
class Result:
    """One measured run: the clients' tallies merged, and the server processes' costs."""

    label: str
    seconds: float
    tally: Tally
    server_cpu: float
    server_rss: float
    client_cpu: float
    server_waited: float
    """Share of the run the servers' event loops were ready to run but waited for a CPU."""

    def percentile(self, q: float) -> float:
        lat = sorted(self.tally.latencies)
        if not lat:
            return float("nan")
        return lat[min(len(lat) - 1, int(len(lat) * q))] * 1000

    @property
    def rate(self) -> float:
        return self.tally.accepted / self.seconds


def waited_seconds(pid: int) -> float:
    """Seconds the process's main thread (the event loop) has spent ready to run, waiting for
    a CPU that other processes held (``/proc/PID/schedstat``)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """Resident memory of the process in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def play(
    label: str,
    seats: list[Seat],
    pids: list[int],
    args: argparse.Namespace,
    think: tuple[float, float],
) -> Result:
    """Connect every seat across the client processes, then play for ``args.seconds``."""
    ctx = multiprocessing.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    shares = [seats[i :: args.clients] for i in range(args.clients)]
    procs = [
        ctx.Process(
            target=client_process,
            args=(share, think, args.deflate, args.seconds, 1000 + i, ready, go, out),
            daemon=True,
        )
        for i, share in enumerate(shares)
        if share
    ]
    for p in procs:
        p.start()
    for _ in procs:
        if ready.get(timeout=CONNECT_TIMEOUT + 60) < 0:
            go.set()
            raise SystemExit(f"{label}: a client process failed: {out.get(timeout=30).failed}")
    print(f"{label}: {len(seats)} seats connected; playing", flush=True)
    cpu_before = [cpu_seconds(pid) for pid in pids]
    waited_before = [waited_seconds(pid) for pid in pids]
    client_before = [cpu_seconds(p.pid) for p in procs if p.pid is not None]
    started = time.monotonic()
    go.set()
    tallies = [out.get(timeout=args.seconds + 120) for _ in procs]
    elapsed = time.monotonic() - started
    server_cpu = sum(cpu_seconds(pid) - b for pid, b in zip(pids, cpu_before, strict=True))
    waited = sum(waited_seconds(pid) - b for pid, b in zip(pids, waited_before, strict=True))
    rss = sum(rss_mib(pid) for pid in pids)
    client_cpu = sum(
        cpu_seconds(p.pid) - b for p, b in zip(procs, client_before, strict=True) if p.pid
    )
    for p in procs:
        p.join(10)
    merged = Tally()
    for t in tallies:
        if t.failed:
            print(f"{label}: client trouble: {t.failed}", file=sys.stderr)
        merged.latencies += t.latencies
        merged.accepted += t.accepted
        merged.games += t.games
        merged.sizes += t.sizes
        for k, v in t.errors.items():
            merged.errors[k] = merged.errors.get(k, 0) + v
    return Result(
        label,
        args.seconds,
        merged,
        server_cpu / elapsed,
        rss,
        client_cpu / elapsed,
        waited / elapsed / len(pids),
    )


async def create_tables(urls: list[str], tables: int, game: str, players: int) -> list[Seat]:
    """Create ``tables`` tables (table t on server t mod N) and take every seat; a table's
    seats connect round-robin across the servers."""
    seats: list[Seat] = []
    async with httpx.AsyncClient(trust_env=False, timeout=60) as http:
        for t in range(tables):
            home = urls[t % len(urls)]
            created = await http.post(
                f"{home}/api/tables",
                json={
                    "game": game,
                    "config": {"players": players},
                    "seats": [{"kind": "human"}] * players,
                },
            )
            created.raise_for_status()
            body = created.json()
            tid = body["table_id"]
            tokens = [body["token"]]
            for _ in range(players - 1):
                joined = await http.post(f"{home}/api/tables/{tid}/join", json={})
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            if len(urls) > 1:
                await _known_everywhere(http, urls, tid)
            for k, token in enumerate(tokens):
                url = urls[(t + k) % len(urls)]
                seats.append(
                    Seat(url.replace("http://", "ws://") + f"/ws/{tid}", url, tid, token, k == 0)
                )
    return seats


async def _known_everywhere(http: httpx.AsyncClient, urls: list[str], table_id: str) -> None:
    """Wait until every server process knows the table (they learn it from the database)."""
    deadline = time.monotonic() + 30
    for url in urls:
        while (await http.get(f"{url}/api/tables/{table_id}")).status_code != 200:
            if time.monotonic() > deadline:
                raise SystemExit(f"table {table_id} is unknown to {url} after 30 s")
            await asyncio.sleep(0.05)


def start_servers(args: argparse.Namespace) -> list[ServerProcess]:
    """``args.processes`` ``racedeck serve`` processes on one database."""
    if args.db is None:
        if args.processes > 1:
            raise SystemExit(
                "--processes > 1 needs --db postgresql://…: processes cannot share a SQLite file"
            )
        db = str(Path(tempfile.mkdtemp(prefix="racedeck-load-")) / "load.sqlite")
    else:
        db = args.db
        if args.processes > 1 and not db.startswith(("postgresql", "postgres:")):
            raise SystemExit("--processes > 1 needs a PostgreSQL --db (postgresql://…)")
    # One client address creates every table and opens every socket: lift the limits that
    # are there for strangers (a later --serve-option wins).
    extra = [
        "--bot-delay",
        "0",
        "--max-creations",
        str(10 * args.tables),
        "--server-spectators",
        str(10 * args.tables),
        *args.serve_option,
    ]
    servers = []
    try:
        for _ in range(args.processes):
            servers.append(ServerProcess(db, extra=extra).start())
    except RuntimeError as exc:
        for s in servers:
            s.stop()
        raise SystemExit(f"racedeck serve --db {db} did not start: {exc}") from None
    return servers


# -- the peer: a bare WebSocket echo ---------------------------------------------------------


def echo_app(size: int) -> Any:
    """A Starlette app: ``/ws/{table}`` welcomes with a view offering one action, and answers
    every ``act`` with an update of about ``size`` bytes to each socket of the table."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    tables: dict[str, set[WebSocket]] = {}
    moves: dict[str, int] = {}
    pad = "x" * max(0, size - 200)

    def frame(table: str, ack: str | None) -> str:
        out: dict[str, Any] = {
            "type": "update",
            "move": moves[table],
            "view": {
                "header": {"move": moves[table], "terminal": False, "seat": 0},
                "legal_actions": [{"type": "echo"}],
                "pad": pad,
            },
            "events": [],
        }
        if ack is not None:
            out["ack"] = ack
        return dumps(out)

    async def socket(ws: WebSocket) -> None:
        table = ws.path_params["table"]
        await ws.accept()
        await ws.receive_text()
        sockets = tables.setdefault(table, set())
        moves.setdefault(table, 0)
        sockets.add(ws)
        welcome = loads(frame(table, None))
        welcome["type"] = "welcome"
        await ws.send_text(dumps(welcome))
        try:
            while True:
                msg = loads(await ws.receive_text())
                moves[table] += 1
                for other in list(sockets):
                    await other.send_text(frame(table, msg.get("id") if other is ws else None))
        except WebSocketDisconnect:
            sockets.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws/{table}", socket)])


def serve_echo(port: int, size: int, deflate: bool) -> None:
    """Run the echo peer under uvicorn (the server's settings) until killed."""
    import uvicorn

    uvicorn.run(
        echo_app(size),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=deflate,
    )


def start_echo(size: int, deflate: bool) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, __file__, "--serve-echo", str(port), "--echo-size", str(size)]
    proc = subprocess.Popen(command + (["--serve-option=--ws-deflate"] if deflate else []))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(url + "/", trust_env=False, timeout=2)
            return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the echo peer did not start")


# -- report ----------------------------------------------------------------------------------


def report(r: Result, sockets: int) -> None:
    t = r.tally
    print(f"[{r.label}]")
    print(
        f"  accepted actions/s: {r.rate:.0f}  ({t.accepted} in {r.seconds:.0f} s,"
        f" {t.games} games finished)"
    )
    print(
        f"  act → own view: p50 {r.percentile(0.5):.1f} ms, p95 {r.percentile(0.95):.1f} ms,"
        f" p99 {r.percentile(0.99):.1f} ms"
    )
    size = statistics.median(t.sizes) if t.sizes else 0
    print(f"  {sockets} sockets; median own-view frame {size:.0f} bytes")
    print(
        f"  server CPU {r.server_cpu:.0%} of one core"
        f" ({r.server_cpu / max(r.rate, 1e-9) * 1000:.2f} ms per action),"
        f" RSS {r.server_rss:.0f} MiB;"
        f" clients' CPU {r.client_cpu:.0%} of one core"
    )
    print(
        f"  the server waited for a CPU {r.server_waited:.0%} of the time"
        f" (machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)"
    )
    if t.errors:
        print("  errors:", ", ".join(f"{k} ×{v}" for k, v in sorted(t.errors.items())))


def parse_think(text: str) -> tuple[float, float]:
    """``"1-3"`` → (1.0, 3.0); ``"0"`` → (0.0, 0.0)."""
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError(f"--think {text}: give SECONDS or LOW-HIGH, LOW <= HIGH")
    return pair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="why-first")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--think", type=parse_think, default=(1.0, 3.0), help="seconds: 1-3 (default) or 0"
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--no-deflate", dest="deflate", action="store_false")
    parser.add_argument("--peer", choices=["echo", "none"], default="echo")
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--serve-option", action="append", default=[], help="one more `racedeck serve` argument"
    )
    parser.add_argument("--serve-echo", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--echo-size", type=int, default=2000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo is not None:
        serve_echo(args.serve_echo, args.echo_size, "--ws-deflate" in args.serve_option)
        return
    args.tables = max(1, min(args.tables, MAX_TABLES))
    args.seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    args.clients = max(1, args.clients)
    args.processes = max(1, args.processes)
    sockets = args.tables * args.players
    pace = "no think time" if args.think[1] == 0 else f"{args.think[0]:g}-{args.think[1]:g} s think"
    print(
        f"{args.tables} tables of {args.game}, {args.players} seats each ({sockets} sockets),"
        f" {pace}, {args.seconds:.0f} s of play; {args.processes} server process(es),"
        f" {args.clients} client processes, permessage-deflate"
        f" {'on' if args.deflate and '--ws-deflate' in args.serve_option else 'off'}"
    )
    servers = start_servers(args)
    try:
        seats = asyncio.run(
            create_tables([s.url for s in servers], args.tables, args.game, args.players)
        )
        pids = [s.proc.pid for s in servers if s.proc is not None]
        main_result = play("racedeck serve", seats, pids, args, args.think)
    finally:
        for s in servers:
            s.stop()
        if args.db is None:
            # The fresh SQLite file (and its log) served this run only.
            shutil.rmtree(Path(servers[0].db).parent, ignore_errors=True)
    report(main_result, sockets)
    if args.peer == "none":
        return
    size = int(statistics.median(main_result.tally.sizes)) if main_result.tally.sizes else 2000
    proc, url = start_echo(size, "--ws-deflate" in args.serve_option)
    try:
        ws = url.replace("http://", "ws://")
        echo_seats = [Seat(f"{ws}/ws/{s.table_id}", url, s.table_id, "-", False) for s in seats]
        peer = play("peer: WebSocket echo", echo_seats, [proc.pid], args, args.think)
    finally:
        proc.kill()
        proc.wait(10)
    report(peer, sockets)
    print(
        "racedeck / echo: p99 ×{:.1f}, p50 ×{:.1f}, server CPU per action ×{:.1f}".format(
            main_result.percentile(0.99) / peer.percentile(0.99),
            main_result.percentile(0.5) / peer.percentile(0.5),
            (main_result.server_cpu / max(main_result.rate, 1e-9))
            / (peer.server_cpu / max(peer.rate, 1e-9)),
        )
    )


if __name__ == "__main__":
    main()
