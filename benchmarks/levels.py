"""Each level against the level below it, head to head: does every level beat the one below?

For each game (Why First? 4 players, Six Day Race 4 players over one race, Setback 2 players)
and each step (Casual against Beginner, Strong against Casual, Expert against Strong), the
upper level sits in every other seat (4 players: seats 0 and 2, then 1 and 3; 2 players: each
seat in turn) and every deal is played once under every seating, so both sides get the same
cards. A side's result in a game is the sum of its seats' shares of the win; the table prints
the upper level's mean share (equal play: 0.5) with a Wilson 95% interval over games. A level
measurably beats the one below when the interval's lower end is above 0.5.

The bots are the ones :data:`racedeck.bots.levels.LEVEL_BOTS` names, made with
:func:`racedeck.bots.registry.make_bot`; a search plays at an iteration budget, so a run is
reproducible for its seed on any machine. The slow steps (a Python search on one side) play
fewer deals: ``--deals`` is the fast steps' count, ``--search-deals`` the slow ones' (by
default :data:`SEARCH_DEALS`, which keeps a run to about a quarter of an hour on one core).

Usage: ``python benchmarks/levels.py [--game all|why-first|six-day-race|setback] [--deals 100]
[--search-deals N] [--step UPPER:LOWER] [--seed 1] [--workers 1]`` (``docs/levels.md`` has the
numbers of one run).
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import racedeck
from racedeck.bots.levels import LEVELS, find_level, level_bot
from racedeck.bots.registry import make_bot
from racedeck.core.rng import derive_seed
from racedeck.sim.stats import wilson_interval

MATCHES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "six-day-race": {"players": 4, "races": 1},
    "setback": {"players": 2},
}
"""The games played and their configurations."""

SEARCH_DEALS = {"why-first": 60, "six-day-race": 12, "setback": 100}
"""Deals of a step with a Python search on one side, per game: about five minutes each game on
one core (a Six Day Race game of two searches against two takes about ten seconds)."""


def seatings(players: int) -> list[tuple[int, ...]]:
    """The upper level's seats in each seating: every other seat, in every rotation."""
    base = tuple(s for s in range(players) if s % 2 == 0) if players % 2 == 0 else (0,)
    out: list[tuple[int, ...]] = []
    for k in range(players):
        seats = tuple(sorted((s + k) % players for s in base))
        if seats not in out:
            out.append(seats)
    return out


def play(
    game_id: str, deal: int, upper: str, lower: str, ours: tuple[int, ...], seed: int
) -> float:
    """One game from engine seed ``deal``, level ``upper`` in seats ``ours`` and ``lower`` in
    the others: the upper side's win share."""
    game = racedeck.make(game_id, **MATCHES[game_id])
    bots = [
        make_bot(upper if seat in ours else lower, game, seat, derive_seed(seed, deal, seat))
        for seat in range(game.num_players)
    ]
    state = game.new_initial_state(deal)
    while not state.is_terminal:
        seat = state.pending[0]
        state = game.apply(state, seat, bots[seat].act(game.observe(state, seat)))
    outcome = game.outcome(state)
    assert outcome is not None
    return sum(1.0 / len(outcome.winners) for s in ours if s in outcome.winners)


def step(game_id: str, upper: str, lower: str, deals: int, seed: int, workers: int) -> None:
    """Play ``deals`` deals of ``upper`` against ``lower`` under every seating; print it."""
    players = racedeck.make(game_id, **MATCHES[game_id]).num_players
    plans = seatings(players)
    tasks = [
        (game_id, derive_seed(seed, d), upper, lower, ours, seed)
        for d in range(deals)
        for ours in plans
    ]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play, *zip(*tasks, strict=True)))
    else:
        results = [play(*task) for task in tasks]
    elapsed = time.perf_counter() - start
    games = len(results)
    mean = sum(results) / games
    low, high = wilson_interval(mean * games, games)
    verdict = "beats" if low > 0.5 else "not shown to beat"
    print(f"  {_named(upper, game_id)} vs {_named(lower, game_id)}: "
          f"{mean:.3f} [{low:.3f}, {high:.3f}]  "
          f"{games} games ({deals} deals x {len(plans)})  {elapsed:.0f} s  {verdict}",
          flush=True)  # fmt: skip


def _named(name: str, game_id: str) -> str:
    """A level with the bot that plays it (``expert (fastsearch)``), a bot by its name."""
    return f"{name} ({level_bot(name, game_id)})" if find_level(name) else name


def _slow(game_id: str, name: str) -> bool:
    """Whether ``name`` (a level or a bot) plays a Python search in ``game_id`` (about a second
    a game or more)."""
    bot = level_bot(name, game_id) if find_level(name) else name
    return bot.partition("@")[0] == "search"


def main() -> None:
    """Run the steps of the games the arguments name."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=["all", *MATCHES])
    parser.add_argument("--deals", type=int, default=100, help="deals of a fast step")
    parser.add_argument(
        "--search-deals", type=int, default=None, help="deals of a step with a Python search"
    )
    parser.add_argument(
        "--step",
        metavar="UPPER:LOWER",
        help="one step of your own instead of the levels': two levels or bot names "
        "(fastsearch@40000:strong), to try a mapping before it goes into the table",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    ids = [level.id for level in LEVELS]
    for game_id in MATCHES if args.game == "all" else [args.game]:
        label = " ".join(f"{k}={v}" for k, v in MATCHES[game_id].items())
        print(f"{game_id} {label}: upper level's win share, 95% interval (equal play 0.5)")
        steps = [tuple(args.step.split(":"))[::-1]] if args.step else itertools.pairwise(ids)
        for lower, upper in steps:
            slow = _slow(game_id, upper) or _slow(game_id, lower)
            deals = (args.search_deals or SEARCH_DEALS[game_id]) if slow else args.deals
            step(game_id, upper, lower, deals, args.seed, args.workers)


if __name__ == "__main__":
    main()
