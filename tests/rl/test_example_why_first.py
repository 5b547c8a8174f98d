"""The NumPy training example for Why First? (``examples/train_why_first.py``): its gradients
are the loss's (checked by finite differences), a short run trains and evaluates on fixed
games, and the plot is written."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_why_first.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_why_first", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_backward_pass_is_the_gradient(example: ModuleType) -> None:
    rng = np.random.default_rng(0)
    net = example.Network.new(7, 5, 6, rng)
    for key in net.params:  # non-zero biases and heads, so every term is exercised
        net.params[key] = net.params[key] + rng.normal(0, 0.3, net.params[key].shape)
        net.params[key] = net.params[key].astype(np.float64)
    x = rng.normal(size=(4, 7))
    weights_l, weights_v = rng.normal(size=(4, 5)), rng.normal(size=4)

    def loss() -> float:
        logits, values, _ = net.forward(x)
        return float((weights_l * logits).sum() + (weights_v * values).sum())

    _, _, cache = net.forward(x)
    grads = net.backward(cache, weights_l, weights_v)
    for key, value in net.params.items():
        flat = value.reshape(-1)
        for j in range(0, flat.size, max(1, flat.size // 7)):
            old = flat[j]
            flat[j] = old + 1e-6
            up = loss()
            flat[j] = old - 1e-6
            down = loss()
            flat[j] = old
            assert abs((up - down) / 2e-6 - grads[key].reshape(-1)[j]) < 1e-4, key


def test_a_short_run_trains_and_evaluates_the_same_games(
    example: ModuleType, tmp_path: Path
) -> None:
    args = argparse.Namespace(
        players=3, minutes=60.0, updates=2, eval_every=3600.0, eval_games=16, envs=8, horizon=4,
        epochs=2,
        minibatch=16, hidden=8, learning_rate=1e-3, lam=0.95, clip=0.2, entropy=0.01,
        value_coef=0.5, seed=0,
    )  # fmt: skip
    points = example.train(args)  # an evaluation, two updates, the last evaluation
    assert [p["steps"] for p in points] == [0, 2 * 4 * 8]
    for point in points:
        assert 0.0 <= point["low"] <= point["share"] <= point["high"] <= 1.0
    rng = np.random.default_rng(1)
    net = example.Network.new(65, 27, 8, rng)
    assert example.evaluate(net, 16, seed=3, players=3) == example.evaluate(
        net, 16, seed=3, players=3
    )
    path = tmp_path / "curve.png"
    example.plot(points, path, 3)
    assert path.read_bytes().startswith(b"\x89PNG")
