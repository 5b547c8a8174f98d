"""What clients may send, checked with Pydantic before anything else looks at it.

Every message from a socket is one JSON object of at most :data:`MAX_MESSAGE_BYTES` whose
``type`` picks its model; unknown fields are refused, so a typo is an error rather than a
silent no-op. HTTP request bodies have their own models here too. Nothing from outside may
nest deeper than :data:`MAX_DEPTH` (:func:`load_json`, :data:`JSONDict`): the code that walks a
value (Python's own parser among it) recurses, and a stranger must not choose how deep.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from racedeck.core import jsontext
from racedeck.core.errors import InvalidMessage
from racedeck.core.fairness import MAX_CLIENT_SEED

__all__ = [
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "MAX_MESSAGE_BYTES",
    "Act",
    "AgainRequest",
    "Back",
    "ClientMessage",
    "ClockRequest",
    "CreateTable",
    "Hello",
    "JSONDict",
    "JoinRequest",
    "MessageTooLarge",
    "NestedTooDeeply",
    "Ping",
    "SeatRequest",
    "load_json",
    "nesting_depth",
    "parse_client_message",
]

MAX_MESSAGE_BYTES = 8192
"""Largest message a client may send (a WebSocket frame or an HTTP body), in bytes."""

MAX_FRAME_BYTES = 1 << 20
"""Largest WebSocket frame the transport reads (uvicorn's ``ws_max_size``): a frame up to this
size over :data:`MAX_MESSAGE_BYTES` is read and refused with ``message/too-large``, the socket
kept open; a larger one makes the transport close the socket (1009, message too big), as
reading it would cost the server memory without bound."""

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects in anything from outside (a game record has 5 levels)."""

MAX_NAME = 24
"""Longest display name, in characters."""


class MessageTooLarge(InvalidMessage):
    """A message over :data:`MAX_MESSAGE_BYTES` (``message/too-large``)."""

    code = "message/too-large"


class NestedTooDeeply(ValueError):
    """A JSON value from outside nested deeper than :data:`MAX_DEPTH`."""

    def __init__(self) -> None:
        super().__init__(f"nested too deeply (at most {MAX_DEPTH} levels of arrays and objects)")


def nesting_depth(value: object, limit: int = MAX_DEPTH) -> int:
    """How deep ``value``'s arrays and objects nest (a scalar: 0), counting no further than one
    past ``limit``. Walked without recursion, so any depth Python holds is measured safely."""
    if not isinstance(value, dict | list | tuple):
        return 0
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Any = item.values() if isinstance(item, dict) else item
        deepest = max(deepest, depth)
        if depth > limit:
            break
        # Only containers go on the stack: a message is mostly scalars.
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list | tuple))
    return deepest


def load_json(text: str | bytes) -> object:
    """Parse JSON from outside: :class:`ValueError` when it is not JSON, and
    :class:`NestedTooDeeply` (a ``ValueError`` too) when it nests deeper than
    :data:`MAX_DEPTH` — :func:`json.loads` (which reads what orjson refuses) recurses and
    raises :class:`RecursionError` some thousand levels down, and what walks the value
    afterwards would fail sooner."""
    try:
        value = jsontext.loads(text)
    except RecursionError:
        raise NestedTooDeeply() from None
    # A value cannot nest deeper than its text has brackets: a message with few needs no walk.
    if isinstance(text, str):
        opening = text.count("{") + text.count("[")
    else:
        opening = text.count(b"{") + text.count(b"[")
    if opening > MAX_DEPTH and nesting_depth(value) > MAX_DEPTH:
        raise NestedTooDeeply()
    return value


def _shallow(value: dict[str, Any]) -> dict[str, Any]:
    if nesting_depth(value) > MAX_DEPTH:
        raise NestedTooDeeply()
    return value


JSONDict = Annotated[dict[str, Any], AfterValidator(_shallow)]
"""A JSON object from outside, refused when it nests deeper than :data:`MAX_DEPTH`."""


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
    """The first message on a socket: a seat's token, or ``spectator: true`` — not both, as
    a client that sends both has not said whether it means to play or to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    spectator: bool = False

    @model_validator(mode="after")
    def _one_way_in(self) -> Hello:
        if self.token is not None and self.spectator:
            raise ValueError("hello takes a token or spectator: true, not both")
        return self


class Act(StrictModel):
    """An action for the socket's seat, answering the view of move number ``move``."""

    type: Literal["act"]
    move: Annotated[int, Field(ge=0)]
    action: JSONDict
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
    # A character is one to four bytes: the length in characters settles most frames unencoded.
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise MessageTooLarge(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    try:
        obj = load_json(text)
    except NestedTooDeeply as exc:
        raise InvalidMessage(f"the message is {exc}") from None
    except ValueError:
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
    config: JSONDict = Field(default_factory=dict)
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
