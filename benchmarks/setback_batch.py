"""Setback kernel speed: whole random games per second, against the engine's fast path in the
same run.

Measures :class:`racedeck.kernels.setback.SetbackBatch` (Numba) on uniformly random games of 2, 4
and 6 players, 4 players with the rulebook's deck replaced by one full of action cards, and 4
heuristic seats; and, in the same run, the engine's fast path on random 4- and 2-player games,
played as ``benchmarks/engine_speed.py`` plays them (``apply_unchecked``, every pending seat in
turn, a BLOCK window's forced passes included, choices from ``random.Random``). Before timing it
checks that the kernel plays the engine's very games on scripted choices.

Each figure is measured ``--repeats`` times; the table shows the best, the median and the worst
in games per second of CPU time (the process's own, so other work on a shared machine counts
less), and the best by the wall clock. Ratios compare best CPU figures.

Usage: ``python benchmarks/setback_batch.py [--games 200000] [--repeats 5] [--seconds 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from racedeck.games.setback import Setback, SetbackConfig
from racedeck.kernels.setback import SetbackBatch

Row = tuple[str, list[float], float]  # label, games/s by CPU time per repeat, best by wall

ACTION_DECK = (
    ("MOVE+1", 8), ("MOVE+2", 4), ("FOE+1", 4), ("FOE-1", 6), ("ALL+1", 4), ("SHIFT", 8),
    ("TRADE", 6), ("CUT", 8), ("DRAW", 4), ("REVAMP", 8), ("SKIP", 6), ("BLOCK", 10),
)  # fmt: skip
"""A deck of action cards: the slower branches of the rules (SB-6, SB-9, SB-10)."""

TARGET = 50.0
"""Kernel games per second over the engine fast path's, 4 players."""


def _measure(run: Callable[[], int], repeats: int) -> tuple[list[float], float]:
    """Games per second of CPU time for each repeat, and the best by the wall clock."""
    cpu, wall = [], 0.0
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        games = run()
        c1, w1 = time.process_time(), time.perf_counter()
        cpu.append(games / max(c1 - c0, 1e-9))
        wall = max(wall, games / (w1 - w0))
    return cpu, wall


def _batch(config: dict[str, Any], policies: str, games: int) -> Callable[[], int]:
    batch = SetbackBatch(SetbackConfig(**config))
    seeds = batch.seeds(games, 1)
    batch.play(seeds[:10], policies=policies)  # compiled (or loaded from the cache) first

    def run() -> int:
        batch.play(seeds, policies=policies)
        return games

    return run


def _engine(config: dict[str, Any], seconds: float) -> Callable[[], int]:
    """The loop of ``engine_speed._fast``, for ``seconds`` of CPU time."""
    game = Setback(SetbackConfig(**config))
    legal_actions, apply = game.legal_actions, game.apply_unchecked
    rng = random.Random(12345)

    def run() -> int:
        played = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state(played)
            while state.pending:
                for seat in state.pending:
                    legal = legal_actions(state, seat)
                    if not legal:
                        continue  # an earlier answer changed who is asked
                    apply(state, seat, legal[rng.randrange(len(legal))])
            played += 1
        return played

    return run


def _check() -> None:
    """The kernel plays the engine's games: same decisions and scores on scripted choices."""
    cfg = SetbackConfig(players=4)
    game, batch = Setback(cfg), SetbackBatch(cfg)
    seeds = batch.seeds(20, 8)
    choices = np.random.default_rng(1).integers(
        0, 2**32, (20, batch.max_decisions), dtype=np.uint32
    )
    result = batch.play(seeds, choices=choices)
    for i, seed in enumerate(seeds.tolist()):
        state = game.new_initial_state(seed)
        d = 0
        while not state.is_terminal:
            seat = state.pending[0]
            legal = game.legal_actions(state, seat)
            game.apply_unchecked(state, seat, legal[int(choices[i, d]) % len(legal)])
            d += 1
        assert int(result.moves[i]) == state.move, "the kernel disagrees with the engine"
        assert result.scores[i].tolist() == [int(x) for x in game.progress(state)]


def main() -> None:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per batch call")
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each figure")
    parser.add_argument("--seconds", type=float, default=3.0, help="engine CPU time per repeat")
    args = parser.parse_args()
    games, repeats = args.games, args.repeats
    _check()

    rows: list[Row] = []

    def add(label: str, run: Callable[[], int], times: int = repeats) -> None:
        rows.append((label, *_measure(run, times)))

    add("kernel random 4p", _batch({"players": 4}, "random", games))
    add("kernel random 2p", _batch({"players": 2}, "random", games))
    add("kernel random 6p", _batch({"players": 6}, "random", games))
    add(
        "kernel random 4p action deck", _batch({"players": 4, "deck": ACTION_DECK}, "random", games)
    )
    add("kernel heuristic 4p", _batch({"players": 4}, "heuristic", max(1, games // 10)))
    engine_repeats = max(1, repeats // 2)
    add("engine fast path random 4p", _engine({"players": 4}, args.seconds), engine_repeats)
    add("engine fast path random 2p", _engine({"players": 2}, args.seconds), engine_repeats)

    best = {label: max(cpu) for label, cpu, _ in rows}
    print(f"{'':30} {'games/s of CPU time':>34} {'wall':>10}")
    print(f"{'':30} {'best':>10} {'median':>11} {'worst':>11} {'best':>10}")
    for label, cpu, wall in rows:
        print(
            f"{label:30} {max(cpu):10,.0f} {statistics.median(cpu):11,.0f} "
            f"{min(cpu):11,.0f} {wall:10,.0f}"
        )
    print()
    four = best["kernel random 4p"] / best["engine fast path random 4p"]
    two = best["kernel random 2p"] / best["engine fast path random 2p"]
    print(f"kernel / engine fast path, 4p:  {four:8.0f}×")
    print(f"kernel / engine fast path, 2p:  {two:8.0f}×")
    print(f"target {TARGET:.0f}× the engine, 4p:      {'met' if four >= TARGET else 'not met'}")


if __name__ == "__main__":
    main()
