"""Events keep what they were made with. ``Event(kind, data)`` copies ``data``;
``Event.fresh`` takes details that nobody else holds, which must look the same from outside:
what to_json gives back is the holder's own, data is read-only, and equality, pickling and the
JSON round trip treat both kinds of event alike."""

from __future__ import annotations

import pickle
from types import MappingProxyType
from typing import Any

import pytest

from racedeck.core.events import PUBLIC, RECORD, Event


def test_a_fresh_event_reads_like_a_copied_one() -> None:
    details: dict[str, Any] = {"seat": 2, "cards": [[1, 2], [3]], "play": {"card": "MOVE+1"}}
    fresh = Event.fresh("dealt", details, 2)
    assert fresh.data["cards"] == ((1, 2), (3,))
    assert type(fresh.data["play"]) is MappingProxyType
    assert fresh.to_json() == {
        "kind": "dealt",
        "seat": 2,
        "cards": [[1, 2], [3]],
        "play": {"card": "MOVE+1"},
        "audience": 2,
    }
    # What to_json and thaw give back is the holder's own to change.
    fresh.to_json()["cards"].append([9])
    assert fresh.to_json()["cards"] == [[1, 2], [3]]
    # Any mapping other than a plain dict is copied at once, as Event() does.
    proxy = MappingProxyType({"seat": 1})
    assert Event.fresh("x", proxy).data == {"seat": 1}  # type: ignore[arg-type]
    assert Event.fresh("x", {}).data == {} and Event.fresh("x", {}).to_json() == {"kind": "x"}
    assert Event.fresh("x", {}, RECORD).audience == RECORD
    assert Event.fresh("x", {}).audience == PUBLIC
    with pytest.raises(ValueError):
        Event.fresh("x", {}, "everyone")


def test_an_event_made_from_a_dict_keeps_its_own_copy() -> None:
    details: dict[str, Any] = {"seat": 1, "values": [3, 4], "more": {"cards": [1]}}
    event = Event("chosen", details)
    details["seat"] = 9
    details["values"].append(5)
    details["more"]["cards"].clear()
    assert event.to_json() == {
        "kind": "chosen",
        "seat": 1,
        "values": [3, 4],
        "more": {"cards": [1]},
    }
    assert event.data["values"] == (3, 4)


def test_fresh_and_copied_events_compare_pickle_and_round_trip_alike() -> None:
    details = {"by": 1, "cards": [{"value": 3, "targets": [0, 2]}], "clamped": False}
    copied = Event("cards_revealed", details, 1)
    for read in (False, True):
        fresh = Event.fresh(
            "cards_revealed", {**details, "cards": [{"value": 3, "targets": [0, 2]}]}, 1
        )
        if read:
            assert fresh.data == copied.data
        assert fresh == copied and copied == fresh and repr(fresh) == repr(copied)
        assert Event.from_json(fresh.to_json()) == fresh
        assert pickle.loads(pickle.dumps(fresh)) == copied
