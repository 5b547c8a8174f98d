"""Measures of one game of *Why First?*: where each stage was scored (WF-6), clamps at the ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome

__all__ = ["WhyFirstCollector"]


class WhyFirstCollector:
    """Reads ``stage_scored`` and ``figure_moved`` events.

    ``spaces`` holds the scoring space of every stage in order (``None`` when all figures
    share one space and nobody scores, WF-6); ``clamped`` counts moves stopped at an end of the
    track (WF-1). The game's length is fixed by the rules (stages × card rounds), so it has no
    unit of length besides decisions.
    """

    def __init__(self) -> None:
        self.spaces: list[int | None] = []
        self.scorers: list[int] = []
        self.clamped = 0

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Record stage scorings and clamped moves."""
        for e in events:
            if e.kind == "stage_scored":
                self.spaces.append(e.data["space"])
                self.scorers.append(len(e.data["scorers"]))
            elif e.kind == "figure_moved" and e.data["clamped"]:
                self.clamped += 1

    def turns(self) -> int | None:
        """Fixed by the rules: none."""
        return None

    def finish(self, outcome: Outcome, state: Any) -> JSONObject:
        """``spaces``, ``scorers`` (figures scoring each stage) and ``clamped``."""
        return {"spaces": self.spaces, "scorers": self.scorers, "clamped": self.clamped}


def collector(game: Game[Any, Any, Any]) -> WhyFirstCollector:
    """A fresh collector for one game of ``game`` (the game's ``measures`` plugin)."""
    return WhyFirstCollector()
