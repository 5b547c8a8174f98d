"""Actions of *Why First?*: place a card (base game), commit a card and move a figure (tactical)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from racedeck.core.errors import InvalidMessage
from racedeck.core.jsontypes import JSONObject

__all__ = [
    "CommitCard",
    "MoveFigure",
    "PlaceCard",
    "WhyFirstAction",
    "action_from_json",
    "figure_name",
]


def figure_name(figure: int, players: int) -> str:
    """Canonical name of a figure: ``P1``… for seats, ``Leo`` for the imaginary third player."""
    return "Leo" if figure == players else f"P{figure + 1}"


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Base game (WF-4): place a card of ``value`` face down in front of figure ``target``.

    Cards of equal value are interchangeable in the base game, so the action names the value.
    Text form: ``+3>P2``, figures numbered from 1 (Leo is ``P3`` in the two-player game; the
    parser also reads ``+3>Leo``).
    """

    value: int
    target: int

    def to_json(self) -> JSONObject:
        """Return ``{"type": "place", "value": v, "target": t}``."""
        return {"type": "place", "value": self.value, "target": self.target}

    def __str__(self) -> str:
        return f"{self.value:+}>P{self.target + 1}"


@dataclass(frozen=True, slots=True)
class CommitCard:
    """Tactical variant (WF-10): commit the card with white number ``card``, face down.

    Text form: ``#27``.
    """

    card: int

    def to_json(self) -> JSONObject:
        """Return ``{"type": "commit", "card": n}``."""
        return {"type": "commit", "card": self.card}

    def __str__(self) -> str:
        return f"#{self.card}"


@dataclass(frozen=True, slots=True)
class MoveFigure:
    """Tactical variant (WF-10): move figure ``target`` by the value of one's revealed card.

    Text form: ``@P3``.
    """

    target: int

    def to_json(self) -> JSONObject:
        """Return ``{"type": "move", "target": t}``."""
        return {"type": "move", "target": self.target}

    def __str__(self) -> str:
        return f"@P{self.target + 1}"


WhyFirstAction: TypeAlias = PlaceCard | CommitCard | MoveFigure


_FIELDS = {"place": ("value", "target"), "commit": ("card",), "move": ("target",)}


def _int(obj: JSONObject, key: str) -> int:
    value = obj.get(key)
    # ``type(...) is int`` refuses true/false and 2.0, which a record could not replay.
    if type(value) is not int:
        raise InvalidMessage(f"action field {key!r} must be an integer, got {value!r}")
    return value


def action_from_json(obj: JSONObject) -> WhyFirstAction:
    """Parse an action's JSON form; raise :class:`~racedeck.core.errors.InvalidMessage`
    naming what is malformed (not an object, an unknown type, a missing, extra or
    non-integer field)."""
    if not isinstance(obj, dict):
        raise InvalidMessage(f"an action must be a JSON object, got {obj!r}")
    kind = obj.get("type")
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise InvalidMessage(f"unknown action type {kind!r}; expected place, commit or move")
    extra = sorted(str(k) for k in obj if k != "type" and k not in fields)
    if extra:
        raise InvalidMessage(
            f"a {kind} action has the fields {', '.join(fields)}, not {', '.join(extra)}"
        )
    if kind == "place":
        return PlaceCard(_int(obj, "value"), _int(obj, "target"))
    if kind == "commit":
        return CommitCard(_int(obj, "card"))
    return MoveFigure(_int(obj, "target"))


_TARGET = r"(?:p(?P<p>\d)|(?P<leo>leo)|(?P<n>\d))"
_PLACE = re.compile(rf"^(?P<value>[+-]?\d+)\s*(?:>|\s|to\s|@)\s*{_TARGET}$")
_COMMIT = re.compile(r"^#\s*(?P<card>\d+)$")
_MOVE = re.compile(rf"^(?:@|move\s+)\s*{_TARGET}$")


def _target(match: re.Match[str], players: int) -> int:
    if match.group("leo"):
        return players
    number = match.group("p") or match.group("n")
    return int(number) - 1


def parse_text(text: str, players: int) -> WhyFirstAction | None:
    """Parse a text form (``+3>P2``, ``-1 leo``, ``#27``, ``@P3``); ``None`` if not recognised.

    Targets may be written ``P2``, ``2`` (1-based) or ``Leo``; case does not matter.
    """
    t = " ".join(text.strip().lower().split())
    if m := _PLACE.match(t):
        return PlaceCard(int(m.group("value")), _target(m, players))
    if m := _COMMIT.match(t):
        return CommitCard(int(m.group("card")))
    if m := _MOVE.match(t):
        return MoveFigure(_target(m, players))
    return None
