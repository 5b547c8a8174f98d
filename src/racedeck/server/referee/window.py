"""A concealed simultaneous decision at a live table: the Setback BLOCK window (SB-9).

SB-9 (amended again): every asked seat answers at once, and nothing about the answers — how
many are in, whose, in what order or when — shows to anyone, as content, move number or timing,
before the window closes. A :class:`Window` is the referee's ballot box for one such decision.
An answer is checked when it comes (an error goes back at once: it depends on the sender's own
view only) and *sealed*: kept out of the game, out of every frame and out of the move number.
The window closes when every asked seat has answered and its minimum time has passed, or when
its own clock runs out (the seats still asked then pass, as ``timeout_action`` says). Then the
sealed answers go into the game together, in seat order, each acknowledged at that moment;
which BLOCK takes effect is the engine's rule.

Answers are not asked of everyone in the same way: a seat whose answer is forced (it holds no
BLOCK, :meth:`~racedeck.core.game.Game.forced_action`) is answered for at once, a bot is asked,
a person is waited for. None of that shows: the window's frames and times are the same
whoever holds a BLOCK. The sealed answers are stored with the table's clock, so a restart
loses none and another process serving the table sees them.

Which seats are asked in such a decision is the game's to say: those pending but not
publicly acting (:meth:`~racedeck.core.game.Game.public_acting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from racedeck.core.jsontypes import JSONObject

__all__ = ["UNTIMED_WINDOW", "Window"]

UNTIMED_WINDOW = 60.0
"""Seconds a window waits at a table without a per-move clock (SB-9: an unanswered window
closes by itself)."""


@dataclass(slots=True)
class Window:
    """The ballot box of the decision open at move number ``move``."""

    move: int
    opened: float
    """When the frames that showed the window open went out."""
    minimum: float
    """Seconds it stays open however fast the answers come (SB-9's ``window_seconds``)."""
    length: float
    """Seconds after which the seats still asked pass."""
    asked: tuple[int, ...]
    sealed: dict[int, JSONObject] = field(default_factory=dict)
    """Each answered seat's action (JSON), in no particular order: nobody sees it before the
    close."""
    acks: list[tuple[int, str]] = field(default_factory=list)
    """``(connection, message id)`` of every person's answer, acknowledged at the close."""
    timed_out: list[int] = field(default_factory=list)
    """Seats the window's clock answered for (noted in the record at the close)."""
    answered: set[int] = field(default_factory=set)
    """Seats whose person answered here (a second answer is refused; a person's answer that
    repeats the forced one sealed for them is taken as theirs)."""

    @property
    def complete(self) -> bool:
        """Every asked seat has answered."""
        return all(seat in self.sealed for seat in self.asked)

    @property
    def close_at(self) -> float:
        """The earliest time the window may close."""
        return self.opened + self.minimum

    @property
    def deadline(self) -> float:
        """When the seats still asked pass."""
        return self.opened + max(self.minimum, self.length)

    def due(self) -> float:
        """The next time the window must be looked at: its close once complete, else the
        deadline."""
        return self.close_at if self.complete else self.deadline

    def ready(self, now: float) -> bool:
        """True when the window may close now (every answer in, the minimum passed)."""
        return self.complete and now >= self.close_at

    def seal(self, seat: int, action: JSONObject) -> None:
        """Keep ``seat``'s answer until the close."""
        self.sealed[seat] = dict(action)

    def in_order(self) -> list[tuple[int, JSONObject]]:
        """The answers in seat order: the order they go into the game and the record, the
        same whatever order they came in."""
        return [(seat, self.sealed[seat]) for seat in sorted(self.sealed)]

    def to_store(self) -> JSONObject:
        """What the table's stored clock keeps of it."""
        return {
            "move": self.move,
            "opened": self.opened,
            "minimum": self.minimum,
            "length": self.length,
            "asked": list(self.asked),
            "sealed": {str(k): v for k, v in self.sealed.items()},
            "timed_out": list(self.timed_out),
        }

    @classmethod
    def from_store(cls, obj: JSONObject) -> Window:
        """Read back what :meth:`to_store` wrote."""
        sealed = obj.get("sealed", {})
        return cls(
            move=int(obj["move"]),
            opened=float(obj["opened"]),
            minimum=float(obj.get("minimum", 0.0)),
            length=float(obj.get("length", UNTIMED_WINDOW)),
            asked=tuple(int(s) for s in obj.get("asked", [])),
            sealed={int(k): dict(v) for k, v in sealed.items()},
            timed_out=[int(s) for s in obj.get("timed_out", [])],
        )
