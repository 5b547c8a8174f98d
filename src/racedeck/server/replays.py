"""Replays, checks and "what if" forks of finished games, for the browser's replay viewer.

*Replay.* :func:`replay_json` steps a record through :func:`racedeck.core.record.replay` and
gives, for the deal and after every action, each seat's view and the spectators' (drawn by the
game's own renderer in the browser), and the events of the step with their words. A game's
steps are given only once it is over (then every hand may be shown); a record a person holds
is theirs to step through already.

*Check.* :func:`check_json` is ``racedeck verify`` for the browser: the problems
:func:`racedeck.core.fairness.verify` finds, and whether the actions replay to the result the
record states (the browser checks the commitment and the seed's derivation itself).

*What if.* :func:`fork` deals a new private table from a finished game's seed with the game's
first actions already played: the person plays the seat they chose, bots of the strength they
chose play the others. It is not a fair deal (its seed was known before it was dealt), so its
record carries no ``meta.fair``; ``meta.fork`` says where it came from.
"""

from __future__ import annotations

import asyncio
import secrets
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field

from racedeck.core.errors import InvalidConfig, InvalidRecord
from racedeck.core.events import RECORD
from racedeck.core.fairness import FAIR_KEY, result_of, verify
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, replay
from racedeck.core.table import Table
from racedeck.server.bots import check_bot_name
from racedeck.server.catalog import finished_record
from racedeck.server.http_errors import error_responses
from racedeck.server.limits import client_address
from racedeck.server.live import views_json
from racedeck.server.messages import JSONDict, Name, NestedTooDeeply, StrictModel, load_json
from racedeck.server.rooms import Room, ServiceError, hash_token
from racedeck.server.service import TableService
from racedeck.store.forks import FORK_KEY
from racedeck.store.tables import SeatRow, StoredTable

__all__ = [
    "MAX_RECORD_BYTES",
    "RECORD_PATHS",
    "ForkRequest",
    "check_json",
    "fork",
    "parse_record",
    "replay_json",
    "router",
]

MAX_RECORD_BYTES = 1_000_000
"""Largest record the replay, check and fork routes accept (a long game is some 50 kB)."""

RECORD_PATHS = frozenset({"/api/replay", "/api/verify", "/api/forks"})
"""The routes whose body is a record (they may be larger than other messages)."""

STATIC = Path(str(files("racedeck.server") / "static"))

VIEW_CHUNK = 20
"""Steps whose views one replay answer holds, unless asked otherwise."""
MAX_VIEW_CHUNK = 100
"""Most steps whose views one replay answer holds."""

MAX_STEPS = 5000
"""Most actions a record given to the replay routes may hold."""


def parse_record(body: object) -> GameRecord:
    """A record from a request body; ``record/invalid`` (400) naming what is wrong."""
    record = GameRecord.from_json(body)
    if len(record.actions) > MAX_STEPS:
        raise InvalidRecord(f"a record may hold at most {MAX_STEPS} actions here")
    record.make_game()  # an unknown game, another rules version or a refused configuration
    return record


def _names(record: GameRecord, players: int) -> list[str]:
    """The seats' names the record keeps (``meta.names``), else ``Player 1`` …; a name
    several seats share gets the seat's number."""
    names = record.meta.get("names")
    out = [f"Player {i + 1}" for i in range(players)]
    if isinstance(names, list):
        for i, n in enumerate(names[:players]):
            if isinstance(n, str) and n.strip():
                out[i] = n.strip()[:40]
    # Three "random bot"s are told apart by their seats, as the boards tell them apart.
    return [f"{n} {i + 1}" if out.count(n) > 1 else n for i, n in enumerate(out)]


def _events(table: Table, events: Any, names: list[str]) -> list[JSONObject]:
    """Every event of a step but the record's own, with its words (the game is over: private
    events are shown to whoever looks, tagged with their seat)."""
    out: list[JSONObject] = []
    for event in events:
        if event.audience == RECORD:
            continue
        obj = event.to_json()
        try:
            obj["text"] = table.game.describe_event(event, names)
        except Exception:  # words are a courtesy, as in live.events_json
            obj["text"] = event.kind.replace("_", " ")
        out.append(obj)
    return out


def _views(table: Table, names: list[str]) -> list[JSONObject]:
    """The spectators' view, then every seat's, as the players' browsers drew them (without
    the choices: nothing in a replay is played)."""
    out = []
    for view in views_json(table, (None, *range(table.game.num_players)), names).values():
        view["legal_actions"] = []  # the view's own object: its values are shared
        out.append(view)
    return out


def replay_json(
    record: GameRecord, start: int = 0, count: int = VIEW_CHUNK, steps: bool = True
) -> JSONObject:
    """The replay of ``record``: the deal is step 0, then one step per action, each with its
    actor, the action and its words and the step's events (``steps``: all of them, or none
    when false); and the views after steps ``start`` … ``start + count - 1`` (``views``:
    ``{"start", "items"}``, each item the spectators' view then every seat's: every view of a
    long game at once would be megabytes). ``record/invalid`` when it does not replay."""
    game = record.make_game()
    names = _names(record, game.num_players)
    count = max(0, min(count, MAX_VIEW_CHUNK))
    table = Table(game, record.seed)
    listed: list[JSONObject] = []
    views: list[list[JSONObject]] = []

    def add(
        index: int, seat: int | None, action: JSONObject | None, text: str, events: Any
    ) -> None:
        if steps:
            listed.append(
                {
                    "index": index,
                    "seat": seat,
                    "action": action,
                    "text": text,
                    "events": _events(table, events, names),
                }
            )
        if start <= index < start + count:
            views.append(_views(table, names))

    add(0, None, None, "", table.initial_events)
    for step in replay(record):
        table.state = step.state
        if not steps and step.index + 1 >= start + count:
            break  # the views asked for are all drawn
        try:
            text = game.describe_action(step.action, names)
        except Exception:  # as for events: words must not stop a replay
            text = ""
        add(step.index + 1, step.seat, record.actions[step.index].action, text, step.events)
    meta = record.meta
    out: JSONObject = {
        "game": game.spec.id,
        "title": game.spec.title,
        "players": game.num_players,
        "names": names,
        "config": game.config.to_json(),
        "total": len(record.actions) + 1,
        "over": bool(table.state.is_terminal) if steps else None,
        "fair": isinstance(meta.get(FAIR_KEY), dict),
        "fork": meta.get(FORK_KEY) if isinstance(meta.get(FORK_KEY), dict) else None,
        "table": meta.get("table") if isinstance(meta.get("table"), str) else None,
        "game_no": meta.get("game_no") if type(meta.get("game_no")) is int else None,
        "views": {"start": start, "items": views},
    }
    if steps:
        out["steps"] = listed
    return out


def check_json(record: GameRecord) -> JSONObject:
    """``racedeck verify`` of ``record`` for the browser: ``ok``, the ``problems`` found (in
    words), whether the actions ``replays`` to a finished game (``replay_error`` if not), the
    ``result`` they give and the result the record ``stated`` (``meta.fair.result``)."""
    problems = verify(record)
    fair = record.meta.get(FAIR_KEY)
    stated = fair.get("result") if isinstance(fair, dict) else None
    replayed: JSONObject | None = None
    error: str | None = None
    try:
        state = record.make_game().start(record.seed).state
        for step in replay(record):
            state = step.state
        replayed = result_of(record, state) or None
        if replayed is None:
            error = f"the record's {len(record.actions)} actions do not finish the game"
    except InvalidRecord as exc:
        error = str(exc)
    return {
        "ok": not problems,
        "problems": problems,
        "replays": error is None,
        "replay_error": error,
        "result": replayed,
        "stated": stated if isinstance(stated, dict) else None,
        "result_matches": replayed is not None and replayed == stated,
    }


# -- what if ------------------------------------------------------------------------------------


class ForkRequest(StrictModel):
    """``POST /api/forks``: the game to fork (a table's finished game, or a record), the number
    of actions already played (``step``), the seat the person plays, the bots' strength and the
    person's name."""

    table_id: Annotated[str, Field(max_length=32)] | None = None
    game_no: Annotated[int, Field(ge=1)] | None = None
    record: JSONDict | None = None
    step: Annotated[int, Field(ge=0)]
    seat: Annotated[int, Field(ge=0, le=15)]
    bot: Annotated[str, Field(min_length=1, max_length=32)]
    name: Name | None = None


def _source(service: TableService, req: ForkRequest) -> tuple[GameRecord, JSONObject]:
    """The record to fork and the origin its fork's record names."""
    if req.record is not None:
        if req.table_id is not None or req.game_no is not None:
            raise ServiceError(
                "fork/invalid", "give either a record or a table's game to fork, not both"
            )
        record = parse_record(req.record)
        origin: JSONObject = {"source": "record"}
        for key in ("table", "game_no"):
            if key in record.meta:
                origin[key] = record.meta[key]
    else:
        if req.table_id is None or req.game_no is None:
            raise ServiceError("fork/invalid", "give a record, or a table_id and game_no, to fork")
        room = service.room(req.table_id)
        record = GameRecord.from_json(finished_record(service, room, req.game_no))
        origin = {"source": "table", "table": room.id, "game_no": req.game_no}
    fair = record.meta.get(FAIR_KEY)
    if isinstance(fair, dict) and isinstance(fair.get("commitment"), str):
        origin["commitment"] = fair["commitment"]
    return record, origin


async def fork(
    service: TableService, req: ForkRequest, address: str | None = None
) -> tuple[Room, int, str]:
    """Deal a "what if" table (see the module docstring) for a client at ``address`` (counted
    against its table creations); returns it, the person's seat and their token.
    ``fork/invalid`` for a step past the end or a seat the game does not have."""
    record, origin = _source(service, req)
    game = record.make_game()
    n = game.num_players
    if not req.seat < n:
        raise ServiceError("fork/invalid", f"there is no seat {req.seat} (0..{n - 1})")
    if req.step >= len(record.actions):
        raise ServiceError(
            "fork/invalid",
            f"a game can be forked before one of its {len(record.actions)} actions, "
            f"not at step {req.step}",
        )
    bot = check_bot_name(game.spec.id, req.bot)
    prefix = GameRecord(
        game=record.game,
        rules_version=record.rules_version,
        config=record.config,
        seed=record.seed,
        actions=record.actions[: req.step],
    )
    table = Table.from_record(prefix)
    if table.is_over:
        raise ServiceError("fork/invalid", f"the game is over at step {req.step}")
    service.admit_table(address)
    origin.update({"step": req.step, "seat": req.seat, "bot": bot, "fair": False})
    token = secrets.token_urlsafe(24)
    # Who is who stays as it was: the bots keep the names of the seats they play on (and so
    # the figures keep their letters); the person goes by the name they give.
    kept = isinstance(record.meta.get("names"), list)
    names: list[str | None] = [*_names(record, n)] if kept else [None] * n
    seats = [
        SeatRow(kind="human", name=req.name, token_hash=hash_token(token))
        if i == req.seat
        else SeatRow(kind="bot", bot=bot, name=names[i])
        for i in range(n)
    ]
    table_id = secrets.token_urlsafe(9)
    # Private from the first write on: the origin is stored before the table is.
    service.forks.save(table_id, origin)
    service.store.create(
        StoredTable(
            id=table_id,
            game=game.spec.id,
            config=game.config.to_json(),
            status="playing",
            game_no=1,
            seed=record.seed,
            seats=seats,
            client_seeds=[""] * n,
        )
    )
    for i, action in enumerate(prefix.actions):
        service.store.append_action(table_id, 1, i, action.seat, action.action, "playing")
    stored = service.store.load(table_id)
    assert stored is not None
    # Its room is built from the store like any other's; the bots on turn start at once.
    room = await service.add(stored, origin)
    return room, req.seat, token


# -- routes -------------------------------------------------------------------------------------

router = APIRouter()
"""The replay viewer's pages and routes (included by :func:`racedeck.server.app.create_app`)."""

_RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "a game record (docs/schemas/record.schema.json), at most 1 MB",
        "content": {str(JSONResponse.media_type): {"schema": {"type": "object"}}},
    }
}
"""The body of the routes that read a record themselves (a record that is no record is
refused with its own code, ``record/invalid``, rather than by a model)."""


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


@router.get("/replay", include_in_schema=False)
async def replay_page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/t/{table_id}/games/{game_no}", include_in_schema=False)
async def table_replay_page(request: Request, table_id: str, game_no: int) -> FileResponse:
    return await replay_page(request)


@router.get(
    "/api/tables/{table_id}/games/{game_no}/replay", responses=error_responses(400, 404, 409)
)
async def table_replay(
    request: Request,
    table_id: str,
    game_no: int,
    start: Annotated[int, Query(ge=0)] = 0,
    count: Annotated[int, Query(ge=0, le=MAX_VIEW_CHUNK)] = VIEW_CHUNK,
    steps: bool = True,
) -> JSONObject:
    service = _service(request)
    record = GameRecord.from_json(finished_record(service, service.room(table_id), game_no))
    # A replay takes some tens of milliseconds: off the loop that serves the tables.
    return await asyncio.to_thread(replay_json, record, start, count, steps)


@router.post("/api/replay", responses=error_responses(400, 413), openapi_extra=_RECORD_BODY)
async def replay_record(
    request: Request,
    start: Annotated[int, Query(ge=0)] = 0,
    count: Annotated[int, Query(ge=0, le=MAX_VIEW_CHUNK)] = VIEW_CHUNK,
    steps: bool = True,
) -> JSONObject:
    record = parse_record(await _json(request))
    return await asyncio.to_thread(replay_json, record, start, count, steps)


@router.post("/api/verify", responses=error_responses(400, 413), openapi_extra=_RECORD_BODY)
async def verify_record(request: Request) -> JSONObject:
    record = GameRecord.from_json(await _json(request))
    return await asyncio.to_thread(check_json, record)


@router.post("/api/forks", status_code=201, responses=error_responses(400, 404, 409, 413, 429, 503))
async def fork_game(request: Request, req: ForkRequest) -> JSONResponse:
    service = _service(request)
    try:
        room, seat, token = await fork(service, req, client_address(request))
    except InvalidConfig as exc:
        raise ServiceError("fork/invalid", str(exc)) from None
    body = {
        "table_id": room.id,
        "seat": seat,
        "token": token,
        "url": f"{service.public_url}/t/{room.id}",
        "fork": room.origin,
    }
    return JSONResponse(body, status_code=201)


async def _json(request: Request) -> object:
    """The body as JSON; ``record/invalid`` when it is not, or nests too deeply for a record."""
    try:
        return load_json(await request.body())
    except NestedTooDeeply as exc:
        raise InvalidRecord(f"the record is {exc}") from None
    except ValueError:
        raise InvalidRecord("the body must be a game record in JSON") from None
