"""What one server lets strangers do, so that nobody can keep a seated person from playing.

The service is open to anyone: no account is needed to create a table or to watch one. These
limits keep that from being turned against the people at the tables:

- **Seats always connect.** Spectators are counted apart from seats and capped per table and
  per server; a full table refuses the next spectator (``table/busy``), never a seat's own
  socket. A seat may have a few sockets of its own (tabs, devices) up to its own cap.
- **Tables are made at a human pace.** One client address may create a bounded number of
  tables in a sliding window (``table/rate-limited``, 429, with when to try again); the
  server holds a bounded number of tables in all (``server/full``, 503).
- **Tables nobody plays go away.** An open table (still waiting for people) with nobody at it
  expires once it has seen no activity for a while; the lobby lists only tables with a person
  at them and recent activity, so junk cannot push real tables out of it.

Every limit is an option of ``racedeck serve`` (see ``docs/deploy.md``). Decisions take the
time as an argument: tests run them on simulated time.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from racedeck.server.rooms import ServiceError

if TYPE_CHECKING:
    from starlette.requests import Request

    from racedeck.server.rooms import Room

__all__ = ["CreationBudget", "Gate", "Limits", "client_address"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The numbers (see the module docstring); every one is a ``racedeck serve`` option."""

    tables: int = 10_000
    """Tables the server holds at once (open and in play); more: ``server/full``."""
    spectators_per_table: int = 32
    """Spectator sockets one table takes; more: ``table/busy`` (seats are not counted)."""
    spectators: int = 2_000
    """Spectator sockets the whole server takes; more: ``server/busy``."""
    sockets_per_seat: int = 8
    """Sockets one seat may have open at once (a person's tabs and devices)."""
    creations: int = 20
    """Tables one client address may create within ``creation_window``."""
    creation_window: float = 600.0
    """Seconds over which ``creations`` counts."""
    open_expiry: float = 3_600.0
    """Seconds an open table with nobody at it lives without activity; then it expires."""
    lobby_idle: float = 900.0
    """The lobby lists a table only if something happened at it within these seconds."""

    def __post_init__(self) -> None:
        for name in (
            "tables",
            "spectators_per_table",
            "spectators",
            "sockets_per_seat",
            "creations",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more")
        for name in ("creation_window", "open_expiry", "lobby_idle"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be more than 0 seconds")


class CreationBudget:
    """How many tables each client address created lately (a sliding window per address)."""

    def __init__(self, per_window: int, window: float) -> None:
        self.per_window = per_window
        self.window = window
        self._made: OrderedDict[str, deque[float]] = OrderedDict()
        """The times of each address's recent creations, the address that created last at
        the end (times only grow), so those that stopped creating come first."""

    def take(self, address: str, now: float) -> float | None:
        """Count a table ``address`` creates at ``now``: ``None`` when it may, else the
        seconds until it may again (nothing is counted then)."""
        made = self._made.get(address, deque())
        while made and made[0] <= now - self.window:
            made.popleft()
        if len(made) >= self.per_window:
            return max(0.0, made[0] + self.window - now) if made else self.window
        made.append(now)
        self._made[address] = made
        self._made.move_to_end(address)
        if len(self._made) > 4 * max(self.per_window, 1_000):
            self._forget(now)
        return None

    def __len__(self) -> int:
        """How many addresses are remembered."""
        return len(self._made)

    def _forget(self, now: float) -> None:
        # Addresses that created nothing within the window need no memory. They are the
        # first ones (ordered by their last creation): a look at each forgotten address and
        # one more, not at every address on every creation.
        while self._made:
            address, made = next(iter(self._made.items()))
            if made and made[-1] > now - self.window:
                break
            del self._made[address]


@dataclass
class Gate:
    """The limits of one server process, applied: what it admits, lists and lets expire."""

    limits: Limits = field(default_factory=Limits)
    spectators: int = 0
    """Spectator sockets open on this process now."""

    def __post_init__(self) -> None:
        self.budget = CreationBudget(self.limits.creations, self.limits.creation_window)

    def admit_table(self, held: int, address: str | None, now: float) -> None:
        """May ``address`` (``None``: not known) create a table now, with ``held`` tables
        held? Raises ``server/full`` (503) or ``table/rate-limited`` (429)."""
        if held >= self.limits.tables:
            raise ServiceError("server/full", "the server holds all the tables it can", 503)
        if address is None:
            return
        wait = self.budget.take(address, now)
        if wait is not None:
            raise ServiceError(
                "table/rate-limited",
                f"{self.limits.creations} tables were created from your address within "
                f"{self.limits.creation_window:g} s: try again in {math.ceil(wait)} s",
                429,
            )

    def admit_socket(self, room: Room, seat: int | None) -> None:
        """May a socket of ``seat`` (``None``: a spectator) open at ``room``? A seat is
        limited only by its own sockets; a spectator by the table's and the server's
        spectators. Raises ``seat/busy``, ``table/busy`` or ``server/busy`` (503)."""
        if seat is not None:
            mine = sum(1 for c in room.connections.values() if c.seat == seat)
            if mine >= self.limits.sockets_per_seat:
                raise ServiceError(
                    "seat/busy",
                    f"this seat has {mine} sockets open, as many as it may: close one",
                    503,
                )
            return
        watching = sum(1 for c in room.connections.values() if c.seat is None)
        if watching >= self.limits.spectators_per_table:
            raise ServiceError(
                "table/busy", "this table has as many spectators as it takes; try later", 503
            )
        if self.spectators >= self.limits.spectators:
            raise ServiceError(
                "server/busy", "the server has as many spectators as it takes; try later", 503
            )

    def listed(self, room: Room, now: float) -> bool:
        """Does the lobby list ``room``: a table with a person at it, where something
        happened lately (a "what if" table is private: only its maker knows its link)?"""
        if room.origin is not None or room.status not in ("open", "playing"):
            return False
        if not any(s.kind == "human" and s.token_hash is not None for s in room.seats):
            return False
        return bool(room.referee.connected_seats()) or now - room.active <= self.limits.lobby_idle

    def expired(self, room: Room, now: float) -> bool:
        """Has ``room`` expired: still open (waiting for people), nobody at it, and nothing
        happened at it for ``open_expiry`` seconds?"""
        return (
            room.status == "open"
            and not room.connections
            and not room.referee.connected_seats()
            and now - room.active >= self.limits.open_expiry
        )


def client_address(request: Request) -> str | None:
    """The address a request came from (behind a proxy, uvicorn's ``--proxy-headers`` and
    ``--forwarded-allow-ips`` decide which; ``docs/deploy.md``)."""
    return request.client.host if request.client is not None else None
