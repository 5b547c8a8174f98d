"""Configuration of Setback: every *(config)* value of the SB rulings, each with its bounds."""

from __future__ import annotations

from dataclasses import dataclass

from racedeck.core.errors import InvalidConfig
from racedeck.core.spec import GameConfig, option
from racedeck.games.setback.cards import CARD_NAMES, DEFAULT_DECK, CardType, parse_card_type

__all__ = [
    "EDGE_BUMPS",
    "MAX_CARD_COUNT",
    "MAX_DECK",
    "MAX_LANES",
    "MAX_ROWS",
    "SELF_BLOCKS",
    "SetbackConfig",
]

EDGE_BUMPS = ("backward", "forward")
"""What a sideways bump does at the edge of the board (the rulebook is silent)."""

SELF_BLOCKS = ("board", "all", "none")
"""Which of their own actions a player may BLOCK. SB-9 lets "every player holding a BLOCK"
answer; blocking one's own Hand Action only throws a card away, which FAQ 4 forbids in spirit,
so by default a player may BLOCK only its own Board Action (the card it happens to stand on)."""

MAX_ROWS = 20
"""Most rows a board may start with: bounds what a stranger's configuration costs."""
MAX_LANES = 8
"""Most lanes a board may have, at the start or after REVAMP."""
MAX_CARD_COUNT = 60
"""Most copies of one card in a deck."""
MAX_DECK = 400
"""Most cards in a deck (the rulebook's has 96)."""


@dataclass(frozen=True)
class SetbackConfig(GameConfig):
    """Options of Setback."""

    players: int = option(3, "Number of players, 2 to 6 (SB-11).", min=2, max=6)
    deck: tuple[tuple[str, int], ...] = option(
        DEFAULT_DECK,
        f"How many of each card the deck holds: at most {MAX_CARD_COUNT} of a card and "
        f"{MAX_DECK} in all, and some card must move a token forward (SB-2).",
        min=0,
        max=MAX_CARD_COUNT,
        max_items=40,
        labels=CARD_NAMES,
    )
    rows: int = option(6, "Rows of cards at the start (SB-1).", min=1, max=MAX_ROWS)
    lanes: int = option(
        0,
        "Lanes at the start; 0: by the number of players (2, 3 or 4) (SB-1).",
        min=0,
        max=MAX_LANES,
    )
    min_lanes: int = option(2, "Fewest lanes REVAMP may leave (SB-6).", min=1, max=MAX_LANES)
    max_lanes: int = option(6, "Most lanes REVAMP may make (SB-6).", min=1, max=MAX_LANES)
    hand_size: int = option(3, "Cards dealt and drawn up to (SB-3).", min=1, max=10)
    draw_count: int = option(2, "Cards a DRAW card draws (SB-6).", min=0, max=10)
    rows_removable: int = option(
        2, "Rows removed behind the last token at most (SB-8).", min=0, max=MAX_ROWS
    )
    self_block: str = option(
        "board", "Own actions a player may BLOCK: board, all or none (SB-9).", choices=SELF_BLOCKS
    )
    edge_bump: str = option(
        "backward",
        "A sideways bump off the board goes backward or forward a row (SB-7).",
        choices=EDGE_BUMPS,
    )
    window_seconds: int = option(
        3,
        "Online: a BLOCK window stays open at least this many seconds after anything is seen, "
        "however fast the answers come, so its length tells nothing of the hands (SB-9).",
        min=0,
        max=60,
    )
    max_moves: int = option(
        20_000,
        "The game ends after this many accepted actions at the latest, ranked by progress "
        "(a bound for decks that hardly move; the rulebook has none).",
        min=100,
        max=200_000,
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
        """Reject configurations the rules cannot be played with, naming the option."""
        total = sum(count for _, count in self.deck)
        if total > MAX_DECK:
            raise InvalidConfig(
                f"setback: option deck holds {total} cards; at most {MAX_DECK} are allowed",
                option="deck",
            )
        try:
            cards = self.card_types()
        except ValueError as exc:
            raise InvalidConfig(f"setback: option deck: {exc}", option="deck") from None
        if not any(t.kind in ("MOVE", "FOE", "ALL") and t.amount > 0 for t in cards):
            raise InvalidConfig(
                "setback: option deck has no card that moves a token forward (MOVE, FOE or "
                "ALL with a plus): nobody could ever reach FINISH",
                option="deck",
            )
        if not self.min_lanes <= self.start_lanes <= self.max_lanes:
            raise InvalidConfig(
                f"setback: option lanes={self.lanes} is not allowed: the board starts with "
                f"{self.start_lanes} lanes; lanes must lie between min_lanes={self.min_lanes} "
                f"and max_lanes={self.max_lanes}",
                option="lanes",
            )
        needed = self.rows * self.start_lanes + self.players * self.hand_size
        if len(cards) < needed:
            raise InvalidConfig(
                f"setback: option deck holds {len(cards)} cards; the deck needs at least "
                f"{needed} cards for the board and hands",
                option="deck",
            )
