"""Measures of single games, taken in the worker as each game is played."""

from racedeck.report.measures.base import MEASURES_VERSION, Collector, GameMeasures
from racedeck.report.measures.play import collector_for, measure_game

__all__ = ["MEASURES_VERSION", "Collector", "GameMeasures", "collector_for", "measure_game"]
