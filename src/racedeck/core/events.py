"""Events: what happened in a resolution, why, and who may know it.

A transition returns its events (:class:`~racedeck.core.game.Transition`); states hold none.
Each event names its *audience*: everyone (``PUBLIC``), one seat (the seat's number), or
nobody but the record (``RECORD``). :func:`feed` filters a transition's events for one seat
or for spectators, so every face — terminal, server, bots — shows each seat exactly its share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from racedeck.core.frozen import freeze, freeze_owned, thaw
from racedeck.core.jsontypes import JSONObject

__all__ = ["PUBLIC", "RECORD", "Audience", "Event", "feed"]

Audience = int | str
"""Who may see an event: a seat number, :data:`PUBLIC` or :data:`RECORD`."""

PUBLIC: Final = "all"
"""Audience: every seat and every spectator."""
RECORD: Final = "record"
"""Audience: nobody at the table; kept in the record (and shown after the game)."""


class Event:
    """One fact about a resolution: a card revealed, a figure moved (clamped?), a stage scored.

    ``kind`` is a stable identifier (``"figure_moved"``); ``data`` holds JSON-ready details that
    UIs animate and narrate (each game's ``describe_event`` gives the words); ``audience`` says
    who may see it. Events are immutable: ``data`` is a read-only deep copy of what was given,
    so no view, feed or record can change what another holds. The rules engines make their
    events with :meth:`fresh`, which hands the details over instead of copying them.
    """

    __slots__ = ("_data", "audience", "kind")

    kind: str
    audience: Audience
    _data: Mapping[str, Any]

    def __init__(
        self, kind: str, data: Mapping[str, Any] | None = None, audience: Audience = PUBLIC
    ) -> None:
        if type(audience) is not int and audience != PUBLIC and audience != RECORD:
            raise ValueError(f"event audience must be a seat, {PUBLIC!r} or {RECORD!r}")
        # The slots' own setters (here and in fresh): object.__setattr__ looks each name up
        # first, and the checked path makes three or four events per move.
        _set_kind(self, kind)
        _set_audience(self, audience)
        _set_data(self, freeze(data) if data else _NO_DATA)

    @classmethod
    def fresh(cls, kind: str, data: dict[str, Any], audience: Audience = PUBLIC) -> Event:
        """The event ``Event(kind, data, audience)``, made without copying ``data`` now.

        For details built for this event alone, which the caller hands over: it keeps no
        reference to ``data`` or to anything inside it, and changes none of it afterwards (the
        rules engines build each event's details as a new dict of new lists). The read-only
        form is made when :attr:`data` is first read, and :meth:`to_json` copies straight from
        ``data``: the checked path makes three or four events per move, and many are never read
        (``Game.apply`` drops them all) or only turned into JSON. Seen from outside, the event
        is the same.
        """
        if type(audience) is not int and audience != PUBLIC and audience != RECORD:
            raise ValueError(f"event audience must be a seat, {PUBLIC!r} or {RECORD!r}")
        event = _new(cls)
        _set_kind(event, kind)
        _set_audience(event, audience)
        # A plain dict in the slot marks details not frozen yet; any other mapping is frozen
        # (copied) now, as the constructor does.
        _set_data(event, data if type(data) is dict else freeze(data) if data else _NO_DATA)
        return event

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("events are immutable")

    @property
    def data(self) -> Mapping[str, Any]:
        """The details, read-only (nested lists are tuples)."""
        data = self._data
        if type(data) is dict:
            # Handed over to :meth:`fresh` and read for the first time: frozen once, kept.
            data = freeze_owned(data)
            _set_data(self, data)
        return data

    @property
    def is_public(self) -> bool:
        """True when every seat and spectator may see this event."""
        return self.audience == PUBLIC

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (``None``: a spectator) may see this event."""
        return self.audience == PUBLIC or (seat is not None and self.audience == seat)

    def to_json(self) -> JSONObject:
        """Return the JSON form ``{"kind": ..., **data}``, with ``"audience"`` unless public."""
        out: JSONObject = {"kind": self.kind, **thaw(self._data)}
        if self.audience != PUBLIC:
            out["audience"] = self.audience
        return out

    @classmethod
    def from_json(cls, obj: JSONObject) -> Event:
        """Parse the JSON form made by :meth:`to_json`."""
        data = dict(obj)
        kind = data.pop("kind", None)
        if not isinstance(kind, str):
            raise ValueError(f"event kind must be a string, got {kind!r}")
        audience = data.pop("audience", PUBLIC)
        if type(audience) is not int and audience not in (PUBLIC, RECORD):
            raise ValueError(f"event audience must be a seat, {PUBLIC!r} or {RECORD!r}")
        return cls(kind, data, audience)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.audience == other.audience
            and thaw(self._data) == thaw(other._data)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        to = "" if self.audience == PUBLIC else f", audience={self.audience!r}"
        return f"Event({self.kind!r}, {thaw(self._data)!r}{to})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.kind, thaw(self._data), self.audience))


_set_kind = vars(Event)["kind"].__set__
_set_audience = vars(Event)["audience"].__set__
_set_data = vars(Event)["_data"].__set__
_new = object.__new__
_NO_DATA: Mapping[str, Any] = freeze({})


def feed(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The events ``seat`` may see (``None``: what spectators may see), in order."""
    return tuple(
        e for e in events if e.audience == PUBLIC or (seat is not None and e.audience == seat)
    )
