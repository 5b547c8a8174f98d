"""Every named small configuration, gathered from the games' ``solvable`` plugins (each game's
own module names its configurations, :class:`SolvableConfig`)."""

from __future__ import annotations

from racedeck.core.registry import available_games
from racedeck.plugins import optional_plugin
from racedeck.rl.solvable.configuration import SolvableConfig

__all__ = ["CONFIGS", "SolvableConfig", "find_config"]


def _gathered() -> tuple[SolvableConfig, ...]:
    found: list[SolvableConfig] = []
    for game_id in available_games():
        module = optional_plugin(game_id, "solvable")
        found.extend(getattr(module, "CONFIGS", ()))
    return tuple(found)


CONFIGS: tuple[SolvableConfig, ...] = _gathered()
"""Every named small configuration."""


def find_config(name: str) -> SolvableConfig:
    """The configuration called ``name``; :class:`ValueError` naming the known ones."""
    for config in CONFIGS:
        if config.name == name:
            return config
    known = ", ".join(c.name for c in CONFIGS)
    raise ValueError(f"no small configuration {name!r}; known: {known}")
