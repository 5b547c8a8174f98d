"""Many seeded games with bots, on one process or several, with the same result either way."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.sim.play import make_bots
from racedeck.sim.runner import GameJob, play_job, run_jobs
from racedeck.sim.stats import Share

__all__ = ["ContestantStats", "SimulationResult", "simulate"]


@dataclass(frozen=True, slots=True)
class _GameSummary:
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    decisions: int
    names: tuple[str, ...]


def _summary(job: GameJob) -> _GameSummary:
    """Play ``job`` and keep only what the statistics need (records stay in the worker)."""
    played = play_job(job)
    o = played.outcome
    return _GameSummary(o.scores, played.winners, o.ranks, played.decisions, o.names)


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
    jobs = [
        GameJob(
            index=i,
            game_id=game_id,
            config=dict(config),
            bots=tuple(bots),
            seed=derive_seed(seed, i),
        )
        for i in range(games)
    ]

    def delivered(job: GameJob, summary: _GameSummary) -> None:
        if progress:
            progress(1)

    results = run_jobs(jobs, _summary, workers=max(1, workers), on_result=delivered)
    summaries = [results[i] for i in sorted(results)]
    return _summarise(game_id, config, bots, seed, summaries, game.contestant_names())


def _summarise(
    game_id: str,
    config: dict[str, Any],
    bots: Sequence[str],
    seed: int,
    summaries: list[_GameSummary],
    names: Sequence[str],
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
        # The outcome names every contestant, those the engine plays too (Leo).
        known = summaries[0].names if summaries and summaries[0].names else names
        name = known[i] if i < len(known) else f"contestant {i + 1}"
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
