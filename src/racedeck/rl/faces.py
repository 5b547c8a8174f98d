"""A game's action encoding, observation encoding and environment name, found through its
registration."""

from __future__ import annotations

from typing import Any

from racedeck.core.encoding import ActionEncoding
from racedeck.core.game import Game
from racedeck.plugins import plugin
from racedeck.rl.observations.base import Observer

__all__ = ["ENV_VERSION", "encoding_for", "env_name", "observer_for"]

ENV_VERSION = 0
"""The version in every PettingZoo environment's name: it changes only when what an
environment gives for the same seed and actions changes."""


def encoding_for(game: Game[Any, Any, Any]) -> ActionEncoding[Any]:
    """The action encoding of ``game``'s configuration (its ``encoding`` plugin)."""
    encoding: ActionEncoding[Any] = plugin(game.spec.id, "encoding").action_encoding(game)
    return encoding


def observer_for(game: Game[Any, Any, Any]) -> Observer[Any]:
    """The observation encoding of ``game``'s configuration (its ``observation`` plugin)."""
    observer: Observer[Any] = plugin(game.spec.id, "observation").observer(game)
    return observer


def env_name(game_id: str) -> str:
    """The PettingZoo name of ``game_id``'s environments, ``metadata["name"]``:
    ``racedeck_<id>_v<version>`` with dashes as underscores (``racedeck_six_day_race_v0``).

    As in PettingZoo's own environments (``pistonball_v6`` names both faces of Pistonball),
    the AEC and the parallel face of a game share it: they are one environment, played two
    ways."""
    return f"racedeck_{game_id.replace('-', '_')}_v{ENV_VERSION}"
