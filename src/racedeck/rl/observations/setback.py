"""Observation encoding of Setback: a player's view as a float32 vector.

Built from :class:`~racedeck.games.setback.SetbackView` alone. Notation: ``n`` players, ``K``
card types (the deck's types and their Board Action forms, in the order of
:class:`~racedeck.games.setback.cards.DeckIndex`), ``Rw`` the rows the board starts with
(SB-1; rows are only ever removed, SB-8), ``L`` the most lanes (``max_lanes``, SB-6), ``C``
the cards of the deck. Every entry lies in ``[-1, 1]``. Fields, in order:

- seat (``n``): one-hot: the observing player
- current (``n``): one-hot: the player whose turn it is (SB-3)
- phase (5): one-hot: board, hand, window, step, over
- source (2): one-hot: the card in play came from the board, or the hand
- board (``Rw * L * K``): per row (nearest START first) and lane: one-hot card type; zeros where
  the board has no card (SB-1, SB-6, SB-8)
- board size (2): rows removed ``/ Rw`` (SB-8), lanes now ``/ L``
- tokens (``n * (Rw + 3 + L)``): per player: one-hot place (START, each row, FINISH), one-hot
  lane, 1 when it stands on a BLOCK (protected, SB-9)
- hand (``K``): count of each type in the own hand ``/`` hand size, at most 1
- hand sizes (``n``): cards in each hand ``/ (hand size + draw count)``, at most 1
- piles (1 + ``K``): draw pile ``/ C``; discards of each type ``/`` its count in the deck
- skips (``2 n``): SKIP cards in front of each player ``/`` the deck's SKIPs, and whether each
  has spent one this turn (SB-10)
- turn so far (2): hand cards played this turn ``/`` hand size, at most 1; 1 once a non-FREE
  card is played (SB-3)
- window (``2 + n + K + n``): 1 while a BLOCK window is open, BLOCKs played in it ``/`` the
  deck's BLOCKs (SB-9); the declaration answered: one-hot player, one-hot card type, one-hot
  target

Who is being asked in a window, who has answered and how are not in the view, so they are not
here either (SB-9 amended, and amended again): the own action mask alone says whether the
observing player may BLOCK. The view's own ``answer`` is left out too: a player is only asked
before it has answered.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numpy.typing import NDArray

from racedeck.games.setback import Setback, SetbackView
from racedeck.games.setback.cards import DeckIndex
from racedeck.rl.observations.base import Layout, Observer

__all__ = ["SetbackObserver", "observer"]

_PHASES = {"board": 0, "hand": 1, "window": 2, "step": 3, "over": 4}
_SOURCES = {"board": 0, "hand": 1}


class SetbackObserver(Observer[SetbackView]):
    """The encoding documented in this module, for one configuration."""

    def __init__(self, game: Setback) -> None:
        cfg = game.cfg
        cards = cfg.card_types()
        types = DeckIndex(cards).types
        self.n = cfg.players
        self.rows = cfg.rows
        self.lanes = cfg.max_lanes
        self.type_slot = {t.name: i for i, t in enumerate(types)}
        self.kinds = len(types)
        self.deck = len(cards)
        self.in_deck = Counter(t.name for t in cards)
        self.skips_in_deck = sum(1 for t in cards if t.kind == "SKIP")
        self.blocks_in_deck = sum(1 for t in cards if t.kind == "BLOCK")
        self.hand_size = cfg.hand_size
        self.most_held = cfg.hand_size + cfg.draw_count
        n, k, rows, lanes = self.n, self.kinds, self.rows, self.lanes
        at = self.layout = Layout()
        self._seat = at.field(n)
        self._current = at.field(n)
        self._phase = at.field(len(_PHASES))
        self._source = at.field(len(_SOURCES))
        self._board = at.field(rows * lanes * k)
        self._rows_removed = at.field(1, rows)
        self._lanes = at.field(1, lanes)
        self._token = at.field(0)
        for _ in range(n):
            at.field(rows + 2)
            at.field(lanes)
            at.field(1)
        self._hand = at.field(k, self.hand_size)
        self._hand_sizes = at.field(n, self.most_held)
        self._draw = at.field(1, self.deck)
        self._discards = at.field(0)
        for name in self.type_slot:
            at.field(1, self.in_deck[name] or 1)
        # A type the deck lacks (a Board Action form) counts 0 in the discards whatever they hold.
        self._discard_slot = {name: i for name, i in self.type_slot.items() if self.in_deck[name]}
        self._skips = at.field(n, max(self.skips_in_deck, 1))
        self._skip_spent = at.field(n)
        self._hand_played = at.field(1, self.hand_size)
        self._nonfree = at.field(1)
        self._window = at.field(1)
        self._blocks = at.field(1, max(self.blocks_in_deck, 1))
        self._declarer = at.field(n)
        self._declared_card = at.field(k)
        self._target = at.field(n)
        self.size = at.size

    def encode(self, view: SetbackView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, k, slot, rows, lanes = self.n, self.kinds, self.type_slot, self.rows, self.lanes
        out = self.layout.zeros()
        seat = view.seat
        if seat is not None and 0 <= seat < n:
            out[self._seat + seat] = 1.0
        if view.phase != "over" and 0 <= view.current < n:
            out[self._current + view.current] = 1.0
        out[self._phase + _PHASES[view.phase]] = 1.0
        source = _SOURCES.get(view.source)
        if source is not None:
            out[self._source + source] = 1.0
        at = self._board
        for cells in view.grid[:rows]:
            for lane, name in enumerate(cells[:lanes]):
                out[at + lane * k + slot[name]] = 1.0
            at += lanes * k
        out[self._rows_removed] = view.rows_removed
        out[self._lanes] = view.lanes
        rows_now = len(view.grid)
        at = self._token
        for (row, lane), protected in zip(view.tokens, view.protected, strict=True):
            # START, then the rows, then FINISH (a row index past the board).
            out[at + (0 if row < 0 else rows + 1 if row >= rows_now else row + 1)] = 1.0
            at += rows + 2
            if 0 <= row < rows_now and 0 <= lane < lanes:
                out[at + lane] = 1.0
            at += lanes
            if protected:
                out[at] = 1.0
            at += 1
        at = self._hand
        for name in view.hand:
            out[at + slot[name]] += 1.0
        at = self._hand_sizes
        for p, size in enumerate(view.hand_sizes):
            out[at + p] = size
        out[self._draw] = view.draw_size
        at, discard_slot = self._discards, self._discard_slot
        for name in view.discard:
            if name in discard_slot:
                out[at + discard_slot[name]] += 1.0
        at = self._skips
        for p, skips in enumerate(view.skips):
            out[at + p] = skips
        at = self._skip_spent
        for p, spent in enumerate(view.skip_spent):
            if spent:
                out[at + p] = 1.0
        out[self._hand_played] = view.hand_played
        if view.nonfree_played:
            out[self._nonfree] = 1.0
        if view.window_open:
            out[self._window] = 1.0
        out[self._blocks] = len(view.blocks)
        declared = view.declared
        if declared is not None:
            player = declared["player"]
            if 0 <= player < n:
                out[self._declarer + player] = 1.0
            play = declared["play"]
            out[self._declared_card + slot[play["card"]]] = 1.0
            target = play.get("target", -1)
            if 0 <= target < n:
                out[self._target + target] = 1.0
        return self.layout.vector(out)


def observer(game: Setback) -> SetbackObserver:
    """The observation encoding of ``game``'s configuration."""
    return SetbackObserver(game)
