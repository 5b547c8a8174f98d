"""Saving and loading game records as JSON files."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime
from pathlib import Path

from racedeck.core.errors import InvalidRecord
from racedeck.core.record import GameRecord

__all__ = ["default_record_path", "load_record", "save_record"]


def default_record_path(game_id: str, seed: int, directory: Path = Path("records")) -> Path:
    """``records/<game>-<timestamp>-seed<seed>.json``."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return directory / f"{game_id}-{stamp}-seed{seed}.json"


def save_record(record: GameRecord, path: Path) -> Path:
    """Write ``record`` atomically (a crash never leaves half a file) and return the path.

    Raises :class:`ValueError` when ``path`` names something that is not a file (a folder, or
    a device such as ``/dev/null``, which the atomic rename would otherwise replace).
    """
    if path.exists() and not path.is_file():
        raise ValueError(f"{path} is not a file; records are saved to files")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(record.to_json(), fh, indent=1)
        fh.write("\n")
    os.replace(tmp, path)
    return path


def load_record(path: Path) -> GameRecord:
    """Read a record file; raise :class:`~racedeck.core.errors.InvalidRecord` when it does
    not hold a well-formed record."""
    try:
        text = path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise InvalidRecord("this is a folder, not a record file") from None
    except UnicodeDecodeError as exc:
        raise InvalidRecord(f"the file is not JSON: {exc.reason}") from None
    except OSError as exc:
        raise InvalidRecord(f"cannot read the file: {exc.strerror or 'unknown error'}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRecord(f"the file is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise InvalidRecord("the file does not hold a game record (a JSON object)")
    return GameRecord.from_json(obj)
