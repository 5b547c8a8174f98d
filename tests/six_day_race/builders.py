"""Helpers shared by the Six Day Race rule tests."""

from __future__ import annotations

from collections.abc import Iterable

import racedeck
from racedeck.core.events import Event
from racedeck.games.six_day_race import PlayCard, SixDayRace, SixDayRaceState
from racedeck.games.six_day_race.cards import GREEN, card_code


def make(players: int = 5, **options: object) -> SixDayRace:
    game = racedeck.make("six-day-race", players=players, **options)
    assert isinstance(game, SixDayRace)
    return game


def green(*values: int) -> list[int]:
    return [card_code(GREEN, v) for v in values]


def play(game: SixDayRace, s: SixDayRaceState, *values: int) -> tuple[SixDayRaceState, list[Event]]:
    """The pending seat plays each value in turn (checked path); return the state and events."""
    events: list[Event] = []
    for value in values:
        assert len(s.pending) == 1, f"nobody to play {value}: {s!r}"
        s = game.apply(s, s.pending[0], PlayCard(value))
        events.extend(s.events)
    return s, events


def only(events: Iterable[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]


def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, object]]:
    return [e.data for e in events if e.kind == kind]
