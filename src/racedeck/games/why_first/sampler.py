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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.core.rng import Rng
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.games.why_first.state import COMMIT, WhyFirstState
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirstSampler", "sample_state"]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What every sample of one view shares."""

    unseen: tuple[int, ...]  # cards neither in the seat's hand nor revealed this stage
    deal: tuple[tuple[int, int], ...]  # (seat, hand size) of the hands to draw
    commits: tuple[Any, ...]  # known commits; None also for the hidden ones
    hidden: tuple[int, ...]  # seats whose commit is hidden (to draw from their hands)


class WhyFirstSampler:
    """Samples states of one configuration.

    A search samples the same view once per iteration, so the work that depends on the view
    alone is done once per view: the last view's plan is kept, and later calls with that very
    view only shuffle and deal.
    """

    def __init__(self, config: WhyFirstConfig) -> None:
        self._cards = range(1, len(config.card_values) + 1)
        self._values = config.card_values
        self._tactical = config.variant == "tactical"
        self._last: tuple[WhyFirstView, _Plan] | None = None

    def __call__(self, view: WhyFirstView, rng: Rng) -> WhyFirstState:
        """A state consistent with ``view``, its secrets drawn uniformly from ``rng``.

        ``observe(result, view.seat)`` equals ``view``. The result shares nothing mutable with
        the view, and its own RNG is reseeded from ``rng``, so the future chance (the next
        deals) is no more the real game's than the hidden cards are.
        """
        last = self._last
        if last is not None and last[0] is view:
            plan = last[1]
        else:
            plan = self._plan(view)
            self._last = (view, plan)

        unseen = list(plan.unseen)
        rng.shuffle(unseen)
        hands: list[list[int]] = [[] for _ in view.hand_sizes]
        if view.seat is not None:
            hands[view.seat] = list(view.hand)
        at = 0
        for p, size in plan.deal:
            end = at + size
            hand = unseen[at:end]
            hand.sort()
            hands[p] = hand
            at = end
        commits = list(plan.commits)
        if plan.hidden:
            figures = len(view.positions)
            values = self._values
            for p in plan.hidden:
                hand = hands[p]
                if self._tactical:
                    commits[p] = hand[rng.below(len(hand))]
                    continue
                # The engine places the lowest-numbered card of the chosen value.
                firsts: list[int] = []
                taken: set[int] = set()
                for c in hand:
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
        s.last_reveal = list(view.last_reveal)
        s.revealed = list(view.revealed)
        s.pending = view.pending
        s.events = view.events
        s.rng = Rng(rng.next_u64())
        s.shared = False
        return s

    def _plan(self, view: WhyFirstView) -> _Plan:
        seat = view.seat
        # WF-3: a stage deals from the whole deck, so earlier stages tell nothing.
        seen = set(view.revealed)
        seen.update(view.hand)
        unseen = tuple(c for c in self._cards if c not in seen)
        deal = tuple((p, size) for p, size in enumerate(view.hand_sizes) if p != seat)
        if sum(size for _, size in deal) + view.leo_cards_left > len(unseen):
            raise ValueError("the view's hands hold more cards than are unseen")
        # Commits: the seat's own from the view; another seat's is hidden while cards are being
        # committed, and is its revealed card once the round is revealed (tactical MOVE phase).
        commits: list[Any] = [None] * view.players
        hidden: list[int] = []
        revealed_by = {by: card for by, card, _ in view.last_reveal}
        for p in view.committed:
            if p == seat:
                commits[p] = view.my_commit
            elif view.phase == COMMIT:
                hidden.append(p)
            else:
                commits[p] = revealed_by[p]
        return _Plan(unseen, deal, tuple(commits), tuple(hidden))


def sample_state(config: WhyFirstConfig, view: WhyFirstView, rng: Rng) -> WhyFirstState:
    """A state consistent with ``view``, its secrets drawn uniformly from ``rng``."""
    return WhyFirstSampler(config)(view, rng)
