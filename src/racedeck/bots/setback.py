"""A heuristic bot for Setback: advance yourself, set back the leader, keep a BLOCK for a
threat that matters.

Each option is scored from the view alone: the rows it gains or costs each token, weighted by
how much that token threatens to win (the leader counts most), plus the worth of the card a
token lands on (it acts on that player's next turn). In a BLOCK window the bot blocks only an
action that would cost it at least a row, hand a rival the win, or cancel its own good play.
It answers without knowing the others' answers (SB-9: they are simultaneous and concealed); when
another player's BLOCK comes first in seating order, the bot's BLOCK stays in its hand, and it
is asked again about that BLOCK in the window it opens.
"""

from __future__ import annotations

import random
from typing import Any

from racedeck.bots.base import Bot
from racedeck.core.frozen import thaw
from racedeck.core.game import Game
from racedeck.games.setback.actions import Block, Pass, Play, Step, action_from_json
from racedeck.games.setback.cards import parse_card_type
from racedeck.games.setback.preview import protected
from racedeck.games.setback.view import SetbackView

__all__ = ["SetbackHeuristicBot"]

_CARD_WORTH = {"SKIP": -2.0, "BLOCK": 1.0, "DRAW": 0.7, "FOE": 0.4, "CUT": 0.4, "TRADE": 0.3}


def card_worth(name: str) -> float:
    """What standing on a card is worth to its token's player (its Board Action, SB-3)."""
    card = parse_card_type(name)
    if card.kind == "MOVE":
        return float(card.amount)
    if card.kind == "ALL":
        return 0.3 * card.amount
    return _CARD_WORTH.get(card.kind, 0.1)


class SetbackHeuristicBot(Bot):
    """Greedy one-move evaluation over its view; BLOCKs only what matters."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self._rng = random.Random(seed)

    def act(self, view: SetbackView) -> Any:
        """Return the best-scoring legal action (ties broken at random)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        if view.window_open:
            return Block() if Block() in legal and self._worth_blocking(view) else Pass()
        scored = [(self._score(view, a), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        choices = [legal[i] for s, i in scored if s >= best - 1e-9]
        return choices[self._rng.randrange(len(choices))]

    # -- the table as numbers --------------------------------------------------------------------

    def _progress(self, view: SetbackView, q: int) -> int:
        row, _ = view.tokens[q]
        return view.rows + 1 if row >= view.rows else row + 1

    def _threat(self, view: SetbackView, q: int) -> float:
        """How much a rival's progress hurts: 1 for the others, more for the leader."""
        if q == self.seat:
            return -1.0
        progress = [self._progress(view, o) for o in range(view.players) if o != self.seat]
        lead = max(progress)
        return 1.6 if self._progress(view, q) == lead else 0.6

    def _on_block(self, view: SetbackView, q: int) -> bool:
        return protected(view, q)

    def _landing(self, view: SetbackView, row: int, lane: int) -> float:
        if row >= view.rows:
            return 100.0  # FINISH wins
        if row < 0 or lane < 0:
            return 0.0
        return card_worth(view.grid[row][lane])

    def _move_value(self, view: SetbackView, q: int, amount: int, lane: int) -> float:
        """Value to us of ``q`` moving ``amount`` rows (negative = good for us)."""
        row, own_lane = view.tokens[q]
        if row < 0:
            if amount <= 0:
                return 0.0
            new_row, new_lane = amount - 1, lane
        else:
            new_row, new_lane = row + amount, own_lane
        gained = max(-1, min(new_row, view.rows)) - row
        value = gained + self._landing(view, new_row, new_lane)
        if new_row >= view.rows:
            value += 100.0
        return -self._threat(view, q) * value

    # -- scoring options -------------------------------------------------------------------------

    def _score(self, view: SetbackView, action: Any) -> float:
        me = self.seat
        if isinstance(action, Play):
            return self._score_play(view, action)
        if isinstance(action, Step):
            ctx = view.context
            if ctx.get("kind") == "all":
                return self._move_value(view, action.token, ctx["amount"], action.lane)
            if ctx.get("kind") == "join":
                if action.lane < 0:
                    return 0.0
                return 0.1 + (1.0 if view.tokens[me][0] < 0 else 0.0)  # leaving START
            # REVAMP placement: give rivals bad cards, ourselves good ones.
            row = view.tokens[action.token][0]
            return -self._threat(view, action.token) * self._landing(view, row, action.lane)
        return 0.0  # EndHand, DiscardBlock

    def _score_play(self, view: SetbackView, play: Play) -> float:
        me = self.seat
        card = play.card
        kind, amount = card.kind, card.amount
        if kind == "MOVE":
            return self._move_value(view, me, amount, play.lane) + (0.2 if card.free else 0)
        if kind == "FOE":
            if self._on_block(view, play.target):
                return -0.5 + (0.3 if card.free else 0.0)  # FAQ 4: a way to get rid of a card
            return self._move_value(view, play.target, amount, play.lane)
        if kind == "ALL":
            return sum(
                self._move_value(view, q, amount, max(play.lane, 0))
                for q in range(view.players)
                if not self._on_block(view, q) and not (view.tokens[q][0] < 0 and amount < 0)
            )
        if kind == "DRAW":
            return 1.0
        if kind == "SKIP":
            return 1.0 + self._threat(view, play.target)
        if kind == "TRADE" and play.target >= 0:
            a, b = play.target, play.other
            pa, pb = self._progress(view, a), self._progress(view, b)
            return self._threat(view, a) * (pa - pb) + self._threat(view, b) * (pb - pa)
        if kind == "CUT" and play.target >= 0:
            row = view.tokens[play.other][0] + 1
            gained = row + 1 - self._progress(view, play.target)
            return -self._threat(view, play.target) * gained
        if kind == "SHIFT" and play.target >= 0:
            row, lane = view.tokens[play.target]
            delta = self._landing(view, row, play.lane) - self._landing(view, row, lane)
            return -self._threat(view, play.target) * delta * 0.5
        return 0.05  # REVAMP, or a card played for no effect

    def _worth_blocking(self, view: SetbackView) -> bool:
        declared = view.declared
        if declared is None:
            return False
        play = action_from_json(thaw(declared["play"]))
        if not isinstance(play, Play):
            return False
        value = self._score_as_if_mine(view, play, declared["player"])
        blocks = len(view.blocks)
        if blocks % 2 == 0:
            # The action stands unless blocked: block what costs us a row or more.
            return value <= -1.0
        # The action is cancelled unless this BLOCK is blocked: save what was worth it.
        return value >= 1.0

    def _score_as_if_mine(self, view: SetbackView, play: Play, player: int) -> float:
        """The declared action's value to us, whoever declared it."""
        if play.card.kind == "MOVE":
            return self._move_value(view, player, play.card.amount, play.lane)
        if player == self.seat:
            return self._score_play(view, play)
        return self._rival_play(view, play)

    def _rival_play(self, view: SetbackView, play: Play) -> float:
        kind, amount = play.card.kind, play.card.amount
        if kind == "FOE" and not self._on_block(view, play.target):
            return self._move_value(view, play.target, amount, play.lane)
        if kind == "ALL":
            return sum(
                self._move_value(view, q, amount, 0)
                for q in range(view.players)
                if not self._on_block(view, q)
            )
        if kind == "SKIP" and play.target == self.seat:
            return -1.5
        if kind in ("TRADE", "CUT", "SHIFT") and play.target >= 0:
            return self._score_play(view, play)
        return 0.0


BOTS = {"heuristic": SetbackHeuristicBot}
"""The bots this game adds to the generic ones (its ``bots`` plugin)."""


BASELINES = (
    ({"players": 2}, "Setback · 2 players"),
    ({"players": 3}, "Setback · 3 players"),
    ({"players": 4}, "Setback · 4 players"),
)
"""The standard configurations of the baselines (:mod:`racedeck.sim.baselines`): options and
a label."""
