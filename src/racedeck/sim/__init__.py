"""Playing games with bots: one game, or many in parallel with statistics."""

from racedeck.sim.play import GameResult, make_bots, play_game
from racedeck.sim.simulate import ContestantStats, SimulationResult, simulate
from racedeck.sim.stats import Share, wilson_interval

__all__ = [
    "ContestantStats",
    "GameResult",
    "Share",
    "SimulationResult",
    "make_bots",
    "play_game",
    "simulate",
    "wilson_interval",
]
