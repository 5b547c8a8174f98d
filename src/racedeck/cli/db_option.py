"""The ``--db`` option of ``tournament`` and ``serve``: refuse a file in a missing folder.

A mistyped folder would otherwise be created without a word and the games stored where nobody
looks. Only the service's default folder (``data/``) is made when missing.
"""

from __future__ import annotations

from pathlib import Path

from racedeck.cli.console import fail
from racedeck.store.locations import DEFAULT_TABLES_DB, sqlite_folder

__all__ = ["check_db_folder"]

_MADE_WHEN_MISSING = Path(DEFAULT_TABLES_DB).parent
"""The one folder the program creates itself: where ``racedeck serve`` keeps its tables."""


def check_db_folder(db: str) -> None:
    """Stop with one line when ``db`` names a SQLite file in a folder that does not exist
    (other than ``data/`` in the current folder)."""
    folder = sqlite_folder(db)
    if folder is None or folder.is_dir():
        return
    if folder.resolve() == _MADE_WHEN_MISSING.resolve():
        return
    if folder.exists():
        raise fail(f"--db {db}: {folder} is not a folder; choose another --db")
    raise fail(f"--db {db}: folder {folder} does not exist; create it or choose another --db")
