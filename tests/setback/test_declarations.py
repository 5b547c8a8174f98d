"""The fast declaration lists of *Setback* agree with the plain statement of the rules.

:class:`Declarations` reads only what each kind of card depends on and shares its answers between
states; :func:`list_declarations` reads the whole position every time. Both are asked about every
card type, for every player, in every position of random games (one :class:`Declarations` object
throughout, so answers kept from earlier positions are checked too).
"""

from __future__ import annotations

import random

import pytest
from budget import scaled

import racedeck
from racedeck.games.setback import Setback, SetbackState
from racedeck.games.setback.cards import DeckIndex
from racedeck.games.setback.declarations import Declarations, list_declarations

SEEDS = scaled(2, least=2)
"""Random games per configuration, every position of each compared for every seat and card:
the first two already put a token on a BLOCK in each (``RACEDECK_TEST_BUDGET`` scales it)."""


def _positions(game: Setback, seed: int) -> list[SetbackState]:
    """Every state of one random game played through the fast path."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = [state.clone()]
    while state.pending:
        seat = state.pending[rng.randrange(len(state.pending))]
        legal = game.legal_actions(state, seat)
        game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
        out.append(state.clone())
    return out


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "rows": 4},
        {"players": 4, "self_block": "all"},
        {"players": 5, "max_lanes": 7},
        {"players": 6, "lanes": 2, "min_lanes": 1},
    ],
)
def test_fast_declarations_equal_the_plain_rules(options: dict[str, int | str]) -> None:
    game = racedeck.make("setback", **options)
    assert isinstance(game, Setback)
    index = DeckIndex(game.types)
    fast = Declarations(game.cfg, index)
    on_block = 0
    for seed in range(SEEDS):
        for s in _positions(game, seed):
            if s.is_terminal:
                continue
            blocked = [game.on_block(s, q) for q in range(game.n)]
            on_block += any(blocked)
            for p in range(game.n):
                for tid, t in enumerate(index.types):
                    expected = tuple(list_declarations(s, p, t, blocked, game.cfg))
                    assert fast.options(s, p, tid) == expected, (s, p, t)
    assert on_block > 0, "no position had a token on BLOCK: the test lost its reach"


def test_deck_index_describes_every_card() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    index = DeckIndex(game.types)
    assert list(index.types) == sorted(index.types)
    for c, t in enumerate(game.types):
        assert index.types[index.hand_id[c]] == t
        board = index.types[index.board_id[c]]
        assert (board.kind, board.amount, board.free) == (t.kind, t.amount, t.kind == "DRAW")
        assert (c in index.blocks) == index.is_block[c] == (t.kind == "BLOCK")
        assert (c in index.playable) == (t.kind != "BLOCK")
        assert (c in index.free_playable) == (t.kind != "BLOCK" and t.free)
