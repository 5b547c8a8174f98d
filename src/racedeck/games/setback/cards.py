"""Setback's cards: kinds, amounts and the FREE flag, and the deck of SB-2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ACTION_KINDS",
    "CARD_NAMES",
    "DEFAULT_DECK",
    "MOVEMENT_KINDS",
    "CardType",
    "DeckIndex",
    "parse_card_type",
]

MOVEMENT_KINDS = ("MOVE", "FOE", "ALL")
"""Cards that move tokens by their amount (SB-5)."""
ACTION_KINDS = ("SHIFT", "TRADE", "CUT", "DRAW", "REVAMP", "SKIP", "BLOCK")
"""Cards with an action of their own (SB-6, SB-9, SB-10)."""


@dataclass(frozen=True, slots=True, order=True)
class CardType:
    """A kind of card: ``MOVE+2``, ``FOE-1`` (FREE), ``SHIFT``…; ``amount`` is 0 for actions."""

    kind: str
    amount: int = 0
    free: bool = False

    @property
    def name(self) -> str:
        """``MOVE+2``, ``FOE-1*`` (a star marks FREE), ``CUT``."""
        amount = f"{self.amount:+d}" if self.kind in MOVEMENT_KINDS else ""
        star = "*" if self.free and self.kind != "DRAW" else ""
        return f"{self.kind}{amount}{star}"

    def __str__(self) -> str:
        return self.name


def parse_card_type(text: str) -> CardType:
    """Read ``MOVE+2``, ``FOE-1*`` or ``SHIFT``; raise :class:`ValueError` otherwise."""
    t = text.strip().upper()
    free = t.endswith("*")
    t = t.rstrip("*")
    for kind in MOVEMENT_KINDS:
        if t.startswith(kind) and t[len(kind) :] in ("+1", "+2", "-1", "-2"):
            return CardType(kind, int(t[len(kind) :]), free)
    if t in ACTION_KINDS:
        return CardType(t, 0, free or t == "DRAW")
    raise ValueError(f"unknown card {text!r}")


DEFAULT_DECK: tuple[tuple[str, int], ...] = (
    # SB-2: 96 cards; a star marks FREE cards. DRAW cards are always FREE.
    ("MOVE+1", 6),
    ("MOVE+1*", 2),
    ("MOVE+2", 6),
    ("MOVE-1", 6),
    ("MOVE-2", 4),
    ("FOE+1", 4),
    ("FOE+2", 2),
    ("FOE-1", 6),
    ("FOE-1*", 2),
    ("FOE-2", 6),
    ("ALL+1", 4),
    ("ALL+2", 2),
    ("ALL-1", 4),
    ("ALL-2", 2),
    ("SHIFT", 6),
    ("TRADE", 4),
    ("CUT", 6),
    ("DRAW", 6),
    ("REVAMP", 4),
    ("SKIP", 6),
    ("BLOCK", 8),
)
"""SB-2: the proposed deck, as (card, count)."""


class DeckIndex:
    """Lookups over the cards of one deck, for the rules to answer "what is card ``c``" cheaply.

    A state holds cards as indices into the deck; the deck is fixed by the configuration, so
    these tables never change and are shared by every state of a game. Each distinct card type
    gets a small integer id; ids follow the order of :class:`CardType` itself, so sorting ids
    sorts the types they stand for.
    """

    __slots__ = (
        "amount",
        "blocks",
        "board_id",
        "free",
        "free_playable",
        "hand_id",
        "id_of",
        "is_block",
        "kind",
        "playable",
        "types",
    )

    def __init__(self, cards: Sequence[CardType]) -> None:
        # SB-3: the card under a token acts as if played from hand, its FREE disregarded; DRAW
        # cards are FREE by nature.
        board = [CardType(t.kind, t.amount, t.kind == "DRAW") for t in cards]
        types = tuple(sorted(set(cards) | set(board)))
        id_of = {t: i for i, t in enumerate(types)}
        self.types = types
        """Type id -> the card type."""
        self.id_of = id_of
        """Card type -> its id."""
        self.kind = tuple(t.kind for t in types)
        """Type id -> its kind."""
        self.amount = tuple(t.amount for t in types)
        """Type id -> its amount."""
        self.free = tuple(t.free for t in types)
        """Type id -> FREE or not."""
        self.hand_id = tuple(id_of[t] for t in cards)
        """Card -> the id of its type when played from hand."""
        self.board_id = tuple(id_of[t] for t in board)
        """Card -> the id of its type as a Board Action (SB-3)."""
        self.is_block = tuple(t.kind == "BLOCK" for t in cards)
        """Card -> True for a BLOCK."""
        self.blocks = frozenset(c for c, t in enumerate(cards) if t.kind == "BLOCK")
        """The BLOCK cards (``blocks.isdisjoint(hand)``: the hand holds none)."""
        self.playable = frozenset(c for c, t in enumerate(cards) if t.kind != "BLOCK")
        """Cards a Hand Action may play (every card but BLOCK, SB-9)."""
        self.free_playable = frozenset(c for c in self.playable if cards[c].free)
        """Cards a Hand Action may play after its non-FREE card (SB-3)."""


def _card_names() -> tuple[str, ...]:
    every = [
        CardType(kind, amount, free).name
        for kind in MOVEMENT_KINDS
        for amount in (1, 2, -1, -2)
        for free in (False, True)
    ]
    every += [
        CardType(kind, 0, free or kind == "DRAW").name
        for kind in ACTION_KINDS
        for free in (False, True)
    ]
    in_deck = [name for name, _ in DEFAULT_DECK]
    return tuple(dict.fromkeys(in_deck + every))


CARD_NAMES: tuple[str, ...] = _card_names()
"""Every card a deck may hold, by name: the rulebook's deck (SB-2) in its order, then the
others (a FREE SHIFT, a MOVE+2*…)."""
