"""What a balance report keeps of one game: outcome, length and the game's own measures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome

__all__ = ["MEASURES_VERSION", "Collector", "GameMeasures", "NoCollector"]

MEASURES_VERSION = 3
"""What the collectors measure; raised when a game's measures change, so that a report does
not reuse saved games measured without them (version 2: Six Day Race openings and whole-field
slipstreams; version 3: Setback's BLOCKs answered but kept, SB-9)."""


@dataclass(frozen=True, slots=True)
class GameMeasures:
    """The numbers a report needs from one finished game; small, picklable and JSON-able.

    Contestant ``i`` is seat ``i``, then any engine-played figure (Leo in two-player
    *Why First?*). ``turns`` is the game's own unit of length where it has one (turns taken in
    *Setback*, cards played in *Six Day Race*); ``extra`` holds the game-specific measures.
    """

    bots: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int
    turns: int | None = None
    extra: JSONObject = field(default_factory=dict)

    def credit(self) -> list[float]:
        """Win credit of every contestant: a win shared by ``k`` counts ``1/k`` for each."""
        out = [0.0] * len(self.scores)
        for w in self.winners:
            out[w] += 1.0 / len(self.winners)
        return out

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {
            "bots": list(self.bots),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "decisions": self.decisions,
            "turns": self.turns,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> GameMeasures:
        """Parse the JSON form made by :meth:`to_json`."""
        turns = obj.get("turns")
        return cls(
            bots=tuple(str(b) for b in obj["bots"]),
            scores=tuple(float(s) for s in obj["scores"]),
            ranks=tuple(int(r) for r in obj["ranks"]),
            winners=tuple(int(w) for w in obj["winners"]),
            decisions=int(obj["decisions"]),
            turns=None if turns is None else int(turns),
            extra=dict(obj.get("extra", {})),
        )


class Collector(Protocol):
    """Follows one game through its events and states and sums up what a report needs."""

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Take in the events of one transition and the state it led to."""
        ...

    def turns(self) -> int | None:
        """The game's length in its own unit, or ``None`` when the rules fix it."""
        ...

    def finish(self, outcome: Outcome, state: Any) -> JSONObject:
        """The game-specific measures, once the game is over."""
        ...


class NoCollector:
    """For a game without measures of its own: only the generic ones are kept."""

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Ignore the events."""

    def turns(self) -> int | None:
        """No unit of length besides decisions."""
        return None

    def finish(self, outcome: Outcome, state: Any) -> JSONObject:
        """Nothing extra."""
        return {}
