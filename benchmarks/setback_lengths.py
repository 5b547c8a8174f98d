"""How long Setback games are: accepted actions per game, against the ``max_moves`` bound.

The rules bound nothing — minus cards, FOE, TRADE, CUT and SKIP can set tokens back for ever
(SB-4 to SB-10) — so the only bound of a game is the engine's ``max_moves`` (20,000 by
default), which ends it ranked by progress, and which the action encoding reports as
``max_game_length``. This measures how long games really are, and how often they reach that
bound, with the compiled kernel (:class:`racedeck.kernels.setback.SetbackBatch`, the engine's
very games): every player count with the rulebook's board (6 rows), random, heuristic and mixed
seats (one heuristic seat, random others); then 12 and 20 rows.

Usage: ``python benchmarks/setback_lengths.py [--games 20000] [--players N] [--rows R]``
(heuristic and mixed seats play a fifth as many games; about two minutes on one core with the
defaults, most of it the heuristic games on 20 rows, which play to ``max_moves``).
"""

from __future__ import annotations

import argparse

import numpy as np

from racedeck.games.setback import SetbackConfig
from racedeck.kernels.setback import SetbackBatch

SEATS = ("random", "heuristic", "mixed")


def lengths(config: SetbackConfig, seats: str, games: int, seed: int) -> tuple[np.ndarray, int]:
    """The accepted actions of ``games`` games, and how many ``max_moves`` ended."""
    n = config.players
    policies = ["heuristic"] + ["random"] * (n - 1) if seats == "mixed" else seats
    result = SetbackBatch(config).play(games, seed=seed, policies=policies)
    return result.moves, int((result.first < 0).sum())


def main() -> None:
    """Print one line per configuration and seats: the longest game, quantiles, the capped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=0, help="only this many players")
    parser.add_argument("--rows", type=int, default=0, help="only boards of this many rows")
    args = parser.parse_args()
    print(f"{'players':>7} {'rows':>4} {'seats':>9} {'games':>6} {'mean':>6} {'q99':>6} "
          f"{'q99.9':>6} {'longest':>7} {'at max_moves':>12}")  # fmt: skip
    setups = [(players, 6) for players in range(2, 7)] + [(4, 12), (4, 20)]
    setups = [
        (players, rows)
        for players, rows in setups
        if args.players in (0, players) and args.rows in (0, rows)
    ]
    for players, rows in setups:
        config = SetbackConfig(players=players, rows=rows)
        for seats in SEATS:
            games = args.games if seats == "random" else args.games // 5
            moves, capped = lengths(config, seats, games, seed=7 + players + rows)
            print(
                f"{players:>7} {rows:>4} {seats:>9} {games:>6} {moves.mean():>6.0f} "
                f"{np.quantile(moves, 0.99):>6.0f} {np.quantile(moves, 0.999):>6.0f} "
                f"{moves.max():>7} {capped:>12}",
                flush=True,
            )


if __name__ == "__main__":
    main()
