"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random
from typing import Any

from racedeck.bots.base import Bot
from racedeck.core.game import Game

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions in its view."""

    name = "random"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self._rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        """Return a uniformly random legal action."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        return legal[self._rng.randrange(len(legal))]
