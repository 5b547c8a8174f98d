"""The Gymnasium face: registered ids, Gymnasium's own checker, seeding over whole episodes,
rewards and masks, and what the learner and the bots get to see."""

from __future__ import annotations

import subprocess
import sys
import warnings
from dataclasses import replace
from typing import Any

import gymnasium
import numpy as np
import pytest
from dash_game import SPEC as DASH
from gymnasium.utils.env_checker import check_env

import racedeck
from racedeck import rl
from racedeck.bots.base import Bot
from racedeck.core import registry
from racedeck.core.errors import IllegalAction
from racedeck.rl import single
from racedeck.rl.registration import env_id, register_envs
from racedeck.rl.single import RacedeckGym

from .configs import CONFIGS, IDS

GYM_IDS = {
    "why-first": "racedeck/WhyFirst-v0",
    "six-day-race": "racedeck/SixDayRace-v0",
    "setback": "racedeck/Setback-v0",
}

Trace = list[tuple[Any, ...]]


def play(env: gymnasium.Env[Any, Any], seed: int | None, choices: int) -> Trace:
    """One episode from ``reset(seed=seed)``, each action drawn (with its own generator seeded
    by ``choices``) from the legal ones: every observation, reward, flag and info."""
    pick = np.random.default_rng(choices)
    observation, info = env.reset(seed=seed)
    trace: Trace = [(observation.tobytes(), info["action_mask"].tobytes(), _plain(info))]
    done = False
    while not done:
        action = int(pick.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append(
            (
                action,
                observation.tobytes(),
                reward,
                terminated,
                truncated,
                info["action_mask"].tobytes(),
                _plain(info),
            )
        )
        done = terminated or truncated
    return trace


def _plain(info: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in info.items() if k != "action_mask"}


# -- registration ------------------------------------------------------------------------------


def test_importing_racedeck_rl_registers_an_id_per_game() -> None:
    assert register_envs() == tuple(GYM_IDS[g] for g in racedeck.available_games())
    for game_id, name in GYM_IDS.items():
        assert env_id(game_id) == name
        assert name in gymnasium.registry
        env = gymnasium.make(name)
        assert isinstance(env.unwrapped, RacedeckGym)
        assert env.unwrapped.session.game.spec.id == game_id


def test_make_passes_the_configuration_and_the_face_options() -> None:
    env = gymnasium.make(
        "racedeck/WhyFirst-v0", players=5, variant="tactical", opponents="random", learner_seat=3
    )
    inner = env.unwrapped
    assert isinstance(inner, RacedeckGym)
    assert inner.session.game.num_players == 5 and inner.session.game.config.variant == "tactical"
    assert inner.opponents == ("random",) * 4
    _, info = env.reset(seed=2)
    assert info["learner_seat"] == 3


def test_the_module_prefix_makes_an_id_without_importing_racedeck_first() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('racedeck.rl:racedeck/Setback-v0', players=2)\n"
        "observation, info = env.reset(seed=1)\n"
        "print(observation.shape == env.observation_space.shape, info['action_mask'].any())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


def test_a_game_without_encodings_gets_no_id(monkeypatch: pytest.MonkeyPatch) -> None:
    # Dash (tests/dash_game.py) registers bots only.
    monkeypatch.setitem(registry._REGISTRY, DASH.id, DASH)
    assert env_id(DASH.id) == "racedeck/Dash-v0"
    assert env_id(DASH.id) not in register_envs()
    with pytest.raises(KeyError, match=r"dash offers no 'encoding' plugin"):
        rl.gym_env(DASH.id)


# -- Gymnasium's checker -------------------------------------------------------------------------


def _checked(env: RacedeckGym) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker reports what it dislikes as warnings
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_gymnasiums_checker_passes(game_id: str, config: dict[str, Any]) -> None:
    _checked(rl.gym_env(game_id, **config))


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("why-first", {"players": 3, "opponents": "search@8", "learner_seat": "random"}),
        (
            "six-day-race",
            {"players": 4, "races": 1, "opponents": ["random", "heuristic", "search@4"]},
        ),
        ("setback", {"players": 4, "opponents": "random", "learner_seat": 2}),
    ],
)
def test_gymnasiums_checker_passes_with_other_opponents_and_seats(
    game_id: str, options: dict[str, Any]
) -> None:
    _checked(rl.gym_env(game_id, **options))


def test_the_checker_passes_through_gymnasium_make_with_ansi_rendering() -> None:
    env = gymnasium.make("racedeck/SixDayRace-v0", players=2, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "move" in text


# -- seeding -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_a_seed_fixes_every_step_of_a_sequence_of_episodes(
    game_id: str, config: dict[str, Any]
) -> None:
    first = rl.gym_env(game_id, learner_seat="random", **config)
    second = rl.gym_env(game_id, learner_seat="random", **config)
    # The seed starts a sequence: the episodes after it (reset without a seed) follow it too.
    one = [play(first, 7, 0), play(first, None, 1), play(first, None, 2)]
    two = [play(second, 7, 0), play(second, None, 1), play(second, None, 2)]
    assert one == two
    assert play(first, 8, 0) != one[0]


def test_a_random_learner_seat_is_drawn_per_episode_from_the_seed() -> None:
    env = rl.gym_env("setback", players=4, opponents="random", learner_seat="random")
    env.reset(seed=11)
    seats = [env.reset()[1]["learner_seat"] for _ in range(40)]
    assert set(seats) == {0, 1, 2, 3}
    env.reset(seed=11)
    assert [env.reset()[1]["learner_seat"] for _ in range(40)] == seats


def test_a_fixed_learner_seat_stays() -> None:
    env = rl.gym_env("why-first", players=4, learner_seat=2)
    assert {env.reset(seed=s)[1]["learner_seat"] for s in range(10)} == {2}


# -- what the learner and the bots see ---------------------------------------------------------


class SpyBot(Bot):
    """Wraps a bot and checks that each call brings this seat's view of the current state."""

    def __init__(self, inner: Bot, env: RacedeckGym, seen: list[Any]) -> None:
        super().__init__(inner.game, inner.seat, inner.seed)
        self.inner, self.env, self.seen = inner, env, seen

    def act(self, view: Any) -> Any:
        table = self.env.session.table
        assert not isinstance(view, type(table.state))
        assert view == table.game.observe(table.state, self.seat)
        assert self.seat in table.pending and self.seat != self.env.seat
        self.seen.append(view)
        return self.inner.act(view)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_bots_receive_their_own_views_never_the_state(
    game_id: str, config: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    holder: list[RacedeckGym] = []

    def spying(name: str, game: Any, seat: int, seed: int) -> Bot:
        inner = racedeck.bots.registry.make_bot(name, game, seat, seed)
        return SpyBot(inner, holder[0], seen) if holder else inner

    monkeypatch.setattr(single, "make_bot", spying)
    env = rl.gym_env(game_id, learner_seat="random", **config)
    holder.append(env)
    for seed in range(3):
        play(env, seed, seed)
    assert seen and {view.seat for view in seen} <= set(range(env.session.game.num_players))


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_the_learners_observation_is_its_views_encoding(
    game_id: str, config: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = rl.gym_env(game_id, learner_seat="random", **config)
    encoded: list[Any] = []
    encode = env.session.observer.encode

    def spying(view: Any) -> Any:
        encoded.append(view)
        return encode(view)

    monkeypatch.setattr(env.session.observer, "encode", spying)
    pick = np.random.default_rng(4)
    observation, info = env.reset(seed=4)
    while True:
        table = env.session.table
        view = table.game.observe(table.state, env.seat)
        # Built from the learner's view (without its header, which it does not read), nothing
        # else.
        assert replace(encoded[-1], header=view.header) == view
        np.testing.assert_array_equal(observation, encode(view))
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
        if not info["action_mask"].any():
            break
        assert env.seat in table.pending
        np.testing.assert_array_equal(info["action_mask"], env.session.encoding.legal_mask(view))
        action = int(pick.choice(np.flatnonzero(info["action_mask"])))
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert not info["action_mask"].any()
    assert {v.seat for v in encoded} == {env.seat}


# -- rewards, ends, errors ---------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GYM_IDS)
def test_the_reward_is_the_learners_share_of_the_win_at_the_end(game_id: str) -> None:
    env = rl.gym_env(game_id, players=2, opponents="random")
    for seed in range(4):
        trace = play(env, seed, seed)
        rewards = [step[2] for step in trace[1:]]
        assert set(rewards[:-1]) <= {0.0}
        last = trace[-1]
        assert last[3] is True and last[4] is False  # terminated by the rules, not truncated
        winners = last[-1]["winners"]
        # Leo (contestant 2 of a two-player Why First?) may share the win (WF-7, WF-9).
        expected = 1 / len(winners) if env.seat in winners else 0.0
        assert rewards[-1] == pytest.approx(expected)


def test_an_illegal_index_ends_the_episode_with_minus_one() -> None:
    env = rl.gym_env("setback", players=3)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == f"player_{env.seat}"
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step(0)


def test_an_illegal_index_can_raise_instead() -> None:
    env = rl.gym_env("six-day-race", players=2, illegal="raise")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(illegal)


def test_max_actions_truncates_without_reward() -> None:
    env = rl.gym_env("why-first", players=3, max_actions=7)
    trace = play(env, 2, 2)
    last = trace[-1]
    assert (last[2], last[3], last[4]) == (0.0, False, True)
    assert last[-1]["move"] >= 7 and "winners" not in last[-1]


def test_stepping_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="call reset"):
        rl.gym_env("why-first").step(0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"learner_seat": 3}, r"learner_seat must be a seat from 0 to 2 or 'random', not 3"),
        ({"learner_seat": "any"}, r"learner_seat must be a seat from 0 to 2 or 'random'"),
        ({"opponents": ["random"]}, r"3 seats leave 2 for bots: give one bot name or policy, or 2"),
        (
            {"opponents": "smart"},
            r"no bot 'smart' for why-first; levels: beginner, casual, strong, expert; bots",
        ),
        ({"render_mode": "video"}, r"render_mode must be None or one of 'human', 'ansi'"),
    ],
)
def test_wrong_options_are_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rl.gym_env("why-first", players=3, **options)


def _learner_played_by_a_bot(calls: list[int], until: int) -> Any:
    """A stand-in for the driver whose first ``until`` calls play the learner's seat with a
    random bot too, so that those games end before the learner is asked."""

    def playing(table: Any, players: list[Any]) -> int:
        calls.append(table.seed)
        if len(calls) <= until:
            players = [
                p or racedeck.bots.registry.make_bot("random", table.game, s, 1)
                for s, p in enumerate(players)
            ]
        return racedeck.run(table, players)

    return playing


def test_reset_deals_again_when_a_game_ends_before_the_learner_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In Setback every decision of a seat without a BLOCK may be a forced pass (SB-9), so the
    # bots can finish a game the learner had no say in; the driver here makes that happen.
    calls: list[int] = []
    monkeypatch.setattr(single, "run", _learner_played_by_a_bot(calls, until=2))
    env = rl.gym_env("setback", players=3, opponents="random")
    _, info = env.reset(seed=3)
    assert len(calls) == 3 and len(set(calls)) == 3  # two ended games, then a third deal
    assert info["action_mask"].any() and env.seat in env.session.table.pending
    assert "winners" not in info


def test_reset_gives_up_when_no_game_asks_the_learner(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(single, "run", _learner_played_by_a_bot(calls, until=10**6))
    env = rl.gym_env("setback", players=2, opponents="random")
    with pytest.raises(RuntimeError, match=r"none of 100 games dealt asked the learner anything"):
        env.reset(seed=1)
    assert len(calls) == single.MAX_DEALS
