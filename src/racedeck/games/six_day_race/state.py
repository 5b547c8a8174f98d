"""The state of a series of *Six Day Race*: a value object with its own RNG."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from racedeck.core.jsontypes import JSONObject
from racedeck.core.rng import Rng

__all__ = [
    "OVER",
    "RACING",
    "RiderResult",
    "SixDayRaceState",
    "fraction_from_json",
]

RACING = "race"
"""Phase: a race is on."""
OVER = "over"
"""Phase: the series has ended."""


def fraction_from_json(value: Any) -> Fraction:
    """Read points written as ``"20/3"``, ``"6"`` or a number."""
    return Fraction(str(value))


@dataclass(frozen=True, slots=True)
class RiderResult:
    """One rider's race, never changed once written (states and views share it safely).

    ``place`` is its finish rank, ``sprints`` its points per sprint line, ``finish`` its
    finish points (an exact fraction written ``"20/3"``), ``laps`` the laps it lost.
    """

    place: int
    sprints: tuple[int, ...]
    finish: str
    laps: int

    def to_json(self) -> JSONObject:
        """Return ``{"place", "sprints", "finish", "laps"}`` (fresh lists)."""
        return {
            "place": self.place,
            "sprints": list(self.sprints),
            "finish": self.finish,
            "laps": self.laps,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> RiderResult:
        """Rebuild a result from :meth:`to_json`."""
        return cls(
            place=_int(obj["place"]),
            sprints=tuple(_int(x) for x in obj["sprints"]),
            finish=str(fraction_from_json(obj["finish"])),
            laps=_int(obj["laps"]),
        )


def _int(value: Any) -> int:
    """An integer from JSON, refusing ``true`` and ``2.5``."""
    if type(value) is not int:
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _pair(value: Any) -> tuple[int, int]:
    a, b = _ints(value)
    return a, b


def _ints(values: Any) -> list[int]:
    if not isinstance(values, list):
        raise ValueError(f"expected a list of integers, got {values!r}")
    return [_int(v) for v in values]


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
    and how many grey cards of each deck a changed rider holds. ``move`` counts the actions
    accepted so far (the move number).
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
        "final_queue",
        "finishers",
        "hands",
        "laps",
        "move",
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
        self.move: int = 0
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
        # Nested lists copied by map(list.copy): no Python loop, as a comprehension has.
        s.hands = list(map(list.copy, self.hands))
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
        s.sprint_order = list(map(list.copy, self.sprint_order))
        s.finishers = self.finishers[:]
        s.results = self.results  # race results are never changed once written
        s.laps = self.laps[:]
        s.points = self.points[:]
        s.pending = self.pending
        s.move = self.move
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
            "results": [[r.to_json() for r in race] for race in self.results],
            "laps": self.laps[:],
            "points": self.points[:],
            "pending": list(self.pending),
            "move": self.move,
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SixDayRaceState:
        """Rebuild a state from :meth:`to_json`.

        Raises :class:`ValueError` naming the field when ``obj`` is not such a form (a missing
        field, a wrong type), never a bare ``KeyError``.
        """
        if not isinstance(obj, dict):
            kind = type(obj).__name__
            raise ValueError(f"a six-day-race state must be a JSON object, got {kind}")
        field = ""
        try:
            s = cls()
            field = "players"
            s.players = _int(obj["players"])
            field = "race"
            s.race = _int(obj["race"])
            field = "phase"
            s.phase = obj["phase"]
            if s.phase not in (RACING, OVER):
                raise ValueError(f"expected {RACING!r} or {OVER!r}, got {s.phase!r}")
            field = "positions"
            s.positions = _ints(obj["positions"])
            field = "hands"
            s.hands = [_ints(h) for h in obj["hands"]]
            field = "crashed"
            s.crashed = [c for c in obj["crashed"] if type(c) is bool]
            if len(s.crashed) != len(obj["crashed"]):
                raise ValueError("expected a list of true/false")
            field = "order"
            s.order = _ints(obj["order"])
            field = "turn"
            s.turn = _int(obj["turn"])
            field = "current"
            s.current = _int(obj["current"])
            field = "final_queue"
            fq = obj["final_queue"]
            s.final_queue = None if fq is None else _ints(fq)
            for name in ("deck_low", "deck_high", "discard_low", "discard_high", "discard_green"):
                field = name
                setattr(s, name, _ints(obj[name]))
            field = "played"
            s.played = [tuple(_ints(p)) for p in obj["played"]]
            field = "drawn"
            s.drawn = [None if d is None else _pair(d) for d in obj["drawn"]]
            field = "sprint_order"
            s.sprint_order = [_ints(o) for o in obj["sprint_order"]]
            field = "finishers"
            s.finishers = _ints(obj["finishers"])
            field = "results"
            s.results = tuple(
                tuple(RiderResult.from_json(r) for r in race) for race in obj["results"]
            )
            field = "laps"
            s.laps = _ints(obj["laps"])
            field = "points"
            s.points = [str(fraction_from_json(x)) for x in obj["points"]]
            field = "pending"
            s.pending = tuple(_ints(obj["pending"]))
            field = "move"
            s.move = _int(obj["move"])
            field = "rng"
            s.rng = Rng(_int(obj["rng"]))
        except KeyError as exc:
            missing = exc.args[0]
            what = (
                f"field {missing!r} is missing"
                if missing == field
                else f"field {field!r} is malformed: {missing!r} is missing"
            )
            raise ValueError(f"six-day-race state: {what}") from None
        except (TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:
            raise ValueError(f"six-day-race state: field {field!r} is malformed: {exc}") from None
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
