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

from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from racedeck.games.six_day_race import SixDayRace, SixDayRaceView
from racedeck.games.six_day_race.cards import card_value
from racedeck.games.six_day_race.encoding import HIGHEST_VALUE
from racedeck.rl.observations.base import Observer, Vector

__all__ = ["SixDayRaceObserver", "observer"]


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
        n, r, v = self.n, self.riders, HIGHEST_VALUE
        self.size = n + 2 + r * 4 + self.per * v + r + 2 + 13 + r * v + r
        self.size += self.sprints * r + r * 3 + n * 2

    def encode(self, view: SixDayRaceView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, riders, most = self.n, self.riders, self.most_cards
        out = Vector()
        out.one_hot(view.seat, n)
        out.scaled((view.race / self.races,), 1.0)
        out.flags((view.final_queue is not None,))
        out.scaled(view.positions, self.line)
        out.flags(view.crashed)
        out.one_hot(view.current if view.phase != "over" else None, riders)
        seat = view.seat
        out.flags(seat is not None and r % n == seat for r in range(riders))
        hands = dict(view.my_hands)
        mine = [seat + k * n for k in range(self.per)] if seat is not None else []
        for k in range(self.per):
            cards = hands.get(mine[k], ()) if mine else ()
            out.tally((card_value(c) - 1 for c in cards), HIGHEST_VALUE, most)
        out.scaled(view.hand_sizes, most)
        out.scaled((view.deck_sizes[0] / max(self.low_size, 1),), 1.0)
        out.scaled((view.deck_sizes[1] / max(self.high_size, 1),), 1.0)
        # Grey deck 1-3 holds values 1..3, deck 4-6 values 4..6 (SD-3).
        out.tally((card_value(c) - 1 for c in view.discard_green), 7, max(self.green_dealt, 1))
        out.tally((card_value(c) - 1 for c in view.discard_low), 3, max(self.low_size, 1))
        out.tally((card_value(c) - 4 for c in view.discard_high), 3, max(self.high_size, 1))
        for played in view.played:
            out.tally((card_value(c) - 1 for c in played), HIGHEST_VALUE, most)
        out.flags(d is not None for d in view.drawn)
        for crossed in view.sprint_order:
            place = {r: i + 1 for i, r in enumerate(crossed)}
            out.scaled((place.get(r, 0) for r in range(riders)), riders)
        finished = {r: i + 1 for i, r in enumerate(view.finishers)}
        out.scaled((finished.get(r, 0) for r in range(riders)), riders)
        owed = set(view.final_queue or ())
        out.flags(r in owed for r in range(riders))
        turn = {r: i + 1 for i, r in enumerate(view.order)}
        out.scaled((turn.get(r, 0) for r in range(riders)), riders)
        out.scaled(view.laps, max(self.most_laps, 1))
        out.scaled((float(Fraction(p)) for p in view.points), max(self.most_points, 1))
        return out.array(self.size)


def observer(game: SixDayRace) -> SixDayRaceObserver:
    """The observation encoding of ``game``'s configuration."""
    return SixDayRaceObserver(game)
