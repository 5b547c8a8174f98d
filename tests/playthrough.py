"""Random legal games played on a :class:`racedeck.Table`, for every game's property tests: one
loop, whatever the game, that asks a random pending seat for a random legal action."""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import racedeck
from racedeck.core import Event, GameRecord


@dataclass
class Played:
    """A finished random game: the game, its table (and record) and every step.

    ``steps`` holds ``(seat, action, state after)``; ``events[i]`` the events the transition of
    ``steps[i]`` returned (every audience); the deal's are ``table.initial_events``.
    """

    game: Any
    table: racedeck.Table
    steps: list[tuple[int, Any, Any]] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=list)

    @property
    def session(self) -> racedeck.Table:
        """The table, under the name the property tests use for the game in progress."""
        return self.table

    @property
    def initial(self) -> Any:
        """The state before the first action."""
        return self.game.new_initial_state(self.table.seed)

    def states(self) -> list[Any]:
        """Every state from the first to the last."""
        return [self.initial, *(s for _, _, s in self.steps)]

    def all_events(self) -> list[Event]:
        """Every event of the game in order, the deal's first."""
        return [e for events in (self.table.initial_events, *self.events) for e in events]


def play_random(game: Any, seed: int, choices: int, max_steps: int = 100_000) -> Played:
    """Play ``game`` to the end from ``seed``; ``choices`` seeds the random decisions."""
    table = racedeck.Table(game, seed)
    played = Played(game, table)
    rng = random.Random(choices)
    while not table.is_over:
        assert len(played.steps) < max_steps, "the game does not end"
        seat = rng.choice(table.pending)
        action = rng.choice(game.legal_actions(table.state, seat))
        transition = table.submit(seat, action)
        played.steps.append((seat, action, transition.state))
        played.events.append(transition.events)
    return played


def roundtrip(obj: Any) -> Any:
    """``obj`` through JSON text and back."""
    return json.loads(json.dumps(obj))


def assert_replay_reproduces(played: Played) -> None:
    """The record, as it is and after a JSON round trip, replays to every state and event."""
    record = played.table.record
    assert len(record.actions) == len(played.steps)
    restored = GameRecord.from_json(roundtrip(record.to_json()))
    assert restored == record
    for rec in (record, restored):
        steps = list(racedeck.replay(rec))
        assert len(steps) == len(played.steps)
        for step, (seat, action, state), events in zip(
            steps, played.steps, played.events, strict=True
        ):
            assert step.seat == seat
            assert step.action == action
            assert step.state.to_json() == state.to_json()
            assert step.events == events
        rebuilt = racedeck.Table.from_record(rec)
        assert rebuilt.state.to_json() == played.table.state.to_json()
        assert rebuilt.history == played.table.history
    assert played.table.initial_events == played.game.start(played.table.seed).events


def _without_events(obj: dict[str, Any]) -> dict[str, Any]:
    assert "events" not in obj, "states hold no events"
    return obj


def assert_fast_path_agrees(played: Played) -> None:
    """The fast path reaches the checked path's states, step by step and all the way through."""
    game = played.game
    fast = played.initial
    prev = played.initial
    for seat, action, state in played.steps:
        step = prev.clone()
        game.apply_unchecked(step, seat, action)
        assert getattr(step, "events", ()) == ()  # states hold no events at all
        assert _without_events(step.to_json()) == _without_events(state.to_json())
        game.apply_unchecked(fast, seat, action)  # one state driven by the fast path throughout
        assert _without_events(fast.to_json()) == _without_events(state.to_json())
        prev = state
    assert fast.is_terminal
    assert game.outcome(fast) == game.outcome(prev)


@contextmanager
def collecting_less(first_generation: int = 10_000) -> Iterator[None]:
    """Run the block with Python's cyclic garbage collector walking less: its youngest
    generation is collected after ``first_generation`` allocations instead of 700, and what
    was alive before the block is never walked (``gc.freeze``); both are restored afterwards.

    Tests that keep whole games (every state, view and frame, to compare them) allocate
    hundreds of thousands of long-lived objects, and the collector walked them again and
    again: a fifth of a property test's time, two fifths of a simulated table's. What the
    block leaves behind is collected later, as usual.
    """
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(first_generation, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
