"""Records from strangers: whatever is wrong with one, reading or replaying it raises
:class:`InvalidRecord` (``record/invalid``) saying what, never another exception."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import racedeck
from racedeck.core import GameRecord, Table, replay
from racedeck.core.errors import InvalidRecord


def _record(game_id: str, actions: int = 8) -> dict[str, Any]:
    """A real record of ``actions`` random legal actions, as JSON."""
    table = Table(racedeck.make(game_id), 3, meta={"test": "records"})
    rng = random.Random(3)
    for _ in range(actions):
        seat = table.pending[0]
        table.submit(seat, rng.choice(table.game.legal_actions(table.state, seat)))
    obj: dict[str, Any] = json.loads(json.dumps(table.record.to_json()))
    return obj


def _reads_and_replays(obj: Any) -> None:
    """Everything a reader does with a record: parse, make the game, replay, rebuild a table."""
    record = GameRecord.from_json(obj)
    list(replay(record))
    Table.from_record(record)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(obj: dict[str, Any]) -> None:
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda obj: obj.pop(key)


BREAKAGES = {
    "unknown game": (_set(("game",), "chess"), "unknown game 'chess'"),
    "game not text": (_set(("game",), 3), "'game'"),
    "other rules version": (_set(("rules_version",), "0"), "rules 0"),
    "missing seed": (_drop("seed"), "'seed'"),
    "seed not an integer": (_set(("seed",), "3"), "'seed'"),
    "missing config": (_drop("config"), "'config'"),
    "config not an object": (_set(("config",), [1]), "'config'"),
    "wrong-typed config": (_set(("config", "players"), "three"), "players"),
    "unknown option": (_set(("config", "no_such_option"), 1), "unknown option"),
    "actions not a list": (_set(("actions",), {"0": 1}), "'actions'"),
    "action not an object": (_set(("actions", 0), [0, "x"]), "action 0"),
    "seat not an integer": (_set(("actions", 1, "seat"), "0"), "action 1"),
    "seat out of range": (_set(("actions", 1, "seat"), 9), "action 1"),
    "seat a bool": (_set(("actions", 1, "seat"), True), "action 1"),
    "unknown action type": (_set(("actions", 2, "action"), {"type": "teleport"}), "action 2"),
    "action without type": (_set(("actions", 2, "action"), {}), "action 2"),
    "action of wrong shape": (
        _set(("actions", 2, "action"), {"type": "play", "card": [1], "value": {}, "lane": "x"}),
        "action 2",
    ),
    "meta not an object": (_set(("meta",), "names"), "'meta'"),
    "other format": (_set(("format",), 2), "format"),
}


@pytest.mark.parametrize("game_id", racedeck.available_games())
@pytest.mark.parametrize("breakage", BREAKAGES)
def test_a_broken_record_is_an_invalid_record(game_id: str, breakage: str) -> None:
    obj = _record(game_id)
    _reads_and_replays(copy.deepcopy(obj))  # the record as it was is fine
    change, words = BREAKAGES[breakage]
    change(obj)
    with pytest.raises(InvalidRecord) as refused:
        _reads_and_replays(obj)
    assert refused.value.code == "record/invalid"
    assert words in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("obj", [None, [], "record", 3])
def test_a_record_must_be_an_object(obj: Any) -> None:
    with pytest.raises(InvalidRecord, match="must be a JSON object"):
        GameRecord.from_json(obj)


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_a_record_replays_to_its_table(game_id: str) -> None:
    obj = _record(game_id, actions=20)
    record = GameRecord.from_json(obj)
    assert record.to_json() == obj
    steps = list(replay(record))
    assert [s.index for s in steps] == list(range(len(record.actions)))
    table = Table.from_record(record)
    assert table.record == record
    assert steps[-1].state.to_json() == table.state.to_json()
    assert [s.events for s in steps] == [events for _, events in table.history[1:]]
