"""Head to head: racedeck's search bot against OpenSpiel's ``ISMCTSBot`` at equal iterations.

Both play the same game, the engine under :mod:`racedeck.rl.openspiel` (*Why First?* in its
turn-by-turn form ``racedeck_why_first_turns``: OpenSpiel's ISMCTS searches sequential games
only; each commit stays hidden from the others until the round is revealed, WF-4). Each decision
of a seat with more than one legal action is searched with the same number of iterations:

- ours: :class:`racedeck.bots.search.SearchBot` as the game ships it — single-observer ISMCTS
  over the game's determinizations, decoupled choices where commits are hidden, playouts cut
  and valued where the game's playout says (``--random-playouts``: uniformly random playouts
  to the end of the game instead);
- theirs: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with one random rollout to the end
  of the game per simulation (``RandomRolloutEvaluator(1)``), nodes keyed by the observation
  string (the seat's view; the information state string, which adds every earlier view of the
  seat, costs more in games this long), inconsistent action sets
  allowed (an opponent's legal actions depend on its sampled hand), the most visited action,
  and UCT constant 1 (OpenSpiel's usual 2 for returns in [-1, 1], here returns are win shares
  in [0, 1]). Its determinizations come from the same sampler as ours
  (:func:`racedeck.rl.openspiel.resampler`).

Seating: ours in every other seat (4 players: seats 0 and 2, then 1 and 3; 2 players: each
seat in turn), every deal played once under every seating, so both sides get the same cards.
A side's result in a game is the sum of its seats' returns (each winner's share of the win);
the table prints its mean (the win share; equal play gives the side's share of the seats) with a
Wilson 95% interval over games, and seconds per searched decision for each side.

Usage: ``python benchmarks/vs_openspiel_ismcts.py [--game why-first|setback|all]
[--deals 20] [--iterations 100] [--seed 1] [--random-playouts] [--progress]``
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.core.rng import derive_seed
from racedeck.rl import openspiel

MATCHES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 4},
    "setback": {"players": 2},
}
"""The games played and their configurations."""

UCT_C = 1.0
"""OpenSpiel ISMCTS's exploration constant for returns in [0, 1]."""


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion ``share`` observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def seatings(players: int) -> list[tuple[int, ...]]:
    """Our seats in each seating: every other seat, in every distinct rotation."""
    base = tuple(s for s in range(players) if s % 2 == 0) if players % 2 == 0 else (0,)
    out: list[tuple[int, ...]] = []
    for k in range(players):
        seats = tuple(sorted((s + k) % players for s in base))
        if seats not in out:
            out.append(seats)
    return out


class Clock:
    """Seconds and decisions per side."""

    def __init__(self) -> None:
        self.seconds = {"ours": 0.0, "theirs": 0.0}
        self.decisions = {"ours": 0, "theirs": 0}

    def add(self, side: str, seconds: float) -> None:
        """Count one searched decision of ``side``."""
        self.seconds[side] += seconds
        self.decisions[side] += 1

    def per_decision(self, side: str) -> float:
        """Mean seconds per searched decision of ``side``."""
        return self.seconds[side] / max(1, self.decisions[side])


def play(
    game: openspiel.RacedeckGame,
    deal: int,
    ours: tuple[int, ...],
    iterations: int,
    seed: int,
    random_playouts: bool,
    clock: Clock,
) -> list[float]:
    """Play one game from engine seed ``deal``, ours in seats ``ours``; each seat's return."""
    n = game.num_players()
    encoding = game.encoding
    state = game.deal(deal)
    budget = SearchBudget(iterations)
    bots: dict[int, Any] = {}
    for seat in range(n):
        bot_seed = derive_seed(seed, deal, seat)
        if seat in ours:
            bots[seat] = SearchBot(
                game.engine, seat, bot_seed, budget=budget, cut_playouts=not random_playouts
            )
        else:
            rs = np.random.RandomState(bot_seed % 2**32)
            bot = ismcts.ISMCTSBot(
                game,
                mcts.RandomRolloutEvaluator(1, rs),
                UCT_C,
                iterations,
                random_state=rs,
                use_observation_string=True,
                allow_inconsistent_action_sets=True,
            )
            bot.set_resampler(openspiel.resampler(bot_seed))
            bots[seat] = bot
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        start = time.perf_counter()
        if seat in ours:
            action = encoding.index(bots[seat].act(state.view(seat)))
            clock.add("ours", time.perf_counter() - start)
        else:
            action = int(bots[seat].step(state))
            clock.add("theirs", time.perf_counter() - start)
        state.apply_action(action)
    returns: list[float] = state.returns()
    return returns


def match(
    game_id: str,
    deals: int,
    iterations: int,
    seed: int,
    random_playouts: bool,
    progress: bool = False,
) -> None:
    """Play ``deals`` deals of ``game_id`` under every seating and print the table."""
    config = MATCHES[game_id]
    game = openspiel.load(game_id, turn_based=openspiel.is_simultaneous(game_id), **config)
    n = game.num_players()
    plans = seatings(n)
    clock = Clock()
    shares: list[float] = []
    start = time.perf_counter()
    for d in range(deals):
        deal = derive_seed(seed, d)
        for ours in plans:
            returns = play(game, deal, ours, iterations, seed, random_playouts, clock)
            shares.append(sum(returns[s] for s in ours))
        if progress:
            mean = sum(shares) / len(shares)
            low, high = wilson(mean, len(shares))
            print(
                f"  after {len(shares)} games: ours {mean:.3f} [{low:.3f}, {high:.3f}]", flush=True
            )
    elapsed = time.perf_counter() - start
    games = len(shares)
    mean = sum(shares) / games
    low, high = wilson(mean, games)
    fair = len(plans[0]) / n
    label = " ".join(f"{k}={v}" for k, v in config.items())
    playouts = "random playouts" if random_playouts else "the game's playouts"
    print(f"{game_id} {label}: {games} games ({deals} deals x {len(plans)} seatings),")
    print(f"  {iterations} iterations per decision each; ours with {playouts}; {elapsed:.0f} s")
    print(f"  racedeck search  win share {mean:.3f}  95% CI [{low:.3f}, {high:.3f}]", end="")
    print(f"  (equal play: {fair:.3f})  {clock.per_decision('ours') * 1000:.0f} ms/decision")
    print(
        f"  OpenSpiel ISMCTS win share {1 - mean:.3f}  95% CI [{1 - high:.3f}, {1 - low:.3f}]",
        end="",
    )
    print(f"  (equal play: {1 - fair:.3f})  {clock.per_decision('theirs') * 1000:.0f} ms/decision")


def main() -> None:
    """Run the matches the arguments name."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*MATCHES, "all"], default="all")
    parser.add_argument("--deals", type=int, default=20, help="deals per game (x seatings)")
    parser.add_argument("--iterations", type=int, default=100, help="iterations per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--random-playouts", action="store_true", help="ours plays random playouts to the end"
    )
    parser.add_argument("--progress", action="store_true", help="print the share after each deal")
    args = parser.parse_args()
    for game_id in MATCHES if args.game == "all" else (args.game,):
        match(game_id, args.deals, args.iterations, args.seed, args.random_playouts, args.progress)


if __name__ == "__main__":
    main()
