"""A heuristic bot for *Why First?* that plays to finish second.

Two ideas. Within a stage, the bot predicts where the figures will stand if nobody else's card
counted (its own fifth card, which must land on itself, included once it is known) and scores
that stage under WF-6. Across the game, it values the totals this would give by how likely they
make it the *second* best total at the end (WF-7): a smooth window between the best and the
second best of the other totals, widened by the stages still to play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from racedeck.bots.base import Bot
from racedeck.core.game import Game
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard
from racedeck.games.why_first.scoring import clamp, stage_points
from racedeck.games.why_first.state import MOVE
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirstHeuristicBot", "second_place_chance", "sigmoid"]


def sigmoid(x: float) -> float:
    """The logistic function, flat (0 or 1) beyond ±30."""
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def second_place_chance(totals: Sequence[float], me: int, spread: float) -> float:
    """A smooth stand-in for "``me`` ends with the second-highest total".

    High when ``me``'s total lies below the best other total and above the second best, with
    ``spread`` saying how much the totals may still move.
    """
    others = sorted((t for i, t in enumerate(totals) if i != me), reverse=True)
    best, second = others[0], others[1]
    mine = totals[me]
    return sigmoid((mine - second) / spread) * sigmoid((best - mine) / spread)


class WhyFirstHeuristicBot(Bot):
    """Chooses the action whose predicted stage result gives the best chance of finishing second."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self._rng = random.Random(seed)

    def act(self, view: WhyFirstView) -> Any:
        """Return the legal action with the best evaluation (ties broken at random)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        best_value = -math.inf
        best: list[Any] = []
        for action in legal:
            value = self._evaluate(view, action)
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[self._rng.randrange(len(best))]

    # -- evaluation -------------------------------------------------------------------------

    def _evaluate(self, view: WhyFirstView, action: Any) -> float:
        if isinstance(action, PlaceCard):
            rest = list(view.hand_values)
            rest.remove(action.value)
            return self._value_of_move(view, action.value, action.target, rest)
        if isinstance(action, MoveFigure):
            card = view.move_queue[0][0]
            value = view.card_values[card - 1]
            return self._value_of_move(view, value, action.target, list(view.hand_values))
        if isinstance(action, CommitCard):
            value = view.card_values[action.card - 1]
            rest = list(view.hand_values)
            rest.remove(value)
            figures = len(view.positions)
            return max(self._value_of_move(view, value, t, rest) for t in range(figures))
        return 0.0

    def _value_of_move(self, view: WhyFirstView, value: int, target: int, rest: list[int]) -> float:
        low, high = view.track
        positions = list(view.positions)
        positions[target] = clamp(positions[target] + value, low, high)
        me = self.seat
        if len(rest) == 1 and view.phase != MOVE:
            # WF-5: the one card left will be played onto ourselves next round.
            positions[me] = clamp(positions[me] + rest[0], low, high)
        points = stage_points(positions)
        totals = [t + p for t, p in zip(view.totals, points, strict=True)]
        stages_left = view.stages - view.stage - 1
        rounds_left = len(rest)
        spread = 0.75 + 2.5 * stages_left + 0.5 * rounds_left
        return second_place_chance(totals, me, spread)


BOTS = {"heuristic": WhyFirstHeuristicBot}
"""The bots this game adds to the generic ones (its ``bots`` plugin)."""

LEVELS = {"strong": "search@200"}
"""The levels this game plays with other bots than :data:`racedeck.bots.levels.LEVEL_BOTS`.
*Strong* searches 200 iterations a move, not the default 500: head to head, ``fastsearch``
(*Expert*) was not measurably stronger than the default search (a share of 0.58, interval
0.47–0.68, over 80 games; with 40,000 iterations 0.48), and is against ``search@200`` (0.65,
0.57–0.73), which still beats the heuristic (0.62, 0.53–0.70): ``docs/levels.md``."""


BASELINES = (
    ({"players": 2}, "Why First? · 2 players and Leo (WF-9)"),
    ({"players": 3}, "Why First? · 3 players"),
    ({"players": 4}, "Why First? · 4 players"),
)
"""The standard configurations of the baselines (:mod:`racedeck.sim.baselines`): options and
a label."""
