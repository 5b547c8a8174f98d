"""The registry of games: ``make(game_id, **config)`` and ``available_games()``."""

from __future__ import annotations

from typing import Any

from racedeck.core.game import Game
from racedeck.core.spec import GameSpec

__all__ = ["available_games", "get_spec", "make", "register"]

_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (idempotent for the same spec object)."""
    existing = _REGISTRY.get(spec.id)
    if existing is not None and existing is not spec:
        raise ValueError(f"a different game is already registered as {spec.id!r}")
    _REGISTRY[spec.id] = spec
    return spec


def available_games() -> tuple[str, ...]:
    """Return the ids of all registered games, sorted."""
    return tuple(sorted(_REGISTRY))


def get_spec(game_id: str) -> GameSpec:
    """Return the spec of ``game_id`` or raise :class:`KeyError` naming the known games."""
    try:
        return _REGISTRY[game_id]
    except KeyError:
        known = ", ".join(available_games()) or "none"
        raise KeyError(f"unknown game {game_id!r}; available: {known}") from None


def make(game_id: str, **config: Any) -> Game[Any, Any, Any]:
    """Create the game ``game_id`` with configuration options (defaults for the rest)."""
    spec = get_spec(game_id)
    return spec.factory(spec.make_config(**config))
