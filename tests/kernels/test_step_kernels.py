"""What every game's step kernel promises (:class:`racedeck.kernels.batch.StepKernel`), checked
on each game that registers one: a game's whole state is its two rows (copied, they play on
alike), the same seeds deal the same games, a seat to act always has a legal action, and every
observation entry lies in ``[-1, 1]``."""

from __future__ import annotations

import numpy as np
import pytest
from dash_game import SPEC as DASH

import racedeck
from racedeck.core import registry
from racedeck.kernels.batch import StateBatch
from racedeck.kernels.registry import step_kernel, step_kernel_games

GAMES = step_kernel_games()


def test_the_games_with_a_step_kernel_are_found() -> None:
    assert {"why-first", "six-day-race", "setback"} <= set(GAMES)


def test_a_game_without_one_is_told_which_have_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, DASH.id, DASH)  # a game of the tests, no kernel
    with pytest.raises(LookupError, match=r"dash has no step kernel yet \(games with one: "):
        step_kernel(racedeck.make("dash"))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_games_rows_are_its_whole_state(game_id: str) -> None:
    kernel = step_kernel(racedeck.make(game_id))
    games = 16
    batch = StateBatch(kernel, games)
    batch.reset(np.arange(games, dtype=np.uint64))
    again = StateBatch(kernel, games)
    again.reset(np.arange(games, dtype=np.uint64))
    assert np.array_equal(batch.ints, again.ints) and np.array_equal(batch.bits, again.bits)
    rng = np.random.default_rng(0)
    for step in range(400):
        players = batch.current_player()
        masks = batch.legal_mask()
        assert (masks[players >= 0].sum(axis=1) > 0).all()  # someone asked can always act
        seen = batch.observe(np.maximum(players, 0))
        assert (seen >= -1.0).all() and (seen <= 1.0).all()
        if step == 100:  # game 1 becomes a copy of game 0 mid-game: the same state
            batch.ints[1] = batch.ints[0]
            batch.bits[1] = batch.bits[0]
        if step >= 100:
            assert np.array_equal(batch.ints[1], batch.ints[0])
            assert np.array_equal(batch.bits[1], batch.bits[0])
        scores = rng.random(masks.shape)
        scores[~masks] = -1.0
        actions = scores.argmax(axis=1)
        if step >= 100:
            actions[1] = actions[0]  # the same choice in the same state
        batch.apply(actions)
