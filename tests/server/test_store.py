"""The live-table store: one row per accepted action, committed with the table's move number;
a write that does not fit what is stored is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.store.tables import SeatRow, StoreConflict, StoredTable, TableStore


def make_store(tmp_path: Path) -> TableStore:
    store = TableStore(tmp_path / "sub" / "tables.sqlite")
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


def test_seats_actions_and_games_round_trip(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    bob = SeatRow("human", name="Bob", token_hash="b" * 64)
    store.take_seat("t1", 1, bob, "playing", ["ann", "bob"], 2**63 - 1)
    with pytest.raises(StoreConflict):
        eve = SeatRow("human", name="Eve", token_hash="e" * 64)
        store.take_seat("t1", 1, eve, "playing", ["ann", "eve"], 7)
    store.append_action("t1", 1, 0, 0, {"type": "place", "value": 3, "target": 1}, "playing")
    store.append_action("t1", 1, 1, 1, {"type": "place", "value": -1, "target": 0}, "over")
    loaded = store.load("t1")
    assert loaded is not None
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
    assert again.server_seed == "2" * 64 and again.client_seeds == ["ann", "bob"]
    assert [t.id for t in store.load_all()] == ["t1"]
    assert store.load("nope") is None
    store.close()


def test_an_action_out_of_turn_is_refused_and_stores_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.append_action("t1", 1, 0, 0, {"type": "place"}, "playing")
    for game_no, idx in ((1, 0), (1, 2), (2, 1)):
        with pytest.raises(StoreConflict):
            store.append_action("t1", game_no, idx, 1, {"type": "place"}, "playing")
    with pytest.raises(StoreConflict):
        store.new_game("t1", 3, 1, "playing", "3" * 64, ["", ""])
    loaded = store.load("t1")
    assert loaded is not None and len(loaded.actions) == 1 and loaded.game_no == 1
    store.close()
