"""Frames for the wire: each transition's events put into words once, each frame encoded once.

After every transition the service sends each seat its own view and feed. Most of a feed is
public, the same events for every seat, so :class:`EventFeeds` makes each event's JSON (with the
game's words for it) once per transition and hands every recipient the ones it may see.
:func:`encode` is the one place a frame becomes text for a socket.
"""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.core.jsontext import dumps
from racedeck.core.jsontypes import JSONObject
from racedeck.core.table import Table
from racedeck.server.live import events_json

__all__ = ["EventFeeds", "encode"]


def encode(frame: JSONObject) -> str:
    """``frame`` as compact JSON text (:func:`racedeck.core.jsontext.dumps`)."""
    return dumps(frame)


class EventFeeds:
    """The feeds of one transition: ``for_seat(seat)`` is :func:`events_json` of the events
    ``seat`` may see (``None``: spectators), each event worded once for all recipients.

    The lists handed out share their event objects: frames are only read after this, by the
    encoder and the frame observers.
    """

    def __init__(self, table: Table, events: Sequence[Event], names: Sequence[str]) -> None:
        self._table = table
        self._events = events
        self._names = names
        self._worded: dict[int, JSONObject] = {}
        self._feeds: dict[int | None, list[JSONObject]] = {}

    def for_seat(self, seat: int | None) -> list[JSONObject]:
        """The JSON feed ``seat`` receives for this transition."""
        feed = self._feeds.get(seat)
        if feed is None:
            feed = []
            for i, event in enumerate(self._events):
                if not event.visible_to(seat):
                    continue
                obj = self._worded.get(i)
                if obj is None:
                    obj = events_json(self._table, (event,), seat, self._names)[0]
                    self._worded[i] = obj
                feed.append(obj)
            self._feeds[seat] = feed
        return feed
