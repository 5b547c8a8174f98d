"""No game is longer than its action encoding's ``max_game_length``: the bound OpenSpiel reports
and the Gymnasium and PettingZoo faces truncate at (``max_actions``' default).

*Why First?* games all take exactly that many actions (a fixed number of rounds, WF-4, WF-10);
*Six Day Race* bounds a series by the cards its riders can play (SD-2, SD-6, SD-11); Setback's
rules bound nothing, so its bound is the game's own ``max_moves``, which ends a game ranked by
progress and which long games do reach (``benchmarks/setback_lengths.py`` measures how often).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from budget import scaled

import racedeck
from racedeck.rl.faces import encoding_for

CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 2}),
    ("why-first", {"players": 6}),
    ("why-first", {"players": 3, "variant": "tactical"}),
    ("six-day-race", {"players": 2}),
    ("six-day-race", {"players": 5, "riders": 1, "races": 2}),
    ("setback", {"players": 2}),
    ("setback", {"players": 6}),
    ("setback", {"players": 4, "rows": 2, "hand_size": 5, "self_block": "all"}),
    ("setback", {"players": 3, "max_moves": 100, "rows": 20}),
)
IDS = [f"{g}-" + "-".join(f"{k}={v}" for k, v in c.items()) for g, c in CONFIGS]


def random_length(game: Any, seed: int) -> int:
    """The accepted actions of one game whose every decision is drawn at random."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        seat = state.pending[0]
        game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
    return int(state.move)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_no_game_is_longer_than_max_game_length(game_id: str, config: dict[str, Any]) -> None:
    game = racedeck.make(game_id, **config)
    bound = encoding_for(game).max_game_length
    games = scaled(4 if game_id == "setback" else 2)
    lengths = [random_length(game, seed) for seed in range(games)]
    assert max(lengths) <= bound
    if game_id == "why-first":
        assert set(lengths) == {bound}  # a fixed number of rounds: every game takes the bound


def test_setbacks_bound_is_its_max_moves_and_games_reach_it() -> None:
    # The rules bound nothing (tokens can be set back for ever), so no smaller number would
    # be a bound; 20 rows make random games long enough to be ended by max_moves=100.
    assert encoding_for(racedeck.make("setback", players=6)).max_game_length == 20_000
    game = racedeck.make("setback", players=3, max_moves=100, rows=20)
    assert encoding_for(game).max_game_length == 100
    assert random_length(game, seed=1) == 100
