"""What clients may send, checked with Pydantic before anything else looks at it.

Every message from a socket is one JSON object of at most :data:`MAX_MESSAGE_BYTES` whose
``type`` picks its model; unknown fields are refused, so a typo is an error rather than a
silent no-op. HTTP request bodies have their own models here too.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from racedeck.core.errors import InvalidMessage
from racedeck.core.fairness import MAX_CLIENT_SEED

__all__ = [
    "MAX_MESSAGE_BYTES",
    "Act",
    "AgainRequest",
    "Back",
    "ClientMessage",
    "ClockRequest",
    "CreateTable",
    "Hello",
    "JoinRequest",
    "MessageTooLarge",
    "Ping",
    "SeatRequest",
    "parse_client_message",
]

MAX_MESSAGE_BYTES = 8192
"""Largest message a client may send (a WebSocket frame or an HTTP body), in bytes."""

MAX_NAME = 24
"""Longest display name, in characters."""


class MessageTooLarge(InvalidMessage):
    """A message over :data:`MAX_MESSAGE_BYTES` (``message/too-large``)."""

    code = "message/too-large"


class StrictModel(BaseModel):
    """A message model that refuses unknown fields and loose types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


ClientId = Annotated[str, Field(max_length=64)]
ClientSeed = Annotated[
    str, Field(min_length=1, max_length=MAX_CLIENT_SEED, pattern=r"^[\x21-\x7e]+$")
]
"""A seat's contribution to the deal: up to 64 printable ASCII characters, no spaces."""
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME, pattern=r"^[^\x00-\x1f\x7f]+$")]


class Hello(StrictModel):
    """The first message on a socket: a seat's token, or ``spectator: true``."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    spectator: bool = False


class Act(StrictModel):
    """An action for the socket's seat, answering the view of move number ``move``."""

    type: Literal["act"]
    move: Annotated[int, Field(ge=0)]
    action: dict[str, Any]
    id: ClientId | None = None


class Ping(StrictModel):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    id: ClientId | None = None


class Back(StrictModel):
    """ "I'm back": the seat's person plays again after a bot took over (a timeout)."""

    type: Literal["back"]
    id: ClientId | None = None


ClientMessage = Annotated[Hello | Act | Ping | Back, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Hello | Act | Ping | Back] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> Hello | Act | Ping | Back:
    """Parse and validate one socket message; raise :class:`InvalidMessage` (or
    :class:`MessageTooLarge`) saying what is wrong."""
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise MessageTooLarge(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise InvalidMessage("a message must be one JSON object") from None
    if not isinstance(obj, dict):
        raise InvalidMessage("a message must be one JSON object")
    try:
        return _CLIENT_MESSAGE.validate_python(obj)
    except ValidationError as exc:
        raise InvalidMessage(describe_validation(exc)) from None


def describe_validation(exc: ValidationError) -> str:
    """The first few problems of a validation error in one line of words."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "invalid message: " + "; ".join(parts)


# -- HTTP request bodies -------------------------------------------------------------------------


class SeatRequest(StrictModel):
    """One seat of a new table: a person, or a bot by name (``random``, ``heuristic``,
    ``search@N``)."""

    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(max_length=32)] | None = None


Seconds = Annotated[float, Field(ge=0, le=86400, allow_inf_nan=False)]


class ClockRequest(StrictModel):
    """The table's clock: a speed profile (``unlimited``, ``slow``, ``normal``, ``fast``,
    ``blitz``) or ``custom``, per-move time and bank in seconds (given: a custom clock), the
    disconnect grace in seconds (0: never) and the takeover bot. Checked further by
    :func:`racedeck.server.clocks.clock_options`."""

    profile: Annotated[str, Field(max_length=16)] | None = None
    move: Seconds | None = None
    bank: Seconds | None = None
    grace: Seconds | None = None
    bot: Annotated[str, Field(max_length=32)] | None = None


class CreateTable(StrictModel):
    """``POST /api/tables``: the game, its options, the seats, the clock; ``name`` and
    ``client_seed`` are the creator's."""

    game: Annotated[str, Field(max_length=64)]
    config: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=16)]
    clock: ClockRequest | None = None
    name: Name | None = None
    client_seed: ClientSeed | None = None


class JoinRequest(StrictModel):
    """``POST /api/tables/{id}/join``: a free seat (any when omitted), a display name and the
    seat's client seed for the deal."""

    seat: Annotated[int, Field(ge=0, le=15)] | None = None
    name: Name | None = None
    client_seed: ClientSeed | None = None


class AgainRequest(StrictModel):
    """``POST /api/tables/{id}/again``: a seated person's token and that seat's new client
    seed (optional)."""

    token: Annotated[str, Field(min_length=1, max_length=128)]
    client_seed: ClientSeed | None = None
