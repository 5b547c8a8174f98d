"""Playing games with bots: one game, or many in parallel with statistics, or one bot against
another head to head."""

from racedeck.sim.play import GameResult, make_bots, play_game
from racedeck.sim.simulate import ContestantStats, SimulationResult, simulate
from racedeck.sim.stats import Share, wilson_interval
from racedeck.sim.versus import VersusResult, head_to_head

__all__ = [
    "ContestantStats",
    "GameResult",
    "Share",
    "SimulationResult",
    "VersusResult",
    "head_to_head",
    "make_bots",
    "play_game",
    "simulate",
    "wilson_interval",
]
