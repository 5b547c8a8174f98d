"""Tournaments and their finished games, stored in SQL through SQLAlchemy.

Two tables: ``tournaments`` (one row per distinct set of parameters — game, rules version, full
configuration, bots, players, seed) and ``tournament_games`` (one row per finished game, keyed by
tournament and game index). Every game is committed on its own as soon as it is added, so an
interrupted run loses no finished game, and the key makes storing a game twice impossible.

Any SQLAlchemy URL works (``postgresql+psycopg://…`` for a shared server); a plain path means a
SQLite file, written in WAL mode so that a commit per game stays cheap.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.types import TypeDecorator

from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.store.locations import DEFAULT_DB, database_url
from racedeck.store.schema import create_schema

__all__ = ["DEFAULT_DB", "StoredGame", "TournamentRow", "TournamentStore", "database_url"]


class IntText(TypeDecorator[int]):
    """An integer of any size kept as decimal text: game seeds use all 64 unsigned bits,
    which overflow the signed 64-bit integers of SQLite and PostgreSQL."""

    impl = String(40)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        """The integer as decimal text for the database."""
        return None if value is None else str(int(value))

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        """The integer back from its text."""
        return None if value is None else int(value)


metadata = MetaData()

tournaments_table = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # A digest of the parameters below, so a rerun of the same command finds its tournament.
    Column("key", String(64), nullable=False, unique=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("config", JSON, nullable=False),
    Column("bots", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", IntText, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

games_table = Table(
    "tournament_games",
    metadata,
    Column(
        "tournament_id",
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("game_index", Integer, primary_key=True),
    Column("lineup", JSON, nullable=False),
    Column("seed", IntText, nullable=False),
    Column("outcome", JSON, nullable=False),
    Column("record", JSON, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("seconds", Float, nullable=False),
)


def tournament_key(
    game: str,
    rules_version: str,
    config: JSONObject,
    bots: tuple[str, ...],
    players: int,
    seed: int,
) -> str:
    """The digest that identifies a tournament by its parameters (canonical JSON, SHA-256)."""
    canonical = json.dumps(
        {
            "game": game,
            "rules_version": rules_version,
            "config": config,
            "bots": list(bots),
            "players": players,
            "seed": seed,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament's parameters."""

    id: int
    game: str
    rules_version: str
    config: JSONObject
    bots: tuple[str, ...]
    players: int
    seed: int
    created: datetime


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One finished game of a tournament."""

    index: int
    lineup: tuple[str, ...]
    """Bot spec by seat."""
    seed: int
    outcome: Outcome
    record: JSONObject
    """The game record's JSON form."""
    decisions: int
    seconds: float


class TournamentStore:
    """Tournaments and their games in one database (see the module docstring)."""

    def __init__(self, target: str | Path = DEFAULT_DB) -> None:
        """Open (and create if needed) the database at ``target``: a URL or a SQLite path."""
        url = make_url(database_url(target))
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        self.url = url.render_as_string(hide_password=True)
        self.engine: Engine = create_engine(url)
        if url.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", sqlite_pragmas)
        create_schema(metadata, self.engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tournaments -----------------------------------------------------------------------

    def tournament(
        self,
        *,
        game: str,
        rules_version: str,
        config: JSONObject,
        bots: tuple[str, ...],
        players: int,
        seed: int,
        create: bool = True,
    ) -> TournamentRow | None:
        """The tournament with these parameters; created when missing unless ``create`` is false."""
        key = tournament_key(game, rules_version, config, bots, players, seed)
        found = self._by_key(key)
        if found is not None or not create:
            return found
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    tournaments_table.insert().values(
                        key=key,
                        game=game,
                        rules_version=rules_version,
                        config=config,
                        bots=list(bots),
                        players=players,
                        seed=seed,
                        created=datetime.now(UTC),
                    )
                )
        except IntegrityError:
            pass  # created by another process meanwhile: the row is there either way
        return self._by_key(key)

    def tournaments(self) -> list[TournamentRow]:
        """Every stored tournament, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(tournaments_table.select().order_by(tournaments_table.c.id))
            return [_tournament_row(row._mapping) for row in rows]

    def _by_key(self, key: str) -> TournamentRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                tournaments_table.select().where(tournaments_table.c.key == key)
            ).first()
        return None if row is None else _tournament_row(row._mapping)

    # -- games -----------------------------------------------------------------------------

    def add_game(self, tournament_id: int, game: StoredGame) -> None:
        """Store one finished game and commit it at once.

        Raises :class:`ValueError` when that game index is already stored.
        """
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    games_table.insert().values(
                        tournament_id=tournament_id,
                        game_index=game.index,
                        lineup=list(game.lineup),
                        seed=game.seed,
                        outcome=game.outcome.to_json(),
                        record=game.record,
                        decisions=game.decisions,
                        seconds=game.seconds,
                    )
                )
        except IntegrityError as exc:
            raise ValueError(
                f"game {game.index} of tournament {tournament_id} is already stored"
            ) from exc

    def game_indices(self, tournament_id: int, below: int | None = None) -> set[int]:
        """Indices of the stored games (those under ``below`` if given)."""
        query = select(games_table.c.game_index).where(games_table.c.tournament_id == tournament_id)
        if below is not None:
            query = query.where(games_table.c.game_index < below)
        with self.engine.connect() as conn:
            return {int(i) for i in conn.execute(query).scalars()}

    def count_games(self, tournament_id: int) -> int:
        """How many games of the tournament are stored."""
        query = (
            select(func.count())
            .select_from(games_table)
            .where(games_table.c.tournament_id == tournament_id)
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def games(
        self, tournament_id: int, below: int | None = None, *, with_records: bool = True
    ) -> list[StoredGame]:
        """The stored games in index order (those under ``below`` if given).

        ``with_records=False`` leaves the records out (as ``{}``), which is much lighter when
        only outcomes are needed.
        """
        return list(self.iter_games(tournament_id, below, with_records=with_records))

    def iter_games(
        self, tournament_id: int, below: int | None = None, *, with_records: bool = True
    ) -> Iterator[StoredGame]:
        """Like :meth:`games`, one game at a time."""
        c = games_table.c
        columns = [c.game_index, c.lineup, c.seed, c.outcome, c.decisions, c.seconds]
        if with_records:
            columns.append(c.record)
        query = select(*columns).where(c.tournament_id == tournament_id).order_by(c.game_index)
        if below is not None:
            query = query.where(c.game_index < below)
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                m = row._mapping
                yield StoredGame(
                    index=int(m["game_index"]),
                    lineup=tuple(m["lineup"]),
                    seed=int(m["seed"]),
                    outcome=Outcome.from_json(m["outcome"]),
                    record=dict(m["record"]) if with_records else {},
                    decisions=int(m["decisions"]),
                    seconds=float(m["seconds"]),
                )


def _tournament_row(m: Any) -> TournamentRow:
    return TournamentRow(
        id=int(m["id"]),
        game=str(m["game"]),
        rules_version=str(m["rules_version"]),
        config=dict(m["config"]),
        bots=tuple(m["bots"]),
        players=int(m["players"]),
        seed=int(m["seed"]),
        created=m["created"],
    )


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Set a new SQLite connection up for the stores (WAL, foreign keys)."""
    # WAL with synchronous=NORMAL: a commit survives a crash or Ctrl-C of this process without
    # an fsync per game; foreign keys are off in SQLite unless asked for.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
