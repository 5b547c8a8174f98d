"""A named small configuration: a racedeck game and options small enough to solve, and the
deals that start it. Each game's own module (its ``solvable`` plugin) names its
configurations; :mod:`racedeck.rl.solvable.configs` gathers them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.rl.solvable.deals import Deal

__all__ = ["SolvableConfig"]


@dataclass(frozen=True)
class SolvableConfig:
    """A small configuration of one game, with the chance outcomes that start it."""

    name: str
    """The configuration's name (``why-first-duel-2`` …)."""
    game_id: str
    """The racedeck game."""
    options: dict[str, Any]
    """The game's options (the rest take the game's defaults)."""
    summary: str
    """The configuration in a few words."""
    deal: Callable[[Game[Any, Any, Any]], list[Deal]] = field(repr=False)
    """Every deal of the engine made with :attr:`options`, with its probability."""
    restriction: str = ""
    """What the configuration fixes beyond the game's options, if anything."""
    iterations: int = 200
    """CFR+ iterations that bring it close to an equilibrium (``scripts/solve.py``)."""

    def engine(self) -> Game[Any, Any, Any]:
        """The racedeck game under :attr:`options`."""
        return make(self.game_id, **self.options)
