"""Observation encoding of *Why First?*: a seat's view as a float32 vector.

Built from :class:`~racedeck.games.why_first.WhyFirstView` alone. Notation: ``n`` players,
``F`` figures (``n``, plus Leo in the two-player game, WF-9, whose figure comes last), ``D``
distinct card values of the deck (lowest first), ``N`` cards in the deck, ``H`` the hand size,
``S`` stages, ``T = max(-track_min, track_max)``, ``M`` the largest absolute card value. Every
entry lies in ``[-1, 1]``. Fields, in order:

- seat (``n``): one-hot: the observing seat
- phase (2): one-hot: commit, move (tactical variant, WF-10); zeros when over
- stage, round (2): ``stage / S``, ``round / H``
- positions (``F``): each figure's space ``/ T`` (WF-1)
- totals (``F``): each figure's points so far ``/ (S * T)`` (WF-6)
- committed (``n``): 1 for each seat that has committed this round (public, WF-4)
- hand sizes (``n``): cards in each seat's hand ``/ H``
- Leo's cards (1): Leo's face-down cards left ``/ H`` (0 without Leo)
- hand (``D`` or ``N``): base: count of each value in hand ``/ H``; tactical: 1 per white number
  in hand
- my commit (``D + F`` or ``N``): base: one-hot value and one-hot target of the own commit;
  tactical: one-hot white number of the own commit
- revealed this stage (``D`` or ``N``): base: count of each value revealed this stage ``/`` its
  count in the deck; tactical: 1 per white number revealed
- last reveal (``F * W``): per revealer (seats, then Leo), ``W = 2 + F`` (+1 tactical): revealed
  flag, value ``/ M``, one-hot target (zeros while a tactical card has not moved), tactical:
  white number ``/ N``
- still to move (``F``): tactical only: 1 for each revealer whose card has yet to move
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from racedeck.games.why_first import WhyFirst, WhyFirstView
from racedeck.rl.observations.base import Layout, Observer

__all__ = ["WhyFirstObserver", "observer"]

_PHASES = {"commit": 0, "move": 1}


class WhyFirstObserver(Observer[WhyFirstView]):
    """The encoding documented in this module, for one configuration."""

    def __init__(self, game: WhyFirst) -> None:
        cfg = game.cfg
        self.n = cfg.players
        self.figures = game.figures
        self.tactical = game.tactical
        self.values = sorted(set(cfg.card_values))
        self.value_slot = {v: i for i, v in enumerate(self.values)}
        self.value_count = cfg.value_counts()
        self.cards = len(cfg.card_values)
        self.hand_size = cfg.hand_size
        self.stages = cfg.stages
        self.track = max(-cfg.track_min, cfg.track_max)
        self.largest = max(abs(v) for v in cfg.card_values)
        n, f, d, c, h = self.n, self.figures, len(self.values), self.cards, self.hand_size
        at = self.layout = Layout()
        self._seat = at.field(n)
        self._phase = at.field(2)
        self._stage = at.field(1, self.stages)
        self._round = at.field(1, h)
        self._positions = at.field(f, self.track)
        self._totals = at.field(f, self.stages * self.track)
        self._committed = at.field(n)
        self._hand_sizes = at.field(n, h)
        self._leo = at.field(1, h)
        if self.tactical:
            self._hand = at.field(c)
            self._commit = at.field(c)
            self._revealed = at.field(c)
        else:
            self._hand = at.field(d, h)
            self._commit = at.field(d)
            self._target = at.field(f)
            self._revealed = at.field(0)
            for v in self.values:
                at.field(1, self.value_count[v])
        self._reveals: list[tuple[int, int, int, int]] = []
        """Per revealer: the offsets of its flag, value, target and (tactical) white number."""
        for _ in range(f):
            flag, value, target = at.field(1), at.field(1, self.largest), at.field(f)
            card = at.field(1, c) if self.tactical else -1
            self._reveals.append((flag, value, target, card))
        self._to_move = at.field(f if self.tactical else 0)
        self.size = at.size

    def encode(self, view: WhyFirstView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, f = self.n, self.figures
        out = self.layout.zeros()
        seat = view.seat
        if seat is not None and 0 <= seat < n:
            out[self._seat + seat] = 1.0
        if view.phase != "over":
            out[self._phase + _PHASES[view.phase]] = 1.0
        out[self._stage] = view.stage
        out[self._round] = view.round
        at = self._positions
        for i, space in enumerate(view.positions):
            out[at + i] = space
        at = self._totals
        for i, total in enumerate(view.totals):
            out[at + i] = total
        at = self._committed
        for s in view.committed:
            if 0 <= s < n:
                out[at + s] = 1.0
        at = self._hand_sizes
        for s, size in enumerate(view.hand_sizes):
            out[at + s] = size
        out[self._leo] = view.leo_cards_left
        cards = self.cards
        if self.tactical:
            at = self._hand
            for card in view.hand:
                if 1 <= card <= cards:
                    out[at + card - 1] = 1.0
            mine = view.my_commit
            if isinstance(mine, int) and 1 <= mine <= cards:
                out[self._commit + mine - 1] = 1.0
            at = self._revealed
            for card in view.revealed:
                if 1 <= card <= cards:
                    out[at + card - 1] = 1.0
        else:
            slots = self.value_slot
            at = self._hand
            for v in view.hand_values:
                out[at + slots[v]] += 1.0
            commit = view.my_commit
            if isinstance(commit, tuple):
                out[self._commit + slots[commit[0]]] = 1.0
                if 0 <= commit[1] < f:
                    out[self._target + commit[1]] = 1.0
            at = self._revealed
            for v in view.revealed_values:
                out[at + slots[v]] += 1.0
        reveals = self._reveals
        for by, white, value, target in view.last_reveal:
            if not 0 <= by < f:
                continue
            # A revealer named twice keeps its last reveal.
            flag_at, value_at, target_at, card_at = reveals[by]
            out[flag_at] = 1.0
            out[value_at] = value
            for k in range(f):
                out[target_at + k] = 0.0
            if target is not None and 0 <= target < f:
                out[target_at + target] = 1.0
            if card_at >= 0:
                out[card_at] = white if white is not None else 0
        if self.tactical:
            at = self._to_move
            for _, owner in view.move_queue:
                if 0 <= owner < f:
                    out[at + owner] = 1.0
        return self.layout.vector(out)


def observer(game: WhyFirst) -> WhyFirstObserver:
    """The observation encoding of ``game``'s configuration."""
    return WhyFirstObserver(game)
