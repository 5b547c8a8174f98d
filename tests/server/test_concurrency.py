"""Simultaneous commits (Why First?, WF-4) from several sockets, sent with random delays and
each answering the view it last saw, are all accepted exactly once."""

from __future__ import annotations

import random
import threading
import time

from server.live import Client, LiveServer


def test_simultaneous_commits_are_each_accepted_once(server: LiveServer) -> None:
    players = 5
    created = server.create("why-first", ["human"] * players)
    tid = created["table_id"]
    tokens = [created["token"]] + [server.join(tid, f"P{i}")["token"] for i in range(1, players)]
    clients: list[Client] = []
    for token in tokens:
        c = server.socket(tid)
        c.hello(token)
        clients.append(c)
    rounds = 4
    failures: list[str] = []
    barrier = threading.Barrier(players)
    late: list[bool] = []

    def play(c: Client, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(rounds):
                # Read until this seat may commit again (its view offers actions).
                while c.view is None or not c.view["legal_actions"]:
                    c.recv(20)
                barrier.wait(20)
                time.sleep(rng.random() * 0.05)
                sent = c.view["header"]["move"]
                c.act(rng.choice(c.view["legal_actions"]), cid=f"{c.seat}")
                frame = c.until(lambda f: f["type"] == "error" or f.get("ack") == f"{c.seat}")
                if frame["type"] == "error":
                    failures.append(f"seat {c.seat}: {frame}")
                    return
                # Applied later than the move it answered: others committed in between.
                late.append(frame["move"] - 1 > sent)
        except Exception as exc:
            last = [(f["type"], f.get("move"), f.get("ack"), f.get("code")) for f in c.frames[-6:]]
            failures.append(f"seat {c.seat}: {exc!r} {last}")

    threads = [threading.Thread(target=play, args=(c, i)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, failures
    assert len(late) == rounds * players and any(late)
    stored = server.service.store.load(tid)
    assert stored is not None
    seats = [seat for seat, _action in stored.actions]
    assert len(seats) == rounds * players
    for r in range(rounds):
        assert sorted(seats[r * players : (r + 1) * players]) == list(range(players))
    room = server.service.rooms[tid]
    assert room.table is not None and room.table.move == len(stored.actions)
