"""The bot interface: a bot sees only its seat's view, never the state."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from racedeck.core.game import Game

__all__ = ["Bot"]


class Bot(ABC):
    """A player program for one seat of one game.

    :meth:`act` receives the seat's view (which carries its legal actions) and returns one of
    them. Bots are seeded, so a game with bots replays exactly.
    """

    name: str = "bot"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed

    @abstractmethod
    def act(self, view: Any) -> Any:
        """Return the action to take, chosen from ``view.legal_actions``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat}>"
