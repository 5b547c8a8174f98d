"""What a person may type at Setback's prompts, and which legal actions a typed text names.

Besides a list number, a choice may be typed as text, loosely: ``MOVE+1``, ``move +1 lane 2``,
``trade p2 p3``, ``cut bot 2 before you``, ``shift p3 to lane 1``, ``revamp add left``,
``step p2``. Players are named by their board label (``P2``), by their name at the table
(``Bot 2``, the person's own ``--name``) or as ``you``/``me``; lanes as ``lane 2`` or ``L2``.
A part that only one choice fits may be left out: ``MOVE+1`` alone when the token can enter
one lane only, ``SKIP`` when only one player can be skipped. Text that fits several choices is
not guessed at: the prompt lists them by number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
)
from racedeck.games.setback.cards import ACTION_KINDS, MOVEMENT_KINDS

__all__ = ["Typed", "matches", "read_typed"]

_KINDS = frozenset(MOVEMENT_KINDS) | frozenset(ACTION_KINDS)
_WORDS = {
    "end": "end",
    "e": "end",
    "discard": "discard",
    "pass": "pass",
    "step": "step",
}
_MODES = {"left": "add-left", "right": "add-right", "remove": "remove"}
_FILLER = frozenset(
    {"add", "lane", "l", "to", "into", "enter", "in", "on", "before", "front", "of", "and", "a"}
)
_TOKEN = re.compile(r"[a-z]+|[+-]\d+|\d+|\*")


@dataclass
class Typed:
    """What a typed answer names; a part left out is ``None`` (or empty)."""

    kind: str | None = None
    """A card kind (``MOVE``, ``CUT``…), or ``BLOCK`` for the window's answer."""
    amount: int | None = None
    """The card's amount (``+1``), when typed."""
    free: bool = False
    """A ``*`` was typed: only the FREE card of that kind."""
    players: list[int] = field(default_factory=list)
    """Seats named, in the order typed."""
    lane: int | None = None
    """A lane (0-based)."""
    mode: str | None = None
    """REVAMP's ``add-left`` / ``add-right`` / ``remove``."""
    word: str | None = None
    """``end``, ``discard``, ``pass`` or ``step``."""
    stay: bool | None = None
    """``stay`` (True) or ``join`` (False) after REVAMP adds a lane."""

    @property
    def empty(self) -> bool:
        """True when nothing was named."""
        return self == Typed()


def _name_pattern(name: str) -> str:
    words = name.lower().split()
    return r"(?<![a-z0-9])" + r"\s*".join(re.escape(w) for w in words) + r"(?![a-z0-9])"


def read_typed(text: str, names: Sequence[str], me: int) -> Typed | str:
    """Read ``text`` into its parts, or return the word that could not be read.

    ``names`` are the players' names at the table (matched whole, case and spaces ignored);
    ``me`` is the seat of the person typing (``you``/``me``).
    """
    lowered = text.lower().replace("−", "-").replace("–", "-").replace("⇄", " ")
    # Names first, longest first, so ``Bot 2`` is one player and not the word "bot" and a 2.
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        if names[seat].strip():
            lowered = re.sub(_name_pattern(names[seat]), f" p{seat + 1} ", lowered)
    tokens: list[str] = _TOKEN.findall(lowered)
    typed = Typed()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in ("p", "player") and following.isdigit():
            typed.players.append(int(following) - 1)
            i += 2
            continue
        if token in ("lane", "l", "remove") and following.isdigit():
            typed.lane = int(following) - 1
            if token == "remove":
                typed.mode = "remove"
            i += 2
            continue
        if token.upper() in _KINDS:
            typed.kind = token.upper()
            if typed.kind in MOVEMENT_KINDS and re.fullmatch(r"[+-]\d+", following):
                typed.amount = int(following)
                i += 1
        elif re.fullmatch(r"[+-]\d+", token):
            typed.amount = int(token)
        elif token in ("b", "block"):
            typed.kind = "BLOCK"
        elif token in ("p",):
            typed.word = "pass"
        elif token == "*" or token == "free":
            typed.free = True
        elif token in ("you", "me", "myself", "yourself"):
            typed.players.append(me)
        elif token in _WORDS:
            typed.word = _WORDS[token]
        elif token in _MODES:
            typed.mode = _MODES[token]
        elif token in ("stay", "no"):
            typed.stay = True
        elif token in ("join", "yes", "go"):
            typed.stay = False
        elif token not in _FILLER:
            return token
        i += 1
    return typed


def matches(typed: Typed, action: SetbackAction, me: int) -> bool:
    """True when ``action`` fits everything ``typed`` names (parts left out fit anything)."""
    if isinstance(action, Play):
        return _fits_play(typed, action, me)
    if isinstance(action, Step):
        return (
            typed.kind is None
            and typed.amount is None
            and typed.mode is None
            and typed.word in (None, "step")
            and typed.players in ([], [action.token])
            and typed.lane in (None, action.lane)
            and (typed.stay is None or typed.stay == (action.lane < 0))
            and not typed.free
        )
    word = {EndHand: "end", DiscardBlock: "discard", Pass: "pass"}.get(type(action))
    if isinstance(action, Block):
        return typed == Typed(kind="BLOCK")
    return word is not None and typed == Typed(word=word)


def _fits_play(typed: Typed, play: Play, me: int) -> bool:
    card = play.card
    if typed.word is not None or typed.stay is not None:
        return False
    if typed.kind is not None and typed.kind != card.kind:
        return False
    if typed.amount is not None and typed.amount != card.amount:
        return False
    if typed.free and not card.free:
        return False
    if typed.lane is not None and typed.lane != play.lane:
        return False
    if typed.mode is not None and typed.mode != play.mode:
        return False
    given = typed.players
    if card.kind == "TRADE":  # a swap: either order names the same pair
        pair = [play.target, play.other]
        return len(given) <= 2 and len(set(given)) == len(given) and set(given) <= set(pair)
    if card.kind == "CUT":
        return given == [play.target, play.other][: len(given)]
    if card.kind == "MOVE":  # it moves oneself: "move me" is allowed
        return given in ([], [me])
    return given in ([], [play.target]) and (not given or play.target >= 0)
