"""The trainers (:mod:`racedeck.rl.dmc`, :mod:`racedeck.rl.expert`) and their network
(:mod:`racedeck.rl.network`): gradients equal finite differences, a run stopped and resumed is
the run never stopped, the search's samples are what the search decided, and ``racedeck
train`` trains, reports and resumes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from typer.testing import CliRunner

import racedeck
from racedeck.bots.policy import MLPPolicy
from racedeck.bots.registry import make_bot
from racedeck.cli.app import app
from racedeck.plugins import plugin
from racedeck.rl.dmc import DMCSettings, DMCTrainer
from racedeck.rl.expert import ExpertSettings, ExpertTrainer, teacher_games
from racedeck.rl.network import Adam, Network
from racedeck.rl.ppo import PPOSettings, PPOTrainer, opponent_games
from racedeck.rl.vector import VectorGame


@pytest.mark.parametrize("activation", ["relu", "tanh"])
def test_backward_gives_the_gradients_of_finite_differences(activation: str) -> None:
    net = Network.create([5, 7, 6, 3], activation, seed=1)
    net.params = [p.astype(np.float64) for p in net.params]  # type: ignore[misc]
    x = np.random.default_rng(0).standard_normal((4, 5))

    def loss() -> float:
        return float((net.predict(x) ** 2).sum() / 2)  # type: ignore[arg-type]

    out, cache = net.forward(x)  # type: ignore[arg-type]
    grads = net.backward(cache, out)
    for k, p in enumerate(net.params):
        for flat in range(0, p.size, max(1, p.size // 5)):
            i = np.unravel_index(flat, p.shape)
            old = p[i]
            p[i] = old + 1e-6
            up = loss()
            p[i] = old - 1e-6
            down = loss()
            p[i] = old
            assert (up - down) / 2e-6 == pytest.approx(grads[k][i], rel=1e-5, abs=1e-8)


def test_adam_fits_a_regression() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((256, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], np.float32)).astype(np.float32)
    net = Network.create([4, 16, 1], seed=2)
    adam = Adam(lr=1e-2)
    for _ in range(400):
        out, cache = net.forward(x)
        adam.step(net.params, net.backward(cache, 2 * (out - y) / len(x)))
    assert float(np.mean((net.predict(x) - y) ** 2)) < 0.01


def test_a_network_plays_as_the_policy_it_saves(tmp_path: Path) -> None:
    net = Network.create([65, 8, 28], seed=5)
    policy = net.policy("why-first", {"players": 3}, value_head=True)
    again = MLPPolicy.load(policy.save(tmp_path / "p.npz"))
    x = np.random.default_rng(1).random((6, 65), dtype=np.float32)
    assert (again.activation, again.value_head, again.num_actions) == ("relu", True, 27)
    assert np.array_equal(again.logits(x), net.predict(x)[:, :27])
    assert np.array_equal(again.values(x), net.predict(x)[:, 27])
    old = MLPPolicy.random("why-first", {"players": 3}, hidden=(8,), seed=1)
    with pytest.raises(ValueError, match="no value estimates"):
        old.values(x)


@pytest.mark.parametrize(
    ("game_id", "config"),
    [("why-first", {"players": 4}), ("six-day-race", {"players": 4}), ("setback", {"players": 2})],
)
def test_the_heuristic_actions_are_legal_and_repeat_for_the_seed(
    game_id: str, config: dict[str, int]
) -> None:
    runs = []
    for _ in range(2):
        games = VectorGame(game_id, 64, **config)
        out = games.reset(seed=7)
        chosen = []
        for _ in range(30):
            actions = games.heuristic_actions()
            assert out.action_mask[np.arange(64), actions].all()
            chosen.append(actions.copy())
            out = games.step(actions)
        runs.append(np.array(chosen))
    assert np.array_equal(runs[0], runs[1])


def test_a_dmc_run_stopped_and_resumed_is_the_run_never_stopped(tmp_path: Path) -> None:
    settings = DMCSettings(
        "why-first", {"players": 3}, envs=32, round_steps=60, hidden=(16,), batch=64,
        eval_games=50, warm_rounds=2,
    )  # fmt: skip
    whole = DMCTrainer(settings, tmp_path / "whole")
    whole.train(rounds=3)
    DMCTrainer(settings, tmp_path / "parts").train(rounds=1)
    resumed = DMCTrainer.resume(tmp_path / "parts")
    resumed.train(rounds=3)
    for a, b in zip(whole.network.params, resumed.network.params, strict=True):
        assert np.array_equal(a, b)
    assert [h["samples"] for h in whole.history] == [h["samples"] for h in resumed.history]
    assert whole.history[-1]["eval"] == resumed.history[-1]["eval"]
    assert whole.samples > 0 and whole.history[-1]["loss"] > 0


def test_a_ppo_run_imitates_then_improves_and_resumes_exactly(tmp_path: Path) -> None:
    settings = PPOSettings(
        "setback", {"players": 2}, hidden=(16,), warm_samples=2000, anchor_samples=0,
        envs=16, horizon=8, minibatch=32, eval_games=30, eval_every=2,
    )  # fmt: skip
    whole = PPOTrainer(settings, tmp_path / "whole")
    whole.train(chunks=3)
    PPOTrainer(settings, tmp_path / "parts").train(chunks=1)
    resumed = PPOTrainer.resume(tmp_path / "parts")
    resumed.train(chunks=3)
    for a, b in zip(whole.average.params, resumed.average.params, strict=True):
        assert np.array_equal(a, b)
    # The imitation first (chunk -1, evaluated), then rounds; evaluations every other round.
    assert [h["chunk"] for h in whole.history] == [-1, 0, 1, 2]
    assert ["eval" in h for h in whole.history] == [True, False, True, False]
    assert whole.history[-1]["total_samples"] == 3 * 16 * 8
    assert whole.history[0]["matched"] > 0.3  # it learned the heuristic's choices somewhat


def test_the_search_samples_are_the_search_decisions() -> None:
    samples = teacher_games("setback", {"players": 2}, 40, 0.0, seed=3, games=1)
    n = samples["value"].shape[0]
    assert n > 10
    assert samples["mask"].sum(axis=1).min() > 1  # only decisions with a choice
    rows = np.arange(n)
    assert samples["mask"][rows, samples["choice"]].all()
    shares = samples["policy"].astype(np.float64)
    assert np.allclose(shares.sum(axis=1), 1.0, atol=1e-2)
    assert (shares[~samples["mask"]] == 0).all()
    # The choice is the most visited action, as fastsearch plays.
    assert (shares[rows, samples["choice"]] >= shares.max(axis=1) - 1e-3).all()
    assert ((samples["value"] >= 0) & (samples["value"] <= 1)).all()
    # The observations are the seat's view as the environments encode it.
    game = racedeck.make("setback", players=2)
    assert samples["obs"].shape[1] == plugin("setback", "observation").observer(game).size


def test_an_expert_run_stopped_and_resumed_is_the_run_never_stopped(tmp_path: Path) -> None:
    settings = ExpertSettings(
        "why-first", {"players": 3}, teacher_iterations=30, chunk_games=1, hidden=(16,),
        batch=32, eval_games=40, warm_samples=300,
    )  # fmt: skip
    whole = ExpertTrainer(settings, tmp_path / "whole")
    whole.train(chunks=3, workers=0)
    ExpertTrainer(settings, tmp_path / "parts").train(chunks=1, workers=0)
    resumed = ExpertTrainer.resume(tmp_path / "parts")
    assert resumed.warmed and resumed.samples == whole.history[1]["total_samples"]
    resumed.train(chunks=3, workers=0)
    for a, b in zip(whole.network.params, resumed.network.params, strict=True):
        assert np.array_equal(a, b)
    assert [h["chunk"] for h in whole.history] == [-1, 0, 1, 2]
    assert len(list((tmp_path / "whole" / "data").glob("chunk-*.npz"))) == 3
    policy = MLPPolicy.load(whole.policy_file())
    assert policy.value_head
    bot = make_bot(f"policy:{whole.policy_file()}", racedeck.make("why-first", players=3), 0, 1)
    assert bot.name == "policy"


def test_racedeck_train_trains_reports_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "train", "why-first", "-p", "3", "--method", "dmc", "--out", str(out), "--rounds", "1",
        "--envs", "16",
        "--round-steps", "40", "--hidden", "8", "--eval-games", "20", "--warm-rounds", "1",
    ]  # fmt: skip
    runner = CliRunner()
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "vs heuristic" in first.output and "policy:" in first.output
    assert (out / "policy.npz").exists() and (out / "curve.png").exists()
    again = runner.invoke(app, args)
    assert again.exit_code != 0 and "--resume" in again.output
    resume = ["train", "why-first", "-p", "3", "--method", "dmc", "--out", str(out)]
    resume += ["--rounds", "2", "--resume"]
    more = runner.invoke(app, resume)
    assert more.exit_code == 0, more.output
    lines = (out / "history.jsonl").read_text().splitlines()
    assert [json.loads(line)["round"] for line in lines] == [1, 2]


@pytest.fixture
def ship_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """:mod:`racedeck.bots.learned` shipping to and loading from ``tmp_path`` only."""
    from racedeck.bots import learned

    monkeypatch.setattr(learned, "LEARNED", tmp_path)
    learned._policies.cache_clear()
    yield learned
    learned._policies.cache_clear()


def test_the_learned_bot_plays_the_shipped_policy_of_its_player_count(
    tmp_path: Path, ship_here: ModuleType
) -> None:
    learned = ship_here
    assert not learned.has_learned("why-first")
    net = Network.create([80, 8, 37], seed=2)
    policy = net.policy("why-first", {"players": 4}, value_head=True)
    path = learned.ship(policy)
    assert path == tmp_path / "why-first-4.npz"
    assert learned.has_learned("why-first")
    game = racedeck.make("why-first", players=4)
    bot = make_bot("learned", game, 1, 5)
    assert bot.name == "learned"
    # Half precision plays what the full network plays (here: on random views).
    state = game.new_initial_state(3)
    view = game.observe(state, state.pending[0])
    half = MLPPolicy.load(path)
    x = np.random.default_rng(0).random((50, 80), dtype=np.float32)
    assert (half.logits(x).argmax(1) == policy.logits(x).argmax(1)).mean() > 0.95
    assert bot.act(view) in view.legal_actions
    with pytest.raises(ValueError, match=r"no learned why-first bot for 3 players; trained: "):
        make_bot("learned", racedeck.make("why-first", players=3), 0, 1)


def test_six_day_race_policies_are_matched_by_riders_a_player(
    tmp_path: Path, ship_here: ModuleType
) -> None:
    """SD-12: four players ride two riders each unless told otherwise, so a policy trained on
    the default plays ``riders=2`` too (the same game), and not ``riders=1``."""
    learned = ship_here
    net = Network.create([187, 8, 7], seed=2)
    path = learned.ship(net.policy("six-day-race", {"players": 4, "races": 1}))
    assert path == tmp_path / "six-day-race-4x2.npz"
    for riders in (0, 2):
        game = racedeck.make("six-day-race", players=4, races=1, riders=riders)
        assert make_bot("learned", game, 0, 1).name == "learned"
    one = racedeck.make("six-day-race", players=4, races=1, riders=1)
    expected = r"for 4 players, 1 rider each; trained: 4 players, 2 riders each"
    with pytest.raises(ValueError, match=expected):
        make_bot("learned", one, 0, 1)


def test_a_run_starts_from_a_saved_policy_instead_of_imitating(tmp_path: Path) -> None:
    settings = PPOSettings(
        "setback", {"players": 2}, hidden=(16,), warm_samples=2000, anchor_samples=0,
        envs=8, horizon=4, minibatch=16, eval_games=10, eval_every=1,
    )  # fmt: skip
    first = PPOTrainer(settings, tmp_path / "first")
    first.train(chunks=1)
    second = PPOTrainer(settings, tmp_path / "second")
    second.start_from(MLPPolicy.load(first.policy_file()))
    assert second.warmed and second.optimiser.lr == settings.ppo_lr
    x = np.random.default_rng(0).random((4, second.observation_size), dtype=np.float32)
    assert np.allclose(second.scores(x), first.scores(x))
    second.train(chunks=1)
    assert [h["chunk"] for h in second.history] == [0]  # no imitation
    other = PPOSettings("setback", {"players": 2}, hidden=(8,))
    with pytest.raises(ValueError, match="cannot start a run"):
        PPOTrainer(other).start_from(MLPPolicy.load(first.policy_file()))


def test_a_ppo_run_learns_against_any_bot_in_the_engine_and_resumes_exactly(
    tmp_path: Path,
) -> None:
    # Opponents that are not compiled (here a tiny Python search, and the heuristic taking
    # every other game) play in the engine's games.
    games = opponent_games("why-first", 3, "search@3+heuristic", {"players": 2})
    assert [env.opponents for env in games.envs] == [("search@3",), ("heuristic",), ("search@3",)]
    settings = PPOSettings(
        "why-first", {"players": 2}, hidden=(8,), warm_samples=500, anchor_samples=0,
        envs=3, horizon=25, minibatch=25, eval_games=10, eval_every=2,
        opponents="search@3+heuristic",
    )  # fmt: skip
    whole = PPOTrainer(settings, tmp_path / "whole")
    whole.train(chunks=2)
    PPOTrainer(settings, tmp_path / "parts").train(chunks=1)
    resumed = PPOTrainer.resume(tmp_path / "parts")
    resumed.train(chunks=2)
    for a, b in zip(whole.average.params, resumed.average.params, strict=True):
        assert np.array_equal(a, b)
    assert whole.history[-1]["total_samples"] == 2 * 3 * 25
    # Each round notes the games it ended against the opponents and the learner's share.
    assert all(0.0 <= h["won"] <= 1.0 for h in whole.history[1:])
    assert sum(h["games"] for h in whole.history[1:]) > 0


def test_racedeck_train_names_an_unknown_opponent() -> None:
    args = ["train", "why-first", "-p", "2", "--opponents", "nobody", "--rounds", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code != 0 and "nobody" in result.output
    dmc = ["train", "why-first", "--method", "dmc", "--opponents", "random", "--rounds", "1"]
    refused = CliRunner().invoke(app, dmc)
    assert refused.exit_code != 0 and "ppo" in refused.output
