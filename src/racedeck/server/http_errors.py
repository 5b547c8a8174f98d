"""Every HTTP refusal in one shape: ``{"error": {"code": "...", "message": "..."}}``.

The service's own refusals (:class:`~racedeck.core.errors.RacedeckError`), what the web layer
refuses before any route runs (no such path, a method the path does not take, a body that does
not parse or validate, one too large) and any failure of the server itself all answer it, each
with a stable code from ``docs/protocol.md``; a failure is logged here with its traceback and
answered without one. :func:`install` puts the handlers on an application, and
:func:`error_responses` declares the shape in its OpenAPI description, route by route.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from racedeck.core.errors import RacedeckError
from racedeck.server.messages import NestedTooDeeply
from racedeck.server.rooms import ServiceError

__all__ = [
    "ErrorBody",
    "ErrorDetail",
    "error_response",
    "error_responses",
    "install",
]

log = logging.getLogger("racedeck.server")

_STATUS = {
    "auth/invalid": 403,
    "config/invalid": 400,
    "message/invalid": 400,
    "message/too-large": 413,
}
"""The HTTP status of a :class:`RacedeckError` that is no :class:`ServiceError` (400 if not
named here)."""

_HTTP_CODES = {
    400: "message/invalid",
    404: "http/not-found",
    405: "http/method-not-allowed",
    413: "message/too-large",
}
"""The code of a refusal by the web layer itself (a Starlette ``HTTPException``), by status;
any other status is ``http/error``."""

_DESCRIPTIONS = {
    400: "refused as malformed (`message/invalid`) or not possible as asked "
    "(`config/invalid`, `clock/invalid`, `seat/invalid`, `record/invalid`, `fork/invalid`)",
    403: "the token holds no seat here (`auth/invalid`)",
    404: "no such table or game (`table/not-found`, `game/not-found`), or nothing at this path "
    "(`http/not-found`)",
    409: "not now: `table/full`, `seat/taken`, `game/not-over`, `fork/again`",
    413: "the body is too large (`message/too-large`)",
    429: "too many tables were created from this address lately (`table/rate-limited`)",
    500: "the server failed (`server/error`)",
    503: "the server holds all the tables it can (`server/full`), or it is stopping "
    "(`server/stopping`: try again in a few seconds)",
}


class ErrorDetail(BaseModel):
    """What was refused: a stable ``code`` for programs, a ``message`` for people."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(pattern=r"^[a-z]+/[a-z-]+$")]
    message: str


class ErrorBody(BaseModel):
    """The body of every HTTP refusal (``docs/schemas/protocol/http-error.json``)."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail


def error_response(
    code: str, message: str, status: int, headers: dict[str, str] | None = None
) -> JSONResponse:
    """A refusal with ``code`` and ``message`` and the HTTP ``status``."""
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with ``statuses``: each the
    error shape, described with the codes it may carry."""
    return {
        status: {"model": ErrorBody, "description": _DESCRIPTIONS[status]} for status in statuses
    }


def install(app: FastAPI) -> None:
    """Answer every refusal and failure of ``app`` in the error shape, and declare the shape
    instead of FastAPI's own validation error (status 422, which ``app`` never answers) in its
    OpenAPI description."""
    app.add_exception_handler(RacedeckError, _racedeck_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(HTTPException, _http_error)
    # Starlette answers this one last, outside every middleware, then raises it again for the
    # server's own log: no failure anywhere answers a traceback.
    app.add_exception_handler(Exception, _failure)
    _describe_without_422(app)


async def _racedeck_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RacedeckError)
    status = exc.status if isinstance(exc, ServiceError) else _STATUS.get(exc.code, 400)
    return error_response(exc.code, str(exc), status)


async def _invalid_request(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    parts = []
    for err in list(exc.errors())[:3]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return error_response("message/invalid", "invalid request: " + "; ".join(parts), 400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    headers = dict(exc.headers or {})
    if status < 400:
        # Not a refusal (an unchanged static file, say): no body, as Starlette answers it.
        return Response(status_code=status, headers=headers)
    code = _HTTP_CODES.get(status, "http/error")
    path = request.url.path
    if status == 404:
        message = f"there is nothing at {path}"
    elif status == 405:
        allowed = headers.get("Allow") or headers.get("allow")
        message = f"{request.method} is not allowed at {path}" + (
            f"; it takes {allowed}" if allowed else ""
        )
    elif status == 400 and isinstance(exc.__cause__, RecursionError):
        # FastAPI reads a JSON body with json.loads, which gives up a thousand levels down.
        message = f"the body is {NestedTooDeeply()}"
    elif status == 400:
        message = "the body could not be read as JSON"
    elif status == 413:
        message = "the request body is too large"
    else:
        message = f"the request was refused (HTTP {status})"
    return error_response(code, message, status, headers)


async def _failure(request: Request, exc: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    # The server closes the connection after a failure it is told of: said so, no client
    # sends its next request down a connection that is going away.
    return error_response(
        "server/error", "the server failed on this request", 500, {"Connection": "close"}
    )


def _describe_without_422(app: FastAPI) -> None:
    """Drop the validation error FastAPI declares on every route with parameters: the
    refusal is 400 ``message/invalid`` in the error shape here."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = make()
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                if isinstance(operation, dict):
                    operation.get("responses", {}).pop("422", None)
        components = schema.get("components", {}).get("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
