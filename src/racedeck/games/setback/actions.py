"""Setback's actions, as players think of them.

A turn is a short conversation: the player *declares* a card with its targets (:class:`Play`),
every player holding a BLOCK may answer (:class:`Block` or :class:`Pass`), and the card then
resolves, asking its player for the few choices only known at that moment (:class:`Step`: the
order and entry lanes of ALL, where REVAMP puts a displaced token, whether to join a new lane).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from racedeck.core.errors import InvalidMessage
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
    "is_well_formed",
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
    """SB-9: answer a window with a BLOCK, to cancel the action (or BLOCK) on top of it. The
    answer is concealed like any other; the BLOCK is played when the window's last answer is
    in, unless another BLOCKer comes first in seating order (SB-9 amended again). Text:
    ``block``."""

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


_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "card", "target", "lane", "other", "mode"}),
    "step": frozenset({"type", "token", "lane"}),
}
_MODES = ("", "add-left", "add-right", "remove")
"""REVAMP's modes (SB-6); other cards have none."""


def _int(obj: Mapping[str, object], key: str, default: int = -1) -> int:
    value = obj.get(key, default)
    # ``type(...) is`` on purpose: True or 0.0 compare equal to 1 and 0 but would be written
    # into the record as they came and fail to replay.
    if type(value) is not int:
        raise InvalidMessage(f"action field {key!r} must be an integer, got {value!r}")
    return value


def action_from_json(obj: object) -> SetbackAction:
    """Parse an action's JSON form; raise :class:`~racedeck.core.errors.InvalidMessage` (a
    :class:`ValueError`) naming what is malformed."""
    if not isinstance(obj, Mapping):  # a dict, or the read-only form inside an event or view
        raise InvalidMessage(f"an action must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    allowed = _FIELDS.get(kind, frozenset({"type"})) if isinstance(kind, str) else None
    if allowed is not None and not allowed.issuperset(obj):
        extra = sorted(str(k) for k in obj if k not in allowed)
        raise InvalidMessage(f"a {kind!r} action has no field(s) {', '.join(extra)}")
    if kind == "play":
        card = obj.get("card")
        if not isinstance(card, str):
            raise InvalidMessage('a play needs its card as text, e.g. "MOVE+1"')
        mode = obj.get("mode", "")
        if type(mode) is not str or mode not in _MODES:
            raise InvalidMessage(f"mode must be one of add-left, add-right, remove; got {mode!r}")
        try:
            card_type = parse_card_type(card)
        except ValueError as exc:
            raise InvalidMessage(str(exc)) from None
        return Play(card_type, _int(obj, "target"), _int(obj, "lane"), _int(obj, "other"), mode)
    if kind == "step":
        return Step(_int(obj, "token", 0), _int(obj, "lane"))
    simple: dict[object, SetbackAction] = {
        "end": EndHand(),
        "discard": DiscardBlock(),
        "block": Block(),
        "pass": Pass(),
    }
    if isinstance(kind, str) and kind in simple:
        return simple[kind]
    raise InvalidMessage(
        f"unknown action type {kind!r}; expected play, step, end, discard, block, pass"
    )


def is_well_formed(action: object) -> bool:
    """True when ``action`` is a Setback action whose fields have their exact types.

    Actions compare with ``==``, so ``Play(card, lane=0.0)`` or ``lane=False`` would equal a
    legal play; the checked path refuses them with this test, before comparing.
    """
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        return (
            type(action.card) is CardType
            and type(action.card.kind) is str
            and type(action.card.amount) is int
            and type(action.card.free) is bool
            and type(action.target) is int
            and type(action.lane) is int
            and type(action.other) is int
            and type(action.mode) is str
        )
    if kind is Step:
        assert isinstance(action, Step)
        return type(action.token) is int and type(action.lane) is int
    return kind in (EndHand, DiscardBlock, Block, Pass)


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
