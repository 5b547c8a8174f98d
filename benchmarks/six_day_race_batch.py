"""Kernel speed: whole series of Six Day Race per second, against the engine in the same run.

Measures :class:`racedeck.kernels.six_day_race.SixDayRaceBatch` (Numba) on random 4-player
series (the standard game: two riders each, six races, SD-11, SD-12), and for scale on two and
eight players, one-race games and heuristic seats; and, in the same run, the engine's fast path
on the same 4-player series: ``legal_actions`` then ``apply_unchecked`` with a choice from
``random.Random``, the loop ``_fast`` of ``benchmarks/engine_speed.py``. Both sides play whole
series from fresh seeds, dealing included.

Each figure is measured ``--repeats`` times; the table shows the best, the median and the worst
in games per second of CPU time (the process's own, so other work on a shared machine counts
less), and the best by the wall clock, with the decisions per second of the best. The ratio
compares best CPU figures.

Usage: ``python benchmarks/six_day_race_batch.py [--games 40000] [--repeats 5] [--seconds 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from racedeck.core.rng import derive_seed
from racedeck.games.six_day_race import SixDayRace, SixDayRaceConfig
from racedeck.kernels.six_day_race import SixDayRaceBatch

Row = tuple[str, list[float], float, float]  # label, games/s per repeat, best by wall, moves/game
TARGET = 50  # the kernel against the engine's fast path, 4-player series


def _measure(run: Callable[[], tuple[int, int]], repeats: int) -> tuple[list[float], float, float]:
    """Games per second of CPU time for each repeat, the best by the wall clock, and the
    decisions per game."""
    cpu, wall, moves, games = [], 0.0, 0, 0
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        played, decided = run()
        c1, w1 = time.process_time(), time.perf_counter()
        cpu.append(played / max(c1 - c0, 1e-9))
        wall = max(wall, played / (w1 - w0))
        moves += decided
        games += played
    return cpu, wall, moves / max(games, 1)


def _kernel(config: dict[str, Any], policies: str, games: int) -> Callable[[], tuple[int, int]]:
    batch = SixDayRaceBatch(SixDayRaceConfig(**config))
    seeds = batch.seeds(games, 1)
    batch.play(seeds[:10], policies=policies)  # compiled (or loaded from the cache) first

    def run() -> tuple[int, int]:
        result = batch.play(seeds, policies=policies)
        return games, int(result.moves.sum())

    return run


def _engine(config: dict[str, Any], seconds: float) -> Callable[[], tuple[int, int]]:
    game = SixDayRace(SixDayRaceConfig(**config))
    legal_actions, apply = game.legal_actions, game.apply_unchecked
    rng = random.Random(12345)

    def run() -> tuple[int, int]:
        played = moves = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state(derive_seed(3, played))
            while state.pending:  # engine_speed._fast
                for seat in state.pending:
                    legal = legal_actions(state, seat)
                    if not legal:
                        continue
                    apply(state, seat, legal[rng.randrange(len(legal))])
                    moves += 1
            played += 1
        return played, moves

    return run


def main() -> None:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000, help="series per kernel call")
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each figure")
    parser.add_argument("--seconds", type=float, default=3.0, help="engine time per repeat")
    args = parser.parse_args()
    games, repeats = args.games, args.repeats

    rows: list[Row] = []

    def add(label: str, run: Callable[[], tuple[int, int]], times: int = repeats) -> None:
        rows.append((label, *_measure(run, times)))

    four: dict[str, Any] = {"players": 4}
    add("kernel random 4p series", _kernel(four, "random", games))
    add("kernel random 2p series", _kernel({"players": 2}, "random", games))
    add("kernel random 8p series", _kernel({"players": 8}, "random", games // 2))
    add("kernel random 4p one race", _kernel({"players": 4, "races": 1}, "random", games))
    add("kernel heuristic 4p series", _kernel(four, "heuristic", games // 2))
    add("engine fast path 4p series", _engine(four, args.seconds), max(1, repeats // 2))

    best = {label: max(cpu) for label, cpu, _, _ in rows}
    print(f"{'':28} {'games/s of CPU time':>34} {'wall':>10} {'decisions/s':>13}")
    print(f"{'':28} {'best':>10} {'median':>11} {'worst':>11} {'best':>10} {'best':>13}")
    for label, cpu, wall, moves in rows:
        print(
            f"{label:28} {max(cpu):10,.0f} {statistics.median(cpu):11,.0f} "
            f"{min(cpu):11,.0f} {wall:10,.0f} {max(cpu) * moves:13,.0f}"
        )
    print()
    ratio = best["kernel random 4p series"] / best["engine fast path 4p series"]
    print(f"kernel / engine fast path, 4p series: {ratio:8.0f}×")
    print(f"target {TARGET}× the engine's fast path:     {'met' if ratio >= TARGET else 'not met'}")


if __name__ == "__main__":
    main()
