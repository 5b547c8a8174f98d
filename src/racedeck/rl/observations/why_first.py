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
from racedeck.rl.observations.base import Observer, Vector

__all__ = ["WhyFirstObserver", "observer"]


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
        n, f, d, c = self.n, self.figures, len(self.values), self.cards
        hand = c if self.tactical else d
        commit = c if self.tactical else d + f
        slot = 2 + f + (1 if self.tactical else 0)
        moves = f if self.tactical else 0
        self.size = n + 2 + 2 + f + f + n + n + 1 + hand + commit + hand + f * slot + moves

    def encode(self, view: WhyFirstView) -> NDArray[np.float32]:
        """The vector of ``view`` (see the module's table)."""
        n, f, h = self.n, self.figures, self.hand_size
        out = Vector()
        out.one_hot(view.seat, n)
        out.one_hot(("commit", "move").index(view.phase) if view.phase != "over" else None, 2)
        out.scaled((view.stage / self.stages, view.round / h), 1.0)
        out.scaled(view.positions, self.track)
        out.scaled(view.totals, self.stages * self.track)
        committed = set(view.committed)
        out.flags(s in committed for s in range(n))
        out.scaled(view.hand_sizes, h)
        out.scaled((view.leo_cards_left,), h)
        if self.tactical:
            held = set(view.hand)
            out.flags(c in held for c in range(1, self.cards + 1))
            mine = view.my_commit if isinstance(view.my_commit, int) else None
            out.one_hot(None if mine is None else mine - 1, self.cards)
            shown = set(view.revealed)
            out.flags(c in shown for c in range(1, self.cards + 1))
        else:
            slots, d = self.value_slot, len(self.values)
            out.tally((slots[v] for v in view.hand_values), d, h)
            commit = view.my_commit if isinstance(view.my_commit, tuple) else None
            out.one_hot(None if commit is None else slots[commit[0]], d)
            out.one_hot(None if commit is None else commit[1], f)
            row = [0.0] * d
            for v in view.revealed_values:
                row[slots[v]] += 1.0
            out.items += [k / self.value_count[v] for k, v in zip(row, self.values, strict=True)]
        by_revealer = {by: (card, value, target) for by, card, value, target in view.last_reveal}
        for who in range(f):
            seen = by_revealer.get(who)
            out.flags((seen is not None,))
            out.scaled((seen[1] if seen else 0,), self.largest)
            out.one_hot(seen[2] if seen else None, f)
            if self.tactical:
                card = seen[0] if seen and seen[0] is not None else 0
                out.scaled((card,), self.cards)
        if self.tactical:
            waiting = {owner for _, owner in view.move_queue}
            out.flags(who in waiting for who in range(f))
        return out.array(self.size)


def observer(game: WhyFirst) -> WhyFirstObserver:
    """The observation encoding of ``game``'s configuration."""
    return WhyFirstObserver(game)
