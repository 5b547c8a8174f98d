"""Configuration of Setback: every *(config)* value of the SB rulings."""

from __future__ import annotations

from dataclasses import dataclass, field

from racedeck.core.spec import GameConfig
from racedeck.games.setback.cards import DEFAULT_DECK, CardType, parse_card_type

__all__ = ["EDGE_BUMPS", "SetbackConfig"]

EDGE_BUMPS = ("backward", "stay")
"""What a sideways bump does at the edge of the board (the rulebook is silent)."""


@dataclass(frozen=True)
class SetbackConfig(GameConfig):
    """Options of Setback."""

    players: int = field(default=3, metadata={"help": "number of players, 2 to 6 (SB-11)"})
    deck: tuple[tuple[str, int], ...] = field(
        default=DEFAULT_DECK, metadata={"help": "deck composition as (card, count) (SB-2)"}
    )
    rows: int = field(default=6, metadata={"help": "rows of cards at the start (SB-1)"})
    lanes: int = field(
        default=0, metadata={"help": "lanes at the start; 0 = 2/3/4 by player count (SB-1)"}
    )
    min_lanes: int = field(default=2, metadata={"help": "fewest lanes REVAMP may leave (SB-6)"})
    max_lanes: int = field(default=6, metadata={"help": "most lanes REVAMP may make (SB-6)"})
    hand_size: int = field(default=3, metadata={"help": "cards dealt and drawn up to (SB-3)"})
    draw_count: int = field(default=2, metadata={"help": "cards a DRAW card draws (SB-6)"})
    rows_removable: int = field(
        default=2, metadata={"help": "rows removed behind the last token at most (SB-8)"}
    )
    edge_bump: str = field(
        default="backward",
        metadata={"help": "a sideways bump off the board: backward one row, or stay (SB-7)"},
    )

    @property
    def start_lanes(self) -> int:
        """SB-1: 2 lanes for 2 players, 3 for 3-4, 4 for 5-6 (unless set)."""
        if self.lanes:
            return self.lanes
        return 2 if self.players <= 2 else 3 if self.players <= 4 else 4

    def card_types(self) -> list[CardType]:
        """Every card of the deck, in the order the deck lists them."""
        return [parse_card_type(name) for name, count in self.deck for _ in range(count)]

    def validate(self) -> None:
        """Reject configurations the rules cannot be played with."""
        try:
            cards = self.card_types()
        except ValueError as exc:
            raise ValueError(f"deck: {exc}") from exc
        if self.rows < 1:
            raise ValueError("rows must be at least 1")
        if not self.min_lanes <= self.start_lanes <= self.max_lanes or self.min_lanes < 1:
            raise ValueError("lanes must lie between min_lanes (at least 1) and max_lanes")
        needed = self.rows * self.start_lanes + self.players * self.hand_size
        if len(cards) < needed:
            raise ValueError(f"the deck needs at least {needed} cards for the board and hands")
        if self.edge_bump not in EDGE_BUMPS:
            raise ValueError(f"edge_bump must be one of {', '.join(EDGE_BUMPS)}")
        if self.hand_size < 1 or self.draw_count < 0 or self.rows_removable < 0:
            raise ValueError(
                "hand_size must be positive, draw_count and rows_removable not negative"
            )
