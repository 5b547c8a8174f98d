"""The rules engines. Importing this package registers every game."""

from racedeck.games import six_day_race, why_first

__all__ = ["six_day_race", "why_first"]
