"""The live-table store: one row per accepted action, committed with the table's move number;
a write that does not fit what is stored is refused and changes nothing. Each test runs on a
SQLite file and on PostgreSQL; the row lock and the write notices are PostgreSQL's."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from racedeck.core.jsontypes import JSONObject
from racedeck.store.tables import (
    FinishedGame,
    NotCommon,
    Progress,
    Queued,
    SeatRow,
    StoreConflict,
    StoredTable,
    TableStore,
    live_game_fairness,
    live_tables,
)


def make_store(database: str) -> TableStore:
    store = TableStore(database)
    store.create(
        StoredTable(
            id="t1",
            game="why-first",
            config={"players": 2},
            status="open",
            game_no=1,
            seed=2**63 - 1,
            seats=[SeatRow("human", name="Ann", token_hash="a" * 64), SeatRow("human")],
            server_seed="1" * 64,
            client_seeds=["ann", ""],
        )
    )
    return store


def test_seats_actions_and_games_round_trip(database: str) -> None:
    store = make_store(database)
    bob = SeatRow("human", name="Bob", token_hash="b" * 64)
    store.take_seat("t1", 1, bob, "playing", ["ann", "bob"], 2**63 - 1)
    with pytest.raises(StoreConflict):
        eve = SeatRow("human", name="Eve", token_hash="e" * 64)
        store.take_seat("t1", 1, eve, "playing", ["ann", "eve"], 7)
    store.append_action("t1", 1, 0, 0, {"type": "place", "value": 3, "target": 1}, "playing")
    store.append_action(
        "t1", 1, 1, 1, {"type": "place", "value": -1, "target": 0}, "over", None, "9" * 64
    )
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.next_server_seed == "9" * 64
    assert loaded.seed == 2**63 - 1 and loaded.status == "over"
    assert [s.name for s in loaded.seats] == ["Ann", "Bob"]
    assert loaded.server_seed == "1" * 64 and loaded.client_seeds == ["ann", "bob"]
    assert loaded.actions == [
        (0, {"type": "place", "value": 3, "target": 1}),
        (1, {"type": "place", "value": -1, "target": 0}),
    ]
    store.new_game("t1", 2, 5, "playing", "2" * 64, ["ann", "bob"])
    again = store.load("t1")
    assert again is not None and again.game_no == 2 and again.actions == [] and again.seed == 5
    assert again.next_server_seed == ""  # the seed for game 3 is drawn when game 2 ends
    assert again.server_seed == "2" * 64 and again.client_seeds == ["ann", "bob"]
    assert [t.id for t in store.load_all()] == ["t1"]
    assert store.load("nope") is None
    store.close()


def test_an_action_out_of_turn_is_refused_and_stores_nothing(database: str) -> None:
    store = make_store(database)
    store.append_action("t1", 1, 0, 0, {"type": "place"}, "playing")
    for game_no, idx in ((1, 0), (1, 2), (2, 1)):
        with pytest.raises(StoreConflict):
            store.append_action("t1", game_no, idx, 1, {"type": "place"}, "playing")
    with pytest.raises(StoreConflict):
        store.new_game("t1", 3, 1, "playing", "3" * 64, ["", ""])
    loaded = store.load("t1")
    assert loaded is not None and len(loaded.actions) == 1 and loaded.game_no == 1
    store.close()


def test_catching_up_reads_the_actions_a_process_missed(database: str) -> None:
    store = make_store(database)
    assert store.progress("t1") == Progress(1, 0, "open")
    for idx in range(3):
        store.append_action("t1", 1, idx, idx % 2, {"type": "place", "n": idx}, "playing")
    assert store.progress("t1") == Progress(1, 3, "playing")
    assert store.actions_from("t1", 1, 1) == [
        (1, {"type": "place", "n": 1}),
        (0, {"type": "place", "n": 2}),
    ]
    assert store.actions_from("t1", 2, 0) == [] and store.progress("nope") is None
    store.close()


def test_writes_in_a_locked_block_commit_together_at_its_end(database: str) -> None:
    """Inside :meth:`TableStore.locked` the writes form one transaction, committed when the
    block ends (the service sends nothing of them before); an error rolls back all of it."""
    store = make_store(database)
    other = TableStore(database)
    with store.locked("t1") as progress:
        assert progress == Progress(1, 0, "open")
        store.append_action("t1", 1, 0, 0, {"type": "place"}, "playing")
        store.append_action("t1", 1, 1, 1, {"type": "place", "n": 1}, "playing")
        assert other.actions_from("t1", 1, 0) == []  # not before the block ends
    expected = [(0, {"type": "place"}), (1, {"type": "place", "n": 1})]
    assert other.actions_from("t1", 1, 0) == expected
    with pytest.raises(StoreConflict), store.locked("t1") as progress:
        assert progress == Progress(1, 2, "playing")
        store.append_action("t1", 1, 2, 0, {"type": "place"}, "playing")
        store.append_action("t1", 1, 5, 0, {"type": "place"}, "playing")
    assert other.progress("t1") == Progress(1, 2, "playing")
    assert len(other.actions_from("t1", 1, 0)) == 2
    with store.locked("nope") as missing:
        assert missing is None
    other.close()
    store.close()


def test_the_row_lock_lets_one_writer_at_a_time_catch_up_then_write(postgres_url: str) -> None:
    """Writers in several processes (one store each) that lock the row, read where the table
    is and append the next action never collide on a move number: none is refused."""
    make_store(postgres_url).close()
    writers, each = 4, 15
    failures: list[BaseException] = []
    barrier = threading.Barrier(writers)

    def write(seat: int) -> None:
        store = TableStore(postgres_url)
        try:
            barrier.wait(30)
            for _ in range(each):
                with store.locked("t1") as progress:
                    assert progress is not None
                    store.append_action("t1", 1, progress.move, seat, {"seat": seat}, "playing")
        except BaseException as exc:
            failures.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=write, args=(seat,)) for seat in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, failures
    store = TableStore(postgres_url)
    actions = store.actions_from("t1", 1, 0)
    assert store.progress("t1") == Progress(1, writers * each, "playing")
    assert sorted(seat for seat, _a in actions) == sorted(list(range(writers)) * each)
    store.close()


def test_every_write_is_announced_when_it_commits(postgres_url: str) -> None:
    """``on_write`` runs inside the write's transaction: a ``NOTIFY`` sent there reaches a
    listener once the write is committed, and a refused write announces nothing."""
    store = make_store(postgres_url)
    listener = psycopg.connect(postgres_url, autocommit=True)
    listener.execute("LISTEN store_test")

    def announce(conn: Connection, note: JSONObject) -> None:
        conn.exec_driver_sql("SELECT pg_notify('store_test', %(p)s)", {"p": json.dumps(note)})

    store.on_write = announce
    store.append_action("t1", 1, 0, 0, {"type": "place"}, "playing")
    with pytest.raises(StoreConflict):
        store.append_action("t1", 1, 0, 1, {"type": "place"}, "playing")
    heard = [json.loads(n.payload) for n in listener.notifies(timeout=5, stop_after=1)]
    assert heard == [{"kind": "move", "table": "t1", "game_no": 1, "move": 1}]
    assert list(listener.notifies(timeout=0.5)) == []
    listener.close()
    store.close()


def test_a_move_in_a_locked_block_is_one_statement_announced_at_the_commit(
    postgres_url: str,
) -> None:
    """With ``notice`` (as a cluster sets it), the common move in a locked block is one
    statement with its notice: the move, the action and the clock are stored and heard when
    the block commits; a conflict later in the block rolls all of it back, notice included;
    a game with no clock row yet gets one."""
    store = make_store(postgres_url)
    store.save_clock("t1", 1, {"seats": []})
    listener = psycopg.connect(postgres_url, autocommit=True)
    listener.execute("LISTEN store_test")
    store.notice = lambda note: ("store_test", json.dumps(note))
    clock: JSONObject = {"seats": [{"left": 3.5}]}
    with store.locked("t1"):
        store.append_action("t1", 1, 0, 0, {"type": "place", "ü": 1}, "playing", clock=clock)
        assert list(listener.notifies(timeout=0.2)) == []  # not before the commit
    heard = [json.loads(n.payload) for n in listener.notifies(timeout=5, stop_after=1)]
    assert heard == [{"kind": "move", "table": "t1", "game_no": 1, "move": 1}]
    loaded = store.load("t1")
    assert loaded is not None and loaded.actions == [(0, {"type": "place", "ü": 1})]
    assert loaded.clock == clock
    with pytest.raises(StoreConflict), store.locked("t1"):
        store.append_action("t1", 1, 1, 1, {"type": "place"}, "playing")
        store.append_action("t1", 1, 1, 1, {"type": "place"}, "playing")
    assert list(listener.notifies(timeout=0.3)) == []
    assert store.progress("t1") == Progress(1, 1, "playing", clock)
    store.new_game("t1", 2, 5, "playing", "2" * 64, ["", ""])
    with store.locked("t1"):
        store.append_action("t1", 2, 0, 0, {"type": "place"}, "playing", clock={"seats": [1]})
    assert store.progress("t1") == Progress(2, 1, "playing", {"seats": [1]})
    listener.close()
    store.close()


def test_a_move_is_stored_alike_on_either_path(tmp_path: Path) -> None:
    """On SQLite a move goes through the driver's own connection (racedeck.store.moves); what
    it stores reads back exactly as what the general path stores, a move out of turn is
    refused and changes nothing, a missing clock row or another thread takes the general
    path, and a clock comes back as written."""
    fast, slow = (
        make_store(str(tmp_path / "fast.sqlite")),
        make_store(str(tmp_path / "slow.sqlite")),
    )
    slow._moves = None  # the general path
    clock: JSONObject = {"options": {"bank": 45}, "seats": [{"left": 44.5}, {"left": 45.0}]}
    for store in (fast, slow):
        store.save_clock("t1", 1, {"seats": []})
        store.append_action("t1", 1, 0, 0, {"type": "place", "value": 3}, "playing", clock=clock)
        with pytest.raises(StoreConflict):
            store.append_action("t1", 1, 0, 1, {"type": "place"}, "playing")
        # From another thread (SQLite's connections belong to one): the general path.
        done: list[BaseException | None] = []

        def move(store: TableStore = store, done: list[BaseException | None] = done) -> None:
            try:
                store.append_action("t1", 1, 1, 1, {"type": "place", "ü": [1.5]}, "over")
                done.append(None)
            except BaseException as exc:
                done.append(exc)

        worker = threading.Thread(target=move)
        worker.start()
        worker.join()
        assert done == [None]
    # A game with no clock row yet: the move is not half-written by the fast path.
    fast.new_game("t1", 2, 5, "playing", "2" * 64, ["", ""])
    fast.append_action("t1", 2, 0, 0, {"type": "place"}, "playing", clock={"seats": [1]})
    loaded, expected = fast.load("t1"), slow.load("t1")
    assert loaded is not None and expected is not None
    assert loaded.actions == [(0, {"type": "place"})] and loaded.clock == {"seats": [1]}
    assert (
        fast.actions_from("t1", 1, 0)
        == slow.actions_from("t1", 1, 0)
        == [
            (0, {"type": "place", "value": 3}),
            (1, {"type": "place", "ü": [1.5]}),
        ]
    )
    assert fast.progress("t1") == Progress(2, 1, "playing", {"seats": [1]})
    assert slow.progress("t1") == Progress(1, 2, "over", clock)
    # The time of the row's last write reads back as a time on both.
    for store in (fast, slow):
        with store.engine.connect() as conn:
            updated = conn.execute(select(live_tables.c.updated)).scalar_one()
        assert isinstance(updated, datetime) and abs(datetime.now() - updated) < timedelta(hours=1)
    fast.close()
    slow.close()


def test_queued_moves_are_stored_as_the_general_path_stores_them(postgres_url: str) -> None:
    """Inside :meth:`TableStore.queueing` a table's moves (a game's end included) and clocks
    become statements for the caller's own transaction (the cluster's asynchronous block):
    run there, they store what the general path stores, with their notices; any other write
    to the table raises ``NotCommon`` and writes nothing; a move out of turn fails the
    transaction whole."""
    store = make_store(postgres_url)
    store.save_clock("t1", 1, {"seats": []})
    listener = psycopg.connect(postgres_url, autocommit=True)
    listener.execute("LISTEN store_test")
    store.notice = lambda note: ("store_test", json.dumps(note))
    pending: list[Queued] = []
    end = FinishedGame(1, 2**63 - 1, {"winners": [1]}, fair={"server_seed": "1" * 64})
    with store.queueing("t1", pending):
        store.append_action("t1", 1, 0, 0, {"type": "place"}, "playing", clock={"t": 1})
        store.save_clock("t1", 1, {"t": 2})
        store.append_action("t1", 1, 1, 1, {"type": "x"}, "over", end, "9" * 64, clock={"t": 3})
        with pytest.raises(NotCommon):
            store.new_game("t1", 2, 5, "playing", "2" * 64, ["", ""])
    assert store.progress("t1") == Progress(1, 0, "open", {"seats": []})  # nothing yet

    def run(statements: list[Queued]) -> None:
        with psycopg.connect(postgres_url) as conn, conn.pipeline():
            for sql, params in statements:
                conn.execute(sql, params)

    run(pending)
    loaded = store.load("t1")
    assert loaded is not None and loaded.status == "over" and loaded.next_server_seed == "9" * 64
    assert loaded.actions == [(0, {"type": "place"}), (1, {"type": "x"})]
    assert store.progress("t1") == Progress(1, 2, "over", {"t": 3})
    [game] = store.finished_games("t1")
    assert (game.game_no, game.seed, game.outcome) == (1, 2**63 - 1, end.outcome)
    with store.engine.connect() as conn:
        assert conn.execute(select(live_game_fairness.c.fair)).scalar_one() == end.fair
    heard = [json.loads(n.payload) for n in listener.notifies(timeout=5, stop_after=3)]
    assert [(n["kind"], n["move"]) for n in heard] == [("move", 1), ("clock", 0), ("move", 2)]
    # Out of turn: the statement fails and the transaction with it.
    late: list[Queued] = []
    with store.queueing("t1", late):
        store.save_clock("t1", 1, {"t": 4})
        store.append_action("t1", 1, 7, 0, {"type": "place"}, "over")
    with pytest.raises(psycopg.errors.DivisionByZero):
        run(late)
    assert store.progress("t1") == Progress(1, 2, "over", {"t": 3})
    listener.close()
    store.close()
