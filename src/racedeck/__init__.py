"""racedeck: play, study and train AI on racing card games.

>>> import racedeck
>>> game = racedeck.make("why-first", players=4)
>>> state = game.new_initial_state(seed=1)
>>> sorted(state.pending)
[0, 1, 2, 3]
"""

from racedeck import games as _games  # noqa: F401  (registers every game)
from racedeck.core import (
    Event,
    Game,
    GameRecord,
    IllegalAction,
    Outcome,
    Session,
    available_games,
    get_spec,
    make,
    replay,
)

__all__ = [
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "Outcome",
    "Session",
    "available_games",
    "get_spec",
    "make",
    "replay",
]
__version__ = "0.1.0"
