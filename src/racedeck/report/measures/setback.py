"""Measures of one game of Setback: BLOCK use (SB-9), SKIP (SB-10), lead changes, turn order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome

__all__ = ["SetbackCollector", "sole_leader"]


def sole_leader(rows: Sequence[int]) -> int:
    """The player whose token is strictly farthest ahead, or -1 when several share the lead.

    START is row -1 and FINISH the row past the last, so the raw rows order the tokens; a
    removed row (SB-8) shifts every token alike and leaves the order unchanged.
    """
    best = max(rows)
    at_best = [q for q, r in enumerate(rows) if r == best]
    return at_best[0] if len(at_best) == 1 else -1


class SetbackCollector:
    """Reads the events for BLOCKs and turns, and the token rows of each state for the lead.

    ``declared`` counts actions declared (hand and board), ``windows`` the declarations that
    some player could answer with a BLOCK (SB-9 amended: a window opens after every
    declaration; the record-only ``window_asked`` event says whether anyone asked held a
    BLOCK), ``cancelled`` those an odd number of BLOCKs
    cancelled, ``counter_blocks`` the windows where a BLOCK was itself blocked, ``blocks`` the
    BLOCK cards played by seat and ``kept_blocks`` the BLOCKs answered but not played because
    another player's BLOCK answered in the same window came first in seating order (SB-9 amended
    again; the record-only ``window_answered`` event says how many answered BLOCK). A *lead change*
    is a new sole leader: the lead passing from one player to another, ties in between not
    counting as a change.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.first = -1
        self.turn_count = 0
        self.declared = 0
        self.windows = 0
        self.blocks = [0] * players
        self.cancelled = 0
        self.counter_blocks = 0
        self.kept_blocks = 0
        self.skips = 0
        self._declaration_window = False
        self.leader = -1
        self.lead_changes = 0

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Count BLOCK use and turns from the events, and follow the lead on the state."""
        for e in events:
            kind, d = e.kind, e.data
            if kind == "game_started":
                self.first = int(d["first"])
            elif kind == "turn_started":
                self.turn_count += 1
            elif kind == "declared":
                self.declared += 1
            elif kind == "window_opened":
                self._declaration_window = d["blocks"] == 0
            elif kind == "window_asked":
                if self._declaration_window and d["holders"] > 0:
                    self.windows += 1
                self._declaration_window = False
            elif kind == "window_answered":
                # SB-9 amended again: of the BLOCKs answered at once, one is played.
                self.kept_blocks += max(0, int(d["blocks"]) - 1)
            elif kind == "block_played":
                self.blocks[d["player"]] += 1
            elif kind == "window_closed":
                self.cancelled += 1 if d["cancelled"] else 0
                self.counter_blocks += 1 if d["blocks"] >= 2 else 0
            elif kind == "turn_skipped":
                self.skips += 1
        leader = sole_leader(state.row)
        if leader >= 0 and leader != self.leader:
            if self.leader >= 0:
                self.lead_changes += 1
            self.leader = leader

    def turns(self) -> int | None:
        """Turns taken (skipped turns included)."""
        return self.turn_count

    def finish(self, outcome: Outcome, state: Any) -> JSONObject:
        """The counts, BLOCKs by seat."""
        return {
            "first": self.first,
            "declared": self.declared,
            "windows": self.windows,
            "blocks": self.blocks,
            "cancelled": self.cancelled,
            "counter_blocks": self.counter_blocks,
            "kept_blocks": self.kept_blocks,
            "skips": self.skips,
            "lead_changes": self.lead_changes,
        }


def collector(game: Game[Any, Any, Any]) -> SetbackCollector:
    """A fresh collector for one game of ``game`` (the game's ``measures`` plugin)."""
    return SetbackCollector(game.num_players)
