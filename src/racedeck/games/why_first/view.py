"""What one seat, or a spectator, may know about a game of *Why First?*."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from racedeck.core.header import ViewHeader
from racedeck.core.jsontypes import JSONObject
from racedeck.games.why_first.actions import WhyFirstAction, action_from_json

__all__ = ["Own", "Revealed", "WhyFirstView", "own_json"]

Revealed = tuple[int, int | None, int, int]
"""A revealed card in a view: ``(by, card, value, target)``; ``card`` (the white number) is
``None`` in the base game and ``target`` is −1 while a tactical card has not moved yet."""


class Own(NamedTuple):
    """The fields of a :class:`WhyFirstView` that only its seat sees (empty for spectators)."""

    hand: tuple[int, ...]
    hand_values: tuple[int, ...]
    my_commit: tuple[int, int] | int | None
    legal_actions: tuple[WhyFirstAction, ...]


def own_json(seat: int | None, own: Own) -> JSONObject:
    """The keys of the JSON view (:meth:`WhyFirstView.to_json`) that only ``seat`` sees."""
    return {
        "seat": seat,
        "hand": list(own.hand),
        "hand_values": list(own.hand_values),
        "my_commit": _commit_json(own.my_commit),
        "legal_actions": [a.to_json() for a in own.legal_actions],
    }


def _commit_json(commit: tuple[int, int] | int | None) -> Any:
    return list(commit) if isinstance(commit, tuple) else commit


@dataclass(frozen=True, slots=True)
class WhyFirstView:
    """A seat's view: its own hand and commit, and the public table; never another's secret.

    Public facts: positions, totals and stage history, hand sizes, how many face-down cards Leo
    has left, who has committed this round (not what), the latest round's revealed cards with
    who placed them where, every card revealed so far this stage, and the tactical move order.

    White numbers appear only in the tactical variant, where they are public and order the
    moves (WF-10). In the base game they mean nothing (WF-2) and the view shows values only:
    ``hand`` and ``revealed`` are empty there and ``hand_values``/``revealed_values`` say it
    all, so which of several equal cards a seat holds or played can never be told apart.

    A view is an immutable value (tuples all the way down) that shares nothing with the state.
    """

    seat: int | None
    header: ViewHeader
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
    last_reveal: tuple[Revealed, ...]
    revealed: tuple[int, ...]
    revealed_values: tuple[int, ...]
    move_queue: tuple[tuple[int, int], ...]
    hand: tuple[int, ...]
    hand_values: tuple[int, ...]
    my_commit: tuple[int, int] | int | None
    legal_actions: tuple[WhyFirstAction, ...]
    card_values: tuple[int, ...]
    track: tuple[int, int]
    stages: int
    hand_size: int

    @property
    def has_leo(self) -> bool:
        """True in the two-player game (WF-9)."""
        return len(self.positions) > self.players

    @property
    def tactical(self) -> bool:
        """True in the tactical variant (WF-10)."""
        return self.variant == "tactical"

    def to_json(self) -> JSONObject:
        """Return the JSON form ``{"header": ..., ...}`` (see ``docs/json.md``)."""
        return {
            "header": self.header.to_json(),
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
            "last_reveal": [list(r) for r in self.last_reveal],
            "revealed": list(self.revealed),
            "revealed_values": list(self.revealed_values),
            "move_queue": [list(m) for m in self.move_queue],
            "hand": list(self.hand),
            "hand_values": list(self.hand_values),
            "my_commit": _commit_json(self.my_commit),
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "card_values": list(self.card_values),
            "track": list(self.track),
            "stages": self.stages,
            "hand_size": self.hand_size,
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> WhyFirstView:
        """Rebuild a view from :meth:`to_json`."""
        commit: Any = obj["my_commit"]
        return cls(
            seat=obj["seat"],
            header=ViewHeader.from_json(obj["header"]),
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
            last_reveal=tuple((a, b, c, d) for a, b, c, d in obj["last_reveal"]),
            revealed=tuple(obj["revealed"]),
            revealed_values=tuple(obj["revealed_values"]),
            move_queue=tuple((a, b) for a, b in obj["move_queue"]),
            hand=tuple(obj["hand"]),
            hand_values=tuple(obj["hand_values"]),
            my_commit=(commit[0], commit[1]) if isinstance(commit, list) else commit,
            legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
            card_values=tuple(obj["card_values"]),
            track=(obj["track"][0], obj["track"][1]),
            stages=obj["stages"],
            hand_size=obj["hand_size"],
        )
