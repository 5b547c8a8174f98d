"""The trainers' network on JAX (:mod:`racedeck.rl.jax_network`), run here on JAX's CPU device
— the same code a GPU runs: it computes what the NumPy network computes (outputs, gradients,
Adam's steps, the moving average) to float32 rounding, trains a run that resumes exactly, goes
on with a NumPy run's checkpoint, and ``racedeck train --backend`` chooses it."""

from __future__ import annotations

import functools
import os
import pkgutil
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.rl.expert import ExpertSettings, ExpertTrainer
from racedeck.rl.network import Adam, Network, make_network, resolve_backend
from racedeck.rl.ppo import PPOSettings, PPOTrainer

jax_network = pytest.importorskip("racedeck.rl.jax_network")
JaxNetwork = jax_network.JaxNetwork


def own_process(test: Callable[..., None]) -> Callable[..., None]:
    """Run ``test`` in a child forked for it, failing with the child's traceback. JAX starts
    threads once it computes, and a test worker that had started them would fork them into
    every process pool it made afterwards; forked before, the threads live in the child only."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run, report, leave without running the parent's exit code
            os.close(read)
            try:
                test(*args, **kwargs)
                report = b"ok"
            except BaseException:
                report = traceback.format_exc().encode()
            with os.fdopen(write, "wb") as out:
                out.write(report)
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as inp:
            report = inp.read()
        _, status = os.waitpid(pid, 0)
        if report != b"ok":
            pytest.fail(report.decode() or f"the test's process ended with {status}", False)

    return run


def close(a: Any, b: Any) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-5))


@pytest.mark.parametrize("activation", ["relu", "tanh"])
@own_process
def test_outputs_and_gradients_are_the_numpy_networks(activation: str) -> None:
    cpu = Network.create([9, 16, 12, 5], activation, seed=3)
    net = JaxNetwork(cpu.params, activation)
    assert net.sizes == cpu.sizes == [9, 16, 12, 5]
    rng = np.random.default_rng(4)
    x = rng.standard_normal((7, 9)).astype(np.float32)
    out, cache = net.forward(x)
    want, want_cache = cpu.forward(x)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32 and close(out, want)
    grad = rng.standard_normal(out.shape).astype(np.float32)
    for got, expected in zip(
        net.backward(cache, grad), cpu.backward(want_cache, grad), strict=True
    ):
        assert close(got, expected)


@own_process
def test_adam_steps_and_the_moving_average_are_the_numpy_ones() -> None:
    cpu = Network.create([6, 10, 3], seed=5)
    net = JaxNetwork(cpu.params)
    average_cpu, average = cpu.copy(), net.copy()
    # A small clip, so that the first steps are clipped and the later ones may not be.
    adam_cpu, adam = Adam(lr=1e-2, clip=0.5), Adam(lr=1e-2, clip=0.5)
    rng = np.random.default_rng(6)
    for _ in range(20):
        x = rng.standard_normal((16, 6)).astype(np.float32)
        out, cache = net.forward(x)
        out_cpu, cache_cpu = cpu.forward(x)
        norm = net.update(adam, net.backward(cache, out))
        norm_cpu = cpu.update(adam_cpu, cpu.backward(cache_cpu, out_cpu))
        assert norm == pytest.approx(norm_cpu, rel=1e-3)
        average.blend(net, 0.9)
        average_cpu.blend(cpu, 0.9)
    assert adam.steps == adam_cpu.steps == 20
    for mine, theirs in ((net, cpu), (average, average_cpu)):
        for got, expected in zip(mine.params, theirs.params, strict=True):
            assert isinstance(got, np.ndarray) and close(got, expected)
    for got, expected in zip(adam.m + adam.v, adam_cpu.m + adam_cpu.v, strict=True):
        assert close(got, expected)
    with pytest.raises(TypeError, match="blends with another"):
        average.blend(cpu, 0.9)


@own_process
def test_a_jax_run_resumes_exactly_and_goes_on_from_a_numpy_checkpoint(tmp_path: Path) -> None:
    settings = PPOSettings(
        "setback", {"players": 2}, hidden=(16,), warm_samples=2000, anchor_samples=0,
        envs=8, horizon=4, minibatch=16, eval_games=10, eval_every=1,
    )  # fmt: skip
    whole = PPOTrainer(settings, tmp_path / "whole", backend="jax")
    assert isinstance(whole.network, JaxNetwork)
    whole.train(chunks=2)
    PPOTrainer(settings, tmp_path / "parts", backend="jax").train(chunks=1)
    resumed = PPOTrainer.resume(tmp_path / "parts", backend="jax")
    resumed.train(chunks=2)
    for a, b in zip(whole.average.params, resumed.average.params, strict=True):
        assert np.array_equal(a, b)
    # The same run on NumPy learns the same weights, to rounding.
    numpy_run = PPOTrainer(settings, tmp_path / "numpy")
    numpy_run.train(chunks=2)
    x = np.random.default_rng(0).random((5, whole.observation_size), dtype=np.float32)
    assert np.allclose(whole.scores(x), numpy_run.scores(x), atol=1e-3)
    # A NumPy run's checkpoint goes on on JAX.
    moved = PPOTrainer.resume(tmp_path / "numpy", backend="jax")
    assert np.allclose(moved.scores(x), numpy_run.scores(x), atol=1e-6)
    moved.train(chunks=3)
    assert [h["chunk"] for h in moved.history] == [-1, 0, 1, 2]


@own_process
def test_an_expert_run_on_jax_searches_in_fresh_worker_processes(tmp_path: Path) -> None:
    """A process that started JAX must not fork: the searchers are spawned, and their chunks
    are the ones this process searches itself."""
    settings = ExpertSettings(
        "why-first", {"players": 3}, teacher_iterations=30, chunk_games=1, hidden=(16,),
        batch=32, eval_games=20, warm_samples=300,
    )  # fmt: skip
    pooled = ExpertTrainer(settings, tmp_path / "pooled", backend="jax")
    pooled.train(chunks=2, workers=1)
    here = ExpertTrainer(settings, tmp_path / "here", backend="jax")
    here.train(chunks=2, workers=0)
    for name in ("chunk-00000.npz", "chunk-00001.npz"):
        with (
            np.load(tmp_path / "pooled" / "data" / name) as a,
            np.load(tmp_path / "here" / "data" / name) as b,
        ):
            assert all(np.array_equal(a[k], b[k]) for k in a.files)
    for x, y in zip(pooled.average.params, here.average.params, strict=True):
        assert np.array_equal(x, y)


@own_process
def test_the_backend_is_chosen_by_name_or_by_what_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert isinstance(make_network([3, 4, 2], backend="numpy"), Network)
    assert isinstance(make_network([3, 4, 2], backend="jax"), JaxNetwork)
    with pytest.raises(ValueError, match="unknown backend 'gpu': auto, numpy, jax"):
        resolve_backend("gpu")
    with pytest.raises(ValueError, match="unknown backend"):
        make_network([3, 4, 2], backend="gpu")
    real = pkgutil.iter_modules

    def without_gpu(*args: Any, **kwargs: Any) -> Any:
        for module in real(*args, **kwargs):
            if not module.name.startswith(("jax_cuda", "jax_rocm")):
                yield module

    def with_cuda(*args: Any, **kwargs: Any) -> Any:
        yield from without_gpu(*args, **kwargs)
        yield pkgutil.ModuleInfo(None, "jax_cuda12_plugin", True)  # type: ignore[arg-type]

    monkeypatch.setattr(pkgutil, "iter_modules", without_gpu)
    assert resolve_backend("auto") == "numpy"
    monkeypatch.setattr(pkgutil, "iter_modules", with_cuda)
    assert resolve_backend("auto") == "jax"


@own_process
def test_racedeck_train_learns_on_the_backend_it_is_given(tmp_path: Path) -> None:
    args = [
        "train", "why-first", "-p", "3", "--method", "dmc", "--rounds", "1", "--envs", "16",
        "--round-steps", "40", "--hidden", "8", "--eval-games", "20", "--warm-rounds", "1",
    ]  # fmt: skip
    runner = CliRunner()
    done = runner.invoke(app, [*args, "--backend", "jax", "--out", str(tmp_path / "jax")])
    assert done.exit_code == 0, done.output
    assert "Learning on jax (cpu)." in done.output and (tmp_path / "jax" / "policy.npz").exists()
    plain = runner.invoke(app, [*args, "--backend", "numpy", "--out", str(tmp_path / "np")])
    assert plain.exit_code == 0 and "Learning on numpy (cpu)." in plain.output
    wrong = runner.invoke(app, [*args, "--backend", "cuda", "--out", str(tmp_path / "x")])
    assert wrong.exit_code != 0 and "unknown backend 'cuda'" in wrong.output
