"""Six Day Race's step kernel (:mod:`racedeck.kernels.six_day_race_steps`) against the engine,
decision by decision (:func:`kernels.side_by_side.play_side_by_side`), on every configuration
of the kernel's tests (2 to 8 players, one and two riders, refilled and empty grey decks, other
tracks and tables, one race and series); the rewards are SD-11's. The compiled heuristic takes
one of the cards the bot scores best."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kernels.side_by_side import play_side_by_side
from kernels.test_six_day_race import CONFIGS, IDS
from racedeck.bots.six_day_race import SixDayRaceHeuristicBot
from racedeck.core.rng import derive_seed
from racedeck.games.six_day_race import SixDayRace, SixDayRaceConfig
from racedeck.games.six_day_race.encoding import action_encoding
from racedeck.kernels import six_day_race_steps
from racedeck.kernels.batch import StateBatch


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_decision_agrees_with_the_engine(config: dict[str, Any]) -> None:
    cfg = SixDayRaceConfig(**config)
    seeds = [derive_seed(17, i) for i in range(6)] + [0, 2**64 - 1]
    kernel = six_day_race_steps.kernel(cfg)
    assert play_side_by_side(SixDayRace(cfg), kernel, seeds, seed=len(config)) > 0


def test_the_heuristic_plays_one_of_the_bots_best_cards() -> None:
    cfg = SixDayRaceConfig(players=3, riders=2, races=2)
    game = SixDayRace(cfg)
    encoding = action_encoding(game)
    seeds = [derive_seed(19, i) for i in range(4)]
    batch = StateBatch(six_day_race_steps.kernel(cfg), len(seeds))
    batch.deal(np.array(seeds, dtype=np.uint64))
    states = [game.new_initial_state(s) for s in seeds]
    bots = [SixDayRaceHeuristicBot(game, seat, 0) for seat in range(cfg.players)]
    mask = np.zeros(7, np.bool_)
    rng = np.random.default_rng(4)
    while not all(s.is_terminal for s in states):
        actions = np.zeros(len(seeds), np.int64)
        for i, state in enumerate(states):
            if state.is_terminal:
                continue
            seat = state.pending[0]
            view = game.observe(state, seat)
            scored = {a: bots[seat]._score(view, a.value) for a in view.legal_actions}
            top = max(scored.values())
            best = {encoding.index(a) for a, v in scored.items() if v >= top - 1e-9}
            chosen = six_day_race_steps.heuristic_action(
                batch.ints, batch.bits, i, mask, 0, batch.tables, batch.streams
            )
            assert chosen in best
            legal = [encoding.index(a) for a in view.legal_actions]
            actions[i] = legal[rng.integers(len(legal))]
            game.apply_unchecked(state, seat, encoding.action(int(actions[i])))
        batch.apply(actions)
