"""Game records: the unit of persistence, replayable to identical states and events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.errors import RacedeckError
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec

__all__ = ["GameRecord", "RecordedAction", "ReplayStep", "Session", "replay"]

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
    def from_json(cls, obj: JSONObject) -> GameRecord:
        """Parse the JSON form; raise :class:`ValueError` when it is malformed."""
        try:
            if obj.get("format", RECORD_FORMAT) != RECORD_FORMAT:
                raise ValueError(f"unsupported record format {obj.get('format')!r}")
            return cls(
                game=str(obj["game"]),
                rules_version=str(obj["rules_version"]),
                config=dict(obj["config"]),
                seed=int(obj["seed"]),
                actions=tuple(
                    RecordedAction(int(a["seat"]), dict(a["action"])) for a in obj["actions"]
                ),
                meta=dict(obj.get("meta", {})),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed game record: {exc!r}") from exc

    def make_game(self) -> Game[Any, Any, Any]:
        """Return the game this record was played under, refusing other rules versions."""
        spec = get_spec(self.game)
        if spec.rules_version != self.rules_version:
            raise RacedeckError(
                f"record made under {self.game} rules {self.rules_version}, "
                f"this build has {spec.rules_version}"
            )
        return spec.factory(spec.make_config(**self.config))


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: the action taken and the state (with its events) after it."""

    index: int
    seat: int
    action: Any
    state: Any

    @property
    def events(self) -> tuple[Event, ...]:
        """Events of this step."""
        return tuple(self.state.events)


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Replay ``record`` through the checked path, yielding every step in order.

    Raises :class:`~racedeck.core.errors.IllegalAction` if the record holds an action that is
    not legal where it stands (a corrupted or foreign record).
    """
    game = record.make_game()
    state = game.new_initial_state(record.seed)
    for i, rec in enumerate(record.actions):
        action = game.action_from_json(rec.action)
        state = game.apply(state, rec.seat, action)
        yield ReplayStep(i, rec.seat, action, state)


class Session:
    """A game in progress together with its record: apply actions, keep the record in step."""

    def __init__(self, game: Game[Any, Any, Any], seed: int, meta: JSONObject | None = None):
        self.game = game
        self.seed = seed
        self.state: Any = game.new_initial_state(seed)
        self.initial_events: tuple[Event, ...] = tuple(self.state.events)
        self._actions: list[RecordedAction] = []
        self.meta: JSONObject = dict(meta or {})

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Check and apply an action, record it, and return the events it caused."""
        self.state = self.game.apply(self.state, seat, action)
        self._actions.append(RecordedAction(seat, action.to_json()))
        return tuple(self.state.events)

    @property
    def record(self) -> GameRecord:
        """The record so far."""
        return GameRecord(
            game=self.game.spec.id,
            rules_version=self.game.spec.rules_version,
            config=self.game.config.to_json(),
            seed=self.seed,
            actions=tuple(self._actions),
            meta=dict(self.meta),
        )
