"""*Six Day Race* in the browser shell."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.core.table import Table
from racedeck.server.positions import Check, Position, events_of

WIN_RULE = "the most points wins a single race; over a series, fewest laps lost, then most points"
"""Who wins (rulebook: laps lost decide a series, points break ties)."""


# -- pictures for the rules pages (racedeck.server.rules_pictures) ------------------------------


def _slipstream(times: int) -> Check:
    def holds(table: Table, events: Sequence[Event]) -> bool:
        plays = events_of(events, "card_played")
        return len(plays) == 1 and plays[0]["multiplier"] == times and not plays[0]["special"]

    return holds


def _laps_lost(table: Table, events: Sequence[Event]) -> bool:
    scored = events_of(events, "race_scored")
    if not table.is_over or not scored:
        return False
    laps = [r["laps"] for r in scored[-1]["riders"]]
    return 1 in laps and 0 in laps


_FOUR_RIDERS = {"players": 4, "riders": 1}


def _plays(text: str) -> tuple[str, ...]:
    """Moves whose texts hold no space (Six Day Race's ``"2:5"``), written one after another."""
    return tuple(text.split())


PICTURES: dict[str, Position] = {
    "slipstream-x2": Position(
        game="six-day-race",
        config=_FOUR_RIDERS,
        seed=7,
        moves=_plays("3:3 0:2 1:4 2:7 3:1 0:1 1:5 2:1 3:3 0:5 1:1 2:5"),
        claim="Player 3's 5 reaches space 13, where one rider is: it moves 5 more, ×2, to 18",
        holds=_slipstream(2),
    ),
    "slipstream-x3": Position(
        game="six-day-race",
        config=_FOUR_RIDERS,
        seed=78,
        moves=_plays("0:2 1:1 2:3 3:7 0:7 1:3 2:7 3:4 0:1 1:7"),
        claim="Player 2's 7 reaches space 11, where two riders are: ×3, to 25",
        holds=_slipstream(3),
    ),
    "laps-lost": Position(
        game="six-day-race",
        config={**_FOUR_RIDERS, "races": 2},
        seed=45,
        moves=_plays(
            "2:5 3:5 0:5 1:5 2:5 3:5 0:5 1:5 2:7 3:4 0:7 1:7 2:2 3:4 0:3 1:2 2:2 3:7 0:6 "
            "1:2 2:2 3:6 0:6 1:2 2:2 3:6 0:5 1:3 2:4 3:6 0:1 1:3 2:3 3:1 0:5 1:3 2:4 3:4 "
            "0:3 1:4 2:3 3:3 0:3 1:4 2:3 3:1 0:3 1:4 2:4 3:3 1:5 3:5 2:5 0:5 1:5 3:5 2:5 "
            "0:5 1:7 3:4 2:7 0:7 1:2 3:4 2:3 0:2 1:2 3:7 2:6 0:2 1:2 3:6 2:6 0:2 1:2 3:6 "
            "2:5 0:3 1:4 3:5 2:5 0:3 1:3 3:4 2:3 0:3 1:3 3:3 2:3 0:4 1:1 3:3 2:3 0:1 1:1 "
            "3:2 2:3 0:4 1:3 3:2"
        ),
        claim="the last race of a series is over: one rider crossed, one stopped at 78 (no lap "
        "lost), one at 74 (1 lap lost), one at 71 (2 laps lost)",
        holds=_laps_lost,
    ),
}
"""The positions the rules pages of this game may draw, by name."""
