"""The task a report runs for every game: play it through a session and measure it."""

from __future__ import annotations

import json
from typing import Any

from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.core.rng import derive_seed
from racedeck.report.measures.base import Collector, GameMeasures, NoCollector
from racedeck.report.measures.setback import SetbackCollector
from racedeck.report.measures.six_day_race import SixDayRaceCollector
from racedeck.report.measures.why_first import WhyFirstCollector
from racedeck.sim.play import make_bots, play_game
from racedeck.sim.runner import GameJob

__all__ = ["collector_for", "measure_game"]

# One game object per configuration and process: games keep caches (legal options) that
# later games of the same configuration reuse.
_GAMES: dict[str, Game[Any, Any, Any]] = {}


def collector_for(game: Game[Any, Any, Any]) -> Collector:
    """A fresh collector of the measures specific to ``game``."""
    game_id = game.spec.id
    if game_id == "why-first":
        return WhyFirstCollector()
    if game_id == "six-day-race":
        return SixDayRaceCollector(game.num_players)
    if game_id == "setback":
        return SetbackCollector(game.num_players)
    return NoCollector()


def _game(game_id: str, config: dict[str, Any]) -> Game[Any, Any, Any]:
    key = json.dumps([game_id, config], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make(game_id, **config)
    return game


def measure_game(job: GameJob, max_decisions: int = 1_000_000) -> GameMeasures:
    """Play ``job`` on the checked path (which emits events) and return its measures.

    The game is played by :func:`racedeck.sim.play.play_game` with bots seeded from
    ``derive_seed(job.seed, 1)`` as the runner's ``play_job`` seeds them, so the same job gives
    the same game here and there.
    """
    game = _game(job.game_id, job.config)
    bots = make_bots(game, job.bots, derive_seed(job.seed, 1))
    collector = collector_for(game)
    result = play_game(game, bots, job.seed, max_decisions, observer=collector.observe)
    outcome = result.outcome
    return GameMeasures(
        bots=tuple(job.bots),
        scores=outcome.scores,
        ranks=outcome.ranks,
        winners=tuple(sorted(outcome.winners)),
        decisions=result.decisions,
        turns=collector.turns(),
        extra=collector.finish(outcome, result.state),
    )
