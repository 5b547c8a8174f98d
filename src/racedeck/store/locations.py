"""Where the databases live by default, and the folder a database path would need.

Kept apart from the stores so that naming a database (a command's default, a check before
opening) does not load SQLAlchemy.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_DB", "DEFAULT_TABLES_DB", "database_url", "sqlite_folder"]

DEFAULT_DB = "racedeck-tournaments.sqlite"
"""The SQLite file of tournaments when no database is named (in the current directory)."""

DEFAULT_TABLES_DB = "data/racedeck.sqlite"
"""The SQLite file the service uses when no database is named (relative to the current folder)."""

_SQLITE_FILE_URL = "sqlite:///"


_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""PostgreSQL URLs without a driver: they get psycopg 3 (``postgresql+psycopg://``), the
driver racedeck installs, where SQLAlchemy would look for psycopg2."""


def database_url(target: str | Path) -> str:
    """The SQLAlchemy URL for ``target``: a URL as it is (``postgresql://`` with psycopg 3 as
    its driver), a file path as a SQLite URL."""
    text = str(target)
    for scheme in _POSTGRES_SCHEMES:
        if text.startswith(scheme):
            return "postgresql+psycopg://" + text[len(scheme) :]
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def sqlite_folder(target: str | Path) -> Path | None:
    """The folder that holds the SQLite file ``target`` names (a path or a ``sqlite:///``
    URL); ``None`` for an in-memory database or any other kind of URL."""
    text = str(target)
    if "://" in text:
        if not text.startswith(_SQLITE_FILE_URL):
            return None
        text = text[len(_SQLITE_FILE_URL) :].partition("?")[0]
    if text in ("", ":memory:"):
        return None
    return Path(text).expanduser().parent
