"""Game declarations: what a game is, before any state exists."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from racedeck.core.game import Game

__all__ = ["Dynamics", "GameConfig", "GameSpec", "OptionInfo"]


class Dynamics(StrEnum):
    """How seats take their decisions."""

    SEQUENTIAL = "sequential"
    """One seat acts at a time."""
    SIMULTANEOUS = "simultaneous"
    """Several seats commit secretly; the engine resolves when all have committed."""
    REACTIVE = "reactive"
    """Out-of-turn reactions: a window waits on every seat that may respond."""


@dataclass(frozen=True)
class GameConfig:
    """Base class of every game's configuration dataclass.

    Subclasses are frozen dataclasses whose fields all have defaults (the rulings' *(config)*
    values); ``players`` is always present. Field metadata ``help`` documents an option.
    """

    players: int = 3

    def validate(self) -> None:
        """Raise :class:`ValueError` with a clear message when the configuration is unusable."""

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form (tuples become lists)."""
        return {f.name: _jsonify(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _tuplify(value: Any) -> Any:
    """JSON lists back to the tuples that frozen configurations hold, at any depth."""
    if isinstance(value, list | tuple):
        return tuple(_tuplify(v) for v in value)
    return value


def _jsonify(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonify(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One configuration option, for listings such as ``racedeck games``."""

    name: str
    default: Any
    help: str


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Declaration of a game: identity, player range, dynamics, configuration and rules version.

    ``rules_version`` changes only when the behaviour of the rules changes, so a record made
    under one version is refused by another instead of replaying to different states.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    dynamics: frozenset[Dynamics]
    config_type: type[GameConfig]
    rules_version: str
    factory: Callable[[Any], Game[Any, Any, Any]]
    summary: str = ""

    def options(self) -> tuple[OptionInfo, ...]:
        """List the configuration options with their defaults and help texts."""
        out = []
        for f in dataclasses.fields(self.config_type):
            if f.default is not dataclasses.MISSING:
                default: Any = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:  # pragma: no cover - every option has a default by contract
                default = None
            out.append(OptionInfo(f.name, default, str(f.metadata.get("help", ""))))
        return tuple(out)

    def make_config(self, **options: Any) -> GameConfig:
        """Build and validate a configuration from keyword options (JSON lists become tuples)."""
        names = {f.name for f in dataclasses.fields(self.config_type)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise ValueError(
                f"{self.id}: unknown option(s) {', '.join(unknown)}; "
                f"options are {', '.join(sorted(names))}"
            )
        fixed: dict[str, Any] = {k: _tuplify(v) for k, v in options.items()}
        config = self.config_type(**fixed)
        if not self.min_players <= config.players <= self.max_players:
            raise ValueError(
                f"{self.id} is for {self.min_players} to {self.max_players} players, "
                f"not {config.players}"
            )
        config.validate()
        return config
