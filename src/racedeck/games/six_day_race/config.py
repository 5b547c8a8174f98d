"""Configuration of *Six Day Race*: every *(config)* value of the SD rulings."""

from __future__ import annotations

from dataclasses import dataclass, field

from racedeck.core.spec import GameConfig

__all__ = ["ORDER_RULES", "SixDayRaceConfig"]

ORDER_RULES = ("sum", "best")
"""How a player with two riders is placed when seats are reordered between races (SD-11/12)."""


@dataclass(frozen=True)
class SixDayRaceConfig(GameConfig):
    """Options of *Six Day Race*. Card counts are given per value, lowest value first."""

    players: int = field(default=4, metadata={"help": "number of players, 2 to 8"})
    riders: int = field(
        default=0,
        metadata={"help": "riders per player: 1, 2 (4 players or fewer), 0 = 2 up to 4 (SD-12)"},
    )
    races: int = field(default=6, metadata={"help": "races in the series (SD-11)"})
    line: int = field(default=81, metadata={"help": "position of the start/finish line (SD-1)"})
    sprints: tuple[int, ...] = field(
        default=(27, 54), metadata={"help": "positions of the sprint lines (SD-1)"}
    )
    rider_change: int = field(default=30, metadata={"help": "FAHRERWECHSEL space (SD-1, SD-6)"})
    crash: int = field(default=50, metadata={"help": "STURZ space (SD-1, SD-7)"})
    sprint_points: tuple[int, ...] = field(
        default=(5, 3, 2, 1), metadata={"help": "points by crossing order at a sprint (SD-8)"}
    )
    finish_points: tuple[int, ...] = field(
        default=(10, 6, 4, 2), metadata={"help": "points by finish rank (SD-9)"}
    )
    lap_spaces: int = field(default=4, metadata={"help": "spaces per lap lost (SD-10)"})
    max_laps_lost: int = field(default=5, metadata={"help": "most laps lost in a race (SD-10)"})
    small_field: int = field(
        default=5, metadata={"help": "up to this many riders use the larger hands (SD-2, SD-6)"}
    )
    green_small: tuple[int, ...] = field(
        default=(4, 4, 3, 3, 2, 0, 1),
        metadata={"help": "green cards of value 1..7 per rider, small field (SD-2)"},
    )
    green_large: tuple[int, ...] = field(
        default=(3, 3, 3, 3, 2, 0, 1),
        metadata={"help": "green cards of value 1..7 per rider, 6 riders or more (SD-2)"},
    )
    grey_low: tuple[int, ...] = field(
        default=(16, 16, 16), metadata={"help": "grey deck 1-3: cards of value 1..3 (SD-3)"}
    )
    grey_high: tuple[int, ...] = field(
        default=(11, 11, 10), metadata={"help": "grey deck 4-6: cards of value 4..6 (SD-3)"}
    )
    change_draw_small: tuple[int, int] = field(
        default=(7, 4), metadata={"help": "cards drawn from decks 1-3 and 4-6 at a rider change"}
    )
    change_draw_large: tuple[int, int] = field(
        default=(6, 4), metadata={"help": "the same with 6 riders or more (SD-6)"}
    )
    random_first: bool = field(
        default=True, metadata={"help": "the first race starts with a random player (SD-4)"}
    )
    two_rider_order: str = field(
        default="sum",
        metadata={"help": "reorder two-rider players by the sum or the best of their places"},
    )

    @property
    def riders_per_player(self) -> int:
        """1 or 2; the automatic choice is 2 for four players or fewer (SD-12)."""
        if self.riders:
            return self.riders
        return 2 if self.players <= 4 else 1

    @property
    def rider_count(self) -> int:
        """Riders in the race."""
        return self.players * self.riders_per_player

    def validate(self) -> None:
        """Reject configurations the rules cannot be played with."""
        if self.riders not in (0, 1, 2):
            raise ValueError("riders must be 1 or 2 (or 0 for the automatic choice)")
        if self.riders == 2 and self.players > 4:
            raise ValueError("two riders per player are for 4 players or fewer (SD-12)")
        if self.players == 2 and self.riders_per_player != 2:
            raise ValueError("two players race two riders each (SD-12)")
        if self.races < 1:
            raise ValueError("races must be at least 1")
        if self.line < 2:
            raise ValueError("the line must be at position 2 or beyond")
        for name, pos in [("rider_change", self.rider_change), ("crash", self.crash)]:
            if not 0 < pos < self.line:
                raise ValueError(f"{name} must lie between the start and the line")
        if any(not 0 < s < self.line for s in self.sprints):
            raise ValueError("sprint lines must lie between the start and the line")
        if len(self.green_small) != 7 or len(self.green_large) != 7:
            raise ValueError("green hands give counts for the values 1..7")
        if len(self.grey_low) != 3 or len(self.grey_high) != 3:
            raise ValueError("grey decks give counts for the values 1..3 and 4..6")
        if self.two_rider_order not in ORDER_RULES:
            raise ValueError(f"two_rider_order must be one of {', '.join(ORDER_RULES)}")
        if self.lap_spaces < 1 or self.max_laps_lost < 0:
            raise ValueError("lap_spaces must be positive and max_laps_lost not negative")

    @property
    def green_counts(self) -> tuple[int, ...]:
        """The green hand for this field size (SD-2)."""
        return self.green_small if self.rider_count <= self.small_field else self.green_large

    @property
    def change_draw(self) -> tuple[int, int]:
        """Cards drawn from deck 1-3 and deck 4-6 at a rider change (SD-6)."""
        small = self.rider_count <= self.small_field
        return self.change_draw_small if small else self.change_draw_large
