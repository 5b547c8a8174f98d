"""Search speed: ISMCTS simulations per second, ours against OpenSpiel's Python ``ISMCTSBot``.

Each row times whole decisions of a search bot at a fixed iteration budget over a few seeded
positions — the first searched decision of a game after some random opening moves — and
reports simulations (iterations) per second: one determinization, one walk down the tree and
one playout each. Every configuration is measured twice: the Python search (``search``,
:class:`racedeck.bots.search.SearchBot`) and the same search on compiled states
(``fastsearch``, :mod:`racedeck.kernels.search`), whose ratio to the Python search is the last
column.

The peer is OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random
rollout evaluator, measured in the same run on ``hearts`` (4 players: 12 passing decisions and
52 card plays, close to the ~80 decisions of a 4-player *Why First?*) and ``oh_hell``
(3 players). Install it with ``pip install -e '.[bench]'``.

Usage: ``python benchmarks/search_speed.py [--iterations 300] [--positions 4]`` (the compiled
search runs 20 times the iterations, so that each of its decisions is timed over a similar
span).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import racedeck
from racedeck.bots.search import SearchBot, SearchBudget

OURS: tuple[tuple[str, dict[str, Any], bool], ...] = (
    ("why-first", {"players": 4}, True),
    ("why-first", {"players": 4, "variant": "tactical"}, True),
    ("six-day-race", {"players": 4, "races": 1}, True),
    ("six-day-race", {"players": 4, "races": 1}, False),
    ("six-day-race", {"players": 4}, True),
    ("setback", {"players": 4}, True),
)
"""(game, configuration, the game's own playouts?) — without them playouts are uniformly random
to the end of the game, which shows the engine's raw speed in Six Day Race, where the default
playouts ride as the heuristic bot would (slower, far more informative)."""


def _position(game: Any, seed: int, opening: int) -> tuple[Any, int]:
    """A state after ``opening`` random decisions where some seat has a real choice."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    done = 0
    while True:
        for seat in state.pending:
            legal = game.legal_actions(state, seat)
            if done >= opening and len(legal) > 1:
                return state, seat
            if legal:
                state = game.apply(state, seat, legal[rng.randrange(len(legal))])
                done += 1
        if state.is_terminal:
            state, done = game.new_initial_state(seed + 1000), 0


def measure_ours(
    game_id: str, config: dict[str, Any], iterations: int, positions: int, cut: bool = True
) -> float:
    """Simulations per second of :class:`SearchBot` on ``positions`` seeded positions."""
    game = racedeck.make(game_id, **config)
    total = 0.0
    for k in range(positions):
        state, seat = _position(game, k, opening=4 * k)
        bot = SearchBot(game, seat, seed=k, budget=SearchBudget(iterations), cut_playouts=cut)
        view = game.observe(state, seat)
        start = time.perf_counter()
        bot.act(view)
        total += time.perf_counter() - start
    return iterations * positions / total


def measure_compiled(
    game_id: str, config: dict[str, Any], iterations: int, positions: int, cut: bool = True
) -> float:
    """Simulations per second of the compiled search on the positions of :func:`measure_ours`
    (compiled before the clock starts)."""
    import dataclasses

    from racedeck.kernels.search import KernelSearch

    game = racedeck.make(game_id, **config)
    search = KernelSearch(game)
    if not cut:  # random playouts to the end of the game, as SearchBot(cut_playouts=False)
        kernel = dataclasses.replace(search.kernel, depth=-1, playout_heuristic=False)
        search = KernelSearch(game, kernel=_uncut(kernel))
    total = 0.0
    for k in range(positions):
        state, seat = _position(game, k, opening=4 * k)
        view = game.observe(state, seat)
        start = time.perf_counter()
        search.choose(view, seed=k, iterations=iterations)
        total += time.perf_counter() - start
    return iterations * positions / total


def _uncut(kernel: Any) -> Any:
    """``kernel`` with a horizon that never changes (playouts to the end of the game)."""
    import dataclasses

    import numba

    @numba.njit
    def never(ints: Any, bits: Any, i: int, t: Any) -> int:
        return 0

    return dataclasses.replace(kernel, horizon=never)


def measure_openspiel(name: str, iterations: int, positions: int) -> float | None:
    """Simulations per second of OpenSpiel's ``ISMCTSBot`` on ``name``; None if not installed."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    total = 0.0
    for k in range(positions):
        rng = random.Random(k)
        state = game.new_initial_state()
        opening = 16 + 4 * k  # past Hearts' passing phase, into the card play
        done = 0
        while True:
            if state.is_terminal():  # a short deal (Oh Hell's trick count is dealt by chance)
                state, opening, done = game.new_initial_state(), opening // 2, 0
                continue
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if done >= opening and len(legal) > 1:
                break
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(k))
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, iterations, random_state=np.random.RandomState(k)
        )
        start = time.perf_counter()
        bot.step(state)
        total += time.perf_counter() - start
    return iterations * positions / total


def main() -> None:
    """Print one row per engine and the ratios to the OpenSpiel rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300, help="simulations per decision")
    parser.add_argument("--positions", type=int, default=4, help="decisions timed per row")
    args = parser.parse_args()
    peers: dict[str, float] = {}
    for name in ("hearts", "oh_hell"):
        rate = measure_openspiel(name, args.iterations, args.positions)
        if rate is not None:
            peers[name] = rate
    if not peers:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): ratios omitted")
    header = f"{'search':62} {'sims/s':>9}" + "".join(f" {'× ' + p:>12}" for p in peers)
    print(header + f" {'× search':>10}")
    for name, rate in peers.items():
        row = f"{'OpenSpiel ISMCTSBot ' + name:62} {rate:9.0f}"
        print(row + "".join(f" {rate / peer:12.2f}" for peer in peers.values()))
    for game_id, config, cut in OURS:
        python = measure_ours(game_id, config, args.iterations, args.positions, cut)
        compiled = measure_compiled(game_id, config, 20 * args.iterations, args.positions, cut)
        where = f"{game_id} " + " ".join(f"{k}={v}" for k, v in config.items())
        if not cut:
            where += " (random playouts)"
        for bot, rate in (("search", python), ("fastsearch", compiled)):
            row = f"{'racedeck ' + bot + ' ' + where:62} {rate:9.0f}"
            row += "".join(f" {rate / peer:12.2f}" for peer in peers.values())
            print(row + (f" {rate / python:10.1f}" if bot == "fastsearch" else ""))


if __name__ == "__main__":
    main()
