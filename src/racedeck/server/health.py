"""``GET /healthz``: is this process serving, and does its database answer?

A load balancer or an orchestrator asks it every few seconds, so it costs one trivial query
(``SELECT 1``, off the event loop, bounded by :data:`DATABASE_SECONDS`) and nothing else. The
answer is 200 with :class:`Health`, or 503 in the error shape: ``server/stopping`` once the
service stops (take it out of rotation: its sockets are being closed), ``database/unavailable``
when the query fails or does not answer in time. A process answers only once it has loaded
every table: uvicorn opens its port after the application has started.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, text

from racedeck.server.logs import log
from racedeck.server.rooms import ServiceError
from racedeck.server.service import TableService

__all__ = ["DATABASE_SECONDS", "Health", "health"]

DATABASE_SECONDS = 2.0
"""How long the database has to answer ``SELECT 1``: a probe must not hang with it."""


class Health(BaseModel):
    """A healthy process: what it holds, and that its database answered."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["ok"]
    tables: Annotated[int, Field(description="tables this process holds")]
    database: Literal["ok"]


async def health(service: TableService) -> Health:
    """The health of ``service`` (see the module docstring); raises the 503 refusals."""
    service.refuse_if_stopping()
    try:
        answer = asyncio.to_thread(_select_one, service.store.engine)
        await asyncio.wait_for(answer, DATABASE_SECONDS)
    except Exception as exc:
        why = str(exc) or type(exc).__name__  # a timeout says nothing by itself
        log.warning("health check: the database does not answer: %s", why)
        raise ServiceError(
            "database/unavailable", "the server's database does not answer", 503
        ) from None
    return Health(status="ok", tables=len(service.rooms), database="ok")


def _select_one(engine: Engine) -> None:
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
