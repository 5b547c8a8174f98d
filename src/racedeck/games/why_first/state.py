"""The state of a game of *Why First?*: a value object with its own RNG."""

from __future__ import annotations

from typing import Any

from racedeck.core.events import Event
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
    """

    __slots__ = (
        "commits",
        "events",
        "hands",
        "last_reveal",
        "leo_cards",
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
        self.events: tuple[Event, ...] = ()
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
        s.stage_history = [row[:] for row in self.stage_history]
        s.hands = [h[:] for h in self.hands]
        s.leo_cards = self.leo_cards[:]
        s.commits = self.commits[:]
        s.move_queue = self.move_queue[:]
        s.last_reveal = self.last_reveal[:]
        s.revealed = self.revealed[:]
        s.pending = self.pending
        s.events = self.events
        s.rng = self.rng.copy()
        s.shared = False
        return s

    def unshare(self) -> None:
        """Give this state its own lists again (before it is changed in place)."""
        self.positions = self.positions[:]
        self.totals = self.totals[:]
        self.stage_history = [row[:] for row in self.stage_history]
        self.hands = [h[:] for h in self.hands]
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
        s.events = self.events
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
            "events": [e.to_json() for e in self.events],
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> WhyFirstState:
        """Rebuild a state from :meth:`to_json`."""
        s = cls()
        s.players = int(obj["players"])
        s.stage = int(obj["stage"])
        s.round = int(obj["round"])
        s.phase = str(obj["phase"])
        s.positions = [int(p) for p in obj["positions"]]
        s.totals = [int(t) for t in obj["totals"]]
        s.stage_history = [[int(x) for x in row] for row in obj["stage_history"]]
        s.hands = [[int(c) for c in h] for h in obj["hands"]]
        s.leo_cards = [int(c) for c in obj["leo_cards"]]
        s.commits = [tuple(c) if isinstance(c, list) else c for c in obj["commits"]]
        s.move_queue = [(int(a), int(b)) for a, b in obj["move_queue"]]
        s.last_reveal = [(int(a), int(b), int(c)) for a, b, c in obj["last_reveal"]]
        s.revealed = [int(c) for c in obj["revealed"]]
        s.pending = tuple(int(p) for p in obj["pending"])
        s.events = tuple(Event.from_json(e) for e in obj["events"])
        s.rng = Rng(int(obj["rng"]))
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
