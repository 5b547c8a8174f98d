"""Events keep what they were made with. ``Event(kind, data)`` copies ``data``;
``Event.fresh`` takes details that nobody else holds (the rules engines make their events so),
which must look the same from outside: nothing the engine, a state or a holder changes
afterwards reaches an event's data or its JSON form, data is read-only, and equality, pickling
and the JSON round trip treat both kinds of event alike."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import pytest

import racedeck
from racedeck.core.events import PUBLIC, RECORD, Event
from racedeck.core.frozen import thaw

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("why-first", {"players": 4}),
    ("why-first", {"players": 2}),
    ("why-first", {"players": 3, "variant": "tactical"}),
    ("six-day-race", {"players": 3, "races": 2}),
    ("setback", {"players": 4}),
]


def _games(seeds: int) -> Iterator[tuple[list[Any], list[Event]]]:
    """Random games through the checked path: every state of each and every event in order."""
    for game_id, config in GAMES:
        game = racedeck.make(game_id, **config)
        rng = random.Random(7)
        for seed in range(seeds):
            t = game.start(seed)
            states, events = [t.state], list(t.events)
            while t.state.pending:
                s = t.state
                seat = rng.choice(s.pending)
                t = game.step(s, seat, rng.choice(game.legal_actions(s, seat)))
                states.append(t.state)
                events += t.events
            yield states, events


def _scribble(states: list[Any]) -> None:
    """Change in place every list, dict and set the states hold, however deep."""
    seen: set[int] = set()
    todo: list[Any] = list(states)
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, list):
            todo += obj
            obj.append("scribbled")
        elif isinstance(obj, dict):
            todo += obj.values()
            obj["scribbled"] = "scribbled"
        elif isinstance(obj, set):
            obj.add("scribbled")
        elif isinstance(obj, tuple):
            todo += obj
        elif type(obj).__module__.startswith("racedeck.games."):
            # A state, or something kept in one (a rider's result, an action on a stack).
            names = [n for k in type(obj).__mro__ for n in getattr(k, "__slots__", ())]
            todo += [getattr(obj, n) for n in names if hasattr(obj, n)]
            todo += vars(obj).values() if hasattr(obj, "__dict__") else ()


def _text(event: Event) -> str:
    return json.dumps(event.to_json(), sort_keys=True)


def test_nothing_changed_after_an_engine_made_an_event_reaches_it() -> None:
    """Snapshots taken as each transition returns still hold at the end of the game, after
    the engine went on changing its own lists and after every list in every state of the game
    was changed as well. Half the events are read (frozen) at once, half only at the end."""
    checked = 0
    for states, events in _games(seeds=2):
        before = []
        for i, event in enumerate(events):
            if i % 2:
                _ = event.data
            before.append(_text(event))
        _scribble(states)
        for event, text in zip(events, before, strict=True):
            assert _text(event) == text
            obj = json.loads(text)
            assert {"kind": event.kind, **thaw(event.data)} == {
                k: v for k, v in obj.items() if k != "audience"
            }
            checked += 1
    assert checked > 1000


def test_engines_events_are_like_copied_events() -> None:
    """An event the engine made compares, prints, pickles and round-trips through JSON like
    ``Event(kind, data, audience)`` of the same details, before and after its data is read."""
    for _, events in _games(seeds=1):
        for event in events:
            obj = event.to_json()
            data = {k: v for k, v in obj.items() if k not in ("kind", "audience")}
            copied = Event(event.kind, data, event.audience)
            assert repr(event) == repr(copied)
            for _ in range(2):  # details not read yet, then read
                assert event == copied and copied == event
                assert Event.from_json(event.to_json()) == event
                again = pickle.loads(pickle.dumps(event))
                assert again == event and _text(again) == _text(event)
                assert event.data == copied.data
            assert type(event.data) is MappingProxyType
            with pytest.raises(TypeError):
                event.data["kind"] = "changed"  # type: ignore[index]
            with pytest.raises(AttributeError):
                event.kind = "changed"


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
