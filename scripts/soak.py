"""A long soak of the table referee: simulated tables until the time is up or one fails.

The worlds of ``tests/referee/test_simulation.py`` — seeded people and bots, disconnects,
"I'm back", timeouts, process restarts from the store and play again, on simulated time —
with seeds beyond the ones ``make test`` runs. A failure prints the table, the clock and the
seed that reproduce it, and exits with 1.

Usage::

    python scripts/soak.py --minutes 30
    python scripts/soak.py --minutes 5 --first-seed 100000 --game setback
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from referee.test_simulation import CLOCKS, TABLES, play


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run")
    parser.add_argument("--first-seed", type=int, default=1000, help="the first seed to play")
    parser.add_argument("--game", help="only this game's tables")
    args = parser.parse_args()
    tables = [t for t in TABLES if args.game in (None, t[0])]
    if not tables:
        parser.error(f"no tables of game {args.game!r}")
    end = time.monotonic() + args.minutes * 60
    seed, games = args.first_seed, 0
    while time.monotonic() < end:
        for game, seats, config in tables:
            for clock in sorted(CLOCKS):
                try:
                    play(game, seats, config, clock, seed)
                except Exception:
                    traceback.print_exc()
                    print(
                        f"FAILED: game={game} seats={seats} config={config} clock={clock} "
                        f"seed={seed}",
                        file=sys.stderr,
                    )
                    return 1
                games += 1
        seed += 1
    print(f"{games} games, seeds {args.first_seed}..{seed - 1}: every invariant held")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
