"""*Why First?*: how often a seat plays for second place, the one that scores (WF-6).

The measure is the seat's place when each stage is scored: *first* on the farthest occupied
space (alone or tied), *second* on the second-farthest (the space that scores), *behind*
farther back, or *level* when every figure shares one space and nobody scores. A seat that
plays for second ends the stages it leads into on the second space rather than the first:
of its stages at the front (first or second), the share on the second space says how much.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.report import plots, wording
from racedeck.report.document import Cell, Column, Figure, Section, Table
from racedeck.report.findings.base import Findings
from racedeck.report.lessons.base import GameLesson, LessonGames, SeatGame
from racedeck.report.stats import ZTestResult, two_proportion_test
from racedeck.sim.stats import Share

__all__ = [
    "BEHIND",
    "FIRST",
    "LEVEL",
    "PLACES",
    "SECOND",
    "SECOND_PLACE",
    "PlaceCounts",
    "StagePlaces",
    "place_counts",
    "stage_places",
]

FIRST = "first"
SECOND = "second"
BEHIND = "behind"
LEVEL = "level"
PLACES = (FIRST, SECOND, BEHIND, LEVEL)
"""A figure's places when a stage is scored, in the order the report shows them."""

_PLACE_WORDS = {
    FIRST: "first (farthest space)",
    SECOND: "second (scores)",
    BEHIND: "behind",
    LEVEL: "all on one space",
}


_CAVEAT = (
    "The test (two proportions) counts the stages of one game as separate trials, which makes "
    "it somewhat too ready to call a difference."
)


def stage_places(positions: Sequence[int]) -> list[str]:
    """Every figure's place when a stage with figures on ``positions`` is scored (WF-6):
    ``first`` on the farthest occupied space, ``second`` on the next distinct one (it
    scores), ``behind`` elsewhere, ``level`` for all when every figure shares one space."""
    spaces = sorted(set(positions), reverse=True)
    if len(spaces) == 1:
        return [LEVEL] * len(positions)
    return [FIRST if p == spaces[0] else SECOND if p == spaces[1] else BEHIND for p in positions]


class StagePlaces:
    """Collects every figure's place at each stage's scoring from ``stage_scored`` events."""

    def __init__(self, figures: int) -> None:
        self.places: list[list[str]] = [[] for _ in range(figures)]

    def observe(self, events: Sequence[Event], state: Any) -> None:
        """Note the places of a stage scored."""
        for e in events:
            if e.kind == "stage_scored":
                for figure, place in enumerate(stage_places(e.data["positions"])):
                    self.places[figure].append(place)

    def finish(self) -> list[Any]:
        """Each figure's places, stage by stage."""
        return [list(p) for p in self.places]


def _collector(game: Game[Any, Any, Any]) -> StagePlaces:
    return StagePlaces(len(game.contestant_names()))


@dataclass(frozen=True)
class PlaceCounts:
    """How often seats ended a stage in each place, over ``stages`` stages."""

    counts: dict[str, int]
    stages: int

    def share(self, place: str) -> Share:
        """The share of stages ended in ``place``."""
        return Share.of(self.counts.get(place, 0), self.stages)

    @property
    def front(self) -> int:
        """Stages ended first or second."""
        return self.counts.get(FIRST, 0) + self.counts.get(SECOND, 0)

    @property
    def second_of_front(self) -> Share:
        """Of the stages ended at the front, the share on the second space."""
        return Share.of(self.counts.get(SECOND, 0), self.front)


def place_counts(seats: Sequence[SeatGame]) -> PlaceCounts:
    """The places of ``seats`` (each with its stage places in ``extra``) counted together."""
    counts: Counter[str] = Counter()
    for seat in seats:
        counts.update(seat.extra or [])
    return PlaceCounts({p: counts.get(p, 0) for p in PLACES}, sum(counts.values()))


def _test(a: PlaceCounts, b: PlaceCounts) -> ZTestResult:
    return two_proportion_test(a.counts[SECOND], a.front, b.counts[SECOND], b.front)


def findings(games: LessonGames, out: Path) -> Findings:
    """The places of the learned seat beside the field bot's in the same seat of the same
    deals, and how often each ends its stages at the front on the scoring space."""
    learned, field = place_counts(games.learned), place_counts(games.field_games)
    names = {"learned policy": learned, f"{games.field} bot": field}
    # "Level" stages are rare (every figure on one space): a bar only when there are some.
    shown = [p for p in PLACES if p != LEVEL or learned.counts[p] + field.counts[p]]
    image = "learned_second_place.png"
    plots.interval_bars(
        out / image,
        [_PLACE_WORDS[p] for p in shown],
        {name: [plots.Interval(*_triple(c.share(p))) for p in shown] for name, c in names.items()},
        title=f"Where the seat ends each stage ({wording.count(learned.stages)} stages each)",
        ylabel="share of stages",
        xlabel="the seat's place when the stage is scored",
    )
    rows: list[list[Cell]] = [
        [_PLACE_WORDS[p], learned.share(p).value, field.share(p).value] for p in PLACES
    ]
    rows.append(
        [
            "second, of the stages at the front",
            learned.second_of_front.value,
            field.second_of_front.value,
        ]
    )
    table = Table(
        (
            Column("place at scoring", "text"),
            Column("learned policy", "pct"),
            Column(f"{games.field} bot", "pct"),
        ),
        rows,
    )
    test = _test(learned, field)
    mine, theirs = learned.second_of_front, field.second_of_front
    verdict = (
        f"a significant difference ({wording.p_text(test.p_value)})"
        if test.significant
        else f"no significant difference ({wording.p_text(test.p_value)})"
    )
    sentence = (
        f"Playing for second: of the stages the learned seat ends at the front it ends "
        f"{wording.pct(mine.value)} on the scoring second space ({wording.pct_interval(mine)}), "
        f"the {games.field} bot {wording.pct(theirs.value)} ({wording.pct_interval(theirs)}): "
        f"{verdict}."
    )
    caption = (
        "The seat's place when each stage is scored (WF-6), the learned policy's and the "
        f"{games.field} bot's in the same seat of the same deals; 95% intervals."
    )
    section_words = [
        "How often it plays for second place. The second figure scores (WF-6) and the "
        "second-best total wins (WF-7); the heuristic bot plays to finish second. The measure: "
        "the seat's place when a stage is scored — first (on the farthest occupied space, "
        "alone or tied), second (on the second-farthest, which scores its number), behind, or "
        "level (all figures on one space, nobody scores). A seat that plays for second ends the "
        "stages it leads into on the second space rather than the first, so the number to read "
        "is the share on the second space of its stages at the front (first or second).",
        f"{sentence} {_CAVEAT}",
    ]
    figure = Figure(image, "Where the seat ends each stage", caption, table)
    data = {
        "learned": {**learned.counts, "stages": learned.stages},
        "field": {**field.counts, "stages": field.stages},
        "second_of_front": {"learned": mine.value, "field": theirs.value, "test": test.to_json()},
    }
    section = Section("learned-second-place", "", section_words, [figure])
    return Findings([section], [sentence], {"second_place": data})


def _triple(share: Share) -> tuple[float, float, float]:
    return share.value, share.low, share.high


SECOND_PLACE = GameLesson(collector=_collector, findings=findings)
"""The *Why First?* part of the section on the learned bot."""
