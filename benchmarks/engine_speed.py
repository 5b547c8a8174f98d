"""Engine speed: random games through the checked path, the fast path, and a peer engine.

Plays uniformly random games of every registered game (a whole series for Six Day Race) through
``Game.apply`` (checked: validates, copies the state, emits events) and ``Game.apply_unchecked``
(in place, no checks or events), and in the same run OpenSpiel's ``goofspiel`` (3 players,
8 cards) through ``pyspiel`` when installed (``pip install -e '.[bench]'``). Both sides use the
same loop: ask for the legal actions, pick one with ``random.Random``, apply. Prints games and
player actions per second and the ratios to pyspiel.

``--against REV`` also runs the same loops, in the same run, on the engines of an earlier commit
(checked out with ``git worktree`` into a temporary folder) and prints each path's speed now as a
multiple of its speed then: how much the engines gained or lost since, e.g. since the first
engines were measured (``--against dc75445`` for *Why First?*, ``50f7c4d`` with Six Day Race).

Usage: ``python benchmarks/engine_speed.py [--seconds 3] [--against REV]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import racedeck


def _checked(game: Any, seed: int, rng: random.Random) -> int:
    state = game.new_initial_state(seed)
    n = 0
    while state.pending:
        for seat in state.pending:
            legal = game.legal_actions(state, seat)
            if not legal:
                continue  # an earlier answer changed who is asked (a reaction window)
            state = game.apply(state, seat, legal[rng.randrange(len(legal))])
            n += 1
    return n


def _fast(game: Any, seed: int, rng: random.Random) -> int:
    state = game.new_initial_state(seed)
    legal_actions = game.legal_actions
    apply = game.apply_unchecked
    n = 0
    while state.pending:
        for seat in state.pending:
            legal = legal_actions(state, seat)
            if not legal:
                continue  # an earlier answer changed who is asked (a reaction window)
            apply(state, seat, legal[rng.randrange(len(legal))])
            n += 1
    return n


def _measure(run_one: Callable[[int, random.Random], int], seconds: float) -> tuple[float, float]:
    rng = random.Random(12345)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        actions += run_one(games, rng)
        games += 1
    return games / elapsed, actions / elapsed


def _pyspiel_goofspiel(seconds: float) -> tuple[float, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("goofspiel", {"players": 3, "num_cards": 8})

    def run_one(_: int, rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            elif state.is_simultaneous_node():
                joint = []
                for p in range(3):
                    legal = state.legal_actions(p)
                    joint.append(legal[rng.randrange(len(legal))])
                state.apply_actions(joint)
                n += 3
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                n += 1
        return n

    return _measure(run_one, seconds)


def _configs() -> list[tuple[str, str, dict[str, Any]]]:
    configs: list[tuple[str, str, dict[str, Any]]] = [
        (f"why-first {p}p", "why-first", {"players": p}) for p in (3, 4, 5, 6)
    ]
    configs += [
        ("why-first 2p+Leo", "why-first", {"players": 2}),
        ("why-first 4p tactical", "why-first", {"players": 4, "variant": "tactical"}),
    ]
    configs += [(f"six-day-race {p}p series", "six-day-race", {"players": p}) for p in (3, 5, 8)]
    configs += [(f"setback {p}p", "setback", {"players": p}) for p in (2, 4, 6)]
    return configs


def _engine_rows(seconds: float) -> list[tuple[str, float, float]]:
    """Games and actions per second of every configuration the installed engines know."""
    rows: list[tuple[str, float, float]] = []
    for label, game_id, config in _configs():
        try:
            game = racedeck.make(game_id, **config)
        except Exception:  # an earlier commit without this game or option
            continue
        checked = _measure(lambda seed, rng, g=game: _checked(g, seed, rng), seconds)
        fast = _measure(lambda seed, rng, g=game: _fast(g, seed, rng), seconds)
        rows.append((f"{label} checked", *checked))
        rows.append((f"{label} fast", *fast))
    return rows


def _rows_then(rev: str, seconds: float) -> dict[str, float]:
    """Actions per second of each row on the engines of commit ``rev``: this script run in a
    process that imports ``racedeck`` from that commit's source tree."""
    root = Path(__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="racedeck-then-"))
    tree = folder / "tree"
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "worktree", "add", "--detach", str(tree), rev], check=True)
    try:
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        command = [sys.executable, __file__, "--seconds", str(seconds), "--rows-json"]
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        return {label: aps for label, _gps, aps in json.loads(out.stdout)}
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--against", metavar="REV", help="also measure the engines of this earlier commit"
    )
    parser.add_argument("--rows-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rows_json:
        print(json.dumps(_engine_rows(args.seconds)))
        return

    peer = _pyspiel_goofspiel(args.seconds)
    rows: list[tuple[str, float, float]] = []
    if peer is not None:
        rows.append(("pyspiel goofspiel 3p/8 cards", *peer))
    rows += _engine_rows(args.seconds)
    then = _rows_then(args.against, args.seconds) if args.against else {}

    header = f"{'engine':34} {'games/s':>10} {'actions/s':>12} {'× pyspiel':>10}"
    print(header + (f" {'× ' + args.against:>14}" if args.against else ""))
    for label, gps, aps in rows:
        ratio = f"{aps / peer[1]:.2f}" if peer is not None else "n/a"
        line = f"{label:34} {gps:10.0f} {aps:12.0f} {ratio:>10}"
        if args.against:
            line += f" {f'{aps / then[label]:.2f}' if label in then else 'n/a':>14}"
        print(line)
    if peer is None:
        print("pyspiel not installed: pip install -e '.[bench]' for the peer measurement")


if __name__ == "__main__":
    main()
