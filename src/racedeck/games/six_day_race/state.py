"""The state of a series of *Six Day Race*: a value object with its own RNG."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.rng import Rng

__all__ = [
    "OVER",
    "RACING",
    "RiderResult",
    "SixDayRaceState",
    "copy_result",
    "fraction_from_json",
]

RACING = "race"
"""Phase: a race is on."""
OVER = "over"
"""Phase: the series has ended."""

RiderResult = dict[str, Any]
"""One rider's race: ``place`` (finish rank), ``sprints`` (points per line), ``finish`` points
(an exact fraction written ``"20/3"``), ``laps`` lost."""


def fraction_from_json(value: Any) -> Fraction:
    """Read points written as ``"20/3"``, ``"6"`` or a number."""
    return Fraction(str(value))


def copy_result(r: RiderResult) -> RiderResult:
    """An independent copy of a rider's race result (its ``sprints`` list included)."""
    return {**r, "sprints": list(r["sprints"])}


def _result_from_json(obj: JSONObject) -> RiderResult:
    return {
        "place": int(obj["place"]),
        "sprints": [int(x) for x in obj["sprints"]],
        "finish": str(fraction_from_json(obj["finish"])),
        "laps": int(obj["laps"]),
    }


class SixDayRaceState:
    """Everything needed to continue a series, including hands, deck order and the RNG.

    Riders are numbered so that player ``p`` owns riders ``p`` and ``p + players`` (SD-12).
    ``laps`` and ``points`` are each player's series totals so far (points as exact fractions
    written ``"20/3"``), kept up to date at the end of every race.
    ``order`` is this race's turn order; ``turn`` the index in it of the next regular turn.
    After the first rider crosses the line, ``final_queue`` lists the riders still owed their
    one last turn (SD-9); before that it is ``None``. Decks are piles whose top is the last item.
    ``played`` holds, per rider, the cards it has played this race in order (face up, so public);
    ``drawn`` the ``(deck 1-3, deck 4-6)`` counts it drew at its rider change this race (SD-6),
    ``None`` before. With the green hand everyone starts from, they tell every rider's green hand
    and how many grey cards of each deck a changed rider holds.
    """

    __slots__ = (
        "crashed",
        "current",
        "deck_high",
        "deck_low",
        "discard_green",
        "discard_high",
        "discard_low",
        "drawn",
        "events",
        "final_queue",
        "finishers",
        "hands",
        "laps",
        "order",
        "pending",
        "phase",
        "played",
        "players",
        "points",
        "positions",
        "race",
        "results",
        "rng",
        "sprint_order",
        "turn",
    )

    def __init__(self) -> None:
        self.players: int = 0
        self.race: int = 0
        self.phase: str = RACING
        self.positions: list[int] = []
        self.hands: list[list[int]] = []
        self.crashed: list[bool] = []
        self.order: list[int] = []
        self.turn: int = 0
        self.current: int = -1
        self.final_queue: list[int] | None = None
        self.deck_low: list[int] = []
        self.deck_high: list[int] = []
        self.discard_low: list[int] = []
        self.discard_high: list[int] = []
        self.discard_green: list[int] = []
        self.played: list[tuple[int, ...]] = []
        self.drawn: list[tuple[int, int] | None] = []
        self.sprint_order: list[list[int]] = []
        self.finishers: list[int] = []
        self.results: tuple[tuple[RiderResult, ...], ...] = ()
        self.laps: list[int] = []
        self.points: list[str] = []
        self.pending: tuple[int, ...] = ()
        self.events: tuple[Event, ...] = ()
        self.rng: Rng = Rng(0)

    @property
    def is_terminal(self) -> bool:
        """True once the last race has been scored."""
        return self.phase == OVER

    def clone(self) -> SixDayRaceState:
        """Return an independent copy."""
        s = SixDayRaceState.__new__(SixDayRaceState)
        s.players = self.players
        s.race = self.race
        s.phase = self.phase
        s.positions = self.positions[:]
        s.hands = [h[:] for h in self.hands]
        s.crashed = self.crashed[:]
        s.order = self.order[:]
        s.turn = self.turn
        s.current = self.current
        s.final_queue = None if self.final_queue is None else self.final_queue[:]
        s.deck_low = self.deck_low[:]
        s.deck_high = self.deck_high[:]
        s.discard_low = self.discard_low[:]
        s.discard_high = self.discard_high[:]
        s.discard_green = self.discard_green[:]
        s.played = self.played[:]  # tuples: a play replaces its rider's entry
        s.drawn = self.drawn[:]
        s.sprint_order = [o[:] for o in self.sprint_order]
        s.finishers = self.finishers[:]
        s.results = self.results  # race results are never changed once written
        s.laps = self.laps[:]
        s.points = self.points[:]
        s.pending = self.pending
        s.events = self.events
        s.rng = self.rng.copy()
        return s

    def to_json(self) -> JSONObject:
        """Return the full JSON form (points as exact fractions written ``"20/3"``)."""
        return {
            "players": self.players,
            "race": self.race,
            "phase": self.phase,
            "positions": self.positions[:],
            "hands": [h[:] for h in self.hands],
            "crashed": self.crashed[:],
            "order": self.order[:],
            "turn": self.turn,
            "current": self.current,
            "final_queue": None if self.final_queue is None else self.final_queue[:],
            "deck_low": self.deck_low[:],
            "deck_high": self.deck_high[:],
            "discard_low": self.discard_low[:],
            "discard_high": self.discard_high[:],
            "discard_green": self.discard_green[:],
            "played": [list(p) for p in self.played],
            "drawn": [None if d is None else list(d) for d in self.drawn],
            "sprint_order": [o[:] for o in self.sprint_order],
            "finishers": self.finishers[:],
            "results": [[copy_result(r) for r in race] for race in self.results],
            "laps": self.laps[:],
            "points": self.points[:],
            "pending": list(self.pending),
            "events": [e.to_json() for e in self.events],
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SixDayRaceState:
        """Rebuild a state from :meth:`to_json`."""
        s = cls()
        s.players = int(obj["players"])
        s.race = int(obj["race"])
        s.phase = str(obj["phase"])
        s.positions = [int(p) for p in obj["positions"]]
        s.hands = [[int(c) for c in h] for h in obj["hands"]]
        s.crashed = [bool(c) for c in obj["crashed"]]
        s.order = [int(r) for r in obj["order"]]
        s.turn = int(obj["turn"])
        s.current = int(obj["current"])
        fq = obj["final_queue"]
        s.final_queue = None if fq is None else [int(r) for r in fq]
        s.deck_low = [int(c) for c in obj["deck_low"]]
        s.deck_high = [int(c) for c in obj["deck_high"]]
        s.discard_low = [int(c) for c in obj["discard_low"]]
        s.discard_high = [int(c) for c in obj["discard_high"]]
        s.discard_green = [int(c) for c in obj["discard_green"]]
        s.played = [tuple(int(c) for c in p) for p in obj["played"]]
        s.drawn = [None if d is None else (int(d[0]), int(d[1])) for d in obj["drawn"]]
        s.sprint_order = [[int(r) for r in o] for o in obj["sprint_order"]]
        s.finishers = [int(r) for r in obj["finishers"]]
        s.results = tuple(tuple(_result_from_json(r) for r in race) for race in obj["results"])
        s.laps = [int(x) for x in obj["laps"]]
        s.points = [str(fraction_from_json(x)) for x in obj["points"]]
        s.pending = tuple(int(p) for p in obj["pending"])
        s.events = tuple(Event.from_json(e) for e in obj["events"])
        s.rng = Rng(int(obj["rng"]))
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SixDayRaceState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<SixDayRaceState race={self.race + 1} phase={self.phase} positions={self.positions} "
            f"current={self.current} pending={self.pending}>"
        )
