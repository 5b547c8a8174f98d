"""Frames are encoded as the standard library would encode them, and each transition's events
are worded once for every recipient, each recipient getting exactly its own feed."""

from __future__ import annotations

import json

from racedeck.core.events import PUBLIC, Event
from racedeck.core.registry import get_spec
from racedeck.core.table import Table
from racedeck.server.frames import EventFeeds, encode
from racedeck.server.live import events_json


def test_encode_reads_back_as_the_standard_encoder_writes() -> None:
    frame = {
        "type": "update",
        "view": {"scores": {0: 1.5, 1: -2}, "name": "Zoë", "cards": (1, 2, 3), "none": None},
        "big": 2**70,
    }
    assert json.loads(encode(frame)) == json.loads(json.dumps(frame))
    assert json.loads(encode({"seat": 2, "ok": True})) == {"seat": 2, "ok": True}


def test_each_seat_gets_its_feed_and_public_events_are_worded_once() -> None:
    spec = get_spec("why-first")
    table = Table(spec.factory(spec.make_config(players=3)), seed=5)
    public = table.history[0][1] or (Event("figure_moved", {"seat": 0}, PUBLIC),)
    events = (*public, Event("card_drawn", {"card": 3}, 1), Event("secret", {}, "record"))
    names = ["Ann", "Bo", "Cy"]
    feeds = EventFeeds(table, events, names)
    for seat in (0, 1, 2, None):
        assert feeds.for_seat(seat) == events_json(table, events, seat, names)
    # A public event is one object in every recipient's feed: worded once.
    assert feeds.for_seat(0)[0] is feeds.for_seat(2)[0] is feeds.for_seat(None)[0]
    assert not any(e.get("audience") == "record" for e in feeds.for_seat(1))
    assert any(e["kind"] == "card_drawn" for e in feeds.for_seat(1))
    assert not any(e["kind"] == "card_drawn" for e in feeds.for_seat(0))
    assert not any(e["kind"] == "card_drawn" for e in feeds.for_seat(None))
