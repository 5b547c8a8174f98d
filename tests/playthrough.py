"""Random legal games played through a :class:`racedeck.Session`, for every game's property
tests: one loop, whatever the game, that asks a random pending seat for a random legal action."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import racedeck


@dataclass
class Played:
    """A finished random game: the game, its session (and record) and every step."""

    game: Any
    session: racedeck.Session
    steps: list[tuple[int, Any, Any]] = field(default_factory=list)

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
        session.apply(seat, action)
        played.steps.append((seat, action, session.state))
    return played


def roundtrip(obj: Any) -> Any:
    """``obj`` through JSON text and back."""
    return json.loads(json.dumps(obj))
