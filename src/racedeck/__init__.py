"""racedeck: play, study and train AI on racing card games.

>>> import racedeck
>>> game = racedeck.make("why-first", players=4)
>>> table = racedeck.Table(game, seed=1)
>>> table.pending
(0, 1, 2, 3)
"""

from racedeck import games as _games  # noqa: F401  (registers every game)
from racedeck.core import (
    Event,
    Game,
    GameRecord,
    IllegalAction,
    Outcome,
    Player,
    Table,
    Transition,
    available_games,
    feed,
    get_spec,
    make,
    replay,
    run,
)

__all__ = [
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "Outcome",
    "Player",
    "Table",
    "Transition",
    "available_games",
    "feed",
    "get_spec",
    "make",
    "replay",
    "run",
]
__version__ = "0.1.0"
