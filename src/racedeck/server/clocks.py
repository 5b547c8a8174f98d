"""Table clock options: per-move time, a time bank per seat, and the bot that plays for a leaver.

A table picks its clock when it is created, as a named *speed profile* (after Board Game
Arena's) or custom values: each time a seat is asked it has the per-move time, then its bank;
what it uses beyond the per-move time comes off the bank. Seats asked at the same time (a
simultaneous commit) run at once. A seat whose time runs out, or whose person has been
disconnected longer than the grace period while asked, is played by the table's stand-in (a
level, :data:`DEFAULT_STAND_IN` unless the table names another, or a bot by name) until the
person returns (reconnects, acts, or says ``back``).

*Hidden information.* Only seats everyone knows to be asked (the view header's ``acting``,
:meth:`~racedeck.core.game.Game.public_acting`) have running clocks, so a clock never says who
is asked in a silent reaction window. Such a window (SB-9) runs on a clock of its own, the same
for everyone, that starts at the last change anyone saw and lasts the per-move time, at least
the game's :meth:`~racedeck.core.game.Game.window_minimum`; when it runs out the seats still
asked take :meth:`~racedeck.core.game.Game.timeout_action` (a pass). No seat's bank moves in a
window and no takeover starts there, so neither tells who answered or who holds a BLOCK.

Every timeout, takeover and return is a *note* at its place in the game (the move number it
happened at) and goes into the record's ``meta.clock``, so a replay shows them where they were.

This module holds the options a table picks; the running clock is the referee's
(:mod:`racedeck.server.referee.clock`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.bots.registry import available_levels
from racedeck.core.errors import RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.bots import check_bot_name

__all__ = [
    "DEFAULT_GRACE",
    "DEFAULT_PROFILE",
    "DEFAULT_STAND_IN",
    "PROFILES",
    "ClockError",
    "ClockOptions",
    "clock_options",
    "default_bot",
]

PROFILES: dict[str, tuple[float | None, float]] = {
    "unlimited": (None, 0.0),
    "slow": (120.0, 900.0),
    "normal": (45.0, 300.0),
    "fast": (20.0, 120.0),
    "blitz": (8.0, 45.0),
}
"""Speed profiles: per-move seconds (``None``: no clock) and the bank in seconds."""

DEFAULT_PROFILE = "normal"
"""The profile of a table that names none: roomy for people, and a leaver cannot stall it."""
DEFAULT_GRACE = 60.0
"""Seconds a disconnected person may be asked before a bot plays for them."""

MOVE_RANGE = (1.0, 3600.0)
BANK_RANGE = (0.0, 7200.0)
GRACE_RANGE = (1.0, 3600.0)

KINDS = ("timeout", "away", "back", "window")
"""Notes: a seat ran out of time (a bot takes over), was disconnected past the grace period
while asked (a bot takes over), its person came back, or a window's clock answered for it."""


class ClockError(RacedeckError):
    """Clock options a table cannot have (``clock/invalid``)."""

    code = "clock/invalid"


@dataclass(frozen=True, slots=True)
class ClockOptions:
    """A table's clock: its profile name (``custom`` for values of one's own), the per-move
    time and the bank in seconds, the disconnect grace period (``None``: a disconnect never
    hands the seat to a bot) and the takeover bot."""

    profile: str = DEFAULT_PROFILE
    move: float | None = PROFILES[DEFAULT_PROFILE][0]
    bank: float = PROFILES[DEFAULT_PROFILE][1]
    grace: float | None = DEFAULT_GRACE
    bot: str = "random"

    def to_json(self) -> JSONObject:
        """The JSON form (as in the ``clock`` of a create request and of ``meta.clock``)."""
        return {
            "profile": self.profile,
            "move": self.move,
            "bank": self.bank,
            "grace": self.grace,
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> ClockOptions:
        """Read the stored form back (written by :meth:`to_json`)."""
        move, grace = obj.get("move"), obj.get("grace")
        return cls(
            profile=str(obj.get("profile", "custom")),
            move=None if move is None else float(move),
            bank=float(obj.get("bank", 0.0)),
            grace=None if grace is None else float(grace),
            bot=str(obj.get("bot", "random")),
        )

    @classmethod
    def untimed(cls) -> ClockOptions:
        """No clock and no takeover: a table from before clocks plays on as it did."""
        return cls(profile="unlimited", move=None, bank=0.0, grace=None)


DEFAULT_STAND_IN = "casual"
"""The level that stands in for a person when the table names none. The server knows nothing
of a person's strength (no accounts, no ratings), so it cannot match it; *Casual* keeps the
game going sensibly for the others without winning it for the absent person, and answers at
at once, so the people left at the table do not wait on a search."""


def default_bot(game_id: str) -> str:
    """The stand-in a table gets when it names none: :data:`DEFAULT_STAND_IN` where the game
    offers it, else its weakest level."""
    levels = available_levels(game_id)
    return DEFAULT_STAND_IN if DEFAULT_STAND_IN in levels else levels[0]


def clock_options(req: Any, game_id: str) -> ClockOptions:
    """The clock a create request asks for (``req``: its ``clock`` or ``None``), checked;
    raises :class:`ClockError` saying what is wrong."""
    if req is None:
        move, bank = PROFILES[DEFAULT_PROFILE]
        return ClockOptions(DEFAULT_PROFILE, move, bank, DEFAULT_GRACE, default_bot(game_id))
    profile = req.profile
    if profile is not None and profile not in PROFILES and profile != "custom":
        raise ClockError(
            f"no clock profile {profile!r}; profiles are {', '.join(PROFILES)} or custom"
        )
    if profile == "custom" and req.move is None:
        raise ClockError("a custom clock needs its per-move time ('move', in seconds)")
    base = profile if profile in PROFILES else DEFAULT_PROFILE
    move, bank = PROFILES[base]
    if req.move is not None or req.bank is not None:
        profile = "custom"
        move = float(req.move) if req.move is not None else move
        bank = float(req.bank) if req.bank is not None else bank
    if move is not None and not MOVE_RANGE[0] <= move <= MOVE_RANGE[1]:
        raise ClockError(f"the per-move time is {MOVE_RANGE[0]:g} to {MOVE_RANGE[1]:g} seconds")
    if move is None:
        bank = 0.0
    if not BANK_RANGE[0] <= bank <= BANK_RANGE[1]:
        raise ClockError(f"the time bank is {BANK_RANGE[0]:g} to {BANK_RANGE[1]:g} seconds")
    grace: float | None = DEFAULT_GRACE
    if req.grace is not None:
        grace = float(req.grace)
        if grace != 0 and not GRACE_RANGE[0] <= grace <= GRACE_RANGE[1]:
            raise ClockError(
                f"the disconnect grace is {GRACE_RANGE[0]:g} to {GRACE_RANGE[1]:g} seconds "
                "(0: a disconnect never hands the seat to a bot)"
            )
        grace = grace or None
    bot = default_bot(game_id)
    if req.bot is not None:
        try:
            bot = check_bot_name(game_id, req.bot)
        except RacedeckError as exc:
            raise ClockError(f"takeover bot: {exc}") from None
    return ClockOptions(profile or "custom", move, bank, grace, bot)
