"""What one seat, or a spectator, may know about a game of *Why First?*."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.games.why_first.actions import WhyFirstAction, action_from_json

__all__ = ["WhyFirstView"]


@dataclass(frozen=True, slots=True)
class WhyFirstView:
    """A seat's view: its own hand and commit, and the public table; never another's secret.

    Public facts: positions, totals and stage history, hand sizes, how many face-down cards Leo
    has left, who has committed this round (not what), the latest round's revealed cards with
    who placed them where, every card revealed so far this stage (``revealed``), the tactical
    move order, and the events of the latest transition.
    """

    seat: int | None
    players: int
    variant: str
    stage: int
    round: int
    phase: str
    positions: tuple[int, ...]
    totals: tuple[int, ...]
    stage_history: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    leo_cards_left: int
    committed: tuple[int, ...]
    pending: tuple[int, ...]
    last_reveal: tuple[tuple[int, int, int], ...]
    revealed: tuple[int, ...]
    move_queue: tuple[tuple[int, int], ...]
    hand: tuple[int, ...]
    hand_values: tuple[int, ...]
    my_commit: Any
    legal_actions: tuple[WhyFirstAction, ...]
    events: tuple[Event, ...]
    card_values: tuple[int, ...]
    track: tuple[int, int]
    stages: int
    hand_size: int

    @property
    def has_leo(self) -> bool:
        """True in the two-player game (WF-9)."""
        return len(self.positions) > self.players

    def to_json(self) -> JSONObject:
        """Return the JSON form (see ``docs/json.md``)."""
        commit = self.my_commit
        return {
            "seat": self.seat,
            "players": self.players,
            "variant": self.variant,
            "stage": self.stage,
            "round": self.round,
            "phase": self.phase,
            "positions": list(self.positions),
            "totals": list(self.totals),
            "stage_history": [list(r) for r in self.stage_history],
            "hand_sizes": list(self.hand_sizes),
            "leo_cards_left": self.leo_cards_left,
            "committed": list(self.committed),
            "pending": list(self.pending),
            "last_reveal": [list(r) for r in self.last_reveal],
            "revealed": list(self.revealed),
            "move_queue": [list(m) for m in self.move_queue],
            "hand": list(self.hand),
            "hand_values": list(self.hand_values),
            "my_commit": list(commit) if isinstance(commit, tuple) else commit,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "events": [e.to_json() for e in self.events],
            "card_values": list(self.card_values),
            "track": list(self.track),
            "stages": self.stages,
            "hand_size": self.hand_size,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> WhyFirstView:
        """Rebuild a view from :meth:`to_json`."""
        commit = obj["my_commit"]
        return cls(
            seat=obj["seat"],
            players=obj["players"],
            variant=obj["variant"],
            stage=obj["stage"],
            round=obj["round"],
            phase=obj["phase"],
            positions=tuple(obj["positions"]),
            totals=tuple(obj["totals"]),
            stage_history=tuple(tuple(r) for r in obj["stage_history"]),
            hand_sizes=tuple(obj["hand_sizes"]),
            leo_cards_left=obj["leo_cards_left"],
            committed=tuple(obj["committed"]),
            pending=tuple(obj["pending"]),
            last_reveal=tuple((a, b, c) for a, b, c in obj["last_reveal"]),
            revealed=tuple(obj["revealed"]),
            move_queue=tuple((a, b) for a, b in obj["move_queue"]),
            hand=tuple(obj["hand"]),
            hand_values=tuple(obj["hand_values"]),
            my_commit=tuple(commit) if isinstance(commit, list) else commit,
            legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
            events=tuple(Event.from_json(e) for e in obj["events"]),
            card_values=tuple(obj["card_values"]),
            track=(obj["track"][0], obj["track"][1]),
            stages=obj["stages"],
            hand_size=obj["hand_size"],
        )
