"""Decision time: wall time per decision of each bot, and its ratio to the Python search's.

For each game (*Why First?* 4 players, *Six Day Race* 4 players one race, *Setback* 2 players)
and each bot, ``--games`` games are played with the bot under test in one seat (seat ``i`` of
the number of players in game ``i``) and ``heuristic`` bots in the others; every decision of the
bot under test where it had more than one legal action is timed
(:class:`racedeck.sim.versus.TimedBot`). The table gives the mean and median time per decision
and the ratio of the mean to ``search``'s in the same run, so a slower or busier machine moves
every row alike.

Before its games each bot plays one game untimed: the compiled search loads (or compiles) its
kernels on its first decision in a process, which is not the cost of a decision.

The default run takes about three minutes on one core, nearly all of it the two searches;
``--quick`` plays a few games for a rough figure in well under a minute (once compiled).

Usage: ``python benchmarks/decision_time.py [--game all|why-first|six-day-race|setback]
[--games 20] [--quick] [--seed 1] [--bot policy:PATH ...] [--bots random,heuristic,...]``
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.core.rng import derive_seed
from racedeck.sim.play import play_game
from racedeck.sim.versus import TimedBot

GAMES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "six-day-race": {"players": 4, "races": 1},
    "setback": {"players": 2},
}
"""The games measured and their configurations."""

DEFAULT_BOTS = ("random", "heuristic", "search", "fastsearch")
REFERENCE = "search"
"""The bot every ratio is taken to."""
OPPONENT = "heuristic"
QUICK_GAMES = 3


def times(game: Any, bot: str, games: int, seed: int) -> list[float]:
    """Seconds of each decision with a choice that ``bot`` took over ``games`` games."""
    out: list[float] = []
    for i in range(-1, games):  # game -1 warms the bot up and is not counted
        deal = derive_seed(seed, i + 1)
        seat = max(i, 0) % game.num_players
        bots = [make_bot(OPPONENT, game, s, derive_seed(deal, s)) for s in range(game.num_players)]
        timed = bots[seat] = TimedBot(make_bot(bot, game, seat, derive_seed(deal, seat)))
        play_game(game, bots, deal)
        if i >= 0:
            out.extend(timed.times)
    return out


def measure(game_id: str, bots: list[str], games: int, seed: int) -> None:
    """Time every bot in ``game_id`` and print the table."""
    config = GAMES[game_id]
    game = racedeck.make(game_id, **config)
    label = " ".join(f"{k}={v}" for k, v in config.items())
    print(f"{game_id} {label}: {games} games per bot against {OPPONENT} bots")
    w = max(12, *(len(b) for b in bots))
    print(f"  {'bot':<{w}} {'decisions':>9} {'mean ms':>10} {'median ms':>10} {'/ search':>9}")
    rows: dict[str, list[float] | str] = {}
    for bot in bots:
        try:
            make_bot(bot, game, 0, 0)
        except ValueError as exc:  # a policy of another game, a bot this game lacks
            rows[bot] = f"skipped: {exc}"
            continue
        rows[bot] = times(game, bot, games, seed)
    ref = rows.get(REFERENCE)
    reference = statistics.mean(ref) if isinstance(ref, list) and ref else None
    for bot, taken in rows.items():
        if isinstance(taken, str):
            print(f"  {bot:<{w}} {taken}")
        elif not taken:
            print(f"  {bot:<{w}} {0:>9} {'–':>10} {'–':>10} {'–':>9}")
        else:
            mean = statistics.mean(taken)
            ratio = f"{mean / reference:.3g}" if reference else "–"
            print(f"  {bot:<{w}} {len(taken):>9,} {1e3 * mean:>10.4f} "
                  f"{1e3 * statistics.median(taken):>10.4f} {ratio:>9}")  # fmt: skip


def main() -> None:
    """Measure the games and bots the arguments name."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=["all", *GAMES])
    parser.add_argument("--games", type=int, default=20, help="timed games per bot and game")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games per bot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS), help="the bots, comma separated")
    parser.add_argument(
        "--bot", action="append", default=[], help="one more bot, e.g. policy:PATH (repeatable)"
    )
    args = parser.parse_args()
    bots = list(dict.fromkeys([*(b.strip() for b in args.bots.split(",") if b.strip()), *args.bot]))
    games = QUICK_GAMES if args.quick else args.games
    for game_id in GAMES if args.game == "all" else [args.game]:
        measure(game_id, bots, games, args.seed)


if __name__ == "__main__":
    main()
