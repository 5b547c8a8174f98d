"""The web application: HTTP routes for the lobby and tables, the WebSocket, the static shell,
and the operator's ``/healthz`` and ``/metrics``.

``create_app`` builds it around a :class:`~racedeck.server.service.TableService`; see
``docs/protocol.md`` for every message and error code, ``docs/deploy.md`` for the operator's
routes.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from racedeck.rulebook import UnknownRules
from racedeck.server import catalog, http_errors
from racedeck.server.cluster import SWEEP_SECONDS
from racedeck.server.collector import Collector
from racedeck.server.health import Health, health
from racedeck.server.http_errors import ErrorBody, error_response, error_responses
from racedeck.server.limits import Limits, client_address
from racedeck.server.messages import (
    MAX_MESSAGE_BYTES,
    AgainRequest,
    CreateTable,
    JoinRequest,
)
from racedeck.server.metrics import CONTENT_TYPE, Metrics
from racedeck.server.replays import MAX_RECORD_BYTES, RECORD_PATHS
from racedeck.server.replays import router as replay_router
from racedeck.server.rooms import (
    RATE_BURST,
    RATE_PER_SECOND,
)
from racedeck.server.rules_page import not_found_html, rules_html
from racedeck.server.service import TableService
from racedeck.server.timekeeper import Timekeeper, pause
from racedeck.server.websocket import HELLO_TIMEOUT, RESTART_CLOSE, RESTART_REASON, serve_socket
from racedeck.store.tables import DEFAULT_TABLES_DB, TableStore

__all__ = ["HELLO_TIMEOUT", "RESTART_CLOSE", "RESTART_REASON", "create_app"]

_UNHEALTHY: dict[str, Any] = {
    "model": ErrorBody,
    "description": "the server is stopping (`server/stopping`) or its database does not answer "
    "(`database/unavailable`)",
}
"""``/healthz``'s refusal in the OpenAPI description."""

_METRICS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "every metric in the Prometheus text format (docs/deploy.md)",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}
"""``/metrics``' answer in the OpenAPI description: text, not JSON."""

STATIC = Path(str(files("racedeck.server") / "static"))
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the web app manifest

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuses HTTP bodies over :data:`MAX_MESSAGE_BYTES` (``message/too-large``, 413) before
    the application reads them."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        # A game record (replay, check, fork) is larger than any other message.
        limit = MAX_RECORD_BYTES if scope["path"] in RECORD_PATHS else MAX_MESSAGE_BYTES
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                self.metrics.error("message/too-large", "http")
                response = error_response(
                    "message/too-large",
                    f"a request body may hold at most {limit} bytes",
                    413,
                )
                await response(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def create_app(
    db: str | Path = DEFAULT_TABLES_DB,
    *,
    bot_pool: str = "process",
    bot_workers: int = 2,
    bot_delay: float = 0.0,
    public_url: str = "",
    rate: float = RATE_PER_SECOND,
    burst: float = RATE_BURST,
    clock: Timekeeper | None = None,
    seeds: Callable[[], str] | None = None,
    sweep: float = SWEEP_SECONDS,
    limits: Limits | None = None,
    collector: Collector | None = None,
) -> FastAPI:
    """The application over the database ``db`` (a path or an SQLAlchemy URL).

    ``bot_pool`` is ``"process"`` (bots decide in worker processes) or ``"thread"``;
    ``bot_delay`` is a pause in seconds before each bot move, so people can follow the play;
    ``rate`` and ``burst`` bound the messages a socket may send (per second, and at once);
    ``clock`` is the tables' time (real time unless a test simulates it); ``seeds`` makes the
    secret server seeds (random unless a test fixes them); ``sweep`` the seconds between a
    process's tries to take the tables nobody automates (several processes on PostgreSQL);
    ``limits`` what strangers may do (:class:`~racedeck.server.limits.Limits`);
    ``collector`` when to freeze and collect Python's garbage (``racedeck serve`` gives one:
    see :mod:`racedeck.server.collector`; the process's collector is left alone without).
    """
    service = TableService(
        TableStore(db),
        bot_pool=bot_pool,
        bot_workers=bot_workers,
        bot_delay=bot_delay,
        public_url=public_url,
        rate=rate,
        burst=burst,
        clock=clock,
        sweep=sweep,
        limits=limits,
        **({"seeds": seeds} if seeds is not None else {}),
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        collecting = None
        if collector is not None:
            collecting = asyncio.get_running_loop().create_task(collect(collector))
        yield
        if collecting is not None:
            collecting.cancel()
        await service.close()

    async def collect(collector: Collector) -> None:
        while True:
            await pause(service.clock, collector.freeze_every)
            collector.tick(service.clock.now())

    # Any route may fail; each declares the refusals it makes besides.
    app = FastAPI(
        title="racedeck",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=error_responses(500),
    )
    app.state.service = service
    app.add_middleware(BodyLimit, metrics=service.metrics)
    http_errors.install(app)
    _count_refusals(app, service.metrics)

    # -- pages --------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}/watch", include_in_schema=False)
    async def watch_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        # Where browsers and feed readers look first; the pages name the SVG icon.
        return FileResponse(STATIC / "favicon.ico", headers={"Cache-Control": "max-age=86400"})

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str, lang: str = "en") -> HTMLResponse:
        # A language without summaries (or a mistyped one) gets the full English page.
        try:
            return HTMLResponse(rules_html(game_id, lang), headers={"Cache-Control": "no-cache"})
        except UnknownRules:
            return HTMLResponse(not_found_html(game_id), status_code=404)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(replay_router)

    # -- the API ------------------------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return catalog.games()

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        return catalog.lobby(service)

    @app.post("/api/tables", status_code=201, responses=error_responses(400, 413, 429, 503))
    async def create_table(req: CreateTable, request: Request) -> JSONResponse:
        room, seat, token = await service.create(req, client_address(request))
        info = service.info(room)
        body = {
            "table_id": room.id,
            "invite_url": info["invite_url"],
            "seat": seat,
            "token": token,
            "table": info,
        }
        return JSONResponse(body, status_code=201)

    @app.get("/api/tables/{table_id}", responses=error_responses(404))
    async def table(table_id: str) -> dict[str, Any]:
        return service.info(service.room(table_id))

    @app.get("/api/tables/{table_id}/record", responses=error_responses(404, 409))
    async def record(table_id: str) -> dict[str, Any]:
        return catalog.record(service, table_id)

    @app.post("/api/tables/{table_id}/join", responses=error_responses(400, 404, 409, 413, 503))
    async def join(table_id: str, req: JoinRequest) -> dict[str, Any]:
        seat, token = await service.join(table_id, req)
        return {"table_id": table_id, "seat": seat, "token": token}

    @app.post(
        "/api/tables/{table_id}/again", responses=error_responses(400, 403, 404, 409, 413, 503)
    )
    async def again(table_id: str, req: AgainRequest) -> dict[str, Any]:
        game_no = await service.again(table_id, req.token, req.client_seed)
        return {"table_id": table_id, "game_no": game_no}

    @app.get("/api/tables/{table_id}/games", responses=error_responses(404))
    async def finished_games(table_id: str) -> dict[str, Any]:
        room = service.room(table_id)
        return {"table_id": table_id, "games": catalog.finished_games(service, room)}

    @app.get(
        "/api/tables/{table_id}/games/{game_no}/record",
        responses=error_responses(400, 404, 409),
    )
    async def finished_record(table_id: str, game_no: int) -> JSONResponse:
        record = catalog.finished_record(service, service.room(table_id), game_no)
        name = f"racedeck-{table_id}-game-{game_no}.json"
        return JSONResponse(
            record, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    # -- for the operator -------------------------------------------------------------------------

    @app.get("/healthz", responses={503: _UNHEALTHY})
    async def healthz() -> Health:
        return await health(service)

    @app.get("/metrics", response_class=Response, responses=_METRICS)
    async def metrics() -> Response:
        return Response(service.metrics.exposition(), media_type=CONTENT_TYPE)

    # -- the socket -----------------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(websocket, service, table_id)

    return app


def _count_refusals(app: FastAPI, metrics: Metrics) -> None:
    """Count every HTTP refusal and failure ``app`` answers (:mod:`.http_errors`' handlers) by
    its code."""
    for key, handler in list(app.exception_handlers.items()):
        app.exception_handlers[key] = _counting(handler, metrics)


def _counting(
    handler: Callable[[Request, Exception], Response | Awaitable[Response]], metrics: Metrics
) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def counted(request: Request, exc: Exception) -> Response:
        answered = handler(request, exc)
        response = await answered if inspect.isawaitable(answered) else answered
        # FastAPI's handler of a socket's invalid parameters answers nothing: passed through.
        if isinstance(response, JSONResponse) and response.status_code >= 400:
            metrics.error(_code_of(response), "http")
        return response

    return counted


def _code_of(response: JSONResponse) -> str:
    """A refusal's code, read back from its body: the one place every refusal's code is,
    whatever raised it (``http/error`` for a body not in the error shape)."""
    body = json.loads(bytes(response.body))
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else "http/error"
