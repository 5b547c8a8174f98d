"""A game's action encoding and observation encoding, found through its registration."""

from __future__ import annotations

from typing import Any

from racedeck.core.encoding import ActionEncoding
from racedeck.core.game import Game
from racedeck.plugins import plugin
from racedeck.rl.observations.base import Observer

__all__ = ["encoding_for", "observer_for"]


def encoding_for(game: Game[Any, Any, Any]) -> ActionEncoding[Any]:
    """The action encoding of ``game``'s configuration (its ``encoding`` plugin)."""
    encoding: ActionEncoding[Any] = plugin(game.spec.id, "encoding").action_encoding(game)
    return encoding


def observer_for(game: Game[Any, Any, Any]) -> Observer[Any]:
    """The observation encoding of ``game``'s configuration (its ``observation`` plugin)."""
    observer: Observer[Any] = plugin(game.spec.id, "observation").observer(game)
    return observer
