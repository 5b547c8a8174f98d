"""PettingZoo's own checks of both faces, for every game and several configurations."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from racedeck import rl

from .configs import CONFIGS, IDS


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # The API test warns that an observation dict "is not a NumPy array": masked observations
    # are dicts by PettingZoo's own convention ({"observation", "action_mask"}).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_aec_api(game_id: str, config: dict[str, Any]) -> None:
    api_test(rl.env(game_id, **config), num_cycles=300)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_parallel_api(game_id: str, config: dict[str, Any]) -> None:
    parallel_api_test(rl.parallel_env(game_id, **config), num_cycles=300)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_aec_seed(game_id: str, config: dict[str, Any]) -> None:
    seed_test(lambda: rl.env(game_id, **config), num_cycles=100)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_parallel_seed(game_id: str, config: dict[str, Any]) -> None:
    parallel_seed_test(lambda: rl.parallel_env(game_id, **config), num_cycles=100)
