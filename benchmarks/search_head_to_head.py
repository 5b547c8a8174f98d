"""Head to head at equal time: the search on compiled states against the Python search.

Both sides are the same information-set MCTS (:class:`racedeck.bots.search.SearchBot` and
``fastsearch``, :mod:`racedeck.kernels.search`), each given the same wall time per decision
(``--millis``); the compiled one simply runs more iterations in it. Seating: the compiled
search in every other seat (4 players: seats 0 and 2, then 1 and 3; 2 players: each seat in
turn), every deal played once under every seating, so both sides get the same cards. A side's
result in a game is the sum of its seats' shares of the win; the table prints the compiled
side's mean (equal play: its share of the seats) with a Wilson 95% interval over games, and the
iterations each side ran per searched decision.

Games run in ``--workers`` processes (default: one per core); both sides of a game share its
process, so a busy machine slows both alike.

Usage: ``python benchmarks/search_head_to_head.py [--game all|why-first|six-day-race|setback]
[--deals 50] [--millis 50] [--seed 1]``
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import racedeck
from racedeck.bots.fast_search import FastSearchBot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.core.rng import derive_seed
from racedeck.sim.stats import wilson_interval

MATCHES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "six-day-race": {"players": 4, "races": 1},
    "setback": {"players": 2},
}
"""The games played and their configurations."""


def seatings(players: int) -> list[tuple[int, ...]]:
    """The compiled side's seats in each seating: every other seat, in every rotation."""
    base = tuple(s for s in range(players) if s % 2 == 0) if players % 2 == 0 else (0,)
    out: list[tuple[int, ...]] = []
    for k in range(players):
        seats = tuple(sorted((s + k) % players for s in base))
        if seats not in out:
            out.append(seats)
    return out


def play(
    game_id: str, deal: int, ours: tuple[int, ...], millis: float, seed: int
) -> tuple[float, int, int, int, int]:
    """One game from engine seed ``deal``, the compiled search in seats ``ours``: its side's
    win share, and each side's iterations and searched decisions."""
    game = racedeck.make(game_id, **MATCHES[game_id])
    budget = SearchBudget(iterations=0, millis=millis)
    bots: list[Any] = []
    for seat in range(game.num_players):
        bot_seed = derive_seed(seed, deal, seat)
        bot_type = FastSearchBot if seat in ours else SearchBot
        bots.append(bot_type(game, seat, bot_seed, budget=budget))
    work = {True: [0, 0], False: [0, 0]}
    state = game.new_initial_state(deal)
    while not state.is_terminal:
        seat = state.pending[0]
        view = game.observe(state, seat)
        action = bots[seat].act(view)
        if len(view.legal_actions) > 1:
            side = work[seat in ours]
            side[0] += bots[seat].last_iterations
            side[1] += 1
        state = game.apply(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None
    share = sum(1.0 / len(outcome.winners) for s in ours if s in outcome.winners)
    return share, work[True][0], work[True][1], work[False][0], work[False][1]


def match(game_id: str, deals: int, millis: float, seed: int, workers: int) -> None:
    """Play ``deals`` deals of ``game_id`` under every seating and print the result."""
    config = MATCHES[game_id]
    players = racedeck.make(game_id, **config).num_players
    plans = seatings(players)
    tasks = [
        (game_id, derive_seed(seed, d), ours, millis, seed) for d in range(deals) for ours in plans
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play, *zip(*tasks, strict=True)))
    elapsed = time.perf_counter() - start
    games = len(results)
    mean = sum(r[0] for r in results) / games
    low, high = wilson_interval(mean * games, games)
    fair = len(plans[0]) / players
    ours_its = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    theirs_its = sum(r[3] for r in results) / max(1, sum(r[4] for r in results))
    label = " ".join(f"{k}={v}" for k, v in config.items())
    print(f"{game_id} {label}: {games} games ({deals} deals x {len(plans)} seatings), "
          f"{millis:g} ms per decision each, {elapsed:.0f} s")  # fmt: skip
    print(f"  fastsearch win share {mean:.3f}  95% CI [{low:.3f}, {high:.3f}]  "
          f"(equal play: {fair:.3f})  {ours_its:,.0f} iterations/decision")  # fmt: skip
    print(f"  search     win share {1 - mean:.3f}  95% CI [{1 - high:.3f}, {1 - low:.3f}]  "
          f"(equal play: {1 - fair:.3f})  {theirs_its:,.0f} iterations/decision")  # fmt: skip


def main() -> None:
    """Run the matches the arguments name."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=["all", *MATCHES])
    parser.add_argument("--deals", type=int, default=50, help="deals, each under every seating")
    parser.add_argument("--millis", type=float, default=50.0, help="time per decision, each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    for game_id in MATCHES if args.game == "all" else [args.game]:
        match(game_id, args.deals, args.millis, args.seed, args.workers)


if __name__ == "__main__":
    main()
