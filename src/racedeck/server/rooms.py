"""A table in memory and the sockets watching it: its referee, its lock, its timer.

:class:`Room` is what :class:`~racedeck.server.service.TableService` holds per table: the
table's :class:`~racedeck.server.referee.Referee` (which decides everything), the
:class:`asyncio.Lock` that feeds it one command at a time, the sockets by number and the one
timer it asked for. :class:`Connection` is one authenticated socket with its outbox and its
message budget.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from racedeck.core.errors import RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.timekeeper import Timer

if TYPE_CHECKING:
    from racedeck.core.commitments import Ledger
    from racedeck.core.game import Game
    from racedeck.core.table import Table
    from racedeck.server.referee import Referee
    from racedeck.server.referee.clock import TableClock
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
    """One authenticated socket: its number at the table, its seat (``None``: a spectator)
    and its outbox."""

    room: Room
    seat: int | None
    id: int = 0
    outbox: asyncio.Queue[JSONObject | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX_FRAMES)
    )
    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    refilled: float = 0.0
    """When the budget was last refilled, on the service's clock."""
    dropped: int = 0
    warned: float = 0.0
    closed: bool = False

    def allow(self, now: float) -> bool:
        """Take one message from the rate budget at ``now`` (the service's clock: a test
        moves it); ``False`` when the socket is over it."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False


class Room:
    """A table in memory: its referee, the lock that feeds it, the sockets watching it (by
    number) and its timer. What the table *is* (seats, game, clock …) is read from the
    referee."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.lock = asyncio.Lock()
        self.connections: dict[int, Connection] = {}
        self.timer: Timer | None = None
        self.failures = 0
        """Bot decisions that failed at this table (each is retried a few times)."""
        self.active = referee.created
        """When a person last did something here: took a seat, connected, left or acted."""

    # -- read from the referee ------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The referee's ``id``."""
        return self.referee.id

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The referee's ``game``."""
        return self.referee.game

    @property
    def config(self) -> JSONObject:
        """The referee's ``config``."""
        return self.referee.config

    @property
    def config_key(self) -> str:
        """The configuration as canonical JSON."""
        return json.dumps(self.referee.config, sort_keys=True, separators=(",", ":"))

    @property
    def table(self) -> Table | None:
        """The referee's ``table``."""
        return self.referee.table

    @property
    def status(self) -> str:
        """The referee's ``status``."""
        return self.referee.status

    @property
    def game_no(self) -> int:
        """The referee's ``game_no``."""
        return self.referee.game_no

    @property
    def seed(self) -> int:
        """The referee's ``seed``."""
        return self.referee.seed

    @property
    def server_seed(self) -> str:
        """The referee's ``server_seed``."""
        return self.referee.server_seed

    @property
    def client_seeds(self) -> list[str]:
        """The referee's ``client_seeds``."""
        return self.referee.client_seeds

    @property
    def seats(self) -> list[SeatRow]:
        """The referee's ``seats``."""
        return self.referee.seats

    @property
    def names(self) -> list[str]:
        """The referee's ``names``."""
        return self.referee.names

    @property
    def has_people(self) -> bool:
        """The referee's ``has_people``."""
        return self.referee.has_people

    @property
    def origin(self) -> JSONObject | None:
        """The referee's ``origin``."""
        return self.referee.origin

    @property
    def created(self) -> float:
        """The referee's ``created``."""
        return self.referee.created

    @property
    def clock(self) -> TableClock:
        """The referee's ``clock``."""
        return self.referee.clock

    @property
    def ledger(self) -> Ledger | None:
        """The referee's face-down ledger (``None``: no fair deal)."""
        ledger: Ledger | None = self.referee.ledger
        return ledger

    @property
    def thinking(self) -> set[int]:
        """The seats a bot is deciding for now."""
        return {seat for seat, _g, _m, _b in self.referee.asks.values()}


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
