"""Random legal games played through a :class:`racedeck.Session`, for every game's property
tests: one loop, whatever the game, that asks a random pending seat for a random legal action."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import racedeck
from racedeck.core import GameRecord


@dataclass
class Played:
    """A finished random game: the game, its session (and record), every step and the
    events each step's transition returned."""

    game: Any
    session: racedeck.Session
    steps: list[tuple[int, Any, Any]] = field(default_factory=list)
    events: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def initial(self) -> Any:
        """The state before the first action."""
        return self.game.new_initial_state(self.session.seed)

    def states(self) -> list[Any]:
        """Every state from the first to the last."""
        return [self.initial, *(s for _, _, s in self.steps)]


def play_random(game: Any, seed: int, choices: int, max_steps: int = 100_000) -> Played:
    """Play ``game`` to the end from ``seed``; ``choices`` seeds the random decisions."""
    session = racedeck.Session(game, seed)
    played = Played(game, session)
    rng = random.Random(choices)
    while not session.state.is_terminal:
        assert len(played.steps) < max_steps, "the game does not end"
        seat = rng.choice(session.state.pending)
        action = rng.choice(game.legal_actions(session.state, seat))
        played.events.append(session.apply(seat, action))
        played.steps.append((seat, action, session.state))
    return played


def roundtrip(obj: Any) -> Any:
    """``obj`` through JSON text and back."""
    return json.loads(json.dumps(obj))


def assert_replay_reproduces(played: Played) -> None:
    """The record, as it is and after a JSON round trip, replays to every state and event."""
    record = played.session.record
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
    assert played.session.initial_events == played.game.start(played.session.seed).events


def _without_events(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != "events"}


def assert_fast_path_agrees(played: Played) -> None:
    """The fast path reaches the checked path's states, step by step and all the way through,
    and leaves no events behind."""
    game = played.game
    fast = played.initial
    prev = played.initial
    for seat, action, state in played.steps:
        step = prev.clone()
        game.apply_unchecked(step, seat, action)
        assert getattr(step, "events", ()) == ()
        assert _without_events(step.to_json()) == _without_events(state.to_json())
        game.apply_unchecked(fast, seat, action)  # one state driven by the fast path throughout
        assert _without_events(fast.to_json()) == _without_events(state.to_json())
        prev = state
    assert fast.is_terminal
    assert game.outcome(fast) == game.outcome(prev)
