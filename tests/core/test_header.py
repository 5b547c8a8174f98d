"""The view header: inside :func:`~racedeck.core.header.shared_headers` every seat's view of
one state shares one public header, and each view is exactly what it is without it."""

from __future__ import annotations

import pickle
import random

import pytest

import racedeck
from racedeck.core.header import header_memo, shared_headers

GAMES = [
    ("why-first", {"players": 2}),
    ("why-first", {"players": 4, "variant": "tactical"}),
    ("six-day-race", {"players": 3, "riders": 2}),
    ("setback", {"players": 3}),
]


@pytest.mark.parametrize(("game_id", "config"), GAMES)
def test_shared_headers_change_no_view(game_id: str, config: dict[str, object]) -> None:
    game = racedeck.make(game_id, **config)
    fresh = pickle.dumps(game)
    rng = random.Random(3)
    state = game.new_initial_state(11)
    audiences = [None, *range(game.num_players)]
    for _ in range(60):
        alone = [game.observe(state, seat).to_json() for seat in audiences]
        with shared_headers():
            shared = [game.observe(state, seat) for seat in audiences]
            memo = header_memo()
            assert memo is not None and len(memo) == 1  # built once for every seat
        assert [v.to_json() for v in shared] == alone
        # Each view still has its own copies of what a holder could change.
        shared[0].header.config["players"] = 99
        assert shared[1].header.config == alone[1]["header"]["config"]
        if state.is_terminal:
            break
        seat = rng.choice(list(state.pending))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    # Outside a block nothing is kept, and the game object holds nothing of any state.
    assert header_memo() is None
    assert pickle.dumps(game) == fresh
