"""Two server processes on one PostgreSQL database serve the same tables
(:mod:`racedeck.server.cluster`).

Here both servers run in this process (each on its own thread and event loop, with its own
engine and database connections, as two processes would), so that the leak checker sees every
frame either sends; ``test_cluster_processes`` runs them as real processes. They share one
simulated clock, which a test moves on at the server that automates the table (the only one
that sets its timers); what goes between them (notices, the sweep) is real and waited for.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from racedeck.server.timekeeper import SimulatedClock
from server.deals import HELD_THEN_FORCED, windows
from server.live import (
    Client,
    FrameChecker,
    LiveServer,
    Seeds,
    eventually,
    seed,
    serving,
    settle,
    view_move,
)
from server.test_clocks import _clock_says, _seat
from server.test_windows import play_windows


@pytest.fixture
def pair(postgres_url: str, checker: FrameChecker) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one fresh PostgreSQL database, on one simulated clock and one source of
    server seeds, every frame of both leak-checked."""
    clock, seeds = SimulatedClock(), Seeds()
    with (
        serving(postgres_url, checker, clock=clock, seeds=seeds) as first,
        serving(postgres_url, checker, clock=clock, seeds=seeds) as second,
    ):
        yield first, second


def greet(server: LiveServer, table_id: str, token: str | None) -> Client:
    c = server.socket(table_id)
    c.hello(token)
    return c


def bot_acting(c: Client, people: list[Client]) -> bool:
    """Whether ``c``'s view asks a seat none of ``people`` holds (the bot) to act."""
    assert c.view is not None
    seats = {p.seat for p in people}
    return any(seat not in seats for seat in c.view["header"]["acting"])


def over(c: Client) -> bool:
    return c.view is not None and bool(c.view["header"]["terminal"])


def final(frame: dict[str, Any]) -> bool:
    return frame.get("view") is not None and bool(frame["view"]["header"]["terminal"])


def watch_to_the_end(c: Client, timeout: float = 120) -> None:
    if not over(c):
        c.until(final, timeout)


def play_to_the_end(players: list[Client], rng: random.Random, timeout: float = 120) -> int:
    """Random legal actions by whoever may act until every player's view is final; returns
    how many were accepted. Every action must be acknowledged (none refused)."""
    deadline = time.monotonic() + timeout
    moves = 0
    while not all(over(c) for c in players):
        assert time.monotonic() < deadline, "the game did not end"
        movers = [c for c in players if c.view is not None and c.view["legal_actions"]]
        if any(bot_acting(c, players) for c in movers):
            # The bot places its card in the same round: people wait for it, so no move of
            # theirs is answered on a view the bot's move made stale.
            movers = []
        if not movers:
            # The bot's turn: every move is public, so the first view to change is the one
            # furthest behind.
            with contextlib.suppress(TimeoutError):
                min(players, key=view_move).recv(0.1)
            settle(players)
            continue
        c = rng.choice(movers)
        assert c.view is not None
        c.act(rng.choice(c.view["legal_actions"]), cid=f"m{moves}")
        frame = c.until(lambda f, n=moves: f["type"] == "error" or f.get("ack") == f"m{n}")
        assert frame["type"] == "update", frame
        moves += 1
        # Everyone has seen the move (through either server) before the next is chosen.
        settle(players)
    return moves


def public_feed(c: Client) -> list[tuple[int, str]]:
    """The public events a spectator was sent, as (game number, text)."""
    out = []
    for f in c.frames:
        for e in f.get("events", []):
            out.append((f.get("game_no", 0), e["text"]))
    return out


def test_a_table_made_on_one_is_played_from_both(pair: tuple[LiveServer, LiveServer]) -> None:
    """Created on the first server, joined on the second; Ann plays on the first, Bob on the
    second, a bot (automated by one of them) fills the third seat; a spectator watches on
    each. Everyone sees the same game move by move, to the end, and again."""
    first, second = pair
    created = first.create("why-first", ["human", "human", "heuristic"], {"stages": 2})
    tid = created["table_id"]
    joined = second.join(tid, "Bob")
    assert tid in [t["id"] for t in second.http.get("/api/tables").json()]
    ann = greet(first, tid, created["token"])
    bob = greet(second, tid, joined["token"])
    watchers = [greet(first, tid, None), greet(second, tid, None)]
    assert ann.seat == 0 and bob.seat == 1
    play_to_the_end([ann, bob], random.Random(5))
    for w in watchers:
        watch_to_the_end(w)
    settle(watchers)
    assert ann.view is not None and bob.view is not None
    assert ann.view["header"]["move"] == bob.view["header"]["move"]
    assert ann.view["header"]["outcome"] == bob.view["header"]["outcome"]
    # The spectators of both servers were sent the same public story, frame by frame.
    assert public_feed(watchers[0]) == public_feed(watchers[1])
    # And the same updates, from the later of their welcomes on.
    since = max(w.frames[0]["view"]["header"]["move"] for w in watchers)
    moves = [[f["move"] for f in w.frames if f["type"] == "update"] for w in watchers]
    assert [m for m in moves[0] if m > since] == [m for m in moves[1] if m > since]
    assert moves[0][-1] == moves[1][-1] == ann.view["header"]["move"]
    rooms = [s.service.rooms[tid] for s in pair]
    assert all(r.table is not None and r.table.is_over for r in rooms)
    assert rooms[0].table is not None and rooms[1].table is not None
    assert rooms[0].table.record.actions == rooms[1].table.record.actions
    stored = first.service.store.load(tid)
    assert stored is not None and len(stored.actions) == rooms[0].table.move

    # Both servers publish the same commitment to the next game's server seed (provably fair
    # deals), and the next game is dealt with that seed, wherever it is asked.
    promised = {s.http.get(f"/api/tables/{tid}").json()["fair"]["next_commitment"] for s in pair}
    assert len(promised) == 1 and None not in promised
    # Play again from the second server: the first deals the same new game to Ann.
    res = second.http.post(f"/api/tables/{tid}/again", json={"token": joined["token"]})
    assert res.status_code == 200, res.text
    assert res.json()["game_no"] == 2
    frame = ann.until(lambda f: f.get("game_no") == 2 and f.get("view") is not None)
    assert not frame["view"]["header"]["terminal"]
    for s in pair:
        assert s.http.get(f"/api/tables/{tid}").json()["fair"]["commitment"] in promised
    play_to_the_end([ann, bob], random.Random(6))
    assert first.http.get(f"/api/tables/{tid}/games").json()["games"][1]["game_no"] == 2


def test_simultaneous_commits_on_two_servers_are_each_accepted_once(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """WF-4 across processes: four people, two on each server, commit at the same moment;
    the row lock queues the servers' moves, so each is accepted exactly once and no two are
    ever committed with the same move number."""
    players = 4
    first, second = pair
    created = first.create("why-first", ["human"] * players, {"stages": 2})
    tid = created["table_id"]
    servers = [first, second, first, second]
    tokens = [created["token"]] + [
        servers[i].join(tid, f"P{i}")["token"] for i in range(1, players)
    ]
    clients = [greet(servers[i], tid, tokens[i]) for i in range(players)]
    rounds = 3
    barrier = threading.Barrier(players)
    failures: list[str] = []
    acked: list[int] = []

    def play(c: Client, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for r in range(rounds):
                while c.view is None or not c.view["legal_actions"]:
                    c.recv(30)
                barrier.wait(30)
                time.sleep(rng.random() * 0.02)
                c.act(rng.choice(c.view["legal_actions"]), cid=f"{c.seat}-{r}")
                frame = c.until(
                    lambda f, r=r: f["type"] == "error" or f.get("ack") == f"{c.seat}-{r}"
                )
                if frame["type"] == "error":
                    failures.append(f"seat {c.seat}: {frame}")
                    return
                acked.append(frame["move"])
        except Exception as exc:
            failures.append(f"seat {c.seat}: {exc!r}")

    threads = [threading.Thread(target=play, args=(c, i)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert not failures, failures
    stored = first.service.store.load(tid)
    assert stored is not None
    seats = [seat for seat, _action in stored.actions]
    assert len(seats) == rounds * players
    for r in range(rounds):
        assert sorted(seats[r * players : (r + 1) * players]) == list(range(players))
    # Each acknowledged move has its own number: nobody's commit overwrote another's.
    assert sorted(acked) == sorted(set(acked)) and len(acked) == rounds * players
    # The round's last commit reveals the round: every player, on either server, is told.
    for c in clients:
        if c.view is None or c.view["header"]["move"] < len(stored.actions):
            c.until(lambda f: f.get("move", 0) >= len(stored.actions))


def test_a_bot_table_made_on_one_is_watched_on_the_other(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """Bots play in exactly one process: a spectator on the other sees every move once."""
    first, second = pair
    created = second.create("setback", ["random", "random"], {"players": 2})
    tid = created["table_id"]
    watcher = greet(first, tid, None)
    watch_to_the_end(watcher)
    watcher.catch_up()  # and anything sent after the end
    moves = [f["move"] for f in watcher.frames if f["type"] == "update"]
    assert moves == sorted(set(moves))
    stored = first.service.store.load(tid)
    assert stored is not None and stored.status == "over"
    rooms = [s.service.rooms[tid] for s in pair]
    assert rooms[0].table is not None and rooms[1].table is not None
    assert rooms[0].table.record.actions == rooms[1].table.record.actions
    assert len(stored.actions) == rooms[0].table.move


def test_a_window_held_by_one_server_lasts_its_minimum_on_both(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """SB-9 across processes: Ann plays on the first server, Bob on the second; the forced
    passes are held back by the one process that automates the table, and every BLOCK window
    stays open its minimum as spectators on both servers see it."""
    first, second = pair
    first.seeds.then(seed(HELD_THEN_FORCED))  # windows Ann holds a BLOCK in, then forced ones
    created = first.create("setback", ["human", "human"], {"players": 2, "window_seconds": 2})
    tid = created["table_id"]
    joined = second.join(tid, "Bob")
    owner, other = _owner(pair, tid)
    owner.automating(tid)
    players = [greet(first, tid, created["token"]), greet(second, tid, joined["token"])]
    near, far = greet(owner, tid, None), greet(other, tid, None)
    # The other server's spectator is read along with the players (it has nothing to do).
    lengths, moves = play_windows(owner, tid, near, 3, players, others=(far,))
    assert moves == [w.move for w in windows(HELD_THEN_FORCED)[:3]], "not the deal planned"
    assert lengths == pytest.approx([2, 2, 2]), lengths
    # The other server shows the windows once it hears of them: read until it has.
    for _ in range(100):
        if len(far_lengths(far)) >= 3:
            break
        with contextlib.suppress(TimeoutError):
            far.recv(0.1)
    assert far_lengths(far)[:3] == pytest.approx([2, 2, 2])


def far_lengths(c: Client) -> list[float]:
    """How long each window stayed open by the table's clock in ``c``'s frames."""
    out, opened = [], None
    for f in c.frames:
        if f["type"] != "update":
            continue
        kinds = [e["kind"] for e in f["events"]]
        if "window_closed" in kinds and opened is not None:
            out.append(f["clock"]["now"] - opened)
            opened = None
        if "window_opened" in kinds:
            opened = f["clock"]["now"]
    return out


# -- clocks and leavers across processes ----------------------------------------------------------


def _owner(pair: tuple[LiveServer, LiveServer], table_id: str) -> tuple[LiveServer, LiveServer]:
    """The server that automates the table (holds its advisory lock), then the other one."""

    def owners() -> list[LiveServer]:
        return [one for one in pair if table_id in getattr(one.service.cluster, "owned", ())]

    eventually(owners, "a server takes the table")
    owner = owners()[0]
    return owner, pair[1] if owner is pair[0] else pair[0]


def test_a_person_gone_from_the_other_server_is_handed_over_and_comes_back_there(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """Ann plays on the server that does not automate the table. When her socket closes, the
    automating one learns it (``live_presence``) and its bot takes her seat after the grace;
    both servers show the takeover. When she is back on her server, both show her seat hers
    again, the notes agree, and the bot plays it no more."""
    first = pair[0]
    created = first.create(
        "why-first", ["human", "human"], {"players": 2}, clock={"move": 60, "grace": 1}
    )
    table_id = created["table_id"]
    joined = first.join(table_id)
    owner, other = _owner(pair, table_id)
    ann = greet(other, table_id, created["token"])
    bob = greet(owner, table_id, joined["token"])
    owned_room, other_room = owner.service.rooms[table_id], other.service.rooms[table_id]

    def away() -> bool:
        return owner.inspect(table_id, lambda r: r.clock.seats[0].away is not None)

    eventually(lambda: not away(), "the owner hears Ann is connected on the other server")
    owner.advance(2)  # past the grace: Ann is connected, on the other server, so nothing happens
    assert not owner.inspect(table_id, lambda r: r.clock.seats[0].bot), (
        "a person connected elsewhere is not away"
    )
    ann.close()
    eventually(away, "the owner hears Ann's socket on the other server closed")
    owner.advance(0.9)  # within the grace: still hers
    assert not owner.inspect(table_id, lambda r: r.clock.seats[0].bot)
    owner.advance(0.1)
    taken = bob.until(_clock_says(0, bot=True), timeout=10)
    assert _seat(taken, 0)["reason"] == "away"
    assert not _seat(taken, 1)["bot"], "Bob is connected: his seat stays his"
    eventually(lambda: other_room.clock.seats[0].bot, "the other server hears of the takeover")
    # The bot plays her seat before she is back (its decision runs in a worker process: on a
    # busy machine she could otherwise be back first, and the bot would have played nothing).
    bob.until(_clock_says(0, bot=True, bot_played=True), timeout=10)
    back = greet(other, table_id, created["token"])
    assert not _seat(back.frames[0], 0)["bot"]
    bob.until(_clock_says(0, bot=False, bot_played=True), timeout=10)
    eventually(lambda: owned_room.clock.notes == other_room.clock.notes, "the servers' notes agree")
    assert [n["kind"] for n in owned_room.clock.notes] == ["away", "back"]

    # The owner's bot plays Ann's seat no more (she makes no move here): Bob places, which
    # asks her seat again if the round is over, and time goes on.
    def played() -> int:
        return sum(seat == 0 for seat, _action in _stored(owner, table_id).actions)

    before = played()
    assert bob.view is not None
    bob.act(bob.view["legal_actions"][0], cid="b")
    bob.until(lambda f: f.get("ack") == "b")
    eventually(
        lambda: owner.inspect(table_id, lambda r: 0 not in r.thinking),
        "no stand-in decides for Ann's seat",
    )
    owner.advance(5)
    assert owner.inspect(table_id, lambda r: 0 not in r.thinking and not r.clock.seats[0].bot)
    assert played() == before, "a bot played the seat of a person who is back"


def _stored(server: LiveServer, table_id: str) -> Any:
    stored = server.service.store.load(table_id)
    assert stored is not None
    return stored


def test_a_table_taken_over_by_the_sweep_runs_its_clocks(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """Nobody ever connects: the game starts before any process automates the table, and the
    one that takes it keeps its clocks, so the seats time out and the bots finish the game."""
    first = pair[0]
    clock = {"move": 1, "bank": 0, "grace": 0, "bot": "random"}
    created = first.create("why-first", ["human", "human"], {"players": 2}, clock=clock)
    table_id = created["table_id"]
    first.join(table_id)
    owner, _other = _owner(pair, table_id)
    room = owner.automating(table_id)
    owner.advance(1)  # the move time of both
    eventually(
        lambda: room.table is not None and room.table.is_over,
        "the clocks ran and the bots finished the game",
        60,
    )
    assert [s.bot_played for s in room.clock.seats] == [True, True]
    timeouts = [(n["seat"], n["move"]) for n in room.clock.notes if n["kind"] == "timeout"]
    assert timeouts == [(0, 0), (1, 0)]
