"""The action encoding of *Six Day Race* (see :mod:`racedeck.core.encoding`).

The one action, ``PlayCard(value)`` (SD-4), for the card values 1..7 (green cards go to 7,
grey cards to 6, SD-2, SD-3): index ``value - 1``.

Longest series: in a race every rider plays at most its green hand and, after its one rider
change (it lands on FAHRERWECHSEL once, SD-6), the grey cards it draws; a series has ``races``
races (SD-11).
"""

from __future__ import annotations

from racedeck.core.encoding import ActionEncoding
from racedeck.games.six_day_race.actions import PlayCard
from racedeck.games.six_day_race.rules import SixDayRace

__all__ = ["HIGHEST_VALUE", "action_encoding"]

HIGHEST_VALUE = 7
"""The highest value a card of any configuration has (the green 7, SD-2)."""


def action_encoding(game: SixDayRace) -> ActionEncoding[PlayCard]:
    """The numbering of every action ``game``'s configuration can make legal."""
    cfg = game.cfg
    per_rider = sum(cfg.green_counts) + sum(cfg.change_draw)
    longest = cfg.races * cfg.rider_count * per_rider
    return ActionEncoding([PlayCard(v) for v in range(1, HIGHEST_VALUE + 1)], longest)
