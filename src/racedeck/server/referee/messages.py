"""What a referee is told (commands) and what it asks its interpreter to do (effects).

A :class:`~racedeck.server.referee.Referee` takes one command at a time with the time it
happens and returns effects, in the order they must be carried out: a :class:`Commit` before the
frames that show what it stored, so nobody sees a move that a crash could lose. Connections are
named by numbers the interpreter chooses; seats by their index, ``None`` for spectators.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from racedeck.core.jsontypes import JSONObject
from racedeck.store.tables import FinishedGame, SeatRow, StoredTable

__all__ = [
    "Act",
    "AskBot",
    "Automate",
    "Back",
    "BotAnswer",
    "CatchUp",
    "Command",
    "Commit",
    "Connect",
    "Disconnect",
    "Effect",
    "Everyone",
    "Join",
    "NewGame",
    "PlayAgain",
    "Presence",
    "Reload",
    "Send",
    "SetTimer",
    "TakeSeat",
    "TimerFired",
    "ToConn",
    "ToSeat",
    "Write",
]

# -- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """A person takes a free seat (``seat``: which, ``None``: the first free one)."""

    seat: int | None
    name: str | None
    client_seed: str | None
    token_hash: str


@dataclass(frozen=True, slots=True)
class Connect:
    """A socket authenticated as ``seat`` (``None``: a spectator) opened."""

    conn: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Socket ``conn`` closed."""

    conn: int


@dataclass(frozen=True, slots=True)
class Act:
    """A person's action from socket ``conn``: the move number it answers, the action's JSON
    form as sent, and the message id to acknowledge."""

    conn: int
    move: object
    action: object
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Back:
    """ "I'm back" from socket ``conn``."""

    conn: int
    id: str | None = None


@dataclass(frozen=True, slots=True)
class PlayAgain:
    """A seated person asks for the next game (``client_seed``: their new one, if any)."""

    seat: int
    client_seed: str | None


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """The answer to :class:`AskBot` number ``ask``."""

    ask: int
    action: JSONObject


@dataclass(frozen=True, slots=True)
class TimerFired:
    """The table's timer (:class:`SetTimer`) went off."""


@dataclass(frozen=True, slots=True)
class Presence:
    """The seats with a socket on another process serving the same database."""

    elsewhere: frozenset[int]


@dataclass(frozen=True, slots=True)
class Automate:
    """Whether this process plays the table's bots, forced moves, windows and clocks (one
    process does, when several serve one database)."""

    on: bool


@dataclass(frozen=True, slots=True)
class CatchUp:
    """Another process stored moves of the current game (from move ``start`` on) and the
    clock as it stands (``None``: unchanged)."""

    start: int
    actions: tuple[tuple[int, JSONObject], ...]
    clock: JSONObject | None = None


@dataclass(frozen=True, slots=True)
class Reload:
    """Another process changed the seats or dealt a new game: the table as stored."""

    stored: StoredTable


Command = (
    Join
    | Connect
    | Disconnect
    | Act
    | Back
    | PlayAgain
    | BotAnswer
    | TimerFired
    | Presence
    | Automate
    | CatchUp
    | Reload
)

# -- effects -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """Store a seat taken (:meth:`~racedeck.store.tables.TableStore.take_seat`)."""

    seat: int
    row: SeatRow
    status: str
    client_seeds: tuple[str, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class Append:
    """Store accepted action number ``idx``
    (:meth:`~racedeck.store.tables.TableStore.append_action`)."""

    game_no: int
    idx: int
    seat: int
    action: JSONObject
    status: str
    finished: FinishedGame | None
    next_server_seed: str
    clock: JSONObject


@dataclass(frozen=True, slots=True)
class SaveClock:
    """Store the current game's clock (with the sealed answers of an open window)."""

    game_no: int
    clock: JSONObject


@dataclass(frozen=True, slots=True)
class NewGame:
    """Store the next game's deal (:meth:`~racedeck.store.tables.TableStore.new_game`)."""

    game_no: int
    seed: int
    server_seed: str
    client_seeds: tuple[str, ...]
    clock: JSONObject


Write = TakeSeat | Append | SaveClock | NewGame


@dataclass(frozen=True, slots=True)
class Commit:
    """Store ``write``; the frames after it may show it only once it is stored."""

    write: Write


@dataclass(frozen=True, slots=True)
class ToConn:
    """One socket."""

    conn: int


@dataclass(frozen=True, slots=True)
class ToSeat:
    """Every socket of ``seat`` (``None``: every spectator)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class Everyone:
    """Every socket at the table, but ``skip``."""

    skip: int | None = None


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``frame`` to ``to``; ``acks`` maps sockets to the message id their copy
    acknowledges (``ack``)."""

    to: ToConn | ToSeat | Everyone
    frame: JSONObject
    acks: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Fire :class:`TimerFired` at ``at`` (``None``: no timer); replaces the table's timer."""

    at: float | None


@dataclass(frozen=True, slots=True)
class AskBot:
    """Ask bot ``bot`` for ``seat``'s decision from ``view`` (the seat's view as JSON); answer
    with :class:`BotAnswer` number ``ask``. ``seed`` drives the bot's own chance."""

    ask: int
    seat: int
    bot: str
    view: JSONObject
    seed: int
    meta: dict[str, Any] = field(default_factory=dict)


Effect = Commit | Send | SetTimer | AskBot
