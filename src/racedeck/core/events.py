"""Events: what happened in a resolution, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from racedeck.core.jsontypes import JSONObject

__all__ = ["Event"]


@dataclass(slots=True)
class Event:
    """One fact about a resolution: a card revealed, a figure moved (clamped?), a stage scored.

    ``kind`` is a stable identifier (``"figure_moved"``); ``data`` holds JSON-ready details that
    UIs animate and narrate (each game has a ``describe`` function for the words).
    Treat events as read-only values; the class is not frozen only because frozen dataclasses
    are several times slower to create, and the checked path creates many.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        """Return the JSON form ``{"kind": ..., **data}``."""
        return {"kind": self.kind, **self.data}

    @classmethod
    def from_json(cls, obj: JSONObject) -> Event:
        """Parse the JSON form made by :meth:`to_json`."""
        data = dict(obj)
        kind = data.pop("kind")
        if not isinstance(kind, str):
            raise ValueError(f"event kind must be a string, got {kind!r}")
        return cls(kind, data)
