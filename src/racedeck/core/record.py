"""Game records: the unit of persistence, replayable to identical states and events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.errors import InvalidRecord, RacedeckError
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec

__all__ = ["CLOCK_KEY", "ClockNote", "GameRecord", "RecordedAction", "ReplayStep", "replay"]

RECORD_FORMAT = 1
CLOCK_KEY = "clock"
"""``meta.clock`` of a record from an online table: its clock options and the notes of every
timeout, bot takeover and return (see ``docs/json.md``)."""
CLOCK_NOTE_KINDS = ("timeout", "away", "back", "window")


@dataclass(frozen=True, slots=True)
class ClockNote:
    """Something a table's clock did, at move ``move`` (after that many actions): ``seat``
    ran out of time (``timeout``) or was disconnected past the grace period (``away``) and a
    bot took it over; its person came back (``back``); or a reaction window's clock answered
    the next action for it (``window``, SB-9)."""

    move: int
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One accepted action: who took it and its JSON form."""

    seat: int
    action: JSONObject

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {"seat": self.seat, "action": self.action}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Game id, rules version, configuration, seed and the ordered accepted actions."""

    game: str
    rules_version: str
    config: JSONObject
    seed: int
    actions: tuple[RecordedAction, ...] = ()
    meta: JSONObject = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        """Return the JSON form (see ``docs/json.md``)."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "config": self.config,
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, obj: object) -> GameRecord:
        """Parse the JSON form; raise :class:`~racedeck.core.errors.InvalidRecord` naming the
        field when it is malformed (records come from files and strangers)."""
        if not isinstance(obj, dict):
            raise InvalidRecord("a game record must be a JSON object")
        if obj.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise InvalidRecord(f"unsupported record format {obj.get('format')!r}")
        for name, kind in (("game", str), ("rules_version", str), ("config", dict)):
            if not isinstance(obj.get(name), kind):
                raise InvalidRecord(f"record field {name!r} is missing or not {_NAMES[kind]}")
        seed = obj.get("seed")
        if type(seed) is not int:
            raise InvalidRecord("record field 'seed' is missing or not an integer")
        raw_actions = obj.get("actions", [])
        if not isinstance(raw_actions, list):
            raise InvalidRecord("record field 'actions' must be a list")
        actions = []
        for i, a in enumerate(raw_actions):
            if (
                not isinstance(a, dict)
                or type(a.get("seat")) is not int
                or not isinstance(a.get("action"), dict)
            ):
                raise InvalidRecord(
                    f"record action {i} must be an object with an integer 'seat' and an "
                    "'action' object"
                )
            actions.append(RecordedAction(a["seat"], dict(a["action"])))
        meta = obj.get("meta", {})
        if not isinstance(meta, dict):
            raise InvalidRecord("record field 'meta' must be an object")
        _clock_notes(meta, len(actions))
        return cls(
            game=obj["game"],
            rules_version=obj["rules_version"],
            config=dict(obj["config"]),
            seed=seed,
            actions=tuple(actions),
            meta=dict(meta),
        )

    @property
    def clock_notes(self) -> tuple[ClockNote, ...]:
        """The clock's notes (``meta.clock.notes``) in order; empty for a record without."""
        return _clock_notes(self.meta, len(self.actions))

    def make_game(self) -> Game[Any, Any, Any]:
        """Return the game this record was played under, refusing other rules versions.

        Raises :class:`~racedeck.core.errors.InvalidRecord` for an unknown game, another
        rules version or a configuration the game refuses.
        """
        try:
            spec = get_spec(self.game)
        except KeyError as exc:
            raise InvalidRecord(str(exc.args[0])) from None
        if spec.rules_version != self.rules_version:
            raise InvalidRecord(
                f"record made under {self.game} rules {self.rules_version}, "
                f"this build has {spec.rules_version}"
            )
        try:
            return spec.factory(spec.make_config(**self.config))
        except ValueError as exc:
            raise InvalidRecord(f"record configuration: {exc}") from exc


_NAMES = {str: "text", dict: "an object"}


def _clock_notes(meta: JSONObject, actions: int) -> tuple[ClockNote, ...]:
    clock = meta.get(CLOCK_KEY)
    if clock is None:
        return ()
    notes = clock.get("notes", []) if isinstance(clock, dict) else None
    if not isinstance(notes, list):
        raise InvalidRecord("record field meta.clock must be an object with a 'notes' list")
    out = []
    last = 0
    for i, n in enumerate(notes):
        ok = (
            isinstance(n, dict)
            and type(n.get("move")) is int
            and type(n.get("seat")) is int
            and n.get("kind") in CLOCK_NOTE_KINDS
        )
        if not ok or not last <= n["move"] <= actions:
            raise InvalidRecord(
                f"record clock note {i} must be an object with 'move' (in order, at most the "
                f"number of actions), 'seat' and 'kind' (one of {', '.join(CLOCK_NOTE_KINDS)})"
            )
        last = n["move"]
        out.append(ClockNote(n["move"], n["seat"], n["kind"]))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: the action taken, the state after it and the events it caused."""

    index: int
    seat: int
    action: Any
    state: Any
    events: tuple[Event, ...]


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Replay ``record`` through the checked path, yielding every step in order.

    Raises :class:`~racedeck.core.errors.InvalidRecord` if the record names an unknown game,
    configuration or action form, or holds an action that is not legal where it stands.
    """
    game = record.make_game()
    state = game.start(record.seed).state
    for i, rec in enumerate(record.actions):
        try:
            action = game.action_from_json(rec.action)
            transition = game.step(state, game.check_seat(rec.seat), action)
        # Whatever a parser trips over in a record from outside, the record is invalid.
        except (RacedeckError, ValueError, LookupError, TypeError, AttributeError) as exc:
            raise InvalidRecord(f"record action {i} does not replay: {exc}") from exc
        state = transition.state
        yield ReplayStep(i, rec.seat, action, state, transition.events)
