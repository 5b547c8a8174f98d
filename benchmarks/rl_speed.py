"""RL speed: environment steps per second of each racedeck face, beside well-known peers.

Every row plays whole games with a uniformly random policy over the legal actions, as a learner
sees them, for ``--seconds`` seconds, and counts *steps* (calls that advance the environment)
and *actions* (player decisions those steps carry: one per AEC or sequential step, one per
agent asked at a parallel or simultaneous step):

- PettingZoo ``AECEnv`` (``racedeck.rl.env``): ``last()`` (observation and mask) then ``step``;
- PettingZoo ``ParallelEnv`` (``racedeck.rl.parallel_env``): one action per agent from its mask;
- Gymnasium (``racedeck.rl.gym_env``): one learner against random bots, masked random actions
  (the bots' moves are inside the step);
- the *Why First?* batch simulator (:mod:`racedeck.kernels.why_first`): decisions per second
  of whole random games played 10,000 at a time;
- OpenSpiel (:mod:`racedeck.rl.openspiel`): the acting player's observation tensor and legal
  actions, then ``apply_action`` (``apply_actions`` at a simultaneous node), as OpenSpiel's RL
  environment would.

Peers, measured in the same run by the same loops: PettingZoo's classic ``rps_v2`` (parallel),
``connect_four_v3`` and ``leduc_holdem_v4`` (AEC; leduc needs ``rlcard``, both ``pygame``), and
OpenSpiel's ``goofspiel`` (3 players, 8 cards, simultaneous) and ``leduc_poker`` (turns) through
``pyspiel``. Install them with ``pip install -e '.[bench]'``. The table gives steps and actions
per second and each row's ratio (steps per second) to every peer that could be measured.

A second table gives what one observation costs in microseconds a call, for each game, on the
views of seeded random games (every seat's view at every state): the seat's whole view
(``observe``), the view the RL faces build (``observe_without_header``), the encoder
(``encode``) and the action mask.

To measure something else, add a :class:`Row` to the list :func:`rows` returns: a label and a
function that plays for a number of seconds and returns ``(steps, actions, elapsed)`` — the
drivers :func:`aec`, :func:`parallel`, :func:`spiel` and :func:`gymnasium_env` make one from a
constructor.

Usage: ``python benchmarks/rl_speed.py [--seconds 2] [--part all|steps|encoders]``
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Measure = Callable[[float], tuple[int, int, float]]
"""Plays for the given seconds; returns ``(steps, actions, elapsed seconds)``."""


@dataclass(frozen=True)
class Row:
    """One line of the table: what is measured, and how."""

    label: str
    measure: Measure
    peer: str = ""
    """A peer's short name (its ratio column): every row is compared with every peer."""


def _pick(mask: Any, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def _timed(play_one: Callable[[random.Random], tuple[int, int]]) -> Measure:
    """A measure that plays games with ``play_one`` until its seconds have passed."""

    def measure(budget: float) -> tuple[int, int, float]:
        rng = random.Random(1)
        steps = actions = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < budget:
            s, a = play_one(rng)
            steps += s
            actions += a
        return steps, actions, elapsed

    return measure


def aec(make_env: Callable[[], Any]) -> Measure:
    """Steps of a PettingZoo ``AECEnv`` whose observations carry an ``action_mask``."""
    env = make_env()
    seed = iter(range(1 << 30))

    def play_one(rng: random.Random) -> tuple[int, int]:
        env.reset(seed=next(seed))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                mask = observation["action_mask"] if isinstance(observation, dict) else None
                if mask is None:
                    mask = info["action_mask"]
                action = _pick(mask, rng)
            env.step(action)
            steps += action is not None
        return steps, steps

    return _timed(play_one)


def parallel(make_env: Callable[[], Any]) -> Measure:
    """Steps of a PettingZoo ``ParallelEnv``: masked random actions for masked observations,
    uniform ones from the action space otherwise."""
    env = make_env()
    seed = iter(range(1 << 30))

    def play_one(rng: random.Random) -> tuple[int, int]:
        observations, _ = env.reset(seed=next(seed))
        steps = actions = 0
        while env.agents:
            joint = {}
            for agent in env.agents:
                observation = observations[agent]
                if isinstance(observation, dict) and "action_mask" in observation:
                    mask = observation["action_mask"]
                    if mask.any():
                        joint[agent] = _pick(mask, rng)
                        actions += 1
                    else:
                        joint[agent] = 0  # not asked: ignored
                else:
                    joint[agent] = rng.randrange(env.action_space(agent).n)
                    actions += 1
            observations, *_ = env.step(joint)
            steps += 1
        return steps, actions

    return _timed(play_one)


def spiel(load_game: Callable[[], Any]) -> Measure:
    """Steps of an OpenSpiel game: at each decision the acting player's observation tensor (or
    every player's at a simultaneous node), its legal actions, then the step."""
    import pyspiel

    game = load_game()
    simultaneous = int(pyspiel.PlayerId.SIMULTANEOUS)
    observe = game.get_type().provides_observation_tensor

    def play_one(rng: random.Random) -> tuple[int, int]:
        state = game.new_initial_state()
        steps = actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            if player == simultaneous:
                joint = []
                for p in range(game.num_players()):
                    if observe:
                        state.observation_tensor(p)
                    legal = state.legal_actions(p)
                    joint.append(legal[rng.randrange(len(legal))] if legal else 0)
                    actions += bool(legal)
                state.apply_actions(joint)
            else:
                if observe:
                    state.observation_tensor(player)
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
            steps += 1
        return steps, actions

    return _timed(play_one)


def batch(make_batch: Callable[[], Any], games: int = 10_000) -> Measure:
    """Decisions per second of the *Why First?* batch simulator (random play), in batches of
    ``games`` whole games; a step is one decision, as in the environments."""
    sim = make_batch()
    sim.play(10)  # compile (or load the compiled code) before timing

    def measure(budget: float) -> tuple[int, int, float]:
        decisions = 0
        seed = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < budget:
            sim.play(games, seed=seed)
            decisions += games * sim.max_decisions
            seed += 1
        return decisions, decisions, elapsed

    return measure


def gymnasium_env(make_env: Callable[[], Any]) -> Measure:
    """Steps of a Gymnasium env: masked random actions when the observation or the info holds
    an ``action_mask``, uniform ones from the action space otherwise."""
    env = make_env()
    seed = iter(range(1 << 30))

    def play_one(rng: random.Random) -> tuple[int, int]:
        observation, info = env.reset(seed=next(seed))
        steps = 0
        done = False
        while not done:
            mask = None
            if isinstance(observation, dict) and "action_mask" in observation:
                mask = observation["action_mask"]
            elif "action_mask" in info:
                mask = info["action_mask"]
            action = _pick(mask, rng) if mask is not None else rng.randrange(env.action_space.n)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
        return steps, steps

    return _timed(play_one)


GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("why-first", {"players": 4}),
    ("six-day-race", {"players": 4, "races": 1}),
    ("setback", {"players": 3}),
)
"""The racedeck games and configurations every face is measured on."""


def rows() -> list[Row]:
    """Everything measured, peers first; extend this list to measure more."""
    out: list[Row] = []
    try:
        from pettingzoo.classic import rps_v2

        out.append(Row("PettingZoo rps_v2 (parallel)", parallel(rps_v2.parallel_env), "rps"))
    except ImportError as exc:
        print(f"rps_v2 not measured: {exc}")
    try:
        from pettingzoo.classic import connect_four_v3

        out.append(Row("PettingZoo connect_four_v3 (AEC)", aec(connect_four_v3.env), "c4"))
    except ImportError as exc:
        print(f"connect_four_v3 not measured: {exc}")
    try:
        from pettingzoo.classic import leduc_holdem_v4

        out.append(Row("PettingZoo leduc_holdem_v4 (AEC)", aec(leduc_holdem_v4.env), "leduc"))
    except ImportError as exc:  # leduc needs rlcard
        print(f"leduc_holdem_v4 not measured: {exc}")
    try:
        import pyspiel

        goofspiel = pyspiel.load_game("goofspiel", {"players": 3, "num_cards": 8})
        out.append(Row("OpenSpiel goofspiel 3p/8 (simultaneous)", spiel(lambda: goofspiel), "goof"))
        leduc_poker = pyspiel.load_game("leduc_poker")
        out.append(Row("OpenSpiel leduc_poker (turns)", spiel(lambda: leduc_poker), "os-leduc"))
    except ImportError as exc:
        print(f"OpenSpiel's games not measured: {exc}")

    from racedeck import rl

    for game_id, config in GAMES:
        label = game_id + " " + " ".join(f"{k}={v}" for k, v in config.items())
        out.append(Row(f"{label} AEC", aec(lambda g=game_id, c=config: rl.env(g, **c))))
        out.append(
            Row(f"{label} parallel", parallel(lambda g=game_id, c=config: rl.parallel_env(g, **c)))
        )
    for game_id, config in GAMES:
        label = game_id + " " + " ".join(f"{k}={v}" for k, v in config.items())
        out.append(
            Row(
                f"{label} Gymnasium vs random",
                gymnasium_env(lambda g=game_id, c=config: rl.gym_env(g, opponents="random", **c)),
            )
        )
    from racedeck.games.why_first import WhyFirstConfig
    from racedeck.kernels.why_first import WhyFirstBatch

    out.append(
        Row(
            "why-first players=4 batch simulator (decisions)",
            batch(lambda: WhyFirstBatch(WhyFirstConfig(players=4))),
        )
    )
    try:
        from racedeck.rl import openspiel

        for game_id, config in GAMES:
            label = game_id + " " + " ".join(f"{k}={v}" for k, v in config.items())
            forms = (False, True) if openspiel.is_simultaneous(game_id) else (False,)
            for turns in forms:
                name = openspiel.game_name(game_id, turns)
                out.append(
                    Row(
                        f"{label} OpenSpiel {name}",
                        spiel(
                            lambda g=game_id, c=config, t=turns: openspiel.load(
                                g, turn_based=t, **c
                            )
                        ),
                    )
                )
    except ImportError as exc:
        print(f"the OpenSpiel face not measured: {exc}")
    return out


def encoder_costs(views_per_game: int = 3000) -> None:
    """Print the microseconds a call of each step of an observation, per game (see the module's
    notes): the best of five passes over the views of seeded random games."""
    from racedeck.core.registry import make
    from racedeck.rl.faces import encoding_for, observer_for

    def per_call(function: Callable[..., Any], calls: list[tuple[Any, ...]]) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for arguments in calls:
                function(*arguments)
            best = min(best, time.perf_counter() - start)
        return best / len(calls) * 1e6

    print(f"{'observation (µs a call)':40} {'view':>9} {'no header':>9} {'encode':>9} {'mask':>9}")
    for game_id, config in GAMES:
        game = make(game_id, **config)
        observer, encoding = observer_for(game), encoding_for(game)
        rng = random.Random(1)
        asked: list[tuple[Any, int]] = []
        seed = 0
        while len(asked) < views_per_game:
            state = game.new_initial_state(seed)
            seed += 1
            while not state.is_terminal:
                asked += [(state, s) for s in range(game.num_players)]
                seat = state.pending[0]
                state = state.clone()
                game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
        asked = asked[:views_per_game]
        views = [(game.observe(state, seat),) for state, seat in asked]
        whole = per_call(game.observe, asked)
        # A build without observe_without_header (before it existed) builds whole views.
        bare = getattr(game, "observe_without_header", None)
        headless = f"{per_call(bare, asked):9.1f}" if bare else f"{'-':>9}"
        encode = per_call(observer.encode, views)
        mask = per_call(encoding.legal_mask, views)
        label = game_id + " " + " ".join(f"{k}={v}" for k, v in config.items())
        print(f"{label:40} {whole:9.1f} {headless} {encode:9.1f} {mask:9.1f}")


def main() -> None:
    """Measure every row and print the table with the ratios to the peers, then the costs of
    an observation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per row")
    parser.add_argument(
        "--part", choices=("all", "steps", "encoders"), default="all", help="what to measure"
    )
    args = parser.parse_args()
    if args.part in ("all", "steps"):
        table = rows()
        results: list[tuple[Row, float, float]] = []
        for row in table:
            steps, actions, elapsed = row.measure(args.seconds)
            results.append((row, steps / elapsed, actions / elapsed))
        peers = [(row.peer, rate) for row, rate, _ in results if row.peer]
        header = f"{'environment':64} {'steps/s':>9} {'actions/s':>9}"
        print(header + "".join(f" {'× ' + name:>10}" for name, _ in peers))
        for row, rate, actions in results:
            line = f"{row.label:64} {rate:9.0f} {actions:9.0f}"
            print(line + "".join(f" {rate / peer:10.3f}" for _, peer in peers))
    if args.part in ("all", "encoders"):
        if args.part == "all":
            print()
        encoder_costs()


if __name__ == "__main__":
    main()
