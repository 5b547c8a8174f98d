"""The tournament store: one row per tournament, each game committed once and for good (on a
SQLite file and on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from racedeck.core.outcome import Outcome
from racedeck.store.tournaments import StoredGame, TournamentRow, TournamentStore, database_url

PARAMS: dict[str, Any] = {
    "game": "why-first",
    "rules_version": "1",
    "config": {"players": 3, "stages": 5},
    "bots": ("random", "heuristic"),
    "players": 3,
    "seed": 0,
}


def _game(index: int, seed: int = 2**64 - 1) -> StoredGame:
    return StoredGame(
        index=index,
        lineup=("random", "heuristic", "random"),
        seed=seed,
        outcome=Outcome((14.0, 4.0, 0.0), (2, 1, 3), frozenset({1}), ("P1", "P2", "P3")),
        record={"game": "why-first", "seed": seed, "actions": [{"seat": 0, "action": {}}]},
        decisions=60,
        seconds=0.25,
    )


def _tournament(store: TournamentStore, **changes: Any) -> TournamentRow:
    row = store.tournament(**{**PARAMS, **changes})
    assert row is not None
    return row


def test_same_parameters_same_tournament(database: str) -> None:
    with TournamentStore(database) as store:
        first, again, other = _tournament(store), _tournament(store), _tournament(store, seed=1)
        assert first.id == again.id != other.id
        assert first.bots == ("random", "heuristic") and first.config == PARAMS["config"]
        assert [t.id for t in store.tournaments()] == [first.id, other.id]
        assert store.tournament(**{**PARAMS, "players": 4}, create=False) is None


def test_games_round_trip_and_are_committed_at_once(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "t.sqlite"  # missing folders are made
    store = TournamentStore(path)
    row = _tournament(store)
    for i in (3, 0, 7):
        store.add_game(row.id, _game(i))
    # another connection (as after a crash of this process) already sees every game
    with TournamentStore(path) as reader:
        assert reader.game_indices(row.id) == {0, 3, 7}
        games = reader.games(row.id)
    assert [g.index for g in games] == [0, 3, 7]
    assert games[1] == _game(3)  # 64-bit unsigned seeds survive
    assert store.game_indices(row.id, below=5) == {0, 3}
    assert [g.index for g in store.games(row.id, below=4)] == [0, 3]
    assert store.count_games(row.id) == 3
    light = store.games(row.id, with_records=False)
    assert light[0].record == {} and light[0].outcome == _game(0).outcome
    store.close()


def test_a_game_cannot_be_stored_twice(database: str) -> None:
    with TournamentStore(database) as store:
        row = _tournament(store)
        store.add_game(row.id, _game(1, seed=5))
        with pytest.raises(ValueError, match="already stored"):
            store.add_game(row.id, _game(1, seed=6))
        assert [g.seed for g in store.games(row.id)] == [5]


def test_games_belong_to_their_tournament(database: str) -> None:
    with TournamentStore(database) as store:
        a, b = _tournament(store), _tournament(store, bots=("heuristic", "random"))
        assert a.id != b.id
        store.add_game(a.id, _game(0))
        store.add_game(b.id, _game(0))
        store.add_game(b.id, _game(1))
        assert store.count_games(a.id) == 1 and store.count_games(b.id) == 2


def test_database_url() -> None:
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    # A URL without a driver gets psycopg 3, the driver racedeck installs.
    assert database_url("postgresql://u@h:5433/db") == "postgresql+psycopg://u@h:5433/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    url = database_url("some/file.sqlite")
    assert url.startswith("sqlite:////") and url.endswith("/some/file.sqlite")
    with TournamentStore("sqlite://") as memory:  # an in-memory database works too
        assert memory.tournaments() == []
