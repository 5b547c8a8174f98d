"""Batch simulator speed: whole games of Why First? per second, against peers in the same run.

Measures :class:`racedeck.kernels.why_first.WhyFirstBatch` (Numba) on random 4-player games, the
two-player game with Leo (WF-9), the tactical variant (WF-10), and heuristic seats; and, in the
same run, two peers on the same games: the engine's fast path (``apply_unchecked``, the loop of
``benchmarks/engine_speed.py``) and a NumPy batch of the base game (every game a row, one array
step per rule step; checked here to give the simulator's very results on scripted choices). It
also times the deals alone (five shuffles of the engine's generator per game) to say what bounds
the speed, and the policy's random draws alone; the rest of a game is its rules (see the
docstring of :mod:`racedeck.kernels.why_first` for what bounds each part).

Each figure is measured ``--repeats`` times; the table shows the best, the median and the worst
in games per second of CPU time (the process's own, so other work on a shared machine counts
less), and the best by the wall clock. Ratios compare best CPU figures.

Usage: ``python benchmarks/why_first_batch.py [--games 400000] [--repeats 5] [--seconds 2]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.core.rng import derive_seed
from racedeck.games.why_first import WhyFirst, WhyFirstConfig
from racedeck.kernels import why_first as wfb

Row = tuple[str, list[float], float]  # label, games/s by CPU time per repeat, best by wall


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
    batch = wfb.WhyFirstBatch(WhyFirstConfig(**config))
    seeds = batch.seeds(games, 1)
    batch.play(seeds[:10], policies=policies)  # compiled (or loaded from the cache) first

    def run() -> int:
        batch.play(seeds, policies=policies)
        return games

    return run


def _engine(config: dict[str, Any], seconds: float) -> Callable[[], int]:
    game = WhyFirst(WhyFirstConfig(**config))
    legal_actions, apply = game.legal_actions, game.apply_unchecked
    rng = random.Random(5)

    def run() -> int:
        played = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state(derive_seed(3, played))
            while state.pending:
                seat = state.pending[0]
                legal = legal_actions(state, seat)
                apply(state, seat, legal[rng.randrange(len(legal))])
            played += 1
        return played

    return run


# -- the NumPy peer -------------------------------------------------------------------------------


def _mix(z: NDArray[np.uint64]) -> NDArray[np.uint64]:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def numpy_batch(
    cfg: WhyFirstConfig, seeds: NDArray[np.uint64], choices: NDArray[np.uint32] | None = None
) -> NDArray[np.int64]:
    """Totals of base games, every game a row: the engine's deals, and each decision the legal
    index ``choices[:, k] % len(legal)`` (or uniform from NumPy's generator)."""
    games, n, h = len(seeds), cfg.players, cfg.hand_size
    figures = n + (1 if cfg.has_leo else 0)
    values = np.array(cfg.card_values, dtype=np.int64)
    top, bottom, limit = wfb.shuffle_plan(len(values))
    rows = np.arange(games)
    st = seeds.astype(np.uint64).copy()
    tot = np.zeros((games, figures), np.int64)
    gen = np.random.default_rng(9)
    k = 0
    big = 1 << 20  # a played card's slot
    with np.errstate(over="ignore"):
        for _stage in range(cfg.stages):
            deck = np.tile(np.arange(1, len(values) + 1), (games, 1))
            for g in range(len(top)):
                x = np.zeros(games, np.uint64)
                todo = np.ones(games, bool)
                while todo.any():  # the shuffle's rejection, game by game
                    st[todo] += np.uint64(0x9E3779B97F4A7C15)
                    x[todo] = _mix(st[todo])
                    todo &= x >= limit[g]
                for i in range(int(top[g]), int(bottom[g]), -1):
                    d = np.uint64(i + 1)
                    j = (x % d).astype(np.int64)
                    x //= d
                    di = deck[:, i].copy()
                    deck[:, i] = deck[rows, j]
                    deck[rows, j] = di
            hands = np.sort(values[deck[:, : n * h].reshape(games, n, h) - 1], axis=2)
            pos = np.zeros((games, figures), np.int64)
            for rnd in range(h):
                net = np.zeros((games, figures), np.int64)
                for s in range(n):
                    hand = hands[:, s]
                    if rnd == h - 1:  # WF-5
                        net[:, s] += hand[:, 0]
                        continue
                    first = np.ones_like(hand, bool)
                    first[:, 1:] = hand[:, 1:] != hand[:, :-1]
                    first &= hand < big
                    nd = first.sum(axis=1)
                    if choices is None:
                        a = gen.integers(0, nd * figures)
                    else:
                        a = choices[:, k].astype(np.int64) % (nd * figures)
                    k += 1
                    di, t = a // figures, a % figures
                    slot = np.argmax(first & (np.cumsum(first, axis=1) - 1 == di[:, None]), axis=1)
                    net[rows, t] += hand[rows, slot]
                    hand[rows, slot] = big
                    hands[:, s] = np.sort(hand, axis=1)
                if cfg.has_leo and rnd < h - 1:  # WF-9
                    net[:, n] += values[deck[:, n * h + h - 2 - rnd] - 1]
                pos = np.clip(pos + net, cfg.track_min, cfg.track_max)  # WF-4
            first_space = pos.max(axis=1, keepdims=True)  # WF-6
            below = np.where(pos < first_space, pos, -(1 << 30))
            space = below.max(axis=1, keepdims=True)
            tot += np.where((pos == space) & (space > -(1 << 30)), pos, 0)
    return tot


def _numpy(config: dict[str, Any], games: int) -> Callable[[], int]:
    cfg = WhyFirstConfig(**config)
    seeds = wfb.WhyFirstBatch(cfg).seeds(games, 1)

    def run() -> int:
        numpy_batch(cfg, seeds)
        return games

    return run


def _check_numpy_peer() -> None:
    """The NumPy peer plays the simulator's very games on scripted choices."""
    for players in (2, 4):
        cfg = WhyFirstConfig(players=players)
        batch = wfb.WhyFirstBatch(cfg)
        seeds = batch.seeds(300, 8)
        choices = np.random.default_rng(1).integers(
            0, 2**32, (300, batch.max_decisions), dtype=np.uint32
        )
        ours = batch.play(seeds, choices=choices).totals
        assert (numpy_batch(cfg, seeds, choices) == ours).all(), "the NumPy peer disagrees"


# -- what bounds the speed --------------------------------------------------------------------


@wfb._jit(cache=True)
def _deals_only(seeds: NDArray[np.uint64], stages: int) -> int:
    deck = np.empty(32, np.int64)
    acc = 0
    for b in range(seeds.shape[0]):
        st = seeds[b]
        for _ in range(stages):
            for i in range(32):
                deck[i] = i + 1
            st = wfb._shuffle32(deck, st)
            acc += deck[0]
    return acc


@wfb._jit(cache=True)
def _draws_only(games: int, draws: int) -> int:
    pol = np.zeros(4, np.uint64)
    script = np.zeros((1, 1), np.uint32)
    acc = 0
    for _ in range(games):
        for k in range(draws):
            acc += wfb._pick(4 + (k & 7), pol, False, script, 0)
    return acc


def _draws(games: int) -> Callable[[], int]:
    """A random 4-player game's policy draws alone: 80 places, a value and a figure each."""
    _draws_only(10, 160)

    def run() -> int:
        _draws_only(games, 160)
        return games

    return run


def _deals(games: int) -> Callable[[], int]:
    seeds = wfb.WhyFirstBatch(WhyFirstConfig()).seeds(games, 1)
    _deals_only(seeds[:10], 5)

    def run() -> int:
        _deals_only(seeds, 5)
        return games

    return run


def main() -> None:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000, help="games per batch call")
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each figure")
    parser.add_argument("--seconds", type=float, default=2.0, help="engine time per repeat")
    args = parser.parse_args()
    games, repeats = args.games, args.repeats
    heuristic_games = max(1, games // 40)
    _check_numpy_peer()

    rows: list[Row] = []

    def add(label: str, run: Callable[[], int], times: int = repeats) -> None:
        rows.append((label, *_measure(run, times)))

    four: dict[str, Any] = {"players": 4}
    add("batch random 4p", _batch(four, "random", games))
    add("batch random 2p + Leo", _batch({"players": 2}, "random", games))
    add("batch random 6p", _batch({"players": 6}, "random", games))
    add("batch random 4p tactical", _batch({"players": 4, "variant": "tactical"}, "random", games))
    add("batch heuristic 4p", _batch(four, "heuristic", heuristic_games))
    add("numpy batch random 4p", _numpy(four, games // 4))
    add("numpy batch random 2p + Leo", _numpy({"players": 2}, games // 4))
    add("engine fast path random 4p", _engine(four, args.seconds), max(1, repeats // 2))
    add("engine fast path 2p + Leo", _engine({"players": 2}, args.seconds), max(1, repeats // 2))
    add("deals only (5 shuffles/game)", _deals(games))
    add("policy draws only (160/game)", _draws(games))

    best = {label: max(cpu) for label, cpu, _ in rows}
    print(f"{'':30} {'games/s of CPU time':>34} {'wall':>10}")
    print(f"{'':30} {'best':>10} {'median':>11} {'worst':>11} {'best':>10}")
    for label, cpu, wall in rows:
        print(
            f"{label:30} {max(cpu):10,.0f} {statistics.median(cpu):11,.0f} "
            f"{min(cpu):11,.0f} {wall:10,.0f}"
        )
    print()
    four_best = best["batch random 4p"]
    print(f"batch / engine fast path, 4p:   {four_best / best['engine fast path random 4p']:8.0f}×")
    two_ratio = best["batch random 2p + Leo"] / best["engine fast path 2p + Leo"]
    print(f"batch / engine fast path, 2p:   {two_ratio:8.0f}×")
    print(f"batch / numpy batch, 4p:        {four_best / best['numpy batch random 4p']:8.1f}×")
    print(f"target 700,000 4p games/s:      {'met' if four_best >= 700_000 else 'not met'}")
    deal_share = four_best / best["deals only (5 shuffles/game)"]
    draw_share = four_best / best["policy draws only (160/game)"]
    print(f"share of a random 4p game spent dealing:       {deal_share:.0%}")
    print(f"share of a random 4p game spent drawing moves: {draw_share:.0%}")


if __name__ == "__main__":
    main()
