"""What one player, or a spectator, may know about a game of Setback."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.games.setback.actions import SetbackAction, action_from_json

__all__ = ["SetbackView"]


@dataclass(frozen=True, slots=True)
class SetbackView:
    """A player's view: its own hand and the public table, never another hand.

    During a BLOCK window (SB-9) the view says that a window is open, what was declared and who
    has played a BLOCK so far (BLOCKs are played face up), but never who is being asked: only
    the viewer's own ``legal_actions`` tell it whether it may answer. ``tokens`` are
    ``(row, lane)``, with ``(-1, -1)`` for START and row = number of rows for FINISH.

    Everything the table sees is here, so that a full state can be rebuilt from a view with
    only the hidden cards drawn at random (``Setback.sample_state``): the SKIP cards in front of
    the players and the BLOCKs of a window by name, and where the turn stands (``source``,
    ``hand_played``, ``nonfree_played``, ``skip_spent``), which every player has watched.
    """

    seat: int | None
    players: int
    grid: tuple[tuple[str, ...], ...]
    rows_removed: int
    tokens: tuple[tuple[int, int], ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: tuple[str, ...]
    skips: tuple[int, ...]
    skip_cards: tuple[tuple[str, ...], ...]
    skip_spent: tuple[bool, ...]
    current: int
    phase: str
    source: str
    hand_played: int
    nonfree_played: bool
    window_open: bool
    declared: dict[str, Any] | None
    blocks: tuple[int, ...]
    block_cards: tuple[str, ...]
    context: dict[str, Any]
    to_act: int | None
    winner: int
    legal_actions: tuple[SetbackAction, ...]
    events: tuple[Event, ...]

    @property
    def rows(self) -> int:
        """Rows on the board now."""
        return len(self.grid)

    @property
    def lanes(self) -> int:
        """Lanes on the board now."""
        return len(self.grid[0]) if self.grid else 0

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {
            "seat": self.seat,
            "players": self.players,
            "grid": [list(r) for r in self.grid],
            "rows_removed": self.rows_removed,
            "tokens": [list(t) for t in self.tokens],
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "draw_size": self.draw_size,
            "discard": list(self.discard),
            "skips": list(self.skips),
            "skip_cards": [list(k) for k in self.skip_cards],
            "skip_spent": list(self.skip_spent),
            "current": self.current,
            "phase": self.phase,
            "source": self.source,
            "hand_played": self.hand_played,
            "nonfree_played": self.nonfree_played,
            "window_open": self.window_open,
            "declared": None if self.declared is None else dict(self.declared),
            "blocks": list(self.blocks),
            "block_cards": list(self.block_cards),
            "context": {k: list(v) if isinstance(v, list) else v for k, v in self.context.items()},
            "to_act": self.to_act,
            "winner": self.winner,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "events": [e.to_json() for e in self.events],
        }

    @classmethod
    def from_json(cls, obj: JSONObject) -> SetbackView:
        """Rebuild a view from :meth:`to_json`."""
        return cls(
            seat=obj["seat"],
            players=obj["players"],
            grid=tuple(tuple(r) for r in obj["grid"]),
            rows_removed=obj["rows_removed"],
            tokens=tuple((t[0], t[1]) for t in obj["tokens"]),
            hand=tuple(obj["hand"]),
            hand_sizes=tuple(obj["hand_sizes"]),
            draw_size=obj["draw_size"],
            discard=tuple(obj["discard"]),
            skips=tuple(obj["skips"]),
            skip_cards=tuple(tuple(k) for k in obj["skip_cards"]),
            skip_spent=tuple(bool(x) for x in obj["skip_spent"]),
            current=obj["current"],
            phase=obj["phase"],
            source=obj["source"],
            hand_played=obj["hand_played"],
            nonfree_played=obj["nonfree_played"],
            window_open=obj["window_open"],
            declared=obj["declared"],
            blocks=tuple(obj["blocks"]),
            block_cards=tuple(obj["block_cards"]),
            context=dict(obj["context"]),
            to_act=obj["to_act"],
            winner=obj["winner"],
            legal_actions=tuple(action_from_json(a) for a in obj["legal_actions"]),
            events=tuple(Event.from_json(e) for e in obj["events"]),
        )
