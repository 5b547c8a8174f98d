"""Small configurations of every game that OpenSpiel's CFR, best response and exploitability
can solve exactly (see ``docs/solved.md``)."""

from racedeck.rl.solvable.configs import CONFIGS, SolvableConfig, find_config
from racedeck.rl.solvable.game import SolvableGame, SolvableState, load

__all__ = ["CONFIGS", "SolvableConfig", "SolvableGame", "SolvableState", "find_config", "load"]
