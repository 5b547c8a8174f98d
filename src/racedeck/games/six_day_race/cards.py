"""Cards of *Six Day Race* as small integers: the value, and which pile the card belongs to.

``code = 10 * pile + value`` with pile 0 = green (values 1..7), 1 = grey deck 1-3, 2 = grey deck
4-6. A rider never holds green and grey cards at once (a rider change discards the whole hand,
SD-6), so within one hand a value names a single kind of card.
"""

from __future__ import annotations

__all__ = ["GREEN", "HIGH", "LOW", "card_code", "card_pile", "card_value", "describe_card"]

GREEN = 0
LOW = 1
HIGH = 2
_PILE_NAMES = {GREEN: "green", LOW: "grey 1-3", HIGH: "grey 4-6"}


def card_code(pile: int, value: int) -> int:
    """The code of a card of ``value`` from ``pile``."""
    return 10 * pile + value


def card_value(code: int) -> int:
    """Spaces the card moves."""
    return code % 10


def card_pile(code: int) -> int:
    """GREEN, LOW or HIGH."""
    return code // 10


def describe_card(code: int) -> str:
    """E.g. ``3 (grey 1-3)``."""
    return f"{card_value(code)} ({_PILE_NAMES[card_pile(code)]})"
