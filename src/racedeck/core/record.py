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

__all__ = ["GameRecord", "RecordedAction", "ReplayStep", "replay"]

RECORD_FORMAT = 1


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
        return cls(
            game=obj["game"],
            rules_version=obj["rules_version"],
            config=dict(obj["config"]),
            seed=seed,
            actions=tuple(actions),
            meta=dict(meta),
        )

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
