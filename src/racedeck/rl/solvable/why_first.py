"""*Why First?*'s small configurations: two players and Leo (WF-9), one stage, a short deck.

With one stage the whole game is one deal (WF-3): the two hands and Leo's face-down pile, in
the order Leo flips it. The base game shows values only (WF-2), so the deals are enumerated by
value (:mod:`racedeck.rl.solvable.deals`); each is made into an engine state through the
state's JSON form, with white numbers of the dealt values.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from racedeck.core.game import Game
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.rl.solvable.configuration import SolvableConfig
from racedeck.rl.solvable.deals import Deal, hands_by_value, ordered_by_value

__all__ = ["why_first_deals"]


def _numbers(values: tuple[int, ...], card_values: tuple[int, ...], used: set[int]) -> list[int]:
    """White numbers for ``values``, each a card of that value not yet in ``used``."""
    out = []
    for v in values:
        number = next(n for n, cv in enumerate(card_values, 1) if cv == v and n not in used)
        used.add(number)
        out.append(number)
    return out


def why_first_deals(engine: Game[Any, Any, Any]) -> list[Deal]:
    """Every deal of a one-stage two-player game of ``engine`` (Why First?), by values."""
    config = engine.config
    if not isinstance(config, WhyFirstConfig):
        raise ValueError(f"not a Why First? game: {engine.spec.id}")
    if config.stages != 1 or not config.has_leo or config.variant != "base":
        # Later stages are dealt by the state's RNG, and the tactical variant shows white
        # numbers: neither is enumerated by value here.
        raise ValueError("only one-stage base games of two players (with Leo) are enumerated")
    card_values = tuple(config.card_values)
    h = config.hand_size
    start = engine.new_initial_state(0).to_json()
    deck = Counter(card_values)
    deals = []
    for first, p1 in hands_by_value(deck, h):
        after_first = deck - Counter(first)
        for second, p2 in hands_by_value(after_first, h):
            rest = after_first - Counter(second)
            for leo, p3 in ordered_by_value(rest, h - 1):
                used: set[int] = set()
                hands = [sorted(_numbers(first, card_values, used)), []]
                hands[1] = sorted(_numbers(second, card_values, used))
                # Leo flips the last card of his pile first (WF-9).
                pile = _numbers(leo, card_values, used)[::-1]
                state = engine.state_from_json({**start, "hands": hands, "leo_cards": pile})
                label = f"P1 {_words(first)} / P2 {_words(second)} / Leo {_words(leo)}"
                deals.append(Deal(p1 * p2 * p3, label, state))
    return deals


def _words(values: tuple[int, ...]) -> str:
    return " ".join(f"{v:+d}" for v in values)


CONFIGS: tuple[SolvableConfig, ...] = (
    SolvableConfig(
        name="why-first-duel-2",
        game_id="why-first",
        options={
            "players": 2,
            "stages": 1,
            "hand_size": 2,
            "card_values": (-2, -1, 1, 1, 2, 3),
        },
        summary=(
            "Why First?, two players and Leo, one stage, hands of two from a six-card deck "
            "(-2 -1 +1 +1 +2 +3; Leo gets one card, one card stays out)"
        ),
        deal=why_first_deals,
    ),
    SolvableConfig(
        name="why-first-duel-3",
        game_id="why-first",
        options={
            "players": 2,
            "stages": 1,
            "hand_size": 3,
            "card_values": (-1, -1, 1, 1, 1, 2, 2, 2),
        },
        summary=(
            "Why First?, two players and Leo, one stage, hands of three from an eight-card "
            "deck (-1 -1 +1 +1 +1 +2 +2 +2; Leo gets the last two)"
        ),
        deal=why_first_deals,
        iterations=100,
    ),
)
"""This game's named small configurations (its ``solvable`` plugin)."""
