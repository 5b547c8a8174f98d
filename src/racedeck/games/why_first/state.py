"""The state of a game of *Why First?*: a value object with its own RNG."""

from __future__ import annotations

from typing import Any

from racedeck.core.jsontypes import JSONObject
from racedeck.core.rng import Rng

__all__ = ["COMMIT", "MOVE", "OVER", "WhyFirstState"]

COMMIT = "commit"
"""Phase: seats secretly commit a card (and, in the base game, a target)."""
MOVE = "move"
"""Phase (tactical variant): revealed cards move figures one at a time, by white number."""
OVER = "over"
"""Phase: the game has ended."""


class WhyFirstState:
    """Everything needed to continue a game, including secrets and the RNG state.

    Figures are indexed like seats; in the two-player game Leo's figure has index ``players``.
    ``commits[seat]`` holds ``(card, target)`` in the base game and ``card`` in the tactical
    variant; ``move_queue`` holds the revealed ``(card, owner)`` pairs still to move, highest
    white number first (WF-10). ``revealed`` lists every card revealed so far this stage, in
    the order revealed (Leo's included): public, and out of every hand until the next deal.
    ``move`` counts the actions accepted so far. A state holds no events: a transition returns
    them (:meth:`WhyFirst.step`).
    """

    __slots__ = (
        "commits",
        "hands",
        "last_reveal",
        "leo_cards",
        "move",
        "move_queue",
        "pending",
        "phase",
        "players",
        "positions",
        "revealed",
        "rng",
        "round",
        "shared",
        "stage",
        "stage_history",
        "totals",
    )

    def __init__(self) -> None:
        self.players: int = 0
        self.stage: int = 0
        self.round: int = 0
        self.phase: str = COMMIT
        self.positions: list[int] = []
        self.totals: list[int] = []
        self.stage_history: list[list[int]] = []
        self.hands: list[list[int]] = []
        self.leo_cards: list[int] = []
        self.commits: list[Any] = []
        self.move_queue: list[tuple[int, int]] = []
        self.last_reveal: list[tuple[int, int, int]] = []
        self.revealed: list[int] = []
        self.pending: tuple[int, ...] = ()
        self.move: int = 0
        self.rng: Rng = Rng(0)
        self.shared: bool = False

    @property
    def is_terminal(self) -> bool:
        """True once the last stage has been scored."""
        return self.phase == OVER

    @property
    def has_leo(self) -> bool:
        """True in the two-player game (WF-9)."""
        return len(self.positions) > self.players

    def clone(self) -> WhyFirstState:
        """Return an independent copy."""
        s = WhyFirstState.__new__(WhyFirstState)
        s.players = self.players
        s.stage = self.stage
        s.round = self.round
        s.phase = self.phase
        s.positions = self.positions[:]
        s.totals = self.totals[:]
        # Nested lists copied by map(list.copy): no Python loop, as a comprehension has.
        s.stage_history = list(map(list.copy, self.stage_history))
        s.hands = list(map(list.copy, self.hands))
        s.leo_cards = self.leo_cards[:]
        s.commits = self.commits[:]
        s.move_queue = self.move_queue[:]
        s.last_reveal = self.last_reveal[:]
        s.revealed = self.revealed[:]
        s.pending = self.pending
        s.move = self.move
        s.rng = self.rng.copy()
        s.shared = False
        return s

    def unshare(self) -> None:
        """Give this state its own lists again (before it is changed in place)."""
        self.positions = self.positions[:]
        self.totals = self.totals[:]
        self.stage_history = list(map(list.copy, self.stage_history))
        self.hands = list(map(list.copy, self.hands))
        self.leo_cards = self.leo_cards[:]
        self.commits = self.commits[:]
        self.move_queue = self.move_queue[:]
        self.last_reveal = self.last_reveal[:]
        self.revealed = self.revealed[:]
        self.rng = self.rng.copy()
        self.shared = False

    def copy_for_commit(self) -> WhyFirstState:
        """A copy that shares every list but ``commits`` (for a commit that resolves nothing).

        Both states are marked ``shared``; the fast path unshares a shared state before it
        changes it in place, so neither can alter the other.
        """
        self.shared = True
        s = WhyFirstState.__new__(WhyFirstState)
        s.players = self.players
        s.stage = self.stage
        s.round = self.round
        s.phase = self.phase
        s.positions = self.positions
        s.totals = self.totals
        s.stage_history = self.stage_history
        s.hands = self.hands
        s.leo_cards = self.leo_cards
        s.commits = self.commits[:]
        s.move_queue = self.move_queue
        s.last_reveal = self.last_reveal
        s.revealed = self.revealed
        s.pending = self.pending
        s.move = self.move
        s.rng = self.rng  # not advanced by a commit that resolves nothing
        s.shared = True
        return s

    def to_json(self) -> JSONObject:
        """Return the full JSON form (see ``docs/json.md``)."""
        return {
            "players": self.players,
            "stage": self.stage,
            "round": self.round,
            "phase": self.phase,
            "positions": self.positions[:],
            "totals": self.totals[:],
            "stage_history": [row[:] for row in self.stage_history],
            "hands": [h[:] for h in self.hands],
            "leo_cards": self.leo_cards[:],
            "commits": [list(c) if isinstance(c, tuple) else c for c in self.commits],
            "move_queue": [list(m) for m in self.move_queue],
            "last_reveal": [list(r) for r in self.last_reveal],
            "revealed": self.revealed[:],
            "pending": list(self.pending),
            "move": self.move,
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> WhyFirstState:
        """Rebuild a state from :meth:`to_json`; raise :class:`ValueError` naming what is wrong
        when ``obj`` is not such a form (a missing key, a wrong type)."""
        if not isinstance(obj, dict):
            raise ValueError(f"a Why First? state must be a JSON object, got {type(obj).__name__}")
        missing = [k for k in _KEYS if k not in obj]
        if missing:
            raise ValueError(f"not a Why First? state: missing {', '.join(missing)}")
        unknown = sorted(set(obj) - set(_KEYS))
        if unknown:
            raise ValueError(f"not a Why First? state: unknown key(s) {', '.join(unknown)}")
        s = cls()
        s.players = _int(obj, "players")
        s.stage = _int(obj, "stage")
        s.round = _int(obj, "round")
        s.phase = obj["phase"]
        if s.phase not in (COMMIT, MOVE, OVER):
            raise ValueError(f"not a Why First? state: unknown phase {s.phase!r}")
        s.positions = _ints(obj, "positions")
        s.totals = _ints(obj, "totals")
        s.stage_history = [_ints({"row": row}, "row") for row in _list(obj, "stage_history")]
        s.hands = [_ints({"hand": h}, "hand") for h in _list(obj, "hands")]
        s.leo_cards = _ints(obj, "leo_cards")
        s.commits = [_commit(c) for c in _list(obj, "commits")]
        pairs = [_pair(m, 2, "move_queue") for m in _list(obj, "move_queue")]
        s.move_queue = [(m[0], m[1]) for m in pairs]
        triples = [_pair(r, 3, "last_reveal") for r in _list(obj, "last_reveal")]
        s.last_reveal = [(r[0], r[1], r[2]) for r in triples]
        s.revealed = _ints(obj, "revealed")
        s.pending = tuple(_ints(obj, "pending"))
        s.move = _int(obj, "move")
        s.rng = Rng(_int(obj, "rng"))
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WhyFirstState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<WhyFirstState stage={self.stage + 1} round={self.round + 1} phase={self.phase} "
            f"positions={self.positions} totals={self.totals} pending={self.pending}>"
        )


_KEYS = (
    "players",
    "stage",
    "round",
    "phase",
    "positions",
    "totals",
    "stage_history",
    "hands",
    "leo_cards",
    "commits",
    "move_queue",
    "last_reveal",
    "revealed",
    "pending",
    "move",
    "rng",
)


def _int(obj: JSONObject, key: str) -> int:
    value = obj[key]
    if type(value) is not int:
        raise ValueError(f"not a Why First? state: {key} must be an integer, got {value!r}")
    return value


def _list(obj: JSONObject, key: str) -> list[Any]:
    value = obj[key]
    if not isinstance(value, list):
        raise ValueError(f"not a Why First? state: {key} must be a list, got {value!r}")
    return value


def _ints(obj: JSONObject, key: str) -> list[int]:
    items = _list(obj, key)
    if any(type(x) is not int for x in items):
        raise ValueError(f"not a Why First? state: {key} must hold integers, got {items!r}")
    return list(items)


def _pair(value: Any, size: int, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size or any(type(x) is not int for x in value):
        raise ValueError(
            f"not a Why First? state: every item of {key} must be {size} integers, got {value!r}"
        )
    return tuple(value)


def _commit(value: Any) -> Any:
    """``null``, a card (tactical) or ``[card, target]`` (base game)."""
    if value is None or type(value) is int:
        return value
    return _pair(value, 2, "commits")
