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
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, suppress
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from racedeck.core.errors import AuthError, InvalidMessage, RacedeckError
from racedeck.rulebook import UnknownRules
from racedeck.server import catalog, http_errors
from racedeck.server.cluster import SWEEP_SECONDS
from racedeck.server.frames import encode
from racedeck.server.health import Health, health
from racedeck.server.http_errors import ErrorBody, error_response, error_responses
from racedeck.server.limits import Limits, client_address
from racedeck.server.logs import table_log
from racedeck.server.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    AgainRequest,
    Back,
    CreateTable,
    Hello,
    JoinRequest,
    MessageTooLarge,
    Ping,
    describe_validation,
    load_json,
    parse_client_message,
)
from racedeck.server.metrics import CONTENT_TYPE, Metrics
from racedeck.server.replays import MAX_RECORD_BYTES, RECORD_PATHS
from racedeck.server.replays import router as replay_router
from racedeck.server.rooms import (
    FLOOD_LIMIT,
    RATE_BURST,
    RATE_PER_SECOND,
    Connection,
    ServiceError,
)
from racedeck.server.rules_page import not_found_html, rules_html
from racedeck.server.service import TableService
from racedeck.server.timekeeper import Timekeeper
from racedeck.store.tables import DEFAULT_TABLES_DB, TableStore

__all__ = ["HELLO_TIMEOUT", "RESTART_CLOSE", "RESTART_REASON", "create_app"]

HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to say ``hello``."""

RESTART_CLOSE = 1012
"""The WebSocket close code of a stopping server (*service restart*): reconnect."""
RESTART_REASON = "the server is restarting"
"""The close reason that goes with :data:`RESTART_CLOSE`."""

WRITER_SECONDS = 1.0
"""How long a socket the server closed has to send what is queued on it."""

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
) -> FastAPI:
    """The application over the database ``db`` (a path or an SQLAlchemy URL).

    ``bot_pool`` is ``"process"`` (bots decide in worker processes) or ``"thread"``;
    ``bot_delay`` is a pause in seconds before each bot move, so people can follow the play;
    ``rate`` and ``burst`` bound the messages a socket may send (per second, and at once);
    ``clock`` is the tables' time (real time unless a test simulates it); ``seeds`` makes the
    secret server seeds (random unless a test fixes them); ``sweep`` the seconds between a
    process's tries to take the tables nobody automates (several processes on PostgreSQL);
    ``limits`` what strangers may do (:class:`~racedeck.server.limits.Limits`).
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
        yield
        await service.close()

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
        await websocket.accept()
        try:
            service.refuse_if_stopping()  # at once, rather than after the hello
        except ServiceError as exc:
            await _refuse(websocket, service.metrics, exc.code, str(exc))
            return
        room = service.find(table_id)
        if room is None:
            await _refuse(
                websocket, service.metrics, "table/not-found", f"there is no table {table_id!r}"
            )
            return
        try:
            text = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
            hello = parse_client_message(text)
            if not isinstance(hello, Hello):
                raise AuthError("the first message must be hello")
            if hello.token is None and not hello.spectator:
                raise AuthError("hello needs a token, or spectator: true")
            conn = await service.connect(room, hello.token)
        except (TimeoutError, WebSocketDisconnect):
            with suppress(Exception):
                await websocket.close()
            return
        except RacedeckError as exc:
            await _refuse(websocket, service.metrics, exc.code, str(exc))
            return
        writer = asyncio.create_task(_write(websocket, conn, service))
        try:
            await _read(websocket, service, conn)
        except WebSocketDisconnect:
            pass
        finally:
            # Closed by the server (the server stopping, say): the writer has what was queued
            # before the close to send first.
            closed_here = conn.closed
            await service.disconnect(conn)
            if closed_here:
                await asyncio.wait({writer}, timeout=WRITER_SECONDS)
            writer.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await writer

    return app


async def _receive_text(websocket: WebSocket) -> str:
    """The next message as text; a binary frame is refused as ``message/invalid``."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        if len(message.get("bytes") or b"") > MAX_MESSAGE_BYTES:
            raise MessageTooLarge(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
        raise InvalidMessage("messages are JSON text, not binary")
    return str(text)


async def _refuse(websocket: WebSocket, metrics: Metrics, code: str, message: str) -> None:
    """Refuse a socket before it is greeted: one ``error``, then the close (a stopping server's
    is "service restart", so the client reconnects)."""
    metrics.error(code, "socket")
    with suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        if code == "server/stopping":
            await websocket.close(code=RESTART_CLOSE, reason=RESTART_REASON)
        else:
            await websocket.close(code=1008)


async def _write(websocket: WebSocket, conn: Connection, service: TableService) -> None:
    """Send the socket's outbox in order; a ``None`` closes the socket."""
    while True:
        frame = await conn.outbox.get()
        if frame is None:
            code, reason = (1008 if not conn.closed else 1000), None
            if service.stopping:
                code, reason = RESTART_CLOSE, RESTART_REASON
            with suppress(Exception):
                await websocket.close(code=code, reason=reason)
            return
        await websocket.send_text(encode(frame))


async def _read(websocket: WebSocket, service: TableService, conn: Connection) -> None:
    """Read messages until the socket closes; each one is validated before it is looked at."""
    while not conn.closed:
        try:
            text = await _receive_text(websocket)
        except InvalidMessage as exc:
            if conn.allow():
                service.send_error(conn, exc, None)
            continue
        if not conn.allow():
            _dropped(service, conn, text)
            continue
        try:
            msg = parse_client_message(text)
        except InvalidMessage as exc:
            service.send_error(conn, exc, None)
            continue
        except ValidationError as exc:  # pragma: no cover - parse_client_message wraps these
            service.send_error(conn, InvalidMessage(describe_validation(exc)), None)
            continue
        if isinstance(msg, Act):
            try:
                await service.act(conn, msg)
            except Exception:
                table_log(conn.room.id).exception("an action failed")
                service.send_error(
                    conn,
                    ServiceError("server/error", "the server failed on this message", 500),
                    msg.id,
                )
        elif isinstance(msg, Ping):
            service.pong(conn, msg.id)
        elif isinstance(msg, Back):
            await service.back(conn, msg.id)
        else:
            service.send_error(conn, InvalidMessage("already greeted: hello comes once"), None)


def _dropped(service: TableService, conn: Connection, text: str) -> None:
    """A message over the socket's rate is dropped. One with an ``id`` is answered with it, so
    its sender knows which one to send again; the others are answered at most once a second
    (:meth:`TableService.flooded`, which also closes a socket that keeps on)."""
    client_id = _client_id(text)
    if client_id is None or conn.dropped > FLOOD_LIMIT:
        service.flooded(conn)
        return
    error = ServiceError(
        "message/rate-limited",
        f"too many messages: this one was dropped; wait and send it again (at most "
        f"{conn.rate:g} a second on average, {conn.burst:g} at once)",
        429,
    )
    service.send_error(conn, error, client_id)


def _client_id(text: str) -> str | None:
    """The ``id`` a message gives itself, if it is a JSON object of the allowed size with an
    ``id`` text of the allowed length (nothing else of it is acted on)."""
    if len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        obj = load_json(text)
    except ValueError:
        return None
    client_id = obj.get("id") if isinstance(obj, dict) else None
    return client_id if isinstance(client_id, str) and len(client_id) <= 64 else None


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
