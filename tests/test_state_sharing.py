"""The checked path may share unchanged lists between states; the fast path must never leak
a change from one state into another through them."""

from __future__ import annotations

import racedeck
from racedeck.games.why_first import PlaceCard


def test_fast_path_on_a_checked_state_leaves_its_predecessor_alone() -> None:
    game = racedeck.make("why-first", players=3)
    s0 = game.new_initial_state(8)
    s1 = game.apply(s0, 0, game.legal_actions(s0, 0)[0])
    s2 = game.apply(s1, 1, game.legal_actions(s1, 1)[0])
    before = [s.to_json() for s in (s0, s1, s2)]
    # Finishing the round in place on s2 removes cards from hands and moves figures.
    game.apply_unchecked(s2, 2, game.legal_actions(s2, 2)[0])
    assert s2.round == 1
    assert [s0.to_json(), s1.to_json()] == before[:2]
    # And the other way round: changing s0 in place does not reach s1.
    game.apply_unchecked(s0, 0, PlaceCard(game.legal_actions(s0, 0)[-1].value, 2))
    assert s1.to_json() == before[1]
