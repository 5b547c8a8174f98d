"""OpenSpiel's face: its own random-simulation API test, and what the module promises."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts

import racedeck
from racedeck.core.rng import Rng
from racedeck.rl import openspiel, recall
from racedeck.rl.faces import observer_for

from .configs import CONFIGS, IDS

SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def _forms(game_id: str) -> tuple[bool, ...]:
    return (False, True) if openspiel.is_simultaneous(game_id) else (False,)


FORMS = [
    pytest.param(g, c, t, id=i + ("-turns" if t else ""))
    for (g, c), i in zip(CONFIGS, IDS, strict=True)
    for t in _forms(g)
]


def _random_play(state: Any, rng: random.Random, steps: int) -> Any:
    """``state`` after up to ``steps`` random decisions (joint ones at simultaneous nodes)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == SIMULTANEOUS:
            n = state.get_game().num_players()
            joint = [rng.choice(state.legal_actions(p) or [0]) for p in range(n)]
            state.apply_actions(joint)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {
        "racedeck_why_first",
        "racedeck_why_first_turns",
        "racedeck_six_day_race",
        "racedeck_setback",
        "racedeck_setback_turns",
    } <= names
    assert openspiel.register() == openspiel.register()  # registering twice is harmless


@pytest.mark.parametrize(("game_id", "config", "turn_based"), FORMS)
def test_random_sim(game_id: str, config: dict[str, Any], turn_based: bool) -> None:
    """OpenSpiel's own API test, serializing and deserializing states along the way."""
    game = openspiel.load(game_id, turn_based=turn_based, **config)
    # One game: at every step it also checks every seat's information state, which costs
    # about what a second game did before there was one.
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _play_on(state: Any, seed: int) -> list[str]:
    """Every state of ``state``'s game played on at random from ``seed`` (a copy is played)."""
    state = state.clone()
    rng = random.Random(seed)
    seen = [str(state)]
    while not state.is_terminal():
        _random_play(state, rng, 1)
        seen.append(str(state))
    return seen


@pytest.mark.parametrize(("game_id", "config", "turn_based"), FORMS)
def test_games_and_states_pickle(game_id: str, config: dict[str, Any], turn_based: bool) -> None:
    """A game pickles with where its sequence of deals is, a state with its history and engine
    state (RNG included), so the copy deals and plays on as the original (Ray, multiprocessing)."""
    game = openspiel.load(game_id, turn_based=turn_based, seed=3, **config)
    str(game.new_initial_state())  # dealt: the sequence has moved on
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and str(copy) == str(game)
    assert str(copy.new_initial_state()) == str(game.new_initial_state())
    fresh = game.new_initial_state()  # not dealt yet: pickling deals it
    assert str(pickle.loads(pickle.dumps(fresh))) == str(fresh)
    state = _random_play(game.deal(6), random.Random(6), 9)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and again.move_number() == state.move_number()
    assert _play_on(again, 1) == _play_on(state, 1)
    game_copy, state_copy = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(game_copy) == str(game)
    assert _play_on(state_copy, 2) == _play_on(state, 2)


@pytest.mark.parametrize(("game_id", "config", "turn_based"), FORMS)
def test_game_type_and_info(game_id: str, config: dict[str, Any], turn_based: bool) -> None:
    game = openspiel.load(game_id, turn_based=turn_based, **config)
    kind = game.get_type()
    engine = racedeck.make(game_id, **config)
    # WF-4: commits at once; SB-9 amended again: a BLOCK window's answers at once.
    simultaneous = game_id in ("why-first", "setback") and not turn_based
    assert (kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS) == simultaneous
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC  # no chance nodes
    assert kind.provides_information_state_string
    size = game.observation_tensor_size()
    rows = game.max_game_length() * (size + game.num_distinct_actions())
    assert kind.provides_information_state_tensor == (size + rows <= recall.TENSOR_LIMIT)
    if kind.provides_information_state_tensor:
        assert game.information_state_tensor_size() == size + rows
    assert game.num_players() == config["players"]
    assert game.num_distinct_actions() == game.encoding.num_distinct_actions
    assert game.max_game_length() == game.encoding.max_game_length
    assert game.observation_tensor_size() == observer_for(engine).size
    leo = len(engine.contestant_names()) > engine.num_players  # WF-9: Leo can win alone
    expected = (
        pyspiel.GameType.Utility.GENERAL_SUM if leo else pyspiel.GameType.Utility.CONSTANT_SUM
    )
    assert kind.utility == expected


def test_a_deal_is_the_engines() -> None:
    game = openspiel.load("setback", players=3)
    engine = racedeck.make("setback", players=3)
    state = game.deal(42)
    assert state.engine_state.to_json() == engine.new_initial_state(42).to_json()
    seat = state.current_player()
    legal = [str(a) for a in engine.legal_actions(state.engine_state, seat)]
    assert sorted(state.legal_actions()) == state.legal_actions()
    assert sorted(state.action_to_string(seat, a) for a in state.legal_actions()) == sorted(legal)


def test_the_seed_parameter_fixes_the_sequence_of_deals() -> None:
    make_game = openspiel.game_class("setback")

    def deals(seed: int) -> list[str]:
        game = make_game({"players": 2, "seed": seed})
        return [str(game.new_initial_state()) for _ in range(3)]

    assert deals(5) == deals(5)
    assert deals(5) != deals(6)
    assert len(set(deals(5))) == 3


def test_a_clone_of_a_fresh_state_is_the_same_deal() -> None:
    game = openspiel.load("why-first", players=4)
    state = game.new_initial_state()
    clone = state.clone()
    assert str(clone) == str(state)
    clone.apply_actions([clone.legal_actions(p)[0] for p in range(4)])
    assert str(clone) != str(state)  # a clone is independent


def test_simultaneous_commits_and_turns() -> None:
    game = openspiel.load("why-first", players=4)
    state = game.deal(3)
    assert state.current_player() == SIMULTANEOUS
    assert all(state.legal_actions(p) for p in range(4))
    state.apply_actions([state.legal_actions(p)[-1] for p in range(4)])
    assert state.engine_state.move == 4  # one commit per seat, the round revealed (WF-4)
    turns = openspiel.load("why-first", turn_based=True, players=4).deal(3)
    for seat in range(4):
        assert turns.current_player() == seat
        assert turns.legal_actions(seat) and not turns.legal_actions((seat + 1) % 4)
        turns.apply_action(turns.legal_actions()[-1])
    assert turns.view(0) == state.view(0)


def test_an_illegal_action_is_refused() -> None:
    state = openspiel.load("setback", players=2).deal(1)
    illegal = next(
        a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions()
    )
    with pytest.raises(ValueError, match="may not play"):
        state._apply_action(illegal)
    sim = openspiel.load("why-first", players=3).deal(1)
    joint = [sim.legal_actions(p)[0] for p in range(3)]
    joint[2] = next(
        a for a in range(sim.get_game().num_distinct_actions()) if a not in sim.legal_actions(2)
    )
    before = str(sim)
    with pytest.raises(ValueError, match="player 2 may not play"):
        sim._apply_actions(joint)
    assert str(sim) == before  # nothing applied


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_observations_are_the_seats_views(game_id: str, config: dict[str, Any]) -> None:
    game = openspiel.load(game_id, **config)
    engine = racedeck.make(game_id, **config)
    encode = observer_for(engine).encode
    state = _random_play(game.deal(9), random.Random(9), 25)
    for p in range(game.num_players()):
        view = engine.observe(state.engine_state, p)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), encode(view))
        assert json.loads(state.observation_string(p)) == view.to_json()


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_a_resample_keeps_what_the_player_sees(game_id: str, config: dict[str, Any]) -> None:
    """A determinization changes only what the player cannot see, so nothing it observes
    (and nothing its observation string holds) depends on the others' secrets."""
    game = openspiel.load(game_id, turn_based=openspiel.is_simultaneous(game_id), **config)
    rng = random.Random(4)
    state = game.deal(4)
    changed = False
    for step in range(60):
        if state.is_terminal():
            break
        player = state.current_player()
        sampled = state.resample(player, Rng(step))
        assert sampled.current_player() == player
        assert sampled.observation_string(player) == state.observation_string(player)
        assert sampled.observation_tensor(player) == state.observation_tensor(player)
        changed = changed or str(sampled) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed  # the others' hands (or the deck order) were drawn anew


def test_spectator_observer_and_the_seats_information_state() -> None:
    game = openspiel.load("setback", players=3)
    state = _random_play(game.deal(2), random.Random(2), 10)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    assert json.loads(observer.string_from(state, 1)) == state.view(None).to_json()
    observer.set_from(state, 1)
    assert observer.dict["observation"] is observer.tensor
    recall_observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall_observer.string_from(state, 1) == state.information_state_string(1)
    assert recall_observer.tensor is None  # Setback's games are too long for a tensor
    with pytest.raises(ValueError, match="offers no information state tensor"):
        state.information_state_tensor(1)
    public_recall = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="never the spectator's"):
        game.make_py_observer(public_recall)


@pytest.mark.parametrize(("game_id", "config"), CONFIGS, ids=IDS)
def test_returns_are_shares_of_the_win(game_id: str, config: dict[str, Any]) -> None:
    game = openspiel.load(game_id, **config)
    engine = racedeck.make(game_id, **config)
    state = _random_play(game.deal(11), random.Random(11), 100_000)
    assert state.is_terminal()
    outcome = engine.outcome(state.engine_state)
    assert outcome is not None
    share = 1 / len(outcome.winners)
    assert state.returns() == [
        share if s in outcome.winners else 0.0 for s in range(game.num_players())
    ]


def test_unknown_parameters_are_named() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("racedeck_setback", {"colour": "red"})
    with pytest.raises(ValueError, match="racedeck_setback has no parameter colour"):
        openspiel.game_class("setback")({"colour": "red"})


def test_openspiel_ismcts_plays_a_racedeck_game() -> None:
    """OpenSpiel's own search runs on the games: one decision of its ISMCTSBot, which needs a
    sequential game (Setback's BLOCK windows are answered at once, SB-9 amended again: its
    turn-by-turn form)."""
    game = openspiel.load("setback", turn_based=True, players=2)
    state = game.deal(5)
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rs),
        1.0,
        8,
        random_state=rs,
        use_observation_string=True,
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(openspiel.resampler(5))
    assert int(bot.step(state)) in state.legal_actions()


@pytest.mark.parametrize("turn_based", [False, True])
def test_openspiel_rl_environment_plays_a_game(turn_based: bool) -> None:
    """OpenSpiel's RL environment runs the games (WF-4 commits at once, or one seat after
    another): on the view's tensor where the perfect-recall one would be too large, on the
    perfect-recall tensor in a configuration small enough to offer it."""
    name = openspiel.game_name("why-first", turn_based)
    env = rl_environment.Environment(name, players=4)
    game = env.game
    assert not game.get_type().provides_information_state_tensor
    rng = random.Random(3)
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.observation_tensor_size()
    while not step.last():
        legal = step.observations["legal_actions"]
        if env.is_turn_based:
            actions = [rng.choice(legal[step.observations["current_player"]])]
        else:
            actions = [rng.choice(legal[p]) for p in range(4)]
        step = env.step(actions)
    assert sum(step.rewards) == pytest.approx(1.0)
    small = rl_environment.Environment(name, players=2, stages=1, hand_size=3)
    assert small.game.get_type().provides_information_state_tensor
    first = small.reset()
    assert len(first.observations["info_state"][0]) == small.game.information_state_tensor_size()


def test_the_quick_observation_tensor_is_openspiels() -> None:
    game = openspiel.load("six-day-race", players=3, races=1)
    state = _random_play(game.deal(8), random.Random(8), 12)
    for p in range(3):
        assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
    assert state.observation_tensor() == state.observation_tensor(state.current_player())
    with pytest.raises(ValueError, match="no player 3"):
        state.observation_tensor(3)


SEQUENTIAL_CONFIGS = [
    pytest.param("why-first", {"players": 3, "variant": "tactical", "stages": 1}, False, id="wf"),
    pytest.param("six-day-race", {"players": 3, "riders": 1, "races": 1}, False, id="six-day"),
    pytest.param("setback", {"players": 2}, True, id="setback-observation-keyed"),
]
"""Small configurations of every game, turn by turn where seats may act at once, and whether
the search keys its nodes by observation (Setback's long games) or information state."""


@pytest.mark.parametrize(("game_id", "config", "observation_keyed"), SEQUENTIAL_CONFIGS)
def test_openspiel_ismcts_plays_whole_games_unmodified(
    game_id: str, config: dict[str, Any], observation_keyed: bool
) -> None:
    """OpenSpiel's ISMCTSBot as it comes (no resampler of racedeck's: the state's own
    ``resample_from_infostate``) plays every seat of whole games."""
    game = openspiel.load(game_id, turn_based=openspiel.is_simultaneous(game_id), **config)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(
        game, evaluator, 1.0, 3, random_state=rs, use_observation_string=observation_keyed
    )
    state = game.deal(7)
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_resample_from_infostate_keeps_the_view_and_is_reproducible() -> None:
    """The hook draws from the game's sampler, seeded by the probability sampler (and how many
    draws the game has made, since ISMCTSBot's sampler restarts its stream every time)."""

    def draws(game: Any, seed: int | None) -> list[str]:
        """Three draws, each with a new sampler (seeded, or OpenSpiel's fixed default)."""
        state = _random_play(game.deal(5), random.Random(5), 6)
        player = state.current_player()
        found = []
        for _ in range(3):
            sampler = (
                pyspiel.UniformProbabilitySampler(0.0, 1.0)
                if seed is None
                else pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
            )
            sampled = state.resample_from_infostate(player, sampler)
            assert sampled.current_player() == player
            assert sampled.observation_string(player) == state.observation_string(player)
            assert sampled.history() == state.history()
            found.append(str(sampled))
        return found

    def load() -> Any:
        return openspiel.load("setback", turn_based=True, players=3)

    assert draws(load(), 1) == draws(load(), 1)  # the same program draws the same worlds
    assert draws(load(), 1) != draws(load(), 2)
    assert len(set(draws(load(), None))) == 3  # a restarting stream still draws new worlds
