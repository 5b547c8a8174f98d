"""Setback's step kernel (:mod:`racedeck.kernels.setback_steps`) against the engine, decision by
decision (:func:`kernels.side_by_side.play_side_by_side`), on every configuration of the
kernel's tests (2 to 6 players, every deck, rows and lanes, hands and draws, ``self_block``,
``edge_bump``, ``max_moves``): the seat asked — in a BLOCK window every seat that could answer,
in seating order (SB-9 amended twice) — the legal mask, and the asked player's observation,
equal to the encoder of that player's view, which shows nobody who else was asked or answered.
The compiled heuristic takes an action the bot could take."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kernels.side_by_side import play_side_by_side
from kernels.test_setback import CONFIGS, IDS, Fixed
from racedeck.bots.setback import SetbackHeuristicBot
from racedeck.core.rng import derive_seed
from racedeck.games.setback import Setback, SetbackConfig
from racedeck.games.setback.encoding import action_encoding
from racedeck.kernels import setback_steps
from racedeck.kernels.batch import StateBatch


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_decision_agrees_with_the_engine(config: dict[str, Any]) -> None:
    cfg = SetbackConfig(**config)
    seeds = [derive_seed(23, i) for i in range(4)] + [0, 2**64 - 1]
    kernel = setback_steps.kernel(cfg)
    assert play_side_by_side(Setback(cfg), kernel, seeds, seed=len(config)) > 0


def test_the_heuristic_takes_one_of_the_bots_best_actions() -> None:
    cfg = SetbackConfig(players=3)
    game = Setback(cfg)
    encoding = action_encoding(game)
    seeds = [derive_seed(29, i) for i in range(4)]
    batch = StateBatch(setback_steps.kernel(cfg), len(seeds))
    batch.deal(np.array(seeds, dtype=np.uint64))
    states = [game.new_initial_state(s) for s in seeds]
    bots = [SetbackHeuristicBot(game, seat, 0) for seat in range(cfg.players)]
    mask = np.zeros(batch.kernel.num_actions, np.bool_)
    rng = np.random.default_rng(5)
    while not all(s.is_terminal for s in states):
        actions = np.zeros(len(seeds), np.int64)
        for i, state in enumerate(states):
            if state.is_terminal:
                continue
            seat = state.pending[0]
            view = game.observe(state, seat)
            best = {encoding.index(a) for a in _best(bots[seat], view)}
            chosen = setback_steps.heuristic_action(
                batch.ints, batch.bits, i, mask, 0, batch.tables, batch.streams
            )
            assert chosen in best, f"game {i}"
            legal = [encoding.index(a) for a in view.legal_actions]
            actions[i] = legal[rng.integers(len(legal))]
            game.apply_unchecked(state, seat, encoding.action(int(actions[i])))
        batch.apply(actions)


def _best(bot: SetbackHeuristicBot, view: Any) -> set[Any]:
    """Every action the bot could take in ``view``: its tie-break tried with each choice."""
    found = set()
    for choice in range(len(view.legal_actions)):
        bot._rng = Fixed(choice)  # type: ignore[assignment]
        found.add(bot.act(view))
    return found
