"""A heuristic bot for *Six Day Race*.

It scores each card it may play by what the move gains at once — slipstream spaces (SD-5),
sprint and finish points (SD-8, SD-9), a rider change that swaps a weak hand for a fresh grey
one (SD-6), minus the turn a crash costs (SD-7) — and, all else equal, plays its bigger cards
first so that few are left unplayed when the race ends, keeping the 7 for a move where it counts.
"""

from __future__ import annotations

import random
from typing import Any

from racedeck.bots.base import Bot
from racedeck.core.game import Game
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.games.six_day_race.scoring import slipstream_destination
from racedeck.games.six_day_race.view import SixDayRaceView

__all__ = ["SixDayRaceHeuristicBot"]

_MEAN_LOW = 2.0  # mean card of grey deck 1-3
_MEAN_HIGH = 5.0  # mean card of grey deck 4-6 (roughly)
_CRASH_COST = 3.5  # spaces a lost turn costs, about one average card
_BIG_CARD = 7


class SixDayRaceHeuristicBot(Bot):
    """Greedy on slipstream, sprints, finish and rider change; saves the 7 for a move that pays."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self._rng = random.Random(seed)
        cfg = game.config
        assert isinstance(cfg, SixDayRaceConfig)
        self.cfg = cfg
        # Points weigh more when a single race decides on points alone (SD-11).
        self.point_value = 2.0 if cfg.races == 1 else 0.6

    def act(self, view: SixDayRaceView) -> Any:
        """Return the legal card with the best score (ties broken at random)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        scored = [(self._score(view, a.value), i) for i, a in enumerate(legal)]
        best = max(score for score, _ in scored)
        choices = [legal[i] for score, i in scored if score >= best - 1e-9]
        return choices[self._rng.randrange(len(choices))]

    def _score(self, view: SixDayRaceView, value: int) -> float:
        cfg = self.cfg
        rider = view.current
        pos = view.positions[rider]
        hand = [c % 10 for c in view.hand_of(rider)]
        rest = list(hand)
        rest.remove(value)
        first, _, dest = slipstream_destination(
            pos, value, view.positions, rider, (view.rider_change, view.crash)
        )
        last_turn = view.final_queue is not None
        score = float(dest - first)  # slipstream bonus
        if last_turn:
            score += dest  # the last move: every space counts
        for i, line in enumerate(view.sprints):
            if pos < line <= dest:
                place = len(view.sprint_order[i]) + 1
                if place <= len(cfg.sprint_points):
                    score += self.point_value * cfg.sprint_points[place - 1]
        if dest >= view.line:
            place = len(view.finishers) + 1
            if place <= len(cfg.finish_points):
                score += self.point_value * cfg.finish_points[place - 1]
            score += 4.0  # no laps lost
        elif dest == view.rider_change:
            low, high = cfg.change_draw
            score += low * _MEAN_LOW + high * _MEAN_HIGH - sum(rest)
        elif dest == view.crash:
            score -= _CRASH_COST
        achieved = score > 0
        if value == _BIG_CARD and not achieved and len(hand) > 1:
            score -= 1.0  # keep the 7 for a move where it counts
        else:
            score += 0.1 * value  # tempo: few big cards should be left when the race ends
        return score


BOTS = {"heuristic": SixDayRaceHeuristicBot}
"""The bots this game adds to the generic ones (its ``bots`` plugin)."""


BASELINES = (
    ({"players": 3, "races": 1}, "Six Day Race · 3 players, two riders each (SD-12) · one race"),
    ({"players": 4, "races": 1}, "Six Day Race · 4 players, two riders each (SD-12) · one race"),
    (
        {"players": 4, "riders": 1, "races": 1},
        "Six Day Race · 4 players, one rider each · one race",
    ),
)
"""The standard configurations of the baselines (:mod:`racedeck.sim.baselines`): options and
a label (one race: a series' races are alike)."""
