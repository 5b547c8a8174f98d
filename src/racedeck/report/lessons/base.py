"""What the section on the learned bot keeps of its games, and what a game adds to it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.plugins import optional_plugin

if TYPE_CHECKING:  # the findings import this module's game lesson: no import at run time
    from racedeck.report.findings.base import Findings

__all__ = ["GameLesson", "LessonCollector", "LessonGames", "SeatGame", "lesson_for"]


class LessonCollector(Protocol):
    """Follows one game through its events for what a game's lesson measures."""

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Take in the events of one transition and the state it led to."""
        ...

    def finish(self) -> list[Any]:
        """What was measured, one JSON-able value per contestant, once the game is over."""
        ...


@dataclass(frozen=True, slots=True)
class SeatGame:
    """One seat of one game as the section keeps it.

    ``first`` is the seat's first choice in words (its first decision with more than one legal
    action; ``None`` when it never had one); ``values`` the value estimates at each of its
    decisions (empty for a bot without them); ``credit`` its share of the win (a win shared by
    ``k`` counts ``1/k``); ``extra`` what the game's lesson measured of it.
    """

    seat: int
    first: str | None
    values: tuple[float, ...]
    credit: float
    extra: Any = None


@dataclass(frozen=True)
class LessonGames:
    """The section's games: in game ``i`` the learned policy plays seat ``i mod seats``
    against ``field`` bots (``learned[i]``), and the same deal is played by ``field`` bots
    alone (``field_games[i]``: the same seat)."""

    game_id: str
    config: dict[str, Any]
    policy: str
    field: str
    value_head: bool
    seats: int
    contestants: int
    learned: tuple[SeatGame, ...]
    field_games: tuple[SeatGame, ...]

    @property
    def n(self) -> int:
        """Number of games."""
        return len(self.learned)


@dataclass(frozen=True)
class GameLesson:
    """What the section measures of one game beyond the generic parts: ``collector(game)``
    follows a game, ``findings(games, out)`` turns the seats' ``extra`` into figures."""

    collector: Callable[[Game[Any, Any, Any]], LessonCollector]
    findings: Callable[[LessonGames, Path], Findings]


def lesson_for(game_id: str) -> GameLesson | None:
    """The ``LESSON`` of ``game_id``'s ``findings`` plugin, or ``None`` when it has none."""
    module = optional_plugin(game_id, "findings")
    found = getattr(module, "LESSON", None)
    return found if isinstance(found, GameLesson) else None
