"""The contract every racedeck game implements, shared by everything above it.

Nothing here performs I/O or imports from outer layers (bots, sim, store, cli, server, rl).
"""

from racedeck.core.encoding import ActionEncoding
from racedeck.core.errors import IllegalAction, RacedeckError
from racedeck.core.events import PUBLIC, RECORD, Event, feed
from racedeck.core.game import Action, Game, GameState, Transition, View
from racedeck.core.outcome import Outcome, competition_ranks
from racedeck.core.record import GameRecord, RecordedAction, ReplayStep, replay
from racedeck.core.registry import available_games, get_spec, make, register
from racedeck.core.rng import Rng, derive_seed
from racedeck.core.spec import Dynamics, GameConfig, GameSpec, OptionInfo
from racedeck.core.table import Player, Table, run

__all__ = [
    "PUBLIC",
    "RECORD",
    "Action",
    "ActionEncoding",
    "Dynamics",
    "Event",
    "Game",
    "GameConfig",
    "GameRecord",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "OptionInfo",
    "Outcome",
    "Player",
    "RacedeckError",
    "RecordedAction",
    "ReplayStep",
    "Rng",
    "Table",
    "Transition",
    "View",
    "available_games",
    "competition_ranks",
    "derive_seed",
    "feed",
    "get_spec",
    "make",
    "register",
    "replay",
    "run",
]
