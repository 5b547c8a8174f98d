"""The state of a game of Setback: a value object with its own RNG."""

from __future__ import annotations

from typing import Any

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.rng import Rng
from racedeck.games.setback.actions import action_from_json

__all__ = ["BOARD", "HAND", "OVER", "START", "STEP", "WINDOW", "SetbackState"]

START = -1
"""Row (and lane) of a token on the START card."""

BOARD = "board"
"""Phase: the player on turn declares the Board Action of the card under its token."""
HAND = "hand"
"""Phase: the player on turn plays cards from hand (or ends the Hand Action)."""
WINDOW = "window"
"""Phase: a declared action waits for BLOCKs from every player holding one (SB-9)."""
STEP = "step"
"""Phase: a resolving card asks its player for a choice (ALL order, REVAMP placements)."""
OVER = "over"
"""Phase: somebody reached FINISH."""


class SetbackState:
    """Everything needed to continue a game of Setback.

    ``grid[r][l]`` is the card (an index into the game's deck) in row ``r`` (0 = next to START)
    and lane ``l``. A token is at ``(row[p], lane[p])``, or on START when ``row[p] == START``.
    ``stack`` holds the declared action (first, with its :class:`Play`) and the BLOCKs played
    against it during a
    window; ``asked`` the players still to answer. ``context`` describes a card that is
    resolving and waits for a choice. Piles are lists whose top is the last item.
    """

    __slots__ = (
        "asked",
        "context",
        "current",
        "discard",
        "draw",
        "events",
        "grid",
        "hand_played",
        "hands",
        "lane",
        "nonfree_played",
        "pending",
        "phase",
        "players",
        "rng",
        "row",
        "rows_removed",
        "skip_cards",
        "skip_spent",
        "source",
        "stack",
        "winner",
    )

    def __init__(self) -> None:
        self.players: int = 0
        self.grid: list[list[int]] = []
        self.rows_removed: int = 0
        self.row: list[int] = []
        self.lane: list[int] = []
        self.hands: list[list[int]] = []
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.skip_cards: list[list[int]] = []
        self.skip_spent: list[bool] = []
        self.current: int = 0
        self.phase: str = HAND
        self.source: str = ""
        self.hand_played: int = 0
        self.nonfree_played: bool = False
        self.stack: list[dict[str, Any]] = []
        self.asked: list[int] = []
        self.context: dict[str, Any] = {}
        self.winner: int = -1
        self.pending: tuple[int, ...] = ()
        self.events: tuple[Event, ...] = ()
        self.rng: Rng = Rng(0)

    @property
    def is_terminal(self) -> bool:
        """True once somebody reached FINISH."""
        return self.phase == OVER

    @property
    def lanes(self) -> int:
        """Lanes on the board now."""
        return len(self.grid[0]) if self.grid else 0

    @property
    def rows(self) -> int:
        """Rows on the board now (FINISH lies beyond the last)."""
        return len(self.grid)

    def clone(self) -> SetbackState:
        """Return an independent copy."""
        s = SetbackState.__new__(SetbackState)
        s.players = self.players
        s.grid = [r[:] for r in self.grid]
        s.rows_removed = self.rows_removed
        s.row = self.row[:]
        s.lane = self.lane[:]
        s.hands = [h[:] for h in self.hands]
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.skip_cards = [k[:] for k in self.skip_cards]
        s.skip_spent = self.skip_spent[:]
        s.current = self.current
        s.phase = self.phase
        s.source = self.source
        s.hand_played = self.hand_played
        s.nonfree_played = self.nonfree_played
        s.stack = [dict(item) for item in self.stack]
        s.asked = self.asked[:]
        s.context = _copy_context(self.context)
        s.winner = self.winner
        s.pending = self.pending
        s.events = self.events
        s.rng = self.rng.copy()
        return s

    def to_json(self) -> JSONObject:
        """Return the full JSON form."""
        return {
            "players": self.players,
            "grid": [r[:] for r in self.grid],
            "rows_removed": self.rows_removed,
            "row": self.row[:],
            "lane": self.lane[:],
            "hands": [h[:] for h in self.hands],
            "draw": self.draw[:],
            "discard": self.discard[:],
            "skip_cards": [k[:] for k in self.skip_cards],
            "skip_spent": self.skip_spent[:],
            "current": self.current,
            "phase": self.phase,
            "source": self.source,
            "hand_played": self.hand_played,
            "nonfree_played": self.nonfree_played,
            "stack": [_item_to_json(item) for item in self.stack],
            "asked": self.asked[:],
            "context": _copy_context(self.context),
            "winner": self.winner,
            "pending": list(self.pending),
            "events": [e.to_json() for e in self.events],
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SetbackState:
        """Rebuild a state from :meth:`to_json`."""
        s = cls()
        s.players = int(obj["players"])
        s.grid = [[int(c) for c in r] for r in obj["grid"]]
        s.rows_removed = int(obj["rows_removed"])
        s.row = [int(x) for x in obj["row"]]
        s.lane = [int(x) for x in obj["lane"]]
        s.hands = [[int(c) for c in h] for h in obj["hands"]]
        s.draw = [int(c) for c in obj["draw"]]
        s.discard = [int(c) for c in obj["discard"]]
        s.skip_cards = [[int(c) for c in k] for k in obj["skip_cards"]]
        s.skip_spent = [bool(x) for x in obj["skip_spent"]]
        s.current = int(obj["current"])
        s.phase = str(obj["phase"])
        s.source = str(obj["source"])
        s.hand_played = int(obj["hand_played"])
        s.nonfree_played = bool(obj["nonfree_played"])
        s.stack = [_item_from_json(item) for item in obj["stack"]]
        s.asked = [int(x) for x in obj["asked"]]
        s.context = _copy_context(obj["context"])
        s.winner = int(obj["winner"])
        s.pending = tuple(int(p) for p in obj["pending"])
        s.events = tuple(Event.from_json(e) for e in obj["events"])
        s.rng = Rng(int(obj["rng"]))
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SetbackState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        tokens = ["S" if r < 0 else f"{r}/{ln}" for r, ln in zip(self.row, self.lane, strict=True)]
        return (
            f"<SetbackState phase={self.phase} current={self.current} tokens={tokens} "
            f"lanes={self.lanes} rows={self.rows} pending={self.pending}>"
        )


def _item_to_json(item: dict[str, Any]) -> JSONObject:
    """A stack item holds the declared :class:`Play` itself; JSON holds its JSON form."""
    out = dict(item)
    if "play" in out:
        out["play"] = out["play"].to_json()
    return out


def _item_from_json(obj: JSONObject) -> dict[str, Any]:
    item = dict(obj)
    if "play" in item:
        item["play"] = action_from_json(item["play"])
    return item


def _copy_context(ctx: dict[str, Any]) -> dict[str, Any]:
    """Contexts hold ints, strings and lists of ints: copy the lists."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in ctx.items()}
