"""The server's work per action without sockets: the authoritative path in one process.

    python benchmarks/server_path.py                  # 4-seat Why First?, 20,000 actions
    python benchmarks/server_path.py --profile 25     # and the 25 costliest functions
    python benchmarks/server_path.py --db postgresql://postgres@127.0.0.1:5432/racedeck
    python benchmarks/server_path.py --game setback --option window_seconds=0

A :class:`~racedeck.server.service.TableService` over a fresh SQLite file holds ``--tables``
tables whose every seat has a connection (an outbox, no socket). Each seat asked to act sends a
random legal action through :meth:`TableService.act` (stale check, checked step, commit, every
seat's view and feed), and every queued frame is encoded as the socket writer encodes it. This
is the CPU time (not wall time) the server spends per action before the transport, without
clients or a network, so it is steady on a busy machine; ``server_load.py`` measures the whole.

With ``--db postgresql://…`` the service runs as one process of a cluster does (row lock,
notices); it prints, besides this process's CPU, PostgreSQL's own CPU per action (its server
processes' CPU time from ``/proc``, when the server runs on this machine) and its transactions
per action (``pg_stat_database``).

``--option KEY=VALUE`` sets a game option (``VALUE`` read as JSON, else as text). Setback needs
``window_seconds=0``: a BLOCK window stays open that many seconds (SB-9) and the loop runs for
less than that, so with the default every table soon waits on a window that never closes and
the figures are those of refused actions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from racedeck.server.frames import encode  # noqa: E402
from racedeck.server.messages import Act, CreateTable, JoinRequest  # noqa: E402
from racedeck.server.rooms import Connection  # noqa: E402
from racedeck.server.service import TableService  # noqa: E402
from racedeck.store.tables import TableStore  # noqa: E402


async def run(
    game: str,
    players: int,
    tables: int,
    actions: int,
    db: str | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[int, float, int]:
    """Play ``actions`` actions; returns how many were accepted, the seconds and the bytes."""
    folder = Path(tempfile.mkdtemp(prefix="racedeck-path-"))
    service = TableService(TableStore(db or folder / "path.sqlite"), bot_pool="thread")
    await service.start()
    rng = random.Random(1)
    conns: list[Connection] = []
    first_token: dict[str, str] = {}
    for _ in range(tables):
        room, _seat, token = await service.create(
            CreateTable.model_validate(
                {
                    "game": game,
                    "config": {**(options or {}), "players": players},
                    "seats": [{"kind": "human"}] * players,
                }
            )
        )
        assert token is not None
        first_token[room.id] = token
        tokens = [token]
        for _ in range(players - 1):
            _s, t = await service.join(room.id, JoinRequest())
            tokens.append(t)
        for t in tokens:
            conns.append(await service.connect(room, t))
    for c in conns:
        while not c.outbox.empty():
            c.outbox.get_nowait()
    accepted = 0
    sent = 0
    before = _database_work(db)
    started = time.process_time()
    while accepted < actions:
        for conn in conns:
            room = conn.room
            table = room.table
            assert table is not None and conn.seat is not None
            if table.is_over:
                if conn.seat == 0:
                    await service.again(room.id, first_token[room.id])
                continue
            if conn.seat not in table.pending:
                continue
            view = table.view(conn.seat).to_json()
            action = rng.choice(view["legal_actions"])
            await service.act(
                conn,
                Act(type="act", move=table.move, action=action, id=str(accepted)),
            )
            accepted += 1
            for c in room.connections.values():
                while not c.outbox.empty():
                    frame = c.outbox.get_nowait()
                    if frame is not None:
                        sent += len(encode(frame))
    elapsed = time.process_time() - started
    after = _database_work(db)
    if before is not None and after is not None:
        cpu, commits = (a - b for a, b in zip(after, before, strict=True))
        print(
            f"PostgreSQL: {cpu / accepted * 1e6:.0f} µs of its own CPU per action,"
            f" {commits / accepted:.2f} transactions per action"
        )
    await service.close()
    shutil.rmtree(folder, ignore_errors=True)
    return accepted, elapsed, sent


def _database_work(db: str | None) -> tuple[float, int] | None:
    """PostgreSQL's CPU seconds so far (its processes on this machine) and its transactions."""
    if db is None or not db.startswith("postgres"):
        return None
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
    cpu = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "comm").read_text().strip() == "postgres":
                fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except OSError:
            continue
    return cpu, int(row[0]) if row else 0


def _option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as a game option: the value read as JSON (numbers, lists), else text."""
    key, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"--option wants KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="why-first")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, VALUE as JSON or else text (repeat for more)",
    )
    args = parser.parse_args()
    options = dict(_option(text) for text in args.option)
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    accepted, elapsed, sent = asyncio.run(
        run(args.game, args.players, args.tables, args.actions, args.db, options)
    )
    if profiler is not None:
        profiler.disable()
    print(
        f"{args.game}, {args.players} seats, {args.tables} tables: {accepted} actions in"
        f" {elapsed:.2f} CPU s = {accepted / elapsed:.0f} actions per CPU second,"
        f" {elapsed / accepted * 1e6:.0f} µs per action,"
        f" {sent / accepted:.0f} bytes sent per action"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
