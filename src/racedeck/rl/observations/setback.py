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
from racedeck.rl.observations.base import Observer, Vector

__all__ = ["SetbackObserver", "observer"]

_PHASES = ("board", "hand", "window", "step", "over")
_SOURCES = ("board", "hand")


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
        n, k = self.n, self.kinds
        self.size = n + n + 5 + 2 + self.rows * self.lanes * k + 2
        self.size += n * (self.rows + 3 + self.lanes) + k + n + 1 + k + 2 * n + 2
        self.size += 2 + n + k + n

    def encode(self, view: SetbackView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, k, slot = self.n, self.kinds, self.type_slot
        out = Vector()
        out.one_hot(view.seat, n)
        out.one_hot(view.current if view.phase != "over" else None, n)
        out.one_hot(_PHASES.index(view.phase), len(_PHASES))
        out.one_hot(_SOURCES.index(view.source) if view.source in _SOURCES else None, 2)
        for r in range(self.rows):
            row = view.grid[r] if r < len(view.grid) else ()
            for ln in range(self.lanes):
                out.one_hot(slot[row[ln]] if ln < len(row) else None, k)
        out.scaled((view.rows_removed / self.rows, view.lanes / self.lanes), 1.0)
        rows_now = len(view.grid)
        for (at, lane), protected in zip(view.tokens, view.protected, strict=True):
            # START, then the rows, then FINISH (a row index past the board).
            place = 0 if at < 0 else self.rows + 1 if at >= rows_now else at + 1
            out.one_hot(place, self.rows + 2)
            out.one_hot(lane if 0 <= at < rows_now else None, self.lanes)
            out.flags((protected,))
        out.tally((slot[c] for c in view.hand), k, self.hand_size)
        out.scaled(view.hand_sizes, self.most_held)
        out.scaled((view.draw_size,), self.deck)
        discards = Counter(view.discard)
        out.scaled((discards[t] / self.in_deck[t] if self.in_deck[t] else 0.0 for t in slot), 1.0)
        out.scaled(view.skips, max(self.skips_in_deck, 1))
        out.flags(view.skip_spent)
        out.scaled((view.hand_played,), self.hand_size)
        out.flags((view.nonfree_played, view.window_open))
        out.scaled((len(view.blocks),), max(self.blocks_in_deck, 1))
        declared = view.declared
        play = declared["play"] if declared is not None else None
        out.one_hot(declared["player"] if declared is not None else None, n)
        out.one_hot(slot[play["card"]] if play is not None else None, k)
        out.one_hot(play.get("target", -1) if play is not None else None, n)
        return out.array(self.size)


def observer(game: Setback) -> SetbackObserver:
    """The observation encoding of ``game``'s configuration."""
    return SetbackObserver(game)
