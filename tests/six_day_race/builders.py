"""Helpers shared by the Six Day Race rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

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
        transition = game.step(s, s.pending[0], PlayCard(value))
        s = transition.state
        events.extend(transition.events)
    return s, events


def only(events: Iterable[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]


def data_of(event: Event) -> dict[str, Any]:
    """An event's data as JSON (lists, not the event's frozen tuples)."""
    return {k: v for k, v in event.to_json().items() if k not in ("kind", "audience")}


def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    """The data of every event of ``kind``, as JSON (lists, not the events' frozen tuples)."""
    return [data_of(e) for e in events if e.kind == kind]


def build(
    game: SixDayRace,
    *,
    positions: Sequence[int],
    hands: Sequence[Iterable[int]],
    mover: int,
    order: Sequence[int] | None = None,
    crashed: Iterable[int] = (),
    sprint_order: Sequence[Sequence[int]] | None = None,
    base: SixDayRaceState | None = None,
) -> SixDayRaceState:
    """A state in which ``mover`` is about to play, with exactly these facts.

    The race is the first of a new series, or the current race of ``base`` (a state at the start
    of a later race: its series so far is kept).
    """
    s = game.new_initial_state(0) if base is None else base.clone()
    assert len(positions) == len(hands) == game.riders
    s.positions = list(positions)
    s.hands = [sorted(h) for h in hands]
    down = set(crashed)
    s.crashed = [r in down for r in range(game.riders)]
    s.order = list(order) if order is not None else list(range(game.riders))
    s.turn = (s.order.index(mover) + 1) % len(s.order)
    s.current = mover
    s.pending = (game.owner(mover),)
    s.final_queue = None
    s.finishers = []
    s.sprint_order = (
        [list(o) for o in sprint_order] if sprint_order else [[] for _ in game.cfg.sprints]
    )
    return s


def finish_points(s: SixDayRaceState, race: int = -1) -> list[Fraction]:
    """Finish points of every rider in a scored race, as exact fractions."""
    return [Fraction(r.finish) for r in s.results[race]]
