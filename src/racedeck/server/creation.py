"""A new table from a create request: its game and options checked, its seats, its clock and
the commitment to its first deal."""

from __future__ import annotations

import secrets

from racedeck.core.errors import InvalidConfig
from racedeck.core.fairness import game_seed
from racedeck.core.registry import get_spec
from racedeck.server.bots import check_bot_name
from racedeck.server.clocks import clock_options
from racedeck.server.messages import CreateTable
from racedeck.server.referee.clock import TableClock
from racedeck.store.tables import SeatRow, StoredTable

__all__ = ["new_table"]


def new_table(req: CreateTable, server_seed: str) -> StoredTable:
    """The table ``req`` asks for, ready to store; raises
    :class:`~racedeck.core.errors.InvalidConfig` (or ``clock/invalid``) saying what is wrong.
    A table of bots only is dealt at once (a game to watch); one with people waits for them.
    ``server_seed`` is the secret its first deal is committed to."""
    try:
        spec = get_spec(req.game)
    except KeyError as exc:
        raise InvalidConfig(str(exc.args[0]), "game") from None
    options = dict(req.config)
    options.setdefault("players", len(req.seats))
    config = spec.make_config(**options)
    if config.players != len(req.seats):
        raise InvalidConfig(
            f"{spec.id}: {len(req.seats)} seats given for players={config.players}", "seats"
        )
    seats: list[SeatRow] = []
    for s in req.seats:
        if s.kind == "bot":
            if s.bot is None:
                raise InvalidConfig("a bot seat must name its bot", "bot")
            seats.append(SeatRow(kind="bot", bot=check_bot_name(spec.id, s.bot)))
        else:
            seats.append(SeatRow(kind="human"))
    clock = TableClock.fresh(clock_options(req.clock, spec.id), len(seats))
    client_seeds = [""] * len(seats)
    people = any(s.kind == "human" for s in seats)
    return StoredTable(
        id=secrets.token_urlsafe(9),
        game=spec.id,
        config=config.to_json(),
        status="open" if people else "playing",
        game_no=1,
        seed=game_seed(server_seed, client_seeds),
        seats=seats,
        server_seed=server_seed,
        client_seeds=client_seeds,
        clock=clock.to_store(),
    )
