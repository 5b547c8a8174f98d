"""The rules engines. Importing this package registers every game."""

from racedeck.games import setback, six_day_race, why_first

__all__ = ["setback", "six_day_race", "why_first"]
