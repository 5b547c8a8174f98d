"""A table's clocks as a pure value: per-move time, a bank per seat, takeovers and returns.

Every method takes the time as an argument (seconds, the referee's clock: wall time in the
service, simulated time in tests), so the rules below are checked on simulated time. The rules,
as ``docs/protocol.md`` states them for players:

- A seat's clock runs while it is asked *in public* (the header's ``acting``), its person
  plays it (no bot seat, no takeover) and the game goes on. Each time a seat is asked anew —
  after its own action, at a new round of simultaneous placing, at its next turn — its move
  starts afresh: first the per-move time, then the bank; only what a move uses beyond the
  per-move time comes off the bank.
- A seat whose time runs out is played by the takeover bot (its bank is spent); a person gone
  (no socket on any process) past the grace period while asked is too. Either lasts until the
  person is back (reconnects, acts, or says ``back``); a move in progress then starts afresh,
  with what is left of the bank (none after a timeout: every move then has the per-move time).
- A Setback BLOCK window (SB-9) asks nobody in public: no seat's clock runs in it and no
  takeover starts there. It runs on a clock of its own (see :mod:`racedeck.server.referee.window`).
- A running move's start time is stored with the table, so a restart charges the time that
  passed, the downtime included: a crash gives no time back.

Every timeout, takeover, return and window pass is a *note* at its place in the game (the move
number it happened at) and goes into the record's ``meta.clock``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from racedeck.core.jsontypes import JSONObject
from racedeck.server.clocks import ClockOptions

__all__ = ["SeatClock", "TableClock"]


@dataclass(slots=True)
class SeatClock:
    """One seat's clock: its bank, since when its move runs, since when its person is away,
    and whether a bot plays it now (``reason``: why) or did at some time this game."""

    bank: float
    since: float | None = None
    """When the seat's running move started, or ``None`` (not running)."""
    away: float | None = None
    """When its person's last socket closed, or ``None`` (connected somewhere)."""
    bot: bool = False
    reason: str | None = None
    bot_played: bool = False


@dataclass(slots=True)
class TableClock:
    """The clocks of one table's current game and its notes (see the module docstring)."""

    options: ClockOptions
    seats: list[SeatClock]
    notes: list[JSONObject] = field(default_factory=list)

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
        """What the database keeps: banks, running moves' start times, who a bot plays, the
        notes."""
        return {
            "options": self.options.to_json(),
            # Exact, not rounded: a restart must charge every bit of time a move used.
            "banks": [s.bank for s in self.seats],
            "since": [s.since for s in self.seats],
            "bots": [s.reason if s.bot else None for s in self.seats],
            "bot_played": [s.bot_played for s in self.seats],
            "notes": list(self.notes),
        }

    @classmethod
    def from_store(cls, obj: JSONObject | None, players: int) -> TableClock:
        """The clock :meth:`to_store` wrote (``None``: a table from before clocks). Running
        moves keep their stored start: the time since, downtime included, is charged."""
        if obj is None:
            return cls.fresh(ClockOptions.untimed(), players)
        options = ClockOptions.from_json(obj.get("options", {}))
        banks = list(obj.get("banks", []))
        since = list(obj.get("since", []))
        bots = list(obj.get("bots", []))
        played = list(obj.get("bot_played", []))
        seats = []
        for i in range(players):
            reason = bots[i] if i < len(bots) else None
            started = since[i] if i < len(since) else None
            seats.append(
                SeatClock(
                    bank=float(banks[i]) if i < len(banks) else options.bank,
                    since=None if started is None else float(started),
                    bot=reason is not None,
                    reason=reason,
                    bot_played=bool(played[i]) if i < len(played) else False,
                )
            )
        return cls(options, seats, [dict(n) for n in obj.get("notes", [])])

    def adopt(self, stored: JSONObject) -> bool:
        """Take the clock another process stored, keeping who is away here. True when who
        plays a seat or the notes changed."""
        other = TableClock.from_store(stored, len(self.seats))
        changed = other.notes != self.notes
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            changed |= (mine.bot, mine.reason, mine.bot_played) != (
                theirs.bot,
                theirs.reason,
                theirs.bot_played,
            )
            mine.bank, mine.since, mine.bot, mine.reason = (
                theirs.bank,
                theirs.since,
                theirs.bot,
                theirs.reason,
            )
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

    def sync(self, running: Iterable[int], now: float, acted: int | None = None) -> bool:
        """Run the clocks of ``running`` seats, stop (and charge) the others. ``acted``: the
        seat that just acted; its move ended, so if it is asked again a fresh move starts.
        True when a clock started or stopped."""
        wanted = set(running)
        changed = False
        if acted is not None and self.seats[acted].since is not None:
            self._charge(self.seats[acted], now)
            changed = True
        for i, s in enumerate(self.seats):
            if i in wanted:
                if s.since is None:
                    s.since = now
                    changed = True
            elif s.since is not None:
                self._charge(s, now)
                changed = True
        return changed

    def _charge(self, s: SeatClock, now: float) -> None:
        assert s.since is not None
        move = self.options.move
        if move is not None:
            s.bank = max(0.0, s.bank - max(0.0, now - s.since - move))
        s.since = None

    def left(self, seat: int, now: float) -> tuple[float | None, float]:
        """The seat's per-move time left (``None``: no clock) and its bank left, at ``now``."""
        s = self.seats[seat]
        move = self.options.move
        if move is None:
            return None, s.bank
        if s.since is None:
            return move, s.bank
        used = max(0.0, now - s.since)
        return max(0.0, move - used), max(0.0, s.bank - max(0.0, used - move))

    def timeout_at(self, seat: int) -> float | None:
        """When the running seat's time is up (``None``: not running, or no clock)."""
        s = self.seats[seat]
        if s.since is None or self.options.move is None or s.bot:
            return None
        return s.since + self.options.move + s.bank

    def away_at(self, seat: int) -> float | None:
        """When a bot takes over the running seat of a person who is gone (``None``: not)."""
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

    def json(self, now: float, window_left: float | None) -> JSONObject:
        """The clock as every socket is sent it (the same for all: nothing in it is anyone's
        secret), with times left counted at ``now``."""
        seats: list[JSONObject] = []
        for i, s in enumerate(self.seats):
            move_left, bank_left = self.left(i, now)
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
            **self.options.to_json(),
            "now": round(now, 3),
            "seats": seats,
            "window": None if window_left is None else round(max(0.0, window_left), 2),
        }
