"""Setback's actions, as players think of them.

A turn is a short conversation: the player *declares* a card with its targets (:class:`Play`),
every player holding a BLOCK may answer (:class:`Block` or :class:`Pass`), and the card then
resolves, asking its player for the few choices only known at that moment (:class:`Step`: the
order and entry lanes of ALL, where REVAMP puts a displaced token, whether to join a new lane).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from racedeck.core.jsontypes import JSONObject
from racedeck.games.setback.cards import CardType, parse_card_type

__all__ = [
    "Block",
    "DiscardBlock",
    "EndHand",
    "Pass",
    "Play",
    "SetbackAction",
    "Step",
    "action_from_json",
    "parse_text",
]


def _p(i: int) -> str:
    return f"P{i + 1}"


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """Declare a card, from hand or (as the Board Action) from under one's token.

    Fields by card: MOVE ``lane`` (entry lane from START, else -1); FOE ``target`` (+ ``lane``
    when the target enters from START); SHIFT ``target`` and ``lane``; TRADE ``target`` and
    ``other``; CUT ``target`` and ``other`` (the token to cut in front of); REVAMP ``mode``
    ``add-left`` / ``add-right`` / ``remove`` with ``lane``; SKIP ``target``. ``-1`` = unused.
    A card played only to be discarded (no legal target, FAQ 4) has every field at -1.
    """

    card: CardType
    target: int = -1
    lane: int = -1
    other: int = -1
    mode: str = ""

    def to_json(self) -> JSONObject:
        """``{"type": "play", "card": "FOE-1*", "target": 2, ...}`` (unused fields left out)."""
        out: JSONObject = {"type": "play", "card": self.card.name}
        for name in ("target", "lane", "other"):
            value = getattr(self, name)
            if value != -1:
                out[name] = value
        if self.mode:
            out["mode"] = self.mode
        return out

    def __str__(self) -> str:
        parts = [self.card.name]
        kind = self.card.kind
        if kind == "CUT" and self.target >= 0:
            parts.append(f"{_p(self.target)} before {_p(self.other)}")
        elif kind == "TRADE" and self.target >= 0:
            parts.append(f"{_p(self.target)}<>{_p(self.other)}")
        elif kind == "REVAMP" and self.mode:
            parts.append(self.mode + (f" lane {self.lane + 1}" if self.mode == "remove" else ""))
        else:
            if self.target >= 0:
                parts.append(_p(self.target))
            if self.lane >= 0:
                parts.append(f"lane {self.lane + 1}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class EndHand:
    """End the Hand Action (after at least one card). Text: ``end``."""

    def to_json(self) -> JSONObject:
        """``{"type": "end"}``."""
        return {"type": "end"}

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class DiscardBlock:
    """SB-3: a hand holding only BLOCK cards discards one as its Hand Action. Text: ``discard``."""

    def to_json(self) -> JSONObject:
        """``{"type": "discard"}``."""
        return {"type": "discard"}

    def __str__(self) -> str:
        return "discard"


@dataclass(frozen=True, slots=True)
class Block:
    """SB-9: play a BLOCK to cancel the action (or BLOCK) on top of the window. Text: ``block``."""

    def to_json(self) -> JSONObject:
        """``{"type": "block"}``."""
        return {"type": "block"}

    def __str__(self) -> str:
        return "block"


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the action in the window stand. Text: ``pass``."""

    def to_json(self) -> JSONObject:
        """``{"type": "pass"}``."""
        return {"type": "pass"}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """A choice while a card resolves: move ``token`` next (into ``lane`` from START) for ALL;
    put the displaced ``token`` in ``lane`` for REVAMP; join the new lane (``lane`` ≥ 0) or not
    (``lane`` = -1) after REVAMP adds one. Text: ``step P2 lane 3``, or ``step P2``."""

    token: int
    lane: int = -1

    def to_json(self) -> JSONObject:
        """``{"type": "step", "token": t, "lane": l}``."""
        return {"type": "step", "token": self.token, "lane": self.lane}

    def __str__(self) -> str:
        lane = f" lane {self.lane + 1}" if self.lane >= 0 else ""
        return f"step {_p(self.token)}{lane}"


SetbackAction: TypeAlias = Play | EndHand | DiscardBlock | Block | Pass | Step


def _int(obj: JSONObject, key: str, default: int = -1) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"action field {key!r} must be an integer, got {value!r}")
    return value


def action_from_json(obj: JSONObject) -> SetbackAction:
    """Parse an action's JSON form; raise :class:`ValueError` naming what is malformed."""
    if not isinstance(obj, dict):
        raise ValueError(f"an action must be a JSON object, got {obj!r}")
    kind = obj.get("type")
    if kind == "play":
        card = obj.get("card")
        if not isinstance(card, str):
            raise ValueError('a play needs its card, e.g. "MOVE+1"')
        mode = obj.get("mode", "")
        if not isinstance(mode, str):
            raise ValueError("mode must be a string")
        return Play(
            parse_card_type(card), _int(obj, "target"), _int(obj, "lane"), _int(obj, "other"), mode
        )
    if kind == "step":
        return Step(_int(obj, "token", 0), _int(obj, "lane"))
    simple: dict[object, SetbackAction] = {
        "end": EndHand(),
        "discard": DiscardBlock(),
        "block": Block(),
        "pass": Pass(),
    }
    if kind in simple:
        return simple[kind]
    raise ValueError(
        f"unknown action type {kind!r}; expected play, step, end, discard, block, pass"
    )


_WORDS: dict[str, SetbackAction] = {
    "end": EndHand(),
    "discard": DiscardBlock(),
    "block": Block(),
    "pass": Pass(),
}
_STEP = re.compile(r"^step p(?P<t>\d+)(?: lane (?P<l>\d+)| stay)?$")


def parse_text(text: str) -> SetbackAction | None:
    """Parse the text forms made by ``str(action)``; ``None`` if not recognised."""
    t = " ".join(text.strip().lower().split())
    if t in _WORDS:
        return _WORDS[t]
    if m := _STEP.match(t):
        return Step(int(m.group("t")) - 1, int(m.group("l")) - 1 if m.group("l") else -1)
    return None
