"""What a part of a report finds: sections to show, sentences for the summary, numbers."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racedeck.report.batches import Batch, BatchResult
from racedeck.report.document import Cell, Section
from racedeck.report.plots import Overflow
from racedeck.report.stats import mean_of

__all__ = ["Findings", "GameFindings", "five_numbers", "with_overflows"]


@dataclass
class Findings:
    """Sections (in order), summary sentences and the data behind them."""

    sections: list[Section] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def add(self, other: Findings) -> None:
        """Append ``other``'s sections, sentences and data."""
        self.sections.extend(other.sections)
        self.summary.extend(other.summary)
        self.data.update(other.data)


@dataclass(frozen=True)
class GameFindings:
    """What a report knows about one game.

    ``score`` names what the outcome's scores measure, ``turns`` the game's own unit of length
    (``None`` when the rules fix the length); ``extra_batches(main, games)`` plans the
    comparison batches; ``findings(results, out)`` writes the game's own figures to ``out``.
    ``order_of`` gives a game's seats in the order they first moved, where a random draw
    decides who starts (then the turn position, not the seat, is what balance is about).
    ``fixed_length(result, decisions)`` says, where the rules fix a game's length, why it is
    ``decisions`` long (the rule and the arithmetic), or ``None`` when it cannot tell.
    ``length_note`` says by which rules decisions and the game's own unit relate.
    """

    score: str
    turns: str | None
    extra_batches: Callable[[Batch, int], list[Batch]]
    findings: Callable[[dict[str, BatchResult], Path], Findings]
    order_of: Callable[[Any], Sequence[int]] | None = None
    fixed_length: Callable[[BatchResult, int], str | None] | None = None
    length_note: str = ""


def five_numbers(values: Sequence[float]) -> list[Cell]:
    """Mean, standard deviation, minimum, lower quartile, median, upper quartile, maximum."""
    if not values:
        return [None] * 7
    m = mean_of(values)
    if len(values) > 1:
        q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    else:
        q1 = q2 = q3 = values[0]
    return [m.value, m.sd, min(values), q1, q2, q3, max(values)]


def with_overflows(caption: str, overflows: Sequence[Overflow], unit: str = "games") -> str:
    """A figure's caption with what its overflow bars hold, in words (the plot shows the bulk
    of a distribution; see :func:`racedeck.report.plots.bulk_range`)."""
    if not overflows:
        return caption
    notes = " ".join(o.note(unit) for o in overflows)
    return f"{caption} So that the axis shows the bulk, {notes[0].lower()}{notes[1:]}"
