"""What anyone may read over HTTP without changing anything: the games, the lobby, a table's
finished games and their records."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import CLOCK_KEY
from racedeck.core.registry import available_games, get_spec
from racedeck.server.bots import bot_choices, level_choices
from racedeck.server.clocks import default_bot
from racedeck.server.referee.clock import TableClock
from racedeck.server.referee.frames import win_rule
from racedeck.server.rooms import Room, ServiceError
from racedeck.store.forks import FORK_KEY

if TYPE_CHECKING:
    from racedeck.server.service import TableService

__all__ = ["finished_games", "finished_record", "games", "lobby", "record"]

LOBBY_SIZE = 200
"""Most tables the lobby lists."""


def games() -> list[JSONObject]:
    """Every game with its title, player range, options (with their bounds and choices as
    values, and what a form needs to give each item of a list its own field), presets (how
    long to play), levels, the stand-in a table gets unless it names one, and bots (for
    ``/api/games``)."""
    out: list[JSONObject] = []
    for game_id in available_games():
        spec = get_spec(game_id)
        defaults = spec.config_type().to_json()
        out.append(
            {
                "id": spec.id,
                "title": spec.title,
                "summary": spec.summary,
                "rules_version": spec.rules_version,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "win_rule": win_rule(spec.id),
                "options": [
                    {
                        "name": o.name,
                        "default": defaults[o.name],
                        "help": o.help,
                        "allowed": o.allowed,
                        "min": o.min,
                        "max": o.max,
                        "choices": list(o.choices) if o.choices is not None else None,
                        "length": o.length,
                        "max_items": o.max_items,
                        "labels": list(o.labels) if o.labels is not None else None,
                        "rulings": list(o.rulings),
                    }
                    for o in spec.options()
                ],
                "presets": {name: dict(options) for name, options in spec.presets.items()},
                "levels": level_choices(game_id),
                "stand_in": default_bot(game_id),
                "bots": bot_choices(game_id),
            }
        )
    return out


def lobby(service: TableService) -> list[JSONObject]:
    """Tables with a free seat, then games in progress, newest first: those with a person at
    them and recent activity (:meth:`~racedeck.server.limits.Gate.listed`)."""
    now = service.clock.now()
    # Only tables with a person at them and something happening (Gate.listed): a stranger's
    # junk cannot push them out. Chosen first, described after: a description costs more.
    listed = sorted(
        (r for r in service.rooms.values() if service.gate.listed(r, now)), key=lambda r: -r.created
    )
    open_ = [r for r in listed if r.status == "open"]
    playing = [r for r in listed if r.status == "playing"]
    # Each entry without its face-down commitments: a game's worth of hashes per table would
    # make the list heavy (and cost a dict each to make), and the lobby has no use for them.
    return [r.referee.info(now, commitments=False) for r in (open_ + playing)[:LOBBY_SIZE]]


def finished_games(service: TableService, room: Room) -> list[JSONObject]:
    """The table's finished games: number, when it ended, the outcome and the winners'
    names, and where to download the record (for ``/api/tables/{id}/games``)."""
    out: list[JSONObject] = []
    clocks = service.store.clocks(room.id)
    for done in service.store.finished_games(room.id):
        outcome = done.outcome
        names = [str(n) for n in outcome.get("names", [])]
        played = clocks.get(done.game_no, {}).get("bot_played", [])
        ended = done.finished or datetime.now(UTC)
        out.append(
            {
                "game_no": done.game_no,
                "finished": (ended if ended.tzinfo else ended.replace(tzinfo=UTC)).isoformat(),
                "outcome": outcome,
                "winners": [names[i] for i in outcome.get("winners", []) if i < len(names)],
                "bot_played": [i for i, p in enumerate(played) if p],
                "record_url": f"{service.public_url}/api/tables/{room.id}/games/"
                f"{done.game_no}/record",
            }
        )
    return out


def finished_record(service: TableService, room: Room, game_no: int) -> JSONObject:
    """Finished game ``game_no`` as a record for ``racedeck replay`` and ``racedeck
    verify``, with its fairness facts in ``meta.fair`` (and, for the first game of a
    "what if" table, its origin in ``meta.fork``). Refused while that game is in play
    (``game/not-over``: its record would give the hands away) and for a game the table
    never had (``game/not-found``)."""
    if not 1 <= game_no <= room.game_no:
        raise ServiceError(
            "game/not-found",
            f"table {room.id} has no game {game_no} (games 1..{room.game_no})",
            404,
        )
    meta: JSONObject = {"table": room.id, "game_no": game_no, "names": room.names}
    if game_no == 1 and room.origin is not None:
        meta[FORK_KEY] = room.origin
    stored_clock = service.store.clocks(room.id).get(game_no)
    if stored_clock is not None:
        meta[CLOCK_KEY] = TableClock.from_store(stored_clock, len(room.seats)).record_json()
    done = service.store.finished_record(room.id, game_no, meta)
    if done is None:
        raise ServiceError(
            "game/not-over",
            f"game {game_no} at this table is not over; its record is ready at the end",
            409,
        )
    return done.to_json()


def record(service: TableService, table_id: str) -> JSONObject:
    """The record of the table's current game once it is over: the same as
    :func:`finished_record` of its number (``game/not-over`` before the end)."""
    room = service.room(table_id)
    if room.table is None or not room.table.is_over:
        raise ServiceError("game/not-over", "the record is given once the game is over", 409)
    return finished_record(service, room, room.game_no)
