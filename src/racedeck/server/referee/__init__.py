"""The referee of a table: pure, deterministic, time as an argument (see
:mod:`racedeck.server.referee.referee`)."""

from racedeck.server.referee.lifecycle import restore
from racedeck.server.referee.referee import Referee

__all__ = ["Referee", "restore"]
