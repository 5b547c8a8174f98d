"""Determinizations of *Why First?*: a full state drawn from what one seat may know.

A seat sees its own hand and commit and the public table. Hidden are the other seats' hands,
what they have committed this round (only *who* has committed is public, WF-4/WF-10), Leo's
face-down cards and their order (WF-9), which cards stayed out of the deal (WF-3), and the
state's RNG, which drives the next stage's deal. Every card not in the seat's hand and not
revealed this stage is equally likely to be anywhere hidden, so one shuffle of those cards
deals the other hands and Leo's pile uniformly among the deals the view allows. Each hidden
commit is then one of its seat's legal actions, drawn uniformly: a card of its hand in the
tactical variant; in the base game a value in hand and a target, with the card the engine
takes for that value (cards of equal value are interchangeable, WF-4).

In the base game a view shows values only (the white numbers mean nothing there, WF-2), so
the sampler gives the seat's own cards and the revealed ones white numbers of their values
itself (any will do: no view can tell them apart) and deals the remaining numbers.
"""

from __future__ import annotations

from typing import Any

from racedeck.core.rng import Rng
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.games.why_first.state import COMMIT, MOVE, WhyFirstState
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirstSampler", "sample_state"]


class WhyFirstSampler:
    """Samples states of one configuration.

    It holds only what the configuration determines (the white numbers of every value); all
    that a view tells, the seat's own cards included, stays local to one call, so a shared
    game object keeps no secret between calls.
    """

    def __init__(self, config: WhyFirstConfig) -> None:
        self._cards = range(1, len(config.card_values) + 1)
        self._values = config.card_values
        self._tactical = config.variant == "tactical"
        by_value: dict[int, list[int]] = {}
        for number, value in enumerate(config.card_values, 1):
            by_value.setdefault(value, []).append(number)
        self._by_value = {v: tuple(ns) for v, ns in by_value.items()}

    def __call__(self, view: WhyFirstView, rng: Rng) -> WhyFirstState:
        """A state consistent with ``view``, its secrets drawn uniformly from ``rng``.

        ``observe(result, view.seat)`` equals ``view``. The result shares nothing mutable with
        the view, and its own RNG is reseeded from ``rng``, so the future chance (the next
        deals) is no more the real game's than the hidden cards are.
        """
        seat = view.seat
        if self._tactical:
            own = list(view.hand)
            revealed = list(view.revealed)
            seen = set(revealed)
            seen.update(own)
            unseen = [c for c in self._cards if c not in seen]
            # Tactical views show every revealed card's white number (WF-10).
            last_reveal = [(by, c or 0, t) for by, c, _, t in view.last_reveal]
            own_commit: Any = view.my_commit
        else:
            own, revealed, unseen = self._number(view)
            tail = revealed[len(revealed) - len(view.last_reveal) :]
            last_reveal = [
                (by, card, t) for (by, _, _, t), card in zip(view.last_reveal, tail, strict=True)
            ]
            own_commit = None
            if view.my_commit is not None:
                value, target = view.my_commit  # type: ignore[misc]
                card = min(c for c in own if self._values[c - 1] == value)
                own_commit = (card, target)
        deal = [(p, size) for p, size in enumerate(view.hand_sizes) if p != seat]
        if sum(size for _, size in deal) + view.leo_cards_left > len(unseen):
            raise ValueError("the view's hands hold more cards than are unseen")

        rng.shuffle(unseen)
        hands: list[list[int]] = [[] for _ in view.hand_sizes]
        if seat is not None:
            hands[seat] = own
        at = 0
        for p, size in deal:
            end = at + size
            hand = unseen[at:end]
            hand.sort()
            hands[p] = hand
            at = end

        # Commits: the seat's own from the view; another seat's is hidden while cards are being
        # committed, and is its revealed card once the round is revealed (tactical MOVE phase).
        commits: list[Any] = [None] * view.players
        revealed_by = {by: card for by, card, _ in last_reveal}
        figures = len(view.positions)
        values = self._values
        for p in view.committed:
            if p == seat:
                commits[p] = own_commit
            elif view.phase != COMMIT:
                commits[p] = revealed_by[p]
            elif self._tactical:
                hand = hands[p]
                commits[p] = hand[rng.below(len(hand))]
            else:
                # The engine places the lowest-numbered card of the chosen value.
                firsts: list[int] = []
                taken: set[int] = set()
                for c in hands[p]:
                    v = values[c - 1]
                    if v not in taken:
                        taken.add(v)
                        firsts.append(c)
                commits[p] = (firsts[rng.below(len(firsts))], rng.below(figures))

        s = WhyFirstState.__new__(WhyFirstState)
        s.players = view.players
        s.stage = view.stage
        s.round = view.round
        s.phase = view.phase
        s.positions = list(view.positions)
        s.totals = list(view.totals)
        s.stage_history = [list(row) for row in view.stage_history]
        s.hands = hands
        s.leo_cards = unseen[at : at + view.leo_cards_left]
        s.commits = commits
        s.move_queue = list(view.move_queue)
        s.last_reveal = last_reveal
        s.revealed = revealed
        if view.phase == COMMIT:
            s.pending = tuple(p for p in range(view.players) if commits[p] is None)
        elif view.phase == MOVE:
            s.pending = (view.move_queue[0][1],)
        else:
            s.pending = ()
        s.move = view.header.move
        s.rng = Rng(rng.next_u64())
        s.shared = False
        return s

    def _number(self, view: WhyFirstView) -> tuple[list[int], list[int], list[int]]:
        """Base game: white numbers for the seat's own cards and the revealed ones (taken in
        order from each value's numbers), and the numbers left unseen."""
        by_value = self._by_value
        used: dict[int, int] = {}
        try:
            own: list[int] = []
            for v in view.hand_values:
                k = used.get(v, 0)
                own.append(by_value[v][k])
                used[v] = k + 1
            own.sort()
            revealed: list[int] = []
            for v in view.revealed_values:
                k = used.get(v, 0)
                revealed.append(by_value[v][k])
                used[v] = k + 1
        except (KeyError, IndexError):
            raise ValueError("the view shows more cards of a value than the deck holds") from None
        unseen = [c for v, numbers in by_value.items() for c in numbers[used.get(v, 0) :]]
        return own, revealed, unseen


def sample_state(config: WhyFirstConfig, view: WhyFirstView, rng: Rng) -> WhyFirstState:
    """A state consistent with ``view``, its secrets drawn uniformly from ``rng``."""
    return WhyFirstSampler(config)(view, rng)
