"""*Why First?* in the browser shell."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.core.table import Table
from racedeck.server.positions import Position, events_of

WIN_RULE = "the second-best total wins"
"""Who wins: the second-highest total after the last stage, not the highest (rulebook)."""


# -- pictures for the rules pages (racedeck.server.rules_pictures) ------------------------------


def _reveal(table: Table, events: Sequence[Event]) -> bool:
    revealed = events_of(events, "cards_revealed")
    if len(revealed) != 1 or events_of(events, "stage_scored"):
        return False
    targets = [c["target"] for c in revealed[0]["cards"]]
    return len(set(targets)) < len(targets)  # two cards went in front of one figure


def _second_scores(table: Table, events: Sequence[Event]) -> bool:
    scored = events_of(events, "stage_scored")
    if not table.is_over or len(scored) != 1:
        return False
    s = scored[0]
    spaces = sorted(set(s["positions"]), reverse=True)
    first = [f for f, p in enumerate(s["positions"]) if p == spaces[0]]
    return (
        len(spaces) >= 2
        and s["space"] == spaces[1] > 0
        and all(s["positions"][f] == spaces[1] for f in s["scorers"])
        and all(s["points"][f] == 0 for f in first)
    )


PICTURES: dict[str, Position] = {
    "reveal": Position(
        game="why-first",
        config={"players": 3},
        seed=1,
        moves=("0:-3>P3", "1:-3>P2", "2:-1>P2", "0:-1>P2", "1:+1>P1", "2:+3>P2"),
        claim="round 2's cards shown together: −1 and +3 in front of Player 2, +1 in front of "
        "Player 1",
        holds=_reveal,
    ),
    "second-scores": Position(
        game="why-first",
        config={"players": 3, "stages": 1},
        seed=3,
        moves=(
            "0:+1>P1",
            "1:+4>P1",
            "2:+1>P3",
            "0:-1>P3",
            "1:-3>P3",
            "2:+3>P2",
            "0:+2>P2",
            "1:+2>P2",
            "2:-2>P1",
            "0:+5>P1",
            "1:-4>P3",
            "2:-1>P3",
        ),
        claim="a stage scored: Player 1's figure is farthest, on 12, and scores nothing; "
        "Player 2's, on the second space, 9, scores 9",
        holds=_second_scores,
    ),
}
"""The positions the rules pages of this game may draw, by name."""
