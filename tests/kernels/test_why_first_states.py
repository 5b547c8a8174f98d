"""Why First?'s step kernel against the engine, decision by decision
(:func:`kernels.side_by_side.play_side_by_side`), on every configuration of the batch
simulator's tests: every player count, Leo (WF-9), the tactical variant (WF-10), odd and
64-card decks; the rewards are WF-7's. A kernel with a rule changed fails there: see
``test_a_wrong_rule_is_caught``. The compiled heuristic takes one of the bot's best actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kernels.side_by_side import play_side_by_side
from kernels.test_why_first import CONFIGS, IDS
from racedeck.bots.why_first import WhyFirstHeuristicBot
from racedeck.core.rng import derive_seed
from racedeck.games.why_first import WhyFirst, WhyFirstConfig
from racedeck.games.why_first.encoding import action_encoding
from racedeck.kernels import why_first_states
from racedeck.kernels.batch import StateBatch, StepKernel


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_decision_agrees_with_the_engine(config: dict[str, Any]) -> None:
    cfg = WhyFirstConfig(**config)
    seeds = [derive_seed(11, i) for i in range(12)] + [0, 2**64 - 1]
    game = WhyFirst(cfg)
    assert play_side_by_side(game, why_first_states.kernel(cfg), seeds, seed=len(config)) > 0


def test_a_wrong_rule_is_caught() -> None:
    """The same comparison fails for a kernel whose deck has one card's value changed (WF-2):
    the deals differ from the engine's as soon as that card is dealt."""
    cfg = WhyFirstConfig(players=4)
    right = why_first_states.kernel(cfg)

    def arrays(batch: int) -> Any:
        ints, bits, tables = right.arrays(batch)
        values = tables[1].copy()
        values[0] = -values[0]
        return ints, bits, (tables[0], values, *tables[2:])

    wrong = StepKernel(**{**right.__dict__, "arrays": arrays})
    with pytest.raises(AssertionError):
        play_side_by_side(WhyFirst(cfg), wrong, [derive_seed(5, i) for i in range(8)], seed=1)


@pytest.mark.parametrize("config", CONFIGS[:8], ids=IDS[:8])
def test_the_heuristic_chooses_among_the_bots_best_actions(config: dict[str, Any]) -> None:
    """The compiled heuristic (the opponents of the vector environment) takes one of the
    actions :class:`WhyFirstHeuristicBot` rates best, at every decision of random games."""
    cfg = WhyFirstConfig(**config)
    game = WhyFirst(cfg)
    encoding = action_encoding(game)
    kernel = why_first_states.kernel(cfg)
    seeds = [derive_seed(13, i) for i in range(4)]
    batch = StateBatch(kernel, len(seeds))
    batch.deal(np.array(seeds, dtype=np.uint64))
    states = [game.new_initial_state(s) for s in seeds]
    bots = [WhyFirstHeuristicBot(game, seat, 0) for seat in range(cfg.players)]
    rng = np.random.default_rng(2)
    mask = np.zeros(kernel.num_actions, np.bool_)
    while not all(s.is_terminal for s in states):
        actions = np.zeros(len(seeds), np.int64)
        for i, state in enumerate(states):
            if state.is_terminal:
                continue
            seat = min(state.pending)
            view = game.observe(state, seat)
            rated = {a: bots[seat]._evaluate(view, a) for a in view.legal_actions}
            top = max(rated.values())
            best = {encoding.index(a) for a, v in rated.items() if v >= top - 1e-12}
            chosen = why_first_states.heuristic_action(
                batch.ints, batch.bits, i, mask, 0, batch.tables, batch.streams
            )
            assert chosen in best or len(view.legal_actions) == 1, f"game {i}"
            legal = [encoding.index(a) for a in view.legal_actions]
            actions[i] = legal[rng.integers(len(legal))]
            game.apply_unchecked(state, seat, encoding.action(int(actions[i])))
        batch.apply(actions)
