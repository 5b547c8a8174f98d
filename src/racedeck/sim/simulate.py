"""Many seeded games with bots, on one process or several, with the same result either way."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.sim.play import make_bots, play_game
from racedeck.sim.stats import Share

__all__ = ["ContestantStats", "SimulationResult", "simulate"]

_CHUNK = 100


@dataclass(frozen=True, slots=True)
class _GameSummary:
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    decisions: int


def _play_chunk(
    game_id: str, config: dict[str, Any], bots: Sequence[str], seed: int, start: int, stop: int
) -> tuple[int, list[_GameSummary]]:
    game = make(game_id, **config)
    out = []
    for i in range(start, stop):
        game_seed = derive_seed(seed, i)
        result = play_game(game, make_bots(game, bots, derive_seed(game_seed, 1)), game_seed)
        o = result.outcome
        out.append(_GameSummary(o.scores, tuple(sorted(o.winners)), o.ranks, result.decisions))
    return start, out


@dataclass(frozen=True, slots=True)
class ContestantStats:
    """Results of one seat (or engine-played contestant such as Leo) over all games.

    A shared win counts as ``1/k`` of a win for each of the ``k`` winners.
    """

    index: int
    name: str
    bot: str
    wins: float
    win_share: Share
    mean_score: float
    mean_rank: float

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "index": self.index,
            "name": self.name,
            "bot": self.bot,
            "wins": self.wins,
            "win_share": self.win_share.value,
            "ci95": [self.win_share.low, self.win_share.high],
            "mean_score": self.mean_score,
            "mean_rank": self.mean_rank,
        }


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Per-contestant statistics of a simulation, plus what was run."""

    game: str
    config: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int
    contestants: tuple[ContestantStats, ...]
    mean_decisions: float
    by_bot: dict[str, Share] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "game": self.game,
            "config": self.config,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "mean_decisions": self.mean_decisions,
            "contestants": [c.to_json() for c in self.contestants],
            "by_bot": {
                name: {"win_share": s.value, "ci95": [s.low, s.high]}
                for name, s in self.by_bot.items()
            },
        }


def simulate(
    game_id: str,
    config: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` games; game ``i`` uses seed ``derive_seed(seed, i)`` whoever plays it.

    ``progress`` is called with the number of games just finished. Results are combined in game
    order, so the same ``seed`` gives the same result for any number of ``workers``.
    """
    game = make(game_id, **config)  # validates the configuration and the bot names up front
    make_bots(game, bots, seed)
    chunks = [(s, min(s + _CHUNK, games)) for s in range(0, games, _CHUNK)]
    results: dict[int, list[_GameSummary]] = {}
    if workers <= 1:
        for start, stop in chunks:
            _, out = _play_chunk(game_id, config, bots, seed, start, stop)
            results[start] = out
            if progress:
                progress(len(out))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_play_chunk, game_id, config, list(bots), seed, start, stop)
                for start, stop in chunks
            ]
            try:
                for future in as_completed(futures):
                    start, out = future.result()
                    results[start] = out
                    if progress:
                        progress(len(out))
            except KeyboardInterrupt:
                for f in futures:
                    f.cancel()
                raise
    summaries = [g for start in sorted(results) for g in results[start]]
    return _summarise(game_id, config, bots, seed, summaries, game.seat_names())


def _summarise(
    game_id: str,
    config: dict[str, Any],
    bots: Sequence[str],
    seed: int,
    summaries: list[_GameSummary],
    seat_names: Sequence[str],
) -> SimulationResult:
    n = len(summaries)
    count = len(summaries[0].scores) if summaries else len(bots)
    wins = [0.0] * count
    score_sum = [0.0] * count
    rank_sum = [0.0] * count
    decisions = 0
    for g in summaries:
        for w in g.winners:
            wins[w] += 1.0 / len(g.winners)
        for i in range(count):
            score_sum[i] += g.scores[i]
            rank_sum[i] += g.ranks[i]
        decisions += g.decisions
    contestants = []
    for i in range(count):
        is_seat = i < len(bots)
        name = seat_names[i] if is_seat else "Leo"
        contestants.append(
            ContestantStats(
                index=i,
                name=name,
                bot=bots[i] if is_seat else "engine",
                wins=wins[i],
                win_share=Share.of(wins[i], n),
                mean_score=score_sum[i] / n if n else 0.0,
                mean_rank=rank_sum[i] / n if n else 0.0,
            )
        )
    by_bot: dict[str, Share] = {}
    for name in dict.fromkeys(bots):
        seats = [i for i, b in enumerate(bots) if b == name]
        # Share of seat-games won by this bot: each seat it holds is one trial per game.
        by_bot[name] = Share.of(sum(wins[i] for i in seats), n * len(seats))
    return SimulationResult(
        game=game_id,
        config=dict(config),
        bots=tuple(bots),
        games=n,
        seed=seed,
        contestants=tuple(contestants),
        mean_decisions=decisions / n if n else 0.0,
        by_bot=by_bot,
    )
