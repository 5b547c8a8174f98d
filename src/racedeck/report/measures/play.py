"""The task a report runs for every game: play it on the table driver and measure it."""

from __future__ import annotations

from typing import Any

from racedeck.core.game import Game
from racedeck.core.rng import derive_seed
from racedeck.plugins import optional_plugin
from racedeck.report.measures.base import Collector, GameMeasures, NoCollector
from racedeck.sim.play import make_bots, play_game
from racedeck.sim.runner import GameJob, game_for

__all__ = ["collector_for", "measure_game"]


def collector_for(game: Game[Any, Any, Any]) -> Collector:
    """A fresh collector of the measures specific to ``game``: its ``measures`` plugin's
    ``collector(game)``, or only the generic measures when it registers none."""
    module = optional_plugin(game.spec.id, "measures")
    if module is None:
        return NoCollector()
    return module.collector(game)  # type: ignore[no-any-return]


def measure_game(job: GameJob, max_decisions: int = 1_000_000) -> GameMeasures:
    """Play ``job`` on the checked path (which emits events) and return its measures.

    The game is played by :func:`racedeck.sim.play.play_game` with bots seeded from
    ``derive_seed(job.seed, 1)`` as the runner's ``play_job`` seeds them, so the same job gives
    the same game here and there.
    """
    game = game_for(job)
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
