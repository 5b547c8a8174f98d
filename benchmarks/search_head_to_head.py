"""Head to head at equal time: the search on compiled states against the Python search.

Both sides are the same information-set MCTS (:class:`racedeck.bots.search.SearchBot` and
``fastsearch``, :mod:`racedeck.kernels.search`), each given the same wall time per decision
(``--millis``); the compiled one simply runs more iterations in it. The match is
:func:`racedeck.sim.versus.head_to_head`: the compiled search in every other seat (4 players:
seats 0 and 2, then 1 and 3; 2 players: each seat in turn), every deal played once under every
seating, so both sides get the same cards. A side's result in a game is the sum of its seats'
shares of the win; the table prints the compiled side's mean (equal play: its share of the
seats) with a Wilson 95% interval over games, and the iterations each side ran per searched
decision.

Games run in ``--workers`` processes (default: one per core); both sides of a game share its
process, so a busy machine slows both alike.

Usage: ``python benchmarks/search_head_to_head.py [--game all|why-first|six-day-race|setback]
[--deals 50] [--millis 50] [--seed 1]``
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from racedeck.sim.versus import head_to_head

MATCHES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "six-day-race": {"players": 4, "races": 1},
    "setback": {"players": 2},
}
"""The games played and their configurations."""


def match(game_id: str, deals: int, millis: float, seed: int, workers: int) -> None:
    """Play ``deals`` deals of ``game_id`` under every seating and print the result."""
    config = MATCHES[game_id]
    start = time.perf_counter()
    r = head_to_head(
        game_id, config, f"fastsearch@{millis:g}ms", f"search@{millis:g}ms", deals, seed, workers
    )
    elapsed = time.perf_counter() - start
    label = " ".join(f"{k}={v}" for k, v in config.items())
    ours_its = r.ours_iterations_per_decision or 0.0
    theirs_its = r.theirs_iterations_per_decision or 0.0
    print(f"{game_id} {label}: {r.games} games ({deals} deals x {len(r.seatings)} seatings), "
          f"{millis:g} ms per decision each, {elapsed:.0f} s")  # fmt: skip
    print(f"  fastsearch win share {r.share:.3f}  95% CI [{r.low:.3f}, {r.high:.3f}]  "
          f"(equal play: {r.fair:.3f})  {ours_its:,.0f} iterations/decision")  # fmt: skip
    print(f"  search     win share {1 - r.share:.3f}  95% CI [{1 - r.high:.3f}, {1 - r.low:.3f}]  "
          f"(equal play: {1 - r.fair:.3f})  {theirs_its:,.0f} iterations/decision")  # fmt: skip


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
