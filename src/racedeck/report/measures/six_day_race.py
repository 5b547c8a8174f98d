"""Measures of one series of *Six Day Race*: slipstream (SD-5), FAHRERWECHSEL (SD-6), STURZ
(SD-7), laps lost (SD-10) and the starting order of the first race (SD-4)."""

from __future__ import annotations

import zlib
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
    other riders on FAHRERWECHSEL or STURZ is counted as a *refused* slipstream. A *whole-field*
    slipstream is one where every other rider stood on the first space reached (the largest
    multiplier there can be, ``riders``); ``field_at`` keeps the move of its race it came on.

    Each race's *opening* is its moves before the first grey card is played: until then every
    rider plays from its green hand, which the rules deal alike to everyone and never shuffle
    (SD-2), from space 0 (SD-11), so nothing in it is left to chance but the players' choices.
    ``openings`` holds, per race, a checksum of the opening's moves (from, value, to), its length,
    the rider changes and the refused slipstreams inside it; ``race_changes`` the rider changes
    of each race and ``race_refused`` its refused slipstreams.
    """

    def __init__(self, players: int, riders: int | None = None) -> None:
        self.players = players
        self.riders = players if riders is None else riders
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
        self.field_at: list[int] = []
        self.field_extra = 0
        self.race_changes: list[int] = []
        self.race_refused: list[int] = []
        self.openings: list[list[int]] = []
        self._race_moves = 0
        # While a race's opening lasts: checksum, moves, rider changes, refused slipstreams.
        self._opening: list[int] | None = None

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Count moves, slipstreams, rider changes, crashes and laps lost."""
        n = self.players
        for e in events:
            kind, d = e.kind, e.data
            if kind == "card_played":
                self.moves += 1
                self._race_moves += 1
                m = int(d["multiplier"])
                self.multipliers[m] = self.multipliers.get(m, 0) + 1
                if m > 1:
                    self.slip_extra += int(d["to"]) - int(d["first"])
                    self.slip_by_seat[d["rider"] % n] += 1
                elif d["riders_there"] and d["special"]:
                    self.refused += 1
                    if self.race_refused:
                        self.race_refused[-1] += 1
                    if self._opening is not None and int(d["card"]) < 10:
                        self._opening[3] += 1
                if m == self.riders and m > 1:
                    self.field_at.append(self._race_moves)
                    self.field_extra += int(d["to"]) - int(d["first"])
                self._follow_opening(d)
            elif kind == "rider_change":
                self.rider_changes[d["rider"] % n] += 1
                if self.race_changes:
                    self.race_changes[-1] += 1
                if self._opening is not None:
                    self._opening[2] += 1
            elif kind == "crash":
                self.crashes[d["rider"] % n] += 1
            elif kind == "race_started":
                self._close_opening()
                self.race_changes.append(0)
                self.race_refused.append(0)
                self._race_moves = 0
                self._opening = [0, 0, 0, 0]
                if not self.start_order:
                    # The first race's order: who moved first, second… (later races are
                    # reordered by the results, SD-11, so only the first is set by the seating).
                    seen: list[int] = []
                    for rider in d["order"]:
                        if rider % n not in seen:
                            seen.append(rider % n)
                    self.start_order = seen
            elif kind == "race_scored":
                self._close_opening()
                self.races += 1
                for r in d["riders"]:
                    self.laps[r["rider"] % n] += int(r["laps"])

    def _follow_opening(self, d: Any) -> None:
        opening = self._opening
        if opening is None:
            return
        if int(d["card"]) >= 10:  # a grey card (code 10 * pile + value): chance has come in
            self._close_opening()
            return
        move = f"{d['from']}+{d['value']}>{d['to']};".encode("ascii")
        opening[0] = zlib.crc32(move, opening[0])
        opening[1] += 1

    def _close_opening(self) -> None:
        if self._opening is not None:
            self.openings.append(self._opening)
            self._opening = None

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
            "riders": self.riders,
            "field_at": self.field_at,
            "field_extra": self.field_extra,
            "race_changes": self.race_changes,
            "race_refused": self.race_refused,
            "openings": self.openings,
        }


def collector(game: Game[Any, Any, Any]) -> SixDayRaceCollector:
    """A fresh collector for one game of ``game`` (the game's ``measures`` plugin)."""
    riders = getattr(game.config, "rider_count", game.num_players)
    return SixDayRaceCollector(game.num_players, int(riders))
