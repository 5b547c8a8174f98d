"""The rules engines. Importing this package registers every game."""

from racedeck.games import why_first

__all__ = ["why_first"]
