"""Load on one server process: N tables whose every seat is a WebSocket client choosing random
legal actions, on loopback, for a bounded time.

    python benchmarks/server_load.py --tables 50 --seconds 30
    python benchmarks/server_load.py --tables 250 --seconds 30 --game setback

Starts ``racedeck serve`` on a free port with a fresh SQLite file (or uses ``--url``), creates
the tables, connects every seat, and plays; a finished game is played again at once. Prints
accepted actions per second, the p50/p99 time from sending an action to receiving one's own
updated view (the ``ack``), and the server's resident memory. The clients run on the same
machine, so the figures are a floor for what the server alone could do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from racedeck.server.process import ServerProcess

MAX_TABLES = 1000
MAX_SECONDS = 300.0
SEND_INTERVAL = 0.125
"""Seconds between two actions of one socket (8 a second, under the server's rate limit)."""


class Stats:
    """What the clients measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.accepted = 0
        self.errors: dict[str, int] = {}
        self.games = 0


async def seat_client(
    ws_url: str,
    token: str,
    again: Any,
    stats: Stats,
    rng: random.Random,
    stop_at: float,
) -> None:
    """One seat: answer every view that offers actions with a random legal one."""
    async with connect(ws_url, max_size=2**22, ping_interval=None, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[str, float] = {}
        counter = 0
        last_send = 0.0
        view: dict[str, Any] | None = None
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.1, stop_at - time.monotonic())
                )
            except TimeoutError:
                break
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "error":
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
                sent.pop(frame.get("id", ""), None)
            if "ack" in frame and frame["ack"] in sent:
                stats.latencies.append(time.monotonic() - sent.pop(frame["ack"]))
                stats.accepted += 1
            if frame.get("view") is None:
                continue
            view = frame["view"]
            header = view["header"]
            if header["terminal"]:
                if header["seat"] == 0:
                    stats.games += 1
                    await again()
                continue
            if view["legal_actions"] and not sent:
                # Stay under the server's rate limit per socket (10 messages/s).
                pause = last_send + SEND_INTERVAL - time.monotonic()
                if pause > 0:
                    await asyncio.sleep(pause)
                last_send = time.monotonic()
                counter += 1
                cid = str(counter)
                sent[cid] = time.monotonic()
                action = rng.choice(view["legal_actions"])
                await ws.send(
                    json.dumps({"type": "act", "move": header["move"], "action": action, "id": cid})
                )


async def run(url: str, tables: int, seconds: float, game: str, players: int) -> Stats:
    stats = Stats()
    ws_base = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, trust_env=False, timeout=30) as http:
        seats: list[tuple[str, str]] = []
        for _ in range(tables):
            created = (
                await http.post(
                    "/api/tables",
                    json={
                        "game": game,
                        "config": {"players": players},
                        "seats": [{"kind": "human"}] * players,
                    },
                )
            ).json()
            tid = created["table_id"]
            seats.append((tid, created["token"]))
            for _ in range(players - 1):
                joined = (await http.post(f"/api/tables/{tid}/join", json={})).json()
                seats.append((tid, joined["token"]))
        stop_at = time.monotonic() + seconds
        tokens_by_table: dict[str, str] = {}
        for tid, token in seats:
            tokens_by_table.setdefault(tid, token)

        def again_for(tid: str) -> Any:
            async def again() -> None:
                await http.post(f"/api/tables/{tid}/again", json={"token": tokens_by_table[tid]})

            return again

        rng = random.Random(1)
        await asyncio.gather(
            *(
                seat_client(
                    f"{ws_base}/ws/{tid}",
                    token,
                    again_for(tid),
                    stats,
                    random.Random(rng.random()),
                    stop_at,
                )
                for tid, token in seats
            )
        )
    return stats


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="why-first")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--url", default=None, help="use a running server instead of starting one")
    args = parser.parse_args()
    tables = max(1, min(args.tables, MAX_TABLES))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    server = None
    url = args.url
    if url is None:
        folder = tempfile.mkdtemp(prefix="racedeck-load-")
        server = ServerProcess(Path(folder) / "load.sqlite", extra=["--bot-delay", "0"]).start()
        url = server.url
    try:
        pid = server.proc.pid if server is not None and server.proc is not None else None
        cpu_before = cpu_seconds(pid) if pid else 0.0
        started = time.monotonic()
        stats = asyncio.run(run(url, tables, seconds, args.game, args.players))
        elapsed = time.monotonic() - started
        cpu = (cpu_seconds(pid) - cpu_before) / elapsed if pid else None
        memory = (
            rss_mib(server.proc.pid) if server is not None and server.proc is not None else None
        )
    finally:
        if server is not None:
            server.stop()
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    sockets = tables * args.players
    print(
        f"{tables} tables of {args.game} ({args.players} seats each, {sockets} sockets),"
        f" {seconds:.0f} s of play ({elapsed:.0f} s with setup)"
    )
    print(
        f"accepted actions/s: {stats.accepted / seconds:.0f}  ({stats.accepted} in all,"
        f" {stats.games} games finished)"
    )
    print(f"act → own view: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    if memory is not None:
        print(f"server memory (RSS): {memory:.0f} MiB")
    if cpu is not None:
        print(f"server CPU: {cpu:.0%} of one core (the clients share the machine)")
    if stats.errors:
        print("errors:", ", ".join(f"{k} ×{v}" for k, v in sorted(stats.errors.items())))


if __name__ == "__main__":
    main()
