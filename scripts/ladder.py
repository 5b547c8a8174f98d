"""The bot ladder, measured: one challenger seat against a table of the bot below it.

For each step (``heuristic`` among ``random`` bots, ``search`` among ``heuristic`` bots) game i
seats the challenger at seat ``i mod players`` and the weaker bot everywhere else, so every
seat is taken equally often. Results are appended to ``OUT/<game>-<step>.jsonl`` as games
finish (a rerun resumes) and summarised as the challenger's win share with its 95% Wilson
interval against the seat share, with a one-sided binomial z-test.

Usage::

    python scripts/ladder.py why-first --players 4 --games 2000 --step search --out ladder/
    python scripts/ladder.py six-day-race --players 3 -o races=1 --step heuristic --games 2000
    python scripts/ladder.py --table docs/ladder     # a Markdown table of every results file
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from racedeck.core.rng import derive_seed
from racedeck.sim.runner import GameJob, PlayedGame, play_job, run_jobs
from racedeck.sim.stats import Share

STEPS = {"heuristic": ("heuristic", "random"), "search": ("search", "heuristic")}


def _jobs(
    game: str, config: dict[str, Any], challenger: str, base: str, games: int, seed: int
) -> list[GameJob]:
    players = config["players"]
    jobs = []
    for i in range(games):
        bots = [base] * players
        bots[i % players] = challenger
        jobs.append(GameJob(i, game, config, tuple(bots), derive_seed(seed, i)))
    return jobs


def summarise(rows: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The challenger's win share, its interval, the seat share and the z statistic."""
    n = len(rows)
    wins = sum(r["challenger_win"] for r in rows)
    share = Share.of(wins, n)
    fair = 1.0 / players
    z = (share.value - fair) / math.sqrt(fair * (1 - fair) / n) if n else 0.0
    return {
        "games": n,
        "win_share": share.value,
        "ci95": [share.low, share.high],
        "seat_share": fair,
        "z": z,
        "significant": share.low > fair,
    }


def table(folder: Path) -> str:
    """A Markdown table of every results file in ``folder``, one row per file."""
    lines = [
        "| file | games | challenger wins (95% CI) | seat share | z |",
        "|---|---:|---|---:|---:|",
    ]
    for path in sorted(folder.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        players = int(path.stem.split("-players")[1].split("-")[0].split("races")[0])
        s = summarise(rows, players)
        lines.append(
            f"| {path.stem} | {s['games']} | {100 * s['win_share']:.1f}% "
            f"({100 * s['ci95'][0]:.1f}–{100 * s['ci95'][1]:.1f}) | "
            f"{100 * s['seat_share']:.1f}% | {s['z']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Run (or resume) one ladder step and print its summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--table", type=Path, help="print a table of the results in this folder")
    parser.add_argument("--players", type=int)
    parser.add_argument("--step", choices=sorted(STEPS))
    parser.add_argument("--search", default="search", help="search bot spec (e.g. search@200)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=Path("docs/ladder"))
    parser.add_argument("-o", action="append", default=[], help="game option key=value")
    args = parser.parse_args()
    if args.table is not None:
        print(table(args.table))
        return
    if args.game is None or args.players is None or args.step is None:
        parser.error("a game, --players and --step are needed to run a step")
    config: dict[str, Any] = {"players": args.players}
    for kv in args.o:
        key, value = kv.split("=", 1)
        config[key] = int(value) if value.lstrip("-").isdigit() else value
    challenger, base = STEPS[args.step]
    if challenger == "search":
        challenger = args.search
    args.out.mkdir(parents=True, exist_ok=True)
    label = "-".join([args.game, *(f"{k}{v}" for k, v in sorted(config.items())), challenger])
    path = args.out / f"{label}.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {r["index"] for r in rows}
    jobs = [
        j
        for j in _jobs(args.game, config, challenger, base, args.games, args.seed)
        if j.index not in done
    ]

    with path.open("a") as sink:

        def keep(job: GameJob, played: PlayedGame) -> None:
            seat = job.index % args.players
            winners = played.winners
            row = {
                "index": job.index,
                "seat": seat,
                "challenger_win": (1.0 / len(winners)) if seat in winners else 0.0,
                "decisions": played.decisions,
                "seconds": played.seconds,
            }
            rows.append(row)
            sink.write(json.dumps(row) + "\n")
            sink.flush()

        try:
            run_jobs(jobs, play_job, workers=args.workers, on_result=keep)
        except KeyboardInterrupt:
            print(f"interrupted: {len(rows)} games kept in {path}")
    summary = summarise(rows, args.players)
    summary.update(game=args.game, config=config, challenger=challenger, base=base)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
