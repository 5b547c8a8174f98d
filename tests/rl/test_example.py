"""The worked example's evaluation and plot (``examples/train_setback.py``), which need no
PyTorch: a small budget, a random policy."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_setback.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_setback", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_evaluation_replays_the_same_games(example: ModuleType) -> None:
    first = example.evaluate(example.random_policy(3), players=3, games=12, seed=5)
    again = example.evaluate(example.random_policy(3), players=3, games=12, seed=5)
    assert first == again
    assert 0.0 <= first.low <= first.value <= first.high <= 1.0


def test_the_evaluation_plays_whole_games_and_asks_only_with_a_legal_choice(
    example: ModuleType,
) -> None:
    picks: list[int] = []

    def lowest(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.dtype == np.float32 and mask.any()
        picks.append(int(np.flatnonzero(mask)[0]))
        return picks[-1]

    share = example.evaluate(lowest, players=4, games=6, seed=1, game="why-first")
    assert 0.0 <= share.value <= 1.0
    # The base game asks each seat once per card round, 5 stages of 5 rounds (WF-3, WF-7),
    # but the fifth card of a stage goes on one's own figure without a decision (WF-5).
    assert len(picks) == 6 * 5 * 4


def test_the_plot_is_written(example: ModuleType, tmp_path: Path) -> None:
    points = [
        example.Point(steps, steps / 1000, share, share - 0.05, share + 0.05, 100)
        for steps, share in ((0, 0.15), (10_000, 0.2), (20_000, 0.3))
    ]
    path = tmp_path / "curve.png"
    example.plot(points, players=4, path=path, title="test")
    assert path.read_bytes().startswith(b"\x89PNG")
