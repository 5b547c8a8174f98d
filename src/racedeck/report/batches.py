"""Batches of games: one configuration and bot lineup, played over many seeds."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec
from racedeck.core.rng import derive_seed
from racedeck.report.measures import MEASURES_VERSION, GameMeasures
from racedeck.sim.runner import GameJob

__all__ = ["MAIN", "Batch", "BatchResult", "batch_seed", "fit_lineup"]

MAIN = "main"
"""Key of the batch with the game, configuration and bots the user asked for."""


def batch_seed(seed: int, key: str) -> int:
    """The master seed of batch ``key``: the run's seed itself for the main batch (so its
    games are those ``racedeck simulate`` plays with that seed), an independent one else."""
    if key == MAIN:
        return seed
    return derive_seed(seed, zlib.crc32(key.encode("utf-8")))


def fit_lineup(lineup: tuple[str, ...], players: int) -> tuple[str, ...]:
    """``lineup`` cycled or cut to ``players`` seats (for batches with another player count)."""
    return tuple(lineup[i % len(lineup)] for i in range(players))


@dataclass(frozen=True)
class Batch:
    """Games of one configuration between one lineup of bots.

    When the lineup mixes bots, game ``i`` seats it rotated by ``i`` places, so every bot sits
    in every seat equally often and the effects of seat and bot can be told apart. Game ``i``
    has seed ``derive_seed(seed, i)``.
    """

    key: str
    title: str
    game_id: str
    config: JSONObject
    lineup: tuple[str, ...]
    games: int
    seed: int
    note: str = ""

    @property
    def rotated(self) -> bool:
        """True when the lineup mixes bots and is rotated over the seats."""
        return len(set(self.lineup)) > 1

    def bots_of(self, index: int) -> tuple[str, ...]:
        """The bots by seat of game ``index``."""
        if not self.rotated:
            return self.lineup
        k = len(self.lineup)
        return tuple(self.lineup[(seat + index) % k] for seat in range(k))

    def job(self, index: int, run_index: int) -> GameJob:
        """Game ``index`` of this batch, as job ``run_index`` of a run."""
        return GameJob(
            index=run_index,
            game_id=self.game_id,
            config=dict(self.config),
            bots=self.bots_of(index),
            seed=derive_seed(self.seed, index),
        )

    def params(self) -> JSONObject:
        """What makes its games what they are; a saved game is reused only under equal params."""
        return {
            "game": self.game_id,
            "rules_version": get_spec(self.game_id).rules_version,
            "config": self.config,
            "lineup": list(self.lineup),
            "seed": self.seed,
            "measures": MEASURES_VERSION,
        }

    def describe(self) -> JSONObject:
        """The JSON description used in ``data.json``."""
        return {
            "key": self.key,
            "title": self.title,
            "games": self.games,
            "rotated": self.rotated,
            "note": self.note,
            **self.params(),
        }


@dataclass(frozen=True)
class BatchResult:
    """A batch with the measures of its games, in game order (the games that were played)."""

    batch: Batch
    games: tuple[GameMeasures, ...]
    names: tuple[str, ...]
    """Contestant names: seats ``Seat 1`` …, then engine figures such as ``Leo``."""

    @property
    def n(self) -> int:
        """Number of games."""
        return len(self.games)

    @property
    def seats(self) -> int:
        """Number of seats (contestants played by bots)."""
        return len(self.batch.lineup)

    def config_value(self, name: str, default: Any = None) -> Any:
        """A configuration value of the batch (as given, else ``default``)."""
        return self.batch.config.get(name, default)
