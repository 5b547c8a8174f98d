"""The state of a game of Setback: a value object with its own RNG."""

from __future__ import annotations

from typing import Any

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
"""Phase: a declared action waits for an answer (BLOCK or pass) from every player who could
BLOCK it under ``self_block``, holding a BLOCK or not (SB-9 amended); the answers are
simultaneous and concealed until the last is in (SB-9 amended again)."""
STEP = "step"
"""Phase: a resolving card asks its player for a choice (ALL order, REVAMP placements)."""
OVER = "over"
"""Phase: somebody reached FINISH, or the game reached its ``max_moves``."""


class SetbackState:
    """Everything needed to continue a game of Setback.

    ``grid[r][l]`` is the card (an index into the game's deck) in row ``r`` (0 = next to START)
    and lane ``l``. A token is at ``(row[p], lane[p])``, or on START when ``row[p] == START``.
    ``stack`` holds the declared action (first, with its :class:`Play`) and the BLOCKs played
    against it during a window; ``asked`` the players still to answer, and ``blockers`` those of
    the others who answered BLOCK (SB-9 amended again: answers are concealed, so a BLOCK answered
    stays in its owner's hand until the last answer is in; seat numbers ascending, so the state
    does not depend on the order the answers came in). ``context`` describes a
    card that is resolving and waits for a choice. Piles are lists whose top is the last item.
    ``move`` counts the accepted actions (the move number). States hold no events: a checked
    transition returns them.
    """

    __slots__ = (
        "asked",
        "blockers",
        "context",
        "current",
        "discard",
        "draw",
        "grid",
        "hand_played",
        "hands",
        "lane",
        "move",
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
        self.blockers: list[int] = []
        self.context: dict[str, Any] = {}
        self.winner: int = -1
        self.pending: tuple[int, ...] = ()
        self.move: int = 0
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
        # Nested lists copied by map(list.copy): no Python loop, as a comprehension has.
        s.grid = list(map(list.copy, self.grid))
        s.rows_removed = self.rows_removed
        s.row = self.row[:]
        s.lane = self.lane[:]
        s.hands = list(map(list.copy, self.hands))
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.skip_cards = list(map(list.copy, self.skip_cards))
        s.skip_spent = self.skip_spent[:]
        s.current = self.current
        s.phase = self.phase
        s.source = self.source
        s.hand_played = self.hand_played
        s.nonfree_played = self.nonfree_played
        s.stack = [dict(item) for item in self.stack]
        s.asked = self.asked[:]
        s.blockers = self.blockers[:]
        s.context = _copy_context(self.context)
        s.winner = self.winner
        s.pending = self.pending
        s.move = self.move
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
            "blockers": self.blockers[:],
            "context": _copy_context(self.context),
            "winner": self.winner,
            "pending": list(self.pending),
            "move": self.move,
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SetbackState:
        """Rebuild a state from :meth:`to_json`.

        Raises :class:`ValueError` naming the field when ``obj`` is not such a form (states
        may come from files): a missing key, a value of the wrong type, lists that do not fit
        the number of players.
        """
        if not isinstance(obj, dict):
            raise ValueError(f"a Setback state must be a JSON object, got {type(obj).__name__}")
        try:
            s = cls()
            s.players = _int(obj, "players")
            n = s.players
            s.grid = _int_lists(obj, "grid")
            s.rows_removed = _int(obj, "rows_removed")
            s.row = _ints(obj, "row", n)
            s.lane = _ints(obj, "lane", n)
            s.hands = _int_lists(obj, "hands", n)
            s.draw = _ints(obj, "draw")
            s.discard = _ints(obj, "discard")
            s.skip_cards = _int_lists(obj, "skip_cards", n)
            s.skip_spent = _bools(obj, "skip_spent", n)
            s.current = _int(obj, "current")
            s.phase = _str(obj, "phase")
            if s.phase not in PHASES:
                raise ValueError(f"field 'phase' must be one of {', '.join(PHASES)}")
            s.source = _str(obj, "source")
            s.hand_played = _int(obj, "hand_played")
            s.nonfree_played = _bool(obj, "nonfree_played")
            stack = obj["stack"]
            if not isinstance(stack, list) or not all(isinstance(i, dict) for i in stack):
                raise ValueError("field 'stack' must be a list of objects")
            s.stack = [_item_from_json(item) for item in stack]
            s.asked = _ints(obj, "asked")
            s.blockers = _ints(obj, "blockers")
            context = obj["context"]
            if not isinstance(context, dict):
                raise ValueError("field 'context' must be an object")
            s.context = _copy_context(context)
            s.winner = _int(obj, "winner")
            s.pending = tuple(_ints(obj, "pending"))
            s.move = _int(obj, "move")
            s.rng = Rng(_int(obj, "rng"))
        except KeyError as exc:
            raise ValueError(f"not a Setback state: field {exc.args[0]!r} is missing") from None
        except ValueError as exc:
            raise ValueError(f"not a Setback state: {exc}") from None
        seats = range(n)
        if not 0 <= s.current < n or any(
            q not in seats for q in (*s.pending, *s.asked, *s.blockers)
        ):
            raise ValueError("not a Setback state: a seat number is out of range")
        if s.blockers != sorted(set(s.blockers)) or not set(s.blockers).isdisjoint(s.asked):
            raise ValueError(
                "not a Setback state: 'blockers' must be ascending seats that are no longer asked"
            )
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


PHASES = (BOARD, HAND, WINDOW, STEP, OVER)
"""Every phase, for checking states read from JSON."""


def _int(obj: JSONObject, key: str) -> int:
    value = obj[key]
    if type(value) is not int:
        raise ValueError(f"field {key!r} must be an integer, got {value!r}")
    return value


def _bool(obj: JSONObject, key: str) -> bool:
    value = obj[key]
    if type(value) is not bool:
        raise ValueError(f"field {key!r} must be true or false, got {value!r}")
    return value


def _str(obj: JSONObject, key: str) -> str:
    value = obj[key]
    if type(value) is not str:
        raise ValueError(f"field {key!r} must be text, got {value!r}")
    return value


def _ints(obj: JSONObject, key: str, length: int | None = None) -> list[int]:
    value = obj[key]
    if not isinstance(value, list) or any(type(x) is not int for x in value):
        raise ValueError(f"field {key!r} must be a list of integers")
    if length is not None and len(value) != length:
        raise ValueError(f"field {key!r} must hold {length} items, one per player")
    return list(value)


def _bools(obj: JSONObject, key: str, length: int) -> list[bool]:
    value = obj[key]
    if not isinstance(value, list) or any(type(x) is not bool for x in value):
        raise ValueError(f"field {key!r} must be a list of true/false")
    if len(value) != length:
        raise ValueError(f"field {key!r} must hold {length} items, one per player")
    return list(value)


def _int_lists(obj: JSONObject, key: str, length: int | None = None) -> list[list[int]]:
    value = obj[key]
    if not isinstance(value, list) or any(
        not isinstance(r, list) or any(type(x) is not int for x in r) for r in value
    ):
        raise ValueError(f"field {key!r} must be a list of lists of integers")
    if length is not None and len(value) != length:
        raise ValueError(f"field {key!r} must hold {length} items, one per player")
    return [list(r) for r in value]


def _item_from_json(obj: JSONObject) -> dict[str, Any]:
    item = dict(obj)
    if "play" in item:
        item["play"] = action_from_json(item["play"])
    return item


def _copy_context(ctx: dict[str, Any]) -> dict[str, Any]:
    """Contexts hold ints, strings and lists of ints: copy the lists."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in ctx.items()}
