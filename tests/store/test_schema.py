"""Opening a new database while another process creates its tables (store/schema.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Integer, MetaData, Table, create_engine, event, inspect, text

from racedeck.store.schema import create_schema
from racedeck.store.tournaments import TournamentStore


def test_a_table_created_by_someone_else_in_between_is_taken_as_there(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'race.sqlite'}")
    metadata = MetaData()
    table = Table("games", metadata, Column("id", Integer, primary_key=True))
    raced: list[bool] = []

    def other_process_first(target: Any, connection: Any, **_: Any) -> None:
        # After create_all found no table and before its CREATE: as a second process would.
        if not raced:
            raced.append(True)
            connection.execute(text("CREATE TABLE games (id INTEGER PRIMARY KEY)"))

    event.listen(table, "before_create", other_process_first)
    create_schema(metadata, engine)
    assert raced and inspect(engine).get_table_names() == ["games"]


def test_many_stores_open_one_new_database_at_once(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            TournamentStore(db).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
