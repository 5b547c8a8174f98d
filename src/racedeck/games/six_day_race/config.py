"""Configuration of *Six Day Race*: every *(config)* value of the SD rulings.

Every option is bounded (:func:`~racedeck.core.spec.option`), so a configuration from a
stranger cannot make a game that never ends or grows without limit: positions only grow (every
card moves at least one space), a rider changes at most once per race (it lands on
FAHRERWECHSEL once), so a race holds a bounded number of cards and ends when they are played
(SD-9), and a series is a bounded number of races (SD-11).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from racedeck.core.errors import InvalidConfig
from racedeck.core.spec import GameConfig, option

__all__ = ["MAX_LINE", "MAX_RACES", "ORDER_RULES", "SixDayRaceConfig"]

ORDER_RULES = ("sum", "best")
"""How a player with two riders is placed when seats are reordered between races (SD-11/12)."""

MAX_RACES = 20
"""Most races in a series."""
MAX_LINE = 200
"""Farthest position of the start/finish line."""
_MAX_COPIES = 10
"""Most green cards of one value in a hand."""
_MAX_GREY = 64
"""Most grey cards of one value in a deck."""
_MAX_DRAW = 20
"""Most cards drawn from one deck at a rider change."""
_MAX_POINTS = 100
"""Most points one sprint or finish place pays."""


def _refused(message: str, option: str) -> InvalidConfig:
    """The error for an option that does not fit the others, named like the core's own."""
    return InvalidConfig(f"six-day-race: {message}", option=option)


_GREEN_VALUES = ("1", "2", "3", "4", "5", "6", "7")
"""The values of the green cards, as a form labels their counts."""
_GREY_DECKS = ("1-3", "4-6")
"""The two grey decks, as a form labels what is drawn from each."""


@dataclass(frozen=True)
class SixDayRaceConfig(GameConfig):
    """Options of *Six Day Race*. Card counts are given per value, lowest value first."""

    players: int = option(4, "Number of players, 2 to 8.", min=2, max=8)
    riders: int = option(
        0,
        "How many riders each player races with; 0: 2 each up to 4 players, else 1 (SD-12).",
        choices=(0, 1, 2),
    )
    races: int = option(6, "Races in the series (SD-11).", min=1, max=MAX_RACES)
    line: int = option(81, "Position of the start/finish line (SD-1).", min=2, max=MAX_LINE)
    sprints: tuple[int, ...] = option(
        (27, 54),
        "Where the sprint lines are, in order, before the finish line (SD-1).",
        min=1,
        max=MAX_LINE - 1,
        max_items=4,
    )
    rider_change: int = option(
        30, "FAHRERWECHSEL space, before the line (SD-1, SD-6).", min=1, max=MAX_LINE - 1
    )
    crash: int = option(50, "STURZ space, before the line (SD-1, SD-7).", min=1, max=MAX_LINE - 1)
    sprint_points: tuple[int, ...] = option(
        (5, 3, 2, 1),
        "Points for the first, second … rider over a sprint line (SD-8).",
        min=0,
        max=_MAX_POINTS,
        max_items=16,
    )
    finish_points: tuple[int, ...] = option(
        (10, 6, 4, 2), "Points by place at the finish (SD-9).", min=0, max=_MAX_POINTS, max_items=16
    )
    lap_spaces: int = option(4, "Spaces per lap lost (SD-10).", min=1, max=MAX_LINE)
    max_laps_lost: int = option(5, "Most laps lost in a race (SD-10).", min=0, max=50)
    small_field: int = option(
        5, "Up to this many riders use the larger hands (SD-2, SD-6).", min=1, max=16
    )
    green_small: tuple[int, int, int, int, int, int, int] = option(
        (4, 4, 3, 3, 2, 0, 1),
        "Green cards of each value that every rider gets in a small field (SD-2).",
        min=0,
        max=_MAX_COPIES,
        labels=_GREEN_VALUES,
    )
    green_large: tuple[int, int, int, int, int, int, int] = option(
        (3, 3, 3, 3, 2, 0, 1),
        "The same with 6 riders or more (SD-2).",
        min=0,
        max=_MAX_COPIES,
        labels=_GREEN_VALUES,
    )
    grey_low: tuple[int, int, int] = option(
        (16, 16, 16),
        "Cards of each value in the grey 1–3 deck (SD-3).",
        min=0,
        max=_MAX_GREY,
        labels=("1", "2", "3"),
    )
    grey_high: tuple[int, int, int] = option(
        (11, 11, 10),
        "Cards of each value in the grey 4–6 deck (SD-3).",
        min=0,
        max=_MAX_GREY,
        labels=("4", "5", "6"),
    )
    change_draw_small: tuple[int, int] = option(
        (7, 4),
        "Cards drawn from the grey 1–3 and 4–6 decks at a rider change (SD-6).",
        min=0,
        max=_MAX_DRAW,
        labels=_GREY_DECKS,
    )
    change_draw_large: tuple[int, int] = option(
        (6, 4),
        "The same with 6 riders or more (SD-6).",
        min=0,
        max=_MAX_DRAW,
        labels=_GREY_DECKS,
    )
    random_first: bool = option(True, "The first race starts with a random player (SD-4).")
    two_rider_order: str = option(
        "sum",
        "Reorder two-rider players by the sum or the best of their places (SD-11, SD-12).",
        choices=ORDER_RULES,
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
        """Reject options that are allowed alone but cannot be played together."""
        if self.riders == 2 and self.players > 4:
            raise _refused(
                f"option riders=2 is not allowed with players={self.players}: two riders per "
                "player are for 4 players or fewer (SD-12)",
                option="riders",
            )
        if self.players == 2 and self.riders_per_player != 2:
            raise _refused(
                f"option riders={self.riders} is not allowed with players=2: two players race "
                "two riders each (allowed: 0 or 2, SD-12)",
                option="riders",
            )
        for name, pos in (("rider_change", self.rider_change), ("crash", self.crash)):
            if not 0 < pos < self.line:
                raise _refused(
                    f"option {name}={pos} is not allowed with line={self.line}: it must lie "
                    f"between the start and the line (allowed: 1 to {self.line - 1})",
                    option=name,
                )
        if self.rider_change == self.crash:
            raise _refused(
                f"option crash={self.crash} is not allowed: FAHRERWECHSEL and STURZ need "
                "spaces of their own (allowed: any space before the line but rider_change)",
                option="crash",
            )
        if any(not 0 < s < self.line for s in self.sprints):
            raise _refused(
                f"option sprints={list(self.sprints)} is not allowed with line={self.line}: "
                f"sprint lines lie between the start and the line (allowed: 1 to "
                f"{self.line - 1})",
                option="sprints",
            )
        if any(a >= b for a, b in zip(self.sprints, self.sprints[1:], strict=False)):
            raise _refused(
                f"option sprints={list(self.sprints)} is not allowed: the sprint lines are "
                "listed in order along the track, each once (allowed: increasing positions)",
                option="sprints",
            )
        for name, counts in (("green_small", self.green_small), ("green_large", self.green_large)):
            if not any(counts):
                raise _refused(
                    f"option {name}={list(counts)} is not allowed: a green hand holds at least "
                    "one card",
                    option=name,
                )

    def __post_init__(self) -> None:
        # Every view's header holds the JSON form: keep the fields once, as (name, value, is a
        # tuple), so that to_json only copies them.
        items = tuple((n, getattr(self, n), type(getattr(self, n)) is tuple) for n in _FIELD_NAMES)
        object.__setattr__(self, "_json_items", items)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form (tuples become lists), fresh for the caller to change."""
        items: tuple[tuple[str, Any, bool], ...] = self.__dict__["_json_items"]
        return {name: list(value) if is_tuple else value for name, value, is_tuple in items}

    @property
    def green_counts(self) -> tuple[int, ...]:
        """The green hand for this field size (SD-2)."""
        return self.green_small if self.rider_count <= self.small_field else self.green_large

    @property
    def change_draw(self) -> tuple[int, int]:
        """Cards drawn from deck 1-3 and deck 4-6 at a rider change (SD-6)."""
        small = self.rider_count <= self.small_field
        return self.change_draw_small if small else self.change_draw_large


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(SixDayRaceConfig))
