"""Persistence: tournaments and their games in SQL (SQLite by default, any SQLAlchemy URL)."""

from racedeck.store.tournaments import (
    DEFAULT_DB,
    StoredGame,
    TournamentRow,
    TournamentStore,
    database_url,
)

__all__ = ["DEFAULT_DB", "StoredGame", "TournamentRow", "TournamentStore", "database_url"]
