"""What one player, or a spectator, may know about a series of *Six Day Race*."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.core.header import ViewHeader
from racedeck.core.jsontypes import JSONObject
from racedeck.games.six_day_race.actions import PlayCard, action_from_json
from racedeck.games.six_day_race.state import RiderResult

__all__ = ["SixDayRaceView", "own_json"]


def own_json(
    seat: int | None,
    my_hands: tuple[tuple[int, tuple[int, ...]], ...],
    legal_actions: tuple[PlayCard, ...],
) -> JSONObject:
    """The keys of the JSON view (:meth:`SixDayRaceView.to_json`) that only ``seat`` sees."""
    return {
        "seat": seat,
        "my_hands": _hands_json(my_hands),
        "legal_actions": [a.to_json() for a in legal_actions],
    }


def _hands_json(hands: tuple[tuple[int, tuple[int, ...]], ...]) -> list[Any]:
    return [[r, list(cards)] for r, cards in hands]


@dataclass(frozen=True, slots=True)
class SixDayRaceView:
    """A player's view: its own riders' hands and the public race; never another hand.

    Public: positions, who crashed, turn order and whose turn it is, the riders still owed a
    last turn, hand sizes, the size of both grey decks and every discard pile (cards are played
    face up), the cards each rider played this race and what it drew at a rider change, sprint
    crossings with the points each won and finish crossings, race results and standings
    (points as exact fractions written ``"20/3"``). The ``header`` says who is to act (the
    player of the rider on turn), the phase, the points won so far as scores and the outcome.
    A view is immutable and shares nothing changeable with the state: tuples all the way down,
    race results frozen.
    """

    header: ViewHeader
    seat: int | None
    players: int
    riders_per_player: int
    race: int
    races: int
    phase: str
    positions: tuple[int, ...]
    crashed: tuple[bool, ...]
    order: tuple[int, ...]
    current: int
    final_queue: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    my_hands: tuple[tuple[int, tuple[int, ...]], ...]
    deck_sizes: tuple[int, int]
    discard_low: tuple[int, ...]
    discard_high: tuple[int, ...]
    discard_green: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    drawn: tuple[tuple[int, int] | None, ...]
    sprint_order: tuple[tuple[int, ...], ...]
    sprint_points: tuple[tuple[int, ...], ...]
    finishers: tuple[int, ...]
    results: tuple[tuple[RiderResult, ...], ...]
    laps: tuple[int, ...]
    points: tuple[str, ...]
    legal_actions: tuple[PlayCard, ...]
    line: int
    sprints: tuple[int, ...]
    rider_change: int
    crash: int

    def hand_of(self, rider: int) -> tuple[int, ...]:
        """The cards of one of the viewer's own riders (empty for anybody else's)."""
        for r, cards in self.my_hands:
            if r == rider:
                return cards
        return ()

    def to_json(self) -> JSONObject:
        """Return the JSON form: ``{"header": ..., <the race>}`` (fresh lists and objects)."""
        return {
            "header": self.header.to_json(),
            "seat": self.seat,
            "players": self.players,
            "riders_per_player": self.riders_per_player,
            "race": self.race,
            "races": self.races,
            "phase": self.phase,
            "positions": list(self.positions),
            "crashed": list(self.crashed),
            "order": list(self.order),
            "current": self.current,
            "final_queue": None if self.final_queue is None else list(self.final_queue),
            "hand_sizes": list(self.hand_sizes),
            "my_hands": _hands_json(self.my_hands),
            "deck_sizes": list(self.deck_sizes),
            "discard_low": list(self.discard_low),
            "discard_high": list(self.discard_high),
            "discard_green": list(self.discard_green),
            "played": [list(p) for p in self.played],
            "drawn": [None if d is None else list(d) for d in self.drawn],
            "sprint_order": [list(o) for o in self.sprint_order],
            "sprint_points": [list(o) for o in self.sprint_points],
            "finishers": list(self.finishers),
            "results": [[r.to_json() for r in race] for race in self.results],
            "laps": list(self.laps),
            "points": list(self.points),
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "line": self.line,
            "sprints": list(self.sprints),
            "rider_change": self.rider_change,
            "crash": self.crash,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SixDayRaceView:
        """Rebuild a view from :meth:`to_json`."""
        fq: Any = obj["final_queue"]
        return cls(
            header=ViewHeader.from_json(obj["header"]),
            seat=obj["seat"],
            players=obj["players"],
            riders_per_player=obj["riders_per_player"],
            race=obj["race"],
            races=obj["races"],
            phase=obj["phase"],
            positions=tuple(obj["positions"]),
            crashed=tuple(obj["crashed"]),
            order=tuple(obj["order"]),
            current=obj["current"],
            final_queue=None if fq is None else tuple(fq),
            hand_sizes=tuple(obj["hand_sizes"]),
            my_hands=tuple((r, tuple(cards)) for r, cards in obj["my_hands"]),
            deck_sizes=(obj["deck_sizes"][0], obj["deck_sizes"][1]),
            discard_low=tuple(obj["discard_low"]),
            discard_high=tuple(obj["discard_high"]),
            discard_green=tuple(obj["discard_green"]),
            played=tuple(tuple(p) for p in obj["played"]),
            drawn=tuple(None if d is None else (d[0], d[1]) for d in obj["drawn"]),
            sprint_order=tuple(tuple(o) for o in obj["sprint_order"]),
            sprint_points=tuple(tuple(o) for o in obj["sprint_points"]),
            finishers=tuple(obj["finishers"]),
            results=tuple(tuple(RiderResult.from_json(r) for r in race) for race in obj["results"]),
            laps=tuple(obj["laps"]),
            points=tuple(obj["points"]),
            legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
            line=obj["line"],
            sprints=tuple(obj["sprints"]),
            rider_change=obj["rider_change"],
            crash=obj["crash"],
        )
