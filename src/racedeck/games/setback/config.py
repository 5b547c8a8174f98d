"""Configuration of Setback: every *(config)* value of the SB rulings."""

from __future__ import annotations

from dataclasses import dataclass, field

from racedeck.core.spec import GameConfig
from racedeck.games.setback.cards import DEFAULT_DECK, CardType, parse_card_type

__all__ = ["EDGE_BUMPS", "SELF_BLOCKS", "SetbackConfig"]

EDGE_BUMPS = ("backward", "forward")
"""What a sideways bump does at the edge of the board (the rulebook is silent)."""

SELF_BLOCKS = ("board", "all", "none")
"""Which of their own actions a player may BLOCK. SB-9 lets "every player holding a BLOCK"
answer; blocking one's own Hand Action only throws a card away, which FAQ 4 forbids in spirit,
so by default a player may BLOCK only its own Board Action (the card it happens to stand on)."""


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
    self_block: str = field(
        default="board",
        metadata={"help": "own actions a player may BLOCK: board, all or none (SB-9)"},
    )
    edge_bump: str = field(
        default="backward",
        metadata={"help": "a sideways bump off the board goes backward or forward a row (SB-7)"},
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
        if self.self_block not in SELF_BLOCKS:
            raise ValueError(f"self_block must be one of {', '.join(SELF_BLOCKS)}")
        if self.edge_bump not in EDGE_BUMPS:
            raise ValueError(f"edge_bump must be one of {', '.join(EDGE_BUMPS)}")
        if self.hand_size < 1 or self.draw_count < 0 or self.rows_removable < 0:
            raise ValueError(
                "hand_size must be positive, draw_count and rows_removable not negative"
            )
