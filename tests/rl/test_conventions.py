"""What researchers' tools expect of the faces: render modes (PettingZoo's ``render_test``,
Gymnasium's checker), one name per game, the global state of centralised critics, and a
``TypeError`` for an action that is no integer."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test
from pettingzoo.utils.conversions import parallel_to_aec

from racedeck import rl
from racedeck.rl.aec import RacedeckAEC
from racedeck.rl.parallel import RacedeckParallel
from racedeck.rl.rendering import RENDER_MODES

ONE_PER_GAME: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 3}),
    ("six-day-race", {"players": 3, "riders": 1, "races": 1}),
    ("setback", {"players": 3}),
)
GAMES = [game_id for game_id, _ in ONE_PER_GAME]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo warns that an observation dict "is not a NumPy array" (its own convention for
    # masked observations) and that render_test's human mode opens no window (it prints).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _first_legal(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


# -- rendering --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "config"), ONE_PER_GAME, ids=GAMES)
def test_pettingzoos_render_test_passes_for_the_aec_face(
    game_id: str, config: dict[str, Any]
) -> None:
    def make(render_mode: str | None = None) -> RacedeckAEC:
        return rl.env(game_id, render_mode=render_mode, **config)

    assert make().metadata["render_modes"] == list(RENDER_MODES)
    render_test(make)


@pytest.mark.parametrize(("game_id", "config"), ONE_PER_GAME, ids=GAMES)
def test_pettingzoos_render_test_passes_for_the_parallel_face(
    game_id: str, config: dict[str, Any]
) -> None:
    def make(render_mode: str | None = None) -> Any:
        return parallel_to_aec(rl.parallel_env(game_id, render_mode=render_mode, **config))

    render_test(make)


@pytest.mark.parametrize(("game_id", "config"), ONE_PER_GAME, ids=GAMES)
def test_gymnasiums_checker_passes_with_every_render_mode(
    game_id: str, config: dict[str, Any]
) -> None:
    for mode in RENDER_MODES:
        env = rl.gym_env(game_id, render_mode=mode, **config)
        assert env.metadata["render_modes"] == list(RENDER_MODES)
        check_env(env, skip_render_check=False)


def test_an_image_is_the_table_drawn_and_follows_the_game() -> None:
    env = rl.env("setback", players=3, render_mode="rgb_array")
    env.reset(seed=4)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    height, width, colours = first.shape
    assert colours == 3 and height > 100 and width > 300
    assert (first == 255).all(axis=2).mean() > 0.5  # a white ground …
    assert (first < 128).all(axis=2).any()  # … with dark text on it
    for _ in range(3):
        env.step(_first_legal(env.observe(env.agent_selection)["action_mask"]))
    later = env.render()
    assert isinstance(later, np.ndarray) and not np.array_equal(later, first)


def test_every_frame_of_an_environment_has_the_same_size() -> None:
    # A video needs it: Why First? stacks figures on a space (more lines), games differ.
    env = rl.parallel_env("why-first", players=6, render_mode="rgb_array")
    shapes = set()
    for seed in (1, 2):
        observations, _ = env.reset(seed=seed)
        for _ in range(8):
            frame = env.render()
            assert isinstance(frame, np.ndarray)
            shapes.add(frame.shape)
            actions = {a: _first_legal(o["action_mask"]) for a, o in observations.items()}
            observations = env.step(actions)[0]
    assert len(shapes) == 1


def test_human_mode_prints_the_games_own_board_at_every_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = rl.env("setback", players=2, render_mode="human")
    env.reset(seed=1)
    printed = capsys.readouterr().out  # reset shows the table without render() being called
    assert env.render() is None and capsys.readouterr().out == printed
    assert "FINISH" in printed and "START" in printed and "lane 1" in printed
    assert "Setback · move 0" in printed
    text = rl.env("setback", players=2, render_mode="ansi")
    text.reset(seed=1)
    lines = [line.rstrip() for line in printed.rstrip("\n").split("\n")]
    assert text.render() == "\n".join(lines)  # ansi: the same text, returned
    assert capsys.readouterr().out == ""  # … and never printed
    env.step(_first_legal(env.observe(env.agent_selection)["action_mask"]))
    assert "Setback · move 1" in capsys.readouterr().out
    gym = rl.gym_env("six-day-race", players=2, render_mode="human")
    gym.reset(seed=1)
    gym.step(_first_legal(gym.action_masks()))
    parallel = rl.parallel_env("why-first", players=2, render_mode="human")
    observations, _ = parallel.reset(seed=1)
    parallel.step({a: _first_legal(o["action_mask"]) for a, o in observations.items()})
    out = capsys.readouterr().out  # a table at each reset and step of either face
    assert out.count("Six Day Race · move") == 2 and out.count("Why First? · move") == 2


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_rendering_shows_no_concealed_commit(mode: str) -> None:
    # WF-4: the first seat commits one card or another; what anyone watching sees is the same.
    drawings = []
    for pick in (0, -1):
        env = rl.env("why-first", players=3, render_mode=mode)
        env.reset(seed=5)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[pick]))
        drawings.append(env.render())
    first, last = drawings
    assert first is not None and last is not None
    assert np.array_equal(np.asarray(first), np.asarray(last))


# -- names ----------------------------------------------------------------------------------------


def test_each_game_has_one_name_shared_by_both_faces() -> None:
    names = {}
    for game_id, config in ONE_PER_GAME:
        aec = rl.env(game_id, **config).metadata["name"]
        assert rl.parallel_env(game_id, **config).metadata["name"] == aec
        names[game_id] = aec
    assert names == {
        "why-first": "racedeck_why_first_v0",
        "six-day-race": "racedeck_six_day_race_v0",
        "setback": "racedeck_setback_v0",
    }
    # Each instance names its game in its own copy; the classes' defaults stay unnamed.
    assert "name" not in RacedeckAEC.metadata and "name" not in RacedeckParallel.metadata


# -- the global state -------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "config"), ONE_PER_GAME, ids=GAMES)
def test_the_state_is_every_seats_observation_in_the_state_space(
    game_id: str, config: dict[str, Any]
) -> None:
    env = rl.env(game_id, **config)
    env.reset(seed=2)
    first = env.state()
    assert first.dtype == np.float32 and first.shape == env.state_space.shape
    assert env.state_space.contains(first)
    every = [env.observe(agent)["observation"] for agent in env.possible_agents]
    assert np.array_equal(first, np.concatenate(every))
    assert all(o.shape[0] < first.shape[0] for o in every)  # no agent observes the state
    for _ in range(4):
        env.step(_first_legal(env.observe(env.agent_selection)["action_mask"]))
    later = env.state()
    assert env.state_space.contains(later) and not np.array_equal(later, first)


def test_the_parallel_face_has_the_same_state() -> None:
    aec = rl.env("why-first", players=4)
    parallel = rl.parallel_env("why-first", players=4)
    aec.reset(seed=9)
    observations, _ = parallel.reset(seed=9)
    assert parallel.state_space == aec.state_space
    assert np.array_equal(parallel.state(), aec.state())
    parallel.step({a: _first_legal(o["action_mask"]) for a, o in observations.items()})
    assert parallel.state_space.contains(parallel.state())
    assert not np.array_equal(parallel.state(), aec.state())


# -- actions of the wrong type ----------------------------------------------------------------

WRONG = [(3.7, "float 3.7"), (None, "NoneType None"), ("2", "str '2'"), (True, "bool True")]
EXPECTED = r"must be an action index \(an int or a NumPy integer\), not "


@pytest.mark.parametrize(("action", "shown"), WRONG, ids=[s for _, s in WRONG])
def test_an_action_of_the_wrong_type_raises_in_every_face(action: Any, shown: str) -> None:
    message = EXPECTED + shown.replace("(", r"\(").replace(".", r"\.")
    gym = rl.gym_env("six-day-race", players=2)
    gym.reset(seed=1)
    moves = gym.session.table.move  # the bots may have played before the learner's turn
    with pytest.raises(TypeError, match=message):
        gym.step(action)
    aec = rl.env("six-day-race", players=2)
    aec.reset(seed=1)
    with pytest.raises(TypeError, match=f"the action for {aec.agent_selection} {message}"):
        aec.step(action)
    parallel = rl.parallel_env("why-first", players=3)
    parallel.reset(seed=1)
    actions: dict[str, Any] = {"player_0": 0, "player_1": action, "player_2": 0}
    with pytest.raises(TypeError, match=f"the action for player_1 {message}"):
        parallel.step(actions)
    # Nothing was taken: the games stand where they were, no illegal action recorded.
    assert gym.session.table.move == moves
    for session in (gym.session, aec.session, parallel.session):
        assert session.illegal_by is None
    assert aec.session.table.move == 0 and parallel.session.table.move == 0


def test_a_parallel_step_takes_a_dict() -> None:
    env = rl.parallel_env("why-first", players=3)
    env.reset(seed=1)
    with pytest.raises(TypeError, match=r"actions must be a dict from agent to action index"):
        env.step([0, 0, 0])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "wrap", [int, np.int64, np.uint8, np.array], ids=["int", "int64", "uint8", "0-d array"]
)
def test_numpy_integers_are_action_indices(wrap: Callable[[int], Any]) -> None:
    env = rl.env("six-day-race", players=2)
    env.reset(seed=1)
    env.step(wrap(_first_legal(env.observe(env.agent_selection)["action_mask"])))
    assert env.session.table.move == 1 and env.session.illegal_by is None


def test_an_integer_that_is_no_legal_index_is_still_an_illegal_action() -> None:
    env = rl.gym_env("six-day-race", players=2)
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(10_000)
    assert terminated and reward == -1.0 and info["illegal_action"] == "player_0"
