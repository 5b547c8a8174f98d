"""The one action of *Six Day Race*: play a card from the moving rider's hand."""

from __future__ import annotations

import re
from dataclasses import dataclass

from racedeck.core.errors import InvalidMessage
from racedeck.core.jsontypes import JSONObject

__all__ = ["PlayCard", "action_from_json", "parse_text"]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card of ``value`` for the rider whose turn it is (SD-4). Text form: ``3``."""

    value: int

    def to_json(self) -> JSONObject:
        """Return ``{"type": "play", "value": v}``."""
        return {"type": "play", "value": self.value}

    def __str__(self) -> str:
        return str(self.value)


def action_from_json(obj: JSONObject) -> PlayCard:
    """Parse an action's JSON form; raise :class:`InvalidMessage` (``message/invalid``, a
    :class:`ValueError`) naming what is malformed. ``true`` and ``3.0`` are not card values."""
    if not isinstance(obj, dict):
        raise InvalidMessage(f"an action must be a JSON object, got {type(obj).__name__}")
    if obj.get("type") != "play":
        raise InvalidMessage(f"unknown action type {obj.get('type')!r}; expected 'play'")
    extra = sorted(str(k) for k in obj if k not in ("type", "value"))
    if extra:
        raise InvalidMessage(f"unknown action field(s) {', '.join(extra)}; a play has 'value'")
    value = obj.get("value")
    if type(value) is not int:
        raise InvalidMessage(f"action field 'value' must be an integer, got {value!r}")
    return PlayCard(value)


_TEXT = re.compile(r"^(?:play\s+)?\+?(?P<value>\d+)$")


def parse_text(text: str) -> PlayCard | None:
    """Parse ``3``, ``+3`` or ``play 3``; ``None`` if not recognised."""
    m = _TEXT.match(" ".join(text.strip().lower().split()))
    return PlayCard(int(m.group("value"))) if m else None
