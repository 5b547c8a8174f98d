"""Determinizations of *Six Day Race*: a full state drawn from what one player may know.

Hands are private (SD-2), yet another rider's green hand is no secret: every rider starts a
race with the same green hand (SD-2, SD-11), cards are played face up, and a rider loses exactly
the cards it plays, so the view's public facts tell it. What a player does not
see are the grey cards another rider drew at its rider change (SD-6) — only how many of each
deck, less the ones it has played since — the order of both grey decks (SD-3), and the state's
RNG, which shuffles refilled decks and every later race's decks. Every grey card that is in
neither a discard pile nor one of the player's own hands is equally likely to be in any other
rider's grey hand or anywhere in its deck, so one shuffle per deck deals those hands and orders
the deck uniformly among the deals the view allows.

One refinement is left out: after a deck has been refilled from its discards in the current
race (SD-3; never with the default decks, which hold exactly what eight riders can draw), a
player who followed the race knows which cards went back into the deck. The view does not keep
that history, and samples then treat those cards like any other unseen card.
"""

from __future__ import annotations

from dataclasses import dataclass

from racedeck.core.rng import Rng
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_code
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.games.six_day_race.state import SixDayRaceState
from racedeck.games.six_day_race.view import SixDayRaceView

__all__ = ["SixDayRaceSampler", "sample_state"]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What every sample of one view shares: the known hands and the unseen grey cards."""

    known: tuple[tuple[int, tuple[int, ...]], ...]  # (rider, hand) of own and green riders
    grey: tuple[tuple[int, int, int], ...]  # (rider, deck 1-3 cards, deck 4-6 cards) to deal
    pool_low: tuple[int, ...]  # unseen grey cards of deck 1-3: the grey hands' and the deck's
    pool_high: tuple[int, ...]
    turn: int


class SixDayRaceSampler:
    """Samples states of one configuration.

    It holds what the configuration alone determines and nothing from a call: a view holds its
    seat's hands, and the game object that owns a sampler is shared by every table and seat, so
    each call works out the view's plan afresh and keeps nothing.
    """

    def __init__(self, config: SixDayRaceConfig) -> None:
        self._green = tuple(
            sorted(
                card_code(GREEN, v) for v, k in enumerate(config.green_counts, 1) for _ in range(k)
            )
        )
        self._low = tuple((card_code(LOW, v), k) for v, k in enumerate(config.grey_low, 1))
        self._high = tuple((card_code(HIGH, v), k) for v, k in enumerate(config.grey_high, 4))

    def __call__(self, view: SixDayRaceView, rng: Rng) -> SixDayRaceState:
        """A state consistent with ``view``, its secrets drawn uniformly from ``rng``.

        ``observe(result, view.seat)`` equals ``view``. The result shares nothing mutable with
        the view, and its RNG is reseeded from ``rng``.
        """
        plan = self._plan(view)
        hands: list[list[int]] = [[] for _ in view.positions]
        for r, cards in plan.known:
            hands[r] = list(cards)
        pool_low = list(plan.pool_low)
        pool_high = list(plan.pool_high)
        rng.shuffle(pool_low)
        rng.shuffle(pool_high)
        at_low = at_high = 0
        for r, low, high in plan.grey:
            hand = pool_low[at_low : at_low + low] + pool_high[at_high : at_high + high]
            hand.sort()
            hands[r] = hand
            at_low += low
            at_high += high

        s = SixDayRaceState.__new__(SixDayRaceState)
        s.players = view.players
        s.race = view.race
        s.phase = view.phase
        s.positions = list(view.positions)
        s.hands = hands
        s.crashed = list(view.crashed)
        s.order = list(view.order)
        s.turn = plan.turn
        s.current = view.current
        s.final_queue = None if view.final_queue is None else list(view.final_queue)
        s.deck_low = pool_low[at_low:]
        s.deck_high = pool_high[at_high:]
        s.discard_low = list(view.discard_low)
        s.discard_high = list(view.discard_high)
        s.discard_green = list(view.discard_green)
        s.played = list(view.played)
        s.drawn = list(view.drawn)
        s.sprint_order = [list(o) for o in view.sprint_order]
        s.finishers = list(view.finishers)
        # Race results are frozen: the state may share them with the view.
        s.results = view.results
        s.laps = list(view.laps)
        s.points = list(view.points)
        s.pending = view.header.acting
        s.move = view.header.move
        s.rng = Rng(rng.next_u64())
        return s

    def _plan(self, view: SixDayRaceView) -> _Plan:
        mine = dict(view.my_hands)
        known: list[tuple[int, tuple[int, ...]]] = []
        grey: list[tuple[int, int, int]] = []
        for r, change in enumerate(view.drawn):
            own = mine.get(r)
            if own is not None:
                known.append((r, own))
            elif change is None:
                known.append((r, self._green_hand(r, view.played[r], view.hand_sizes[r])))
            else:
                low, high = change
                for c in view.played[r]:
                    if c >= 20:
                        high -= 1
                    elif c >= 10:
                        low -= 1
                grey.append((r, low, high))

        # Unseen grey cards: each deck less its discards and the player's own grey cards.
        own_cards = [c for cards in mine.values() for c in cards]
        pools: list[tuple[int, ...]] = []
        for deck, discard in ((self._low, view.discard_low), (self._high, view.discard_high)):
            pool: list[int] = []
            for code, count in deck:
                left = count - discard.count(code) - own_cards.count(code)
                if left < 0:
                    raise ValueError("the view shows more grey cards than the decks hold")
                pool += [code] * left
            pools.append(tuple(pool))
        dealt_low = sum(low for _, low, _ in grey)
        dealt_high = sum(high for _, _, high in grey)
        if (len(pools[0]) - dealt_low, len(pools[1]) - dealt_high) != view.deck_sizes:
            raise ValueError(
                f"the view's grey cards do not add up: {len(pools[0]) - dealt_low}, "
                f"{len(pools[1]) - dealt_high} left for decks of {view.deck_sizes}"
            )
        # The next regular turn follows the rider to move (SD-4); once the line is crossed only
        # the final queue counts (SD-9), and a new race starts from 0.
        order = view.order
        turn = (order.index(view.current) + 1) % len(order) if view.current >= 0 else 0
        return _Plan(tuple(known), tuple(grey), pools[0], pools[1], turn)

    def _green_hand(self, rider: int, played: tuple[int, ...], size: int) -> tuple[int, ...]:
        # SD-2: the green hand every rider starts the race with, less the cards it played.
        hand = list(self._green)
        try:
            for c in played:
                hand.remove(c)
        except ValueError:
            size = -1
        if len(hand) != size:
            raise ValueError(f"rider {rider}'s plays do not fit the green hand it started with")
        return tuple(hand)


def sample_state(config: SixDayRaceConfig, view: SixDayRaceView, rng: Rng) -> SixDayRaceState:
    """A state consistent with ``view``, its secrets drawn uniformly from ``rng``."""
    return SixDayRaceSampler(config)(view, rng)
