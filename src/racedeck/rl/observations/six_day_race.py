"""Observation encoding of *Six Day Race*: a player's view as a float32 vector.

Built from :class:`~racedeck.games.six_day_race.SixDayRaceView` alone. Notation: ``n``
players, ``R`` riders (player ``p`` owns riders ``p`` and ``p + n``, SD-12), ``P`` riders per
player, ``V = 7`` card values, ``K`` sprint lines, ``L`` the line, ``G`` the most cards a hand
can hold (the green hand or a rider change's draw, SD-2, SD-6). Every entry lies in ``[-1, 1]``.
Fields, in order:

- seat (``n``): one-hot: the observing player
- race, final turns (2): ``race / races`` (SD-11); 1 once the line is crossed (SD-9)
- positions (``R``): each rider's space ``/ L``, at most 1 (SD-1)
- crashed (``R``): 1 for a rider that will lose its next turn (SD-7)
- on turn (``R``): one-hot: the rider whose turn it is
- mine (``R``): 1 for the observing player's riders
- my hands (``P * V``): per own rider: count of each value in its hand ``/ G``
- hand sizes (``R``): cards in each rider's hand ``/ G``
- decks (2): cards left in the grey decks 1-3 and 4-6 ``/`` their size (SD-3)
- discards (13): green discards by value 1..7 ``/`` green cards dealt, grey 1-3 by value ``/``
  deck size, grey 4-6 by value ``/`` deck size
- played (``R * V``): per rider: cards of each value played this race ``/ G`` (face up)
- changed (``R``): 1 for a rider that has had its rider change this race (SD-6)
- sprints (``K * R``): per sprint line and rider: its crossing place ``/ R``, 0 before (SD-8)
- finished (``R``): each rider's finishing place ``/ R``, 0 before (SD-9)
- last turns (``R``): 1 for a rider still owed its last turn (SD-9)
- turn order (``R``): each rider's place in this race's turn order ``/ R`` (SD-4)
- laps lost (``n``): each player's laps lost ``/`` the most a series can lose (SD-10)
- points (``n``): each player's series points ``/`` the most a series can pay (SD-8, SD-9)
"""

from __future__ import annotations

from array import array
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from racedeck.games.six_day_race import SixDayRace, SixDayRaceView
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_code, card_value
from racedeck.games.six_day_race.encoding import HIGHEST_VALUE
from racedeck.rl.observations.base import Layout, Observer

__all__ = ["SixDayRaceObserver", "observer"]

_CODES = 30
"""Card codes lie below this (``10 * pile + value``, three piles)."""


@lru_cache(maxsize=4096)
def _points(text: str) -> float:
    """Series points written as an exact fraction (``"20/3"``), as a float; a series has few
    distinct totals, and reading a fraction costs more than the rest of a vector."""
    return float(Fraction(text))


class SixDayRaceObserver(Observer[SixDayRaceView]):
    """The encoding documented in this module, for one configuration."""

    def __init__(self, game: SixDayRace) -> None:
        cfg = game.cfg
        self.n = cfg.players
        self.riders = cfg.rider_count
        self.per = cfg.riders_per_player
        self.races = cfg.races
        self.line = cfg.line
        self.sprints = len(cfg.sprints)
        self.most_cards = max(sum(cfg.green_counts), sum(cfg.change_draw), 1)
        self.green_dealt = self.riders * sum(cfg.green_counts)
        self.low_size = sum(cfg.grey_low)
        self.high_size = sum(cfg.grey_high)
        self.most_laps = cfg.max_laps_lost * cfg.races
        per_race = max(cfg.finish_points, default=0) + self.sprints * max(
            cfg.sprint_points, default=0
        )
        self.most_points = per_race * cfg.races * self.per
        # Each pile's card codes by value, lowest first (grey deck 1-3 holds values 1..3,
        # deck 4-6 values 4..6, SD-3), and every code's value less one.
        self._green = tuple(card_code(GREEN, v) for v in range(1, HIGHEST_VALUE + 1))
        self._low = tuple(card_code(LOW, v) for v in range(1, 4))
        self._high = tuple(card_code(HIGH, v) for v in range(4, 7))
        self._slot = tuple(card_value(c) - 1 for c in range(_CODES))
        n, r, v, most = self.n, self.riders, HIGHEST_VALUE, self.most_cards
        low, high = max(self.low_size, 1), max(self.high_size, 1)
        at = self.layout = Layout()
        self._seat = at.field(n)
        self._race = at.field(1, self.races)
        self._final = at.field(1)
        self._positions = at.field(r, self.line)
        self._crashed = at.field(r)
        self._on_turn = at.field(r)
        self._mine = at.field(r)
        self._hands = at.field(self.per * v, most)
        self._hand_sizes = at.field(r, most)
        self._low_left = at.field(1, low)
        self._high_left = at.field(1, high)
        self._discard_green = at.field(v, max(self.green_dealt, 1))
        self._discard_low = at.field(3, low)
        self._discard_high = at.field(3, high)
        self._played = at.field(r * v, most)
        self._changed = at.field(r)
        self._sprint_places = at.field(self.sprints * r, r)
        self._finished = at.field(r, r)
        self._owed = at.field(r)
        self._order = at.field(r, r)
        self._laps = at.field(n, max(self.most_laps, 1))
        self._points = at.field(n, max(self.most_points, 1))
        self.size = at.size

    def encode(self, view: SixDayRaceView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, riders, slot = self.n, self.riders, self._slot
        out = self.layout.zeros()
        seat = view.seat
        if seat is not None and 0 <= seat < n:
            out[self._seat + seat] = 1.0
        out[self._race] = view.race
        if view.final_queue is not None:
            out[self._final] = 1.0
        at = self._positions
        for r, space in enumerate(view.positions):
            out[at + r] = space
        at = self._crashed
        for r, crashed in enumerate(view.crashed):
            if crashed:
                out[at + r] = 1.0
        if view.phase != "over" and 0 <= view.current < riders:
            out[self._on_turn + view.current] = 1.0
        if seat is not None:
            at = self._mine
            for r in range(seat, riders, n):
                out[at + r] = 1.0
            hands = dict(view.my_hands)
            for k in range(self.per):
                at = self._hands + k * HIGHEST_VALUE
                for c in hands.get(seat + k * n, ()):
                    out[at + slot[c]] += 1.0
        at = self._hand_sizes
        for r, size in enumerate(view.hand_sizes):
            out[at + r] = size
        out[self._low_left], out[self._high_left] = view.deck_sizes
        for at, codes, pile in (
            (self._discard_green, self._green, view.discard_green),
            (self._discard_low, self._low, view.discard_low),
            (self._discard_high, self._high, view.discard_high),
        ):
            # Codes are below 256: as bytes, a pile is counted at C speed, value by value.
            cards = bytes(pile)
            for i, code in enumerate(codes):
                out[at + i] = cards.count(code)
        at = self._played
        for played in view.played:
            for c in played:
                out[at + slot[c]] += 1.0
            at += HIGHEST_VALUE
        at = self._changed
        for r, drawn in enumerate(view.drawn):
            if drawn is not None:
                out[at + r] = 1.0
        at = self._sprint_places
        for crossed in view.sprint_order:
            self._places(out, at, crossed)
            at += riders
        self._places(out, self._finished, view.finishers)
        at = self._owed
        for r in view.final_queue or ():
            if 0 <= r < riders:
                out[at + r] = 1.0
        self._places(out, self._order, view.order)
        at = self._laps
        for p, lost in enumerate(view.laps):
            out[at + p] = lost
        at = self._points
        for p, points in enumerate(view.points):
            out[at + p] = _points(points)
        return self.layout.vector(out)

    def _places(self, out: array[float], at: int, riders: tuple[int, ...]) -> None:
        """Each rider's place in ``riders`` (1 for the first) from ``out[at]`` on; a rider
        named twice keeps its last place, one not named stays 0."""
        count = self.riders
        for place, r in enumerate(riders, start=1):
            if 0 <= r < count:
                out[at + r] = place


def observer(game: SixDayRace) -> SixDayRaceObserver:
    """The observation encoding of ``game``'s configuration."""
    return SixDayRaceObserver(game)
