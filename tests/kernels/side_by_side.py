"""A game played on the engine and on its step kernel side by side, compared at every decision.

Used by the tests of every step kernel (:class:`racedeck.kernels.batch.StepKernel`): the engine
and the kernel play the same deals with the same random choices; at every decision the seat to
act, the legal-action mask and the acting seat's observation must be equal — the observation to
the game's encoder of that seat's *view*, so a kernel shows a seat nothing its view does not —
and at the end every seat's observation and the rewards (each winner's share of the win).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from racedeck.kernels.batch import StateBatch, StepKernel
from racedeck.plugins import plugin


def play_side_by_side(game: Any, kernel: StepKernel, seeds: list[int], seed: int) -> int:
    """Play ``seeds``' games on ``game`` (the engine) and ``kernel`` with the same random
    choices (drawn from ``seed``), asserting equality at every decision; the number of
    decisions."""
    encoding = plugin(game.spec.id, "encoding").action_encoding(game)
    encode = plugin(game.spec.id, "observation").observer(game).encode
    batch = StateBatch(kernel, len(seeds))
    batch.deal(np.array(seeds, dtype=np.uint64))
    states = [game.new_initial_state(s) for s in seeds]
    rng = np.random.default_rng(seed)
    decisions = 0
    while not all(s.is_terminal for s in states):
        players = batch.current_player()
        masks = batch.legal_mask()
        seen = batch.observe(np.maximum(players, 0))
        actions = np.zeros(len(seeds), np.int64)
        for i, state in enumerate(states):
            if state.is_terminal:
                assert players[i] == -1, f"game {i} is over"
                continue
            seat = state.pending[0]  # the engine's drivers ask the first pending seat
            assert players[i] == seat, f"game {i}, decision {decisions}"
            legal = sorted(encoding.index(a) for a in game.legal_actions(state, seat))
            assert np.flatnonzero(masks[i]).tolist() == legal, f"game {i}, decision {decisions}"
            want = encode(game.observe(state, seat))
            assert np.array_equal(seen[i], want), (
                f"game {i}, decision {decisions}: entries {np.flatnonzero(seen[i] != want)}"
            )
            actions[i] = legal[rng.integers(len(legal))]
            game.apply_unchecked(state, seat, encoding.action(int(actions[i])))
            decisions += 1
        batch.apply(actions)
    assert (batch.current_player() == -1).all()
    rewards = batch.rewards()
    for i, state in enumerate(states):
        outcome = game.outcome(state)
        assert outcome is not None
        share = 1.0 / len(outcome.winners)
        want = [share if s in outcome.winners else 0.0 for s in range(game.num_players)]
        assert np.allclose(rewards[i], want), f"game {i}"
        for seat in range(game.num_players):
            final = batch.observe(np.full(len(seeds), seat))[i]
            assert np.array_equal(final, encode(game.observe(state, seat))), f"game {i} over"
    return decisions
