"""The configurations the RL tests play, and a helper that plays random games on the engine."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import racedeck

CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 2}),  # with Leo (WF-9)
    ("why-first", {"players": 4}),
    ("why-first", {"players": 3, "variant": "tactical"}),  # WF-10
    ("why-first", {"players": 2, "variant": "tactical", "stages": 2}),
    ("six-day-race", {"players": 3, "riders": 1, "races": 2}),
    ("six-day-race", {"players": 2, "riders": 2, "races": 1}),  # SD-12
    ("setback", {"players": 3}),
    ("setback", {"players": 2, "self_block": "all", "max_lanes": 8}),
)
"""Game ids and configurations: Why First? 2 players with Leo, 4 players and tactical; Six Day
Race with one and two riders; Setback."""

IDS = [f"{g}-" + "-".join(f"{k}={v}" for k, v in c.items()) for g, c in CONFIGS]


def random_states(game_id: str, config: dict[str, Any], seed: int) -> Iterator[Any]:
    """Every state of one game, the deal first, each action drawn at random from the legal ones
    of the first pending seat (the fast, unchecked path)."""
    game = racedeck.make(game_id, **config)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    yield state
    while not state.is_terminal:
        seat = state.pending[0]
        state = state.clone()
        game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
        yield state
