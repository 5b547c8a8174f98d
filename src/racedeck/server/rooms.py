"""A table in memory and the sockets watching it: seats, the current game, rate limits.

:class:`Room` is what :class:`~racedeck.server.service.TableService` holds per table;
:class:`Connection` is one authenticated socket with its outbox and its message budget.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.commitments import Ledger
from racedeck.core.errors import RacedeckError
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.server.clocks import ClockOptions, TableClock
from racedeck.server.live import LiveTable, Step
from racedeck.store.tables import SeatRow

__all__ = [
    "FLOOD_LIMIT",
    "OUTBOX_FRAMES",
    "RATE_BURST",
    "RATE_PER_SECOND",
    "Connection",
    "Room",
    "ServiceError",
    "hash_token",
]

OUTBOX_FRAMES = 256
"""Frames queued for one socket before it counts as too slow and is closed (it may reconnect)."""
RATE_PER_SECOND = 10.0
"""Messages a socket may send per second on average…"""
RATE_BURST = 30.0
"""…and in a burst."""
FLOOD_LIMIT = 500
"""Messages dropped for the rate before the socket is closed."""


class ServiceError(RacedeckError):
    """A refusal of the service itself, with its code and HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        self.code = code
        self.status = status
        super().__init__(message)


@dataclass(eq=False)
class Connection:
    """One authenticated socket: its seat (``None``: a spectator) and its outbox."""

    room: Room
    seat: int | None
    outbox: asyncio.Queue[JSONObject | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX_FRAMES)
    )
    last_seen: JSONObject | None = None
    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    refilled: float = field(default_factory=time.monotonic)
    dropped: int = 0
    warned: float = 0.0
    closed: bool = False

    def allow(self) -> bool:
        """Take one message from the rate budget; ``False`` when the socket is over it."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False


@dataclass(eq=False)
class Room:
    """A table in memory: its seats, its current game and the sockets watching it."""

    id: str
    game: Game[Any, Any, Any]
    config: JSONObject
    seats: list[SeatRow]
    status: str
    game_no: int
    seed: int
    server_seed: str = ""
    """The current game's secret server seed (hex); only its commitment is shown until the
    game is over (:mod:`racedeck.core.fairness`)."""
    client_seeds: list[str] = field(default_factory=list)
    """Each seat's client seed, in seat order (empty text: none given)."""
    next_server_seed: str = ""
    """The next game's server seed, drawn when a game ends so that its commitment is public
    before anyone asks to play again (and may send a fresh client seed)."""
    table: LiveTable | None = None
    steps: list[Step] = field(default_factory=list)
    strict_below: int = 0
    start_pending: tuple[int, ...] = ()
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    elsewhere: set[int] = field(default_factory=set)
    """Seats with a socket on another process serving the same database."""
    thinking: set[int] = field(default_factory=set)
    failures: int = 0
    created: float = field(default_factory=time.time)
    seen_at: float = field(default_factory=time.monotonic)
    """When anyone at the table last saw something happen (the clock of SB-9's window)."""
    deferred: tuple[int, object, tuple[Connection, str | None] | None] | None = None
    """A window's last answer, checked and held until the window's time is up (SB-9)."""
    timer: asyncio.TimerHandle | None = None
    """The pending call that takes held-back forced answers once a window's time is up."""
    ledger: Ledger | None = None
    """The current game's commitments to face-down actions (``None``: no fair deal)."""
    origin: JSONObject | None = None
    """For a "what if" table, where its first game was forked from (``meta.fork`` of that
    game's record); such a table is private: the lobby does not list it."""
    clock: TableClock = field(default_factory=lambda: TableClock(ClockOptions.untimed(), []))
    """The seats' clocks and who a bot plays for (:mod:`racedeck.server.clocks`)."""

    def __post_init__(self) -> None:
        if len(self.clock.seats) != len(self.seats):
            self.clock = TableClock.fresh(self.clock.options, len(self.seats))

    @property
    def has_people(self) -> bool:
        """True when a person holds a seat (someone who could read a window's timing)."""
        return any(s.kind != "bot" for s in self.seats)

    @property
    def names(self) -> list[str]:
        """The seats' display names (a bot's name says which bot)."""
        out = []
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                out.append(s.name or f"{s.bot} bot")
            else:
                out.append(s.name or f"Player {i + 1}")
        return out

    @property
    def config_key(self) -> str:
        """The configuration as canonical JSON."""
        return json.dumps(self.config, sort_keys=True, separators=(",", ":"))


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
