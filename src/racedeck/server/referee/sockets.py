"""Who is at the table: sockets opening and closing, people away and back.

Part of :class:`~racedeck.server.referee.Referee`. A person counts as away while no socket of
theirs is open on any process; a bot stands in for them once the grace period passes while
they are asked (:mod:`racedeck.server.referee.clock`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from racedeck.core.errors import AuthError, RacedeckError
from racedeck.core.jsontypes import JSONObject
from racedeck.server.live import history_json, view_json
from racedeck.server.referee.frames import error_frame
from racedeck.server.referee.messages import Back, Connect, Disconnect, ToConn

if TYPE_CHECKING:
    from racedeck.server.referee.referee import Referee

__all__ = ["Sockets"]


class Sockets:
    """Sockets and presence (mixed into the referee)."""

    def _connect(self, cmd: Connect, now: float) -> None:
        ref = cast("Referee", self)
        ref.conns[cmd.conn] = cmd.seat
        if cmd.seat is not None:
            # A person who reconnects is back: no bot plays their seat any more.
            ref.clock.seats[cmd.seat].away = None
            ref._give_back(cmd.seat, now, announce=False)
        welcome: JSONObject = {
            "type": "welcome",
            "seat": cmd.seat,
            "table": ref.info(now, cmd.seat),
            "game_no": ref.game_no,
            "view": None,
            "events": [],
        }
        if ref.table is not None:
            welcome["view"] = view_json(ref.table, cmd.seat, ref.names)
            welcome["events"] = history_json(ref.table, cmd.seat, ref.names)
        welcome.update(own_secrets(ref, cmd.seat))
        ref._send(ToConn(cmd.conn), welcome)
        ref._send_table(now, skip=cmd.conn)

    def _disconnect(self, cmd: Disconnect, now: float) -> None:
        ref = cast("Referee", self)
        seat = ref.conns.pop(cmd.conn, None)
        if seat is not None:
            ref._mark_away(now)
        ref._send_table(now)

    def _mark_away(self, now: float) -> None:
        """A person counts as away, from now, when no socket of theirs is open anywhere."""
        ref = cast("Referee", self)
        connected = ref.connected_seats()
        for i, row in enumerate(ref.seats):
            if row.kind == "bot":
                continue
            seat = ref.clock.seats[i]
            if i in connected:
                seat.away = None
            elif seat.away is None:
                seat.away = now

    def _back(self, cmd: Back, now: float) -> None:
        ref = cast("Referee", self)
        seat = ref.conns.get(cmd.conn)
        if seat is None:
            ref._error(cmd.conn, AuthError("spectators have no seat to come back to"), cmd.id)
            return
        ref._give_back(seat, now)

    def _error(self, conn: int, exc: RacedeckError, client_id: str | None) -> None:
        ref = cast("Referee", self)
        ref._send(ToConn(conn), error_frame(exc, client_id))


def own_secrets(ref: Referee, seat: int | None) -> JSONObject:
    """What a seat's welcome gives back of its own sealed answer to the open BLOCK window
    (``answer``, SB-9), if its person gave one, so a reconnect loses none (the salts of its
    face-down commitments come back in ``table.fair.commitments``).

    Only the seat's own connection gets these: they say nothing it does not know.
    """
    out: JSONObject = {}
    if seat is None:
        return out
    window = ref.window
    if window is not None and seat in window.answered and seat in window.sealed:
        out["answer"] = dict(window.sealed[seat])
    return out
