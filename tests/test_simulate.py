"""Simulation: same seed, same numbers, whatever the number of processes."""

from __future__ import annotations

import json

import pytest
from budget import scaled

from racedeck.sim import Share, simulate, wilson_interval

SPREAD = scaled(50, least=34)
"""Games enough for two workers to take many chunks (at least 17 jobs per worker: more
chunks than are sent ahead, and a last chunk shorter than the others), so results come back
out of order and must still be combined in game order."""


def test_workers_do_not_change_the_result() -> None:
    args = ("why-first", {"players": 3}, ["heuristic", "random", "random"], SPREAD)
    one = simulate(*args, seed=5, workers=1)
    two = simulate(*args, seed=5, workers=2)
    assert one.to_json() == two.to_json()
    assert one.games == SPREAD


def test_different_seeds_give_different_games() -> None:
    args = ("why-first", {"players": 3}, ["random"] * 3, scaled(20))
    assert simulate(*args, seed=1).to_json() != simulate(*args, seed=2).to_json()


def test_win_shares_sum_to_one_with_leo() -> None:
    games = scaled(40)
    result = simulate("why-first", {"players": 2}, ["random", "random"], games, seed=3)
    names = [c.name for c in result.contestants]
    assert names == ["P1", "P2", "Leo"]
    assert sum(c.wins for c in result.contestants) == pytest.approx(games)
    json.dumps(result.to_json())


def test_progress_reports_every_game() -> None:
    seen: list[int] = []
    simulate("why-first", {"players": 3}, ["random"] * 3, SPREAD, seed=1, progress=seen.append)
    assert sum(seen) == SPREAD


def test_bad_bot_or_config_is_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        simulate("why-first", {"players": 3}, ["nobody"] * 3, 10)
    with pytest.raises(ValueError, match="2 to 6 players"):
        simulate("why-first", {"players": 9}, ["random"] * 9, 10)


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3)
    assert high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    share = Share.of(0, 10)
    assert share.value == 0 and share.low == 0 and share.high > 0.2
