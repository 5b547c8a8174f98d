"""Table clocks: per-move time, a time bank per seat, and the bot that plays for a leaver.

A table picks its clock when it is created, as a named *speed profile* (after Board Game
Arena's) or custom values: each time a seat is asked it has the per-move time, then its bank;
what it uses beyond the per-move time comes off the bank. Seats asked at the same time (a
simultaneous commit) run at once. A seat whose time runs out, or whose person has been
disconnected longer than the grace period while asked, is played by the table's takeover bot
until the person returns (reconnects, acts, or says ``back``).

*Hidden information.* Only seats everyone knows to be asked (the view header's ``acting``,
:meth:`~racedeck.core.game.Game.public_acting`) have running clocks, so a clock never says who
is asked in a silent reaction window. Such a window (SB-9) runs on a clock of its own, the same
for everyone, that starts at the last change anyone saw and lasts the per-move time, at least
the game's :meth:`~racedeck.core.game.Game.window_minimum`; when it runs out the seats still
asked take :meth:`~racedeck.core.game.Game.timeout_action` (a pass). No seat's bank moves in a
window and no takeover starts there, so neither tells who answered or who holds a BLOCK.

Every timeout, takeover and return is a *note* at its place in the game (the move number it
happened at) and goes into the record's ``meta.clock``, so a replay shows them where they were.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from racedeck.bots.registry import available_bots
from racedeck.core.errors import RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.bots import check_bot_name

if TYPE_CHECKING:
    import asyncio

    from racedeck.server.rooms import Room

__all__ = [
    "DEFAULT_GRACE",
    "DEFAULT_PROFILE",
    "PROFILES",
    "UNTIMED_WINDOW",
    "ClockError",
    "ClockOptions",
    "SeatClock",
    "TableClock",
    "clock_json",
    "clock_options",
    "hidden_asked",
    "running_seats",
    "window_deadline",
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
UNTIMED_WINDOW = 60.0
"""Seconds a silent reaction window waits at a table without a per-move clock (SB-9: an
unanswered window closes by itself)."""

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


def default_bot(game_id: str) -> str:
    """The takeover bot a table gets when it names none: the heuristic where there is one."""
    known = available_bots(game_id)
    return "heuristic" if "heuristic" in known else known[0]


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


@dataclass(slots=True)
class SeatClock:
    """One seat's clock: its bank, since when it runs, since when its person is away, and
    whether a bot plays it now (``reason``: why) or did at some time this game."""

    bank: float
    since: float | None = None
    """The monotonic time the seat was asked (its clock runs), or ``None``."""
    away: float | None = None
    """The monotonic time its person's last socket closed, or ``None`` (connected)."""
    bot: bool = False
    reason: str | None = None
    bot_played: bool = False


@dataclass(slots=True)
class TableClock:
    """The clocks of one table's current game and its notes (see the module docstring)."""

    options: ClockOptions
    seats: list[SeatClock]
    notes: list[JSONObject] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None

    @classmethod
    def fresh(cls, options: ClockOptions, players: int) -> TableClock:
        """Full banks, nobody away, no bot."""
        return cls(options, [SeatClock(options.bank) for _ in range(players)])

    def new_game(self) -> None:
        """Full banks and no takeover for the next game; who is away stays away."""
        away = [s.away for s in self.seats]
        self.seats = [SeatClock(self.options.bank, away=a) for a in away]
        self.notes = []

    # -- storing ----------------------------------------------------------------------------

    def to_store(self) -> JSONObject:
        """What the database keeps (banks, who a bot plays, the notes)."""
        return {
            "options": self.options.to_json(),
            "banks": [round(s.bank, 3) for s in self.seats],
            "bots": [s.reason if s.bot else None for s in self.seats],
            "bot_played": [s.bot_played for s in self.seats],
            "notes": list(self.notes),
        }

    @classmethod
    def from_store(cls, obj: JSONObject | None, players: int) -> TableClock:
        """The clock :meth:`to_store` wrote (``None``: a table from before clocks). After a
        restart a running move starts afresh; the banks are as stored."""
        if obj is None:
            return cls.fresh(ClockOptions.untimed(), players)
        options = ClockOptions.from_json(obj.get("options", {}))
        banks = list(obj.get("banks", []))
        bots = list(obj.get("bots", []))
        played = list(obj.get("bot_played", []))
        seats = []
        for i in range(players):
            reason = bots[i] if i < len(bots) else None
            seats.append(
                SeatClock(
                    bank=float(banks[i]) if i < len(banks) else options.bank,
                    bot=reason is not None,
                    reason=reason,
                    bot_played=bool(played[i]) if i < len(played) else False,
                )
            )
        return cls(options, seats, [dict(n) for n in obj.get("notes", [])])

    def adopt(self, stored: JSONObject) -> bool:
        """Take the clock another process stored (banks, who a bot plays, the notes), keeping
        this process's running times. True when who plays a seat or the notes changed."""
        if stored == self.to_store():
            return False
        other = TableClock.from_store(stored, len(self.seats))
        changed = other.notes != self.notes
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            changed |= (mine.bot, mine.reason, mine.bot_played) != (
                theirs.bot,
                theirs.reason,
                theirs.bot_played,
            )
            mine.bank, mine.bot, mine.reason = theirs.bank, theirs.bot, theirs.reason
            mine.bot_played = theirs.bot_played
        self.notes = other.notes
        return changed

    def record_json(self) -> JSONObject:
        """``meta.clock`` of the game's record: the options, the notes, who a bot played."""
        return {
            **self.options.to_json(),
            "notes": list(self.notes),
            "bot_played": [i for i, s in enumerate(self.seats) if s.bot_played],
        }

    # -- running ----------------------------------------------------------------------------

    def sync(self, running: set[int], now: float) -> None:
        """Start the clocks of seats newly asked, stop (and charge) the others."""
        for i, s in enumerate(self.seats):
            if i in running:
                if s.since is None:
                    s.since = now
            elif s.since is not None:
                self._charge(s, now)

    def _charge(self, s: SeatClock, now: float) -> None:
        assert s.since is not None
        move = self.options.move
        if move is not None:
            s.bank = max(0.0, s.bank - max(0.0, now - s.since - move))
        s.since = None

    def left(self, seat: int, now: float) -> tuple[float | None, float]:
        """The seat's per-move time left (``None``: no clock) and its bank left, now."""
        s = self.seats[seat]
        move = self.options.move
        if move is None:
            return None, s.bank
        if s.since is None:
            return move, s.bank
        used = now - s.since
        return max(0.0, move - used), max(0.0, s.bank - max(0.0, used - move))

    def timeout_at(self, seat: int) -> float | None:
        """When the running seat's time is up (``None``: not running, or no clock)."""
        s = self.seats[seat]
        if s.since is None or self.options.move is None or s.bot:
            return None
        return s.since + self.options.move + s.bank

    def away_at(self, seat: int) -> float | None:
        """When a bot takes over the running seat of a disconnected person (``None``: not)."""
        s = self.seats[seat]
        grace = self.options.grace
        if s.since is None or s.away is None or grace is None or s.bot:
            return None
        return max(s.since, s.away) + grace

    def take_over(self, seat: int, reason: str, move: int, now: float) -> None:
        """A bot plays ``seat`` from now on (``reason``: ``timeout`` or ``away``)."""
        s = self.seats[seat]
        if s.since is not None:
            self._charge(s, now)
        if reason == "timeout":
            s.bank = 0.0
        s.bot, s.reason, s.bot_played = True, reason, True
        self.notes.append({"move": move, "seat": seat, "kind": reason})

    def give_back(self, seat: int, move: int) -> bool:
        """The person of ``seat`` is back: no bot plays it any more. False if none did."""
        s = self.seats[seat]
        if not s.bot:
            return False
        s.bot, s.reason = False, None
        self.notes.append({"move": move, "seat": seat, "kind": "back"})
        return True


# -- what the service asks of a table ------------------------------------------------------------


def running_seats(room: Room) -> set[int]:
    """The seats whose clocks run: asked, known to everyone to be asked, played by a person."""
    table = room.table
    if table is None or table.is_over:
        return set()
    public = set(room.game.public_acting(table.state))
    return {
        s
        for s in table.pending
        if s in public and room.seats[s].kind != "bot" and not room.clock.seats[s].bot
    }


def hidden_asked(room: Room) -> list[int]:
    """Seats asked in a silent window: pending, but not known to be (SB-9)."""
    table = room.table
    if table is None or table.is_over:
        return []
    public = set(room.game.public_acting(table.state))
    return [s for s in table.pending if s not in public]


def window_deadline(room: Room) -> float | None:
    """When the open silent window closes on its own clock (monotonic), or ``None``.

    It starts at the last change anyone saw (``room.seen_at``, as SB-9's minimum does) and
    lasts the per-move time, at least the game's minimum: the same for everyone, whoever has
    answered."""
    table = room.table
    if table is None or not room.has_people or not hidden_asked(room):
        return None
    move = room.clock.options.move
    length = max(room.game.window_minimum(table.state), UNTIMED_WINDOW if move is None else move)
    return room.seen_at + length


def clock_json(room: Room) -> JSONObject:
    """The table's clock as every socket is sent it (the same for all: nothing in it is
    anyone's secret). Times left are counted at ``now`` (the server's time, seconds since
    1970); a client counts down from when it receives them."""
    clock = room.clock
    mono = time.monotonic()
    window = window_deadline(room)
    seats: list[JSONObject] = []
    for i, s in enumerate(clock.seats):
        move_left, bank_left = clock.left(i, mono)
        seats.append(
            {
                "running": s.since is not None,
                "move_left": None if move_left is None else round(move_left, 2),
                "bank": round(bank_left, 2),
                "bot": s.bot,
                "reason": s.reason,
                "bot_played": s.bot_played,
            }
        )
    return {
        **clock.options.to_json(),
        "now": round(time.time(), 3),
        "seats": seats,
        "window": None if window is None else round(max(0.0, window - mono), 2),
    }
