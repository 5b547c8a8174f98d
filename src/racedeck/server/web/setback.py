"""*Setback* in the browser shell."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.core.table import Table
from racedeck.server.positions import Position, events_of

WIN_RULE = "the first to reach or pass FINISH wins"
"""Who wins (rulebook)."""


# -- pictures for the rules pages (racedeck.server.rules_pictures) ------------------------------


def _bump(table: Table, events: Sequence[Event]) -> bool:
    return any(m["why"] == "bumped" for m in events_of(events, "token_moved"))


def _block(table: Table, events: Sequence[Event]) -> bool:
    view = table.view(None)
    return bool(events_of(events, "block_played")) and view.window_open and len(view.blocks) == 1


PICTURES: dict[str, Position] = {
    "bump": Position(
        game="setback",
        config={"players": 3},
        seed=79,
        moves=(
            "2:ALL+1",
            "0:pass",
            "1:pass",
            "2:step P3 lane 2",
            "2:step P1 lane 3",
            "2:step P2 lane 3",
        ),
        claim="ALL+1 moves everyone a row: Player 2 enters lane 3, where Player 1 stands, and "
        "bumps Player 1 one card on, to row 2",
        holds=_bump,
    ),
    "block": Position(
        game="setback",
        config={"players": 3},
        seed=1,
        moves=("0:MOVE+1 lane 1", "1:block", "2:pass"),
        claim="Player 1 declares MOVE+1 and Player 2 answers with a BLOCK; the window is open "
        "for a BLOCK of that BLOCK",
        holds=_block,
    ),
}
"""The positions the rules pages of this game may draw, by name."""
