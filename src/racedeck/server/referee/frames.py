"""The frames a referee sends, built from what it holds: table info, updates, errors.

Every frame a socket receives is made here or in :mod:`racedeck.server.live` (views and events
as JSON), from the recipient's own view and feed: nothing else about the table goes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from racedeck.core.errors import RacedeckError, StaleMove
from racedeck.core.events import Event
from racedeck.core.fairness import commitment
from racedeck.core.jsontypes import JSONObject
from racedeck.plugins import optional_plugin
from racedeck.server.face_down import Published
from racedeck.server.frames import EventFeeds
from racedeck.server.live import public_summary, views_json

if TYPE_CHECKING:
    from racedeck.server.referee.referee import Referee

__all__ = ["error_frame", "fair_info", "table_info", "update_frames", "win_rule"]


def win_rule(game_id: str) -> str:
    """The game's own words for who wins, from its ``web`` plugin, or empty."""
    module = optional_plugin(game_id, "web")
    return str(getattr(module, "WIN_RULE", "")) if module is not None else ""


def error_frame(exc: RacedeckError, client_id: str | None) -> JSONObject:
    """``exc`` as an ``error`` frame (a stale action says the table's move number)."""
    frame: JSONObject = {"type": "error", "code": exc.code, "message": str(exc)}
    if client_id is not None:
        frame["id"] = client_id
    if isinstance(exc, StaleMove):
        frame["move"] = exc.current
    return frame


def fair_info(ref: Referee, seat: int | None = None, commitments: bool = True) -> JSONObject | None:
    """The commitment to the current game's server seed; once the game is over, the server
    seed and the client seeds too (``None`` for a table from before fair deals). The
    face-down commitments carry the salts of ``seat``'s own (``None``: of the opened only);
    ``commitments=False`` leaves them out (a lobby entry: a game's worth of hashes a table)."""
    if not ref.server_seed:
        return None
    over = ref.table is not None and ref.table.is_over
    out: JSONObject = {
        "commitment": commitment(ref.server_seed),
        "server_seed": ref.server_seed if over else None,
        "client_seeds": list(ref.client_seeds) if over else None,
        "next_commitment": (
            commitment(ref.next_server_seed) if over and ref.next_server_seed else None
        ),
    }
    if commitments:
        out["commitments"] = ref.ledger.public_json(seat) if ref.ledger is not None else []
    return out


def table_info(
    ref: Referee, now: float, seat: int | None = None, commitments: bool = True
) -> JSONObject:
    """Public facts about a table: no token, no seed, nothing a seat's view hides (but the
    salts of ``seat``'s own face-down commitments, for that seat's welcome); without the
    face-down commitments when ``commitments`` is false (:func:`fair_info`)."""
    spec = ref.game.spec
    connected = ref.connected_seats()
    return {
        "id": ref.id,
        "game": spec.id,
        "title": spec.title,
        "config": dict(ref.config),
        "summary": public_summary(ref.config, spec.config_type().to_json()),
        "status": ref.status,
        "game_no": ref.game_no,
        "move": ref.table.move if ref.table is not None else None,
        "players": len(ref.seats),
        "free": sum(1 for s in ref.seats if s.kind == "human" and s.token_hash is None),
        "seats": [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": ref.names[i] if (s.kind == "bot" or s.token_hash) else None,
                "taken": s.kind == "bot" or s.token_hash is not None,
                "connected": s.kind == "bot" or i in connected,
            }
            for i, s in enumerate(ref.seats)
        ],
        "spectators": sum(1 for seat in ref.conns.values() if seat is None),
        "invite_url": f"{ref.public_url}/t/{ref.id}",
        "win_rule": win_rule(spec.id),
        "fair": fair_info(ref, seat, commitments),
        "fork": ref.origin if ref.game_no == 1 else None,
        "clock": ref.clock_json(now),
    }


def update_frames(
    ref: Referee,
    events: Sequence[Event],
    now: float,
    published: Sequence[Published] = (),
) -> dict[int | None, JSONObject]:
    """The ``update`` frame of each audience with a socket here (a seat, ``None``: the
    spectators): its view and the events of the transition it may see, the clock, and what
    the face-down ledger published."""
    table = ref.table
    assert table is not None
    names = ref.names
    feeds = EventFeeds(table, events, names)
    clock = ref.clock_json(now)
    out: dict[int | None, JSONObject] = {}
    for seat, view in views_json(table, ref.audiences(), names).items():
        frame: JSONObject = {
            "type": "update",
            "game_no": ref.game_no,
            "move": table.move,
            "view": view,
            "events": feeds.for_seat(seat),
            "clock": clock,
        }
        opened: list[JSONObject] = []
        for part in published:
            piece = part.frame_part(seat)
            if "commitment" in piece:
                frame["commitment"] = piece["commitment"]
            opened.extend(piece.get("opened", []))
        if opened:
            frame["opened"] = opened
        out[seat] = frame
    return out
