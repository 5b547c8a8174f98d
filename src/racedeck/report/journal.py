"""``games.jsonl``: the measures of every finished game, appended as it arrives.

One line per game: ``{"batch": key, "game": index, "params": {...}, "measures": {...}}``. An
interrupted run keeps what finished; a later run of the same command reads the lines whose
batch parameters are unchanged and plays only the games still missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from racedeck.core.jsontypes import JSONObject
from racedeck.report.measures import GameMeasures

__all__ = ["Journal", "load_journal"]

FILE_NAME = "games.jsonl"


def load_journal(
    path: Path, params: dict[str, JSONObject]
) -> tuple[dict[str, dict[int, GameMeasures]], int]:
    """Saved games by batch key and game index, for the batches whose ``params`` match.

    Returns the games and how many lines were ignored (other parameters, or a line cut short
    when a run was killed while writing it).
    """
    found: dict[str, dict[int, GameMeasures]] = {key: {} for key in params}
    ignored = 0
    if not path.exists():
        return found, 0
    with path.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                key = obj["batch"]
                if key not in params or obj["params"] != params[key]:
                    ignored += 1
                    continue
                found[key][int(obj["game"])] = GameMeasures.from_json(obj["measures"])
            except (ValueError, KeyError, TypeError):
                ignored += 1
    return found, ignored


class Journal:
    """Appends finished games to ``games.jsonl``, flushed line by line so Ctrl-C loses none."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None
        self.written = 0

    def __enter__(self) -> Journal:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut_short = False
        if self.path.exists() and self.path.stat().st_size > 0:
            with self.path.open("rb") as f:
                f.seek(-1, 2)
                cut_short = f.read(1) != b"\n"
        self._file = self.path.open("a", encoding="utf-8")
        if cut_short:
            self._file.write("\n")  # a line cut short by a killed run stays on its own
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def append(self, key: str, index: int, params: JSONObject, measures: GameMeasures) -> None:
        """Write one finished game."""
        assert self._file is not None, "use the journal as a context manager"
        line = {"batch": key, "game": index, "params": params, "measures": measures.to_json()}
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()
        self.written += 1
