"""Measures of one series of *Six Day Race*: slipstream (SD-5), FAHRERWECHSEL (SD-6), STURZ
(SD-7), laps lost (SD-10) and the starting order of the first race (SD-4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome

__all__ = ["SixDayRaceCollector"]


class SixDayRaceCollector:
    """Reads ``card_played``, ``rider_change``, ``crash``, ``race_started`` and ``race_scored``.

    Riders belong to seat ``rider % players`` (SD-12). A move is *multiplied* when slipstream
    took the rider beyond the first space reached (``multiplier`` > 1); a move that lands on
    other riders on FAHRERWECHSEL or STURZ is counted as a *refused* slipstream.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.moves = 0
        self.multipliers: dict[int, int] = {}
        self.slip_extra = 0
        self.slip_by_seat = [0] * players
        self.refused = 0
        self.rider_changes = [0] * players
        self.crashes = [0] * players
        self.laps = [0] * players
        self.start_order: list[int] = []
        self.races = 0

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Count moves, slipstreams, rider changes, crashes and laps lost."""
        n = self.players
        for e in events:
            kind, d = e.kind, e.data
            if kind == "card_played":
                self.moves += 1
                m = int(d["multiplier"])
                self.multipliers[m] = self.multipliers.get(m, 0) + 1
                if m > 1:
                    self.slip_extra += int(d["to"]) - int(d["first"])
                    self.slip_by_seat[d["rider"] % n] += 1
                elif d["riders_there"] and d["special"]:
                    self.refused += 1
            elif kind == "rider_change":
                self.rider_changes[d["rider"] % n] += 1
            elif kind == "crash":
                self.crashes[d["rider"] % n] += 1
            elif kind == "race_started" and not self.start_order:
                # The first race's order: who moved first, second… (later races are reordered
                # by the results, SD-11, so only the first is set by the seating).
                seen: list[int] = []
                for rider in d["order"]:
                    if rider % n not in seen:
                        seen.append(rider % n)
                self.start_order = seen
            elif kind == "race_scored":
                self.races += 1
                for r in d["riders"]:
                    self.laps[r["rider"] % n] += int(r["laps"])

    def turns(self) -> int | None:
        """Cards played over the series."""
        return self.moves

    def finish(self, outcome: Outcome, state: Any) -> JSONObject:
        """The counts, by seat where they belong to a seat."""
        return {
            "moves": self.moves,
            "multipliers": {str(m): c for m, c in sorted(self.multipliers.items())},
            "slip_extra": self.slip_extra,
            "slip_by_seat": self.slip_by_seat,
            "refused": self.refused,
            "rider_changes": self.rider_changes,
            "crashes": self.crashes,
            "laps": self.laps,
            "start_order": self.start_order,
            "races": self.races,
        }


def collector(game: Game[Any, Any, Any]) -> SixDayRaceCollector:
    """A fresh collector for one game of ``game`` (the game's ``measures`` plugin)."""
    return SixDayRaceCollector(game.num_players)
