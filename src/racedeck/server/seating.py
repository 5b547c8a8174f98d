"""Seats at a table: creating a table, joining it, playing again.

Part of :class:`~racedeck.server.service.TableService` (mixed into it). A seat is held by a
token only its person has (the table stores its hash); every change of seats is a command to
the table's referee (:class:`~racedeck.server.referee.messages.Join`,
:class:`~racedeck.server.referee.messages.PlayAgain`), fed through :meth:`TableService.run`.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING, cast

from racedeck.core.errors import AuthError
from racedeck.server.creation import new_table
from racedeck.server.messages import CreateTable, JoinRequest
from racedeck.server.referee import messages as m
from racedeck.server.rooms import Room, hash_token

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["Seating"]


class Seating:
    """Tables created, seats taken, games played again (mixed into
    :class:`~racedeck.server.service.TableService`)."""

    async def create(
        self, req: CreateTable, address: str | None = None
    ) -> tuple[Room, int | None, str | None]:
        """Create a table for a client at ``address`` (counted against its creations); the
        creator takes the first person's seat. Returns the table, the creator's seat and
        token (``None`` when every seat is a bot: a game to watch)."""
        svc = cast("TableService", self)
        self.admit_table(address)
        stored = new_table(req, svc.seeds())
        people = any(s.kind == "human" for s in stored.seats)
        svc.store.create(stored)
        room = await svc.add(stored)
        if not people:
            return room, None, None
        seat, token = await self._take_seat(room, None, req.name, req.client_seed)
        return room, seat, token

    def admit_table(self, address: str | None) -> None:
        """May a client at ``address`` create a table (or a fork) now? ``server/stopping``,
        then the limits' refusals (:meth:`Gate.admit_table`)."""
        svc = cast("TableService", self)
        svc.refuse_if_stopping()
        svc.gate.admit_table(len(svc.rooms), address, svc.clock.now())

    async def join(self, table_id: str, req: JoinRequest) -> tuple[int, str]:
        """Give a free seat (``req.seat`` or the first free one) to a person; returns the seat
        and its token. The game starts when the last seat is taken."""
        svc = cast("TableService", self)
        svc.refuse_if_stopping()
        return await self._take_seat(svc.room(table_id), req.seat, req.name, req.client_seed)

    async def _take_seat(
        self, room: Room, wanted: int | None, name: str | None, client_seed: str | None
    ) -> tuple[int, str]:
        svc = cast("TableService", self)
        token = secrets.token_urlsafe(24)
        taken: list[int] = []

        def join() -> m.Command:
            seat = room.referee.free_seat(wanted)
            taken.append(seat)
            return m.Join(seat, name, client_seed, hash_token(token))

        await svc.run(room, join)
        return taken[0], token

    async def again(self, table_id: str, token: str, client_seed: str | None = None) -> int:
        """A new game at the same table with the same seats, once the current one is over;
        ``token`` must be a seated person's, ``client_seed`` (optional) that seat's new one.
        Returns the new game's number (``server/stopping`` once the service stops).

        The new game's server seed is the one whose commitment was published when the last
        game ended (``next_commitment``): a client seed sent now was unknown to the server
        when it committed, so the server cannot pick its seed to suit the seats' seeds.
        """
        svc = cast("TableService", self)
        svc.refuse_if_stopping()
        room = svc.room(table_id)

        def play_again() -> m.Command:
            seat = self.seat_of(room, token)
            if seat is None:
                raise AuthError("this token holds no seat at this table")
            return m.PlayAgain(seat, client_seed)

        await svc.run(room, play_again)
        return room.game_no

    @staticmethod
    def seat_of(room: Room, token: str) -> int | None:
        """The seat ``token`` holds at ``room`` (``None``: none)."""
        digest = hash_token(token)
        found = None
        for i, s in enumerate(room.seats):
            # Compare every seat, in constant time, so timing does not tell how close a guess is.
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = i
        return found
