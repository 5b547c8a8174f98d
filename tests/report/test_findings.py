"""A game's findings give the reason of every number the rules or the bots fix, and size
their comparisons from what they should be able to tell."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from racedeck.report.batches import MAIN, Batch, BatchResult
from racedeck.report.build import METHOD, ReportRequest, comparison_games, plan_batches
from racedeck.report.findings.base import Findings
from racedeck.report.findings.generic import length_findings
from racedeck.report.findings.six_day_race import common_opening, findings
from racedeck.report.findings.why_first import fixed_length
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import games_to_detect

OPENING = [[420882565, 34, 2, 1]] * 6
"""The opening the heuristic bots play in every race of a default series."""


def _series(i: int, **extra: Any) -> GameMeasures:
    """One series of Six Day Race between four seats with two riders each."""
    base: dict[str, Any] = {
        "moves": 100,
        "multipliers": {"1": 80, "2": 14, "8": 6},
        "slip_extra": 400,
        "slip_by_seat": [5, 5, 5, 5],
        "refused": 6,
        "rider_changes": [3, 3, 3, 3],
        "crashes": [1, 1, 1, 1],
        "laps": [3, 4, 5, 6],
        "start_order": [i % 4, (i + 1) % 4, (i + 2) % 4, (i + 3) % 4],
        "races": 6,
        "riders": 8,
        "field_at": [9] * 6,
        "field_extra": 210,
        "race_changes": [2] * 6,
        "race_refused": [1] * 6,
        "openings": OPENING,
    }
    base.update(extra)
    return GameMeasures(
        ("heuristic",) * 4, (1.0, 2.0, 3.0, 4.0), (4, 3, 2, 1), (i % 4,), 100, 100, base
    )


def _result(games: list[GameMeasures]) -> BatchResult:
    batch = Batch(MAIN, "Main batch", "six-day-race", {}, ("heuristic",) * 4, len(games), 0)
    return BatchResult(batch, tuple(games), tuple(f"Seat {i + 1}" for i in range(4)))


def _paragraphs(result: BatchResult, out: Path, key: str) -> str:
    found = findings({MAIN: result}, out)
    return _section_text(found, key)


def _section_text(found: Findings, key: str) -> str:
    return " ".join(next(s for s in found.sections if s.key == key).paragraphs)


@pytest.fixture(scope="module")
def common(tmp_path_factory: pytest.TempPathFactory) -> tuple[BatchResult, Findings]:
    """Twenty default series that all open alike, and their findings, worked out once for
    the tests that read them: drawing the findings' plots is most of their time."""
    result = _result([_series(i) for i in range(20)])
    return result, findings({MAIN: result}, tmp_path_factory.mktemp("findings"))


def test_fixed_rider_changes_give_the_rules_that_fix_them(
    common: tuple[BatchResult, Findings],
) -> None:
    result, found = common
    assert common_opening(result) is not None
    text = _section_text(found, "rider-change")
    assert "exactly 12 times in every series (20 series): 2 in each of its 6 races (SD-11)" in text
    assert "a rider passes space 30 once (SD-1, SD-6)" in text
    assert "Every one of the 120 races opened with the same 34 cards" in text
    assert "same green hand, dealt and never shuffled (SD-2)" in text
    assert "Those 34 cards put exactly 2 riders on FAHRERWECHSEL" in text
    summary = found.summary
    assert any(
        s.startswith("Rider changes: exactly 2 per race in every series, because") for s in summary
    )


def test_fixed_rider_changes_without_a_common_opening_are_not_blamed_on_the_rules(
    tmp_path: Path,
) -> None:
    games = [_series(i, openings=[[i, 30 + i, 2, 1]] * 6) for i in range(20)]
    text = _paragraphs(_result(games), tmp_path, "rider-change")
    assert "2 in each of its 6 races" in text
    assert "the count is these bots' play, not a consequence of the rules" in text
    assert "SD-2" not in text
    uneven = [_series(i, race_changes=[1, 3, 2, 2, 2, 2]) for i in range(20)]
    text = _paragraphs(_result(uneven), tmp_path, "rider-change")
    assert "not equally often in every race" in text


def test_the_whole_field_slipstream_is_explained_where_it_is_plotted(
    common: tuple[BatchResult, Findings],
) -> None:
    _, found = common
    section = next(s for s in found.sections if s.key == "slipstream")
    text = " ".join(section.paragraphs)
    assert "8 riders (4 players racing two each, SD-12), so ×8 needs all 7 others" in text
    assert "×8 came 6 times per series, always within the first 9 moves of a race" in text
    assert "35.0 extra spaces each (7 times the card's value), 43% of the 81-space lap" in text
    assert "The ×8 move is part of that opening" in text
    assert "1 in every race, inside that common opening, and never later" in text
    assert "×8: the whole field of 8 riders on one space" in section.figures[0].caption
    order = next(s for s in found.sections if s.key == "turn-order")
    assert "the turn order alone decides who gains in that opening" in " ".join(order.paragraphs)


def test_why_first_says_which_rules_fix_its_length(tmp_path: Path) -> None:
    def result(config: dict[str, Any], decisions: int) -> BatchResult:
        batch = Batch(MAIN, "m", "why-first", config, ("random",) * 4, 3, 0)
        games = tuple(
            GameMeasures(("random",) * 4, (0.0,) * 4, (1, 1, 1, 1), (0,), decisions)
            for _ in range(3)
        )
        return BatchResult(batch, games, tuple(f"Seat {i + 1}" for i in range(4)))

    base = fixed_length(result({}, 80), 80)
    assert base is not None and "5 stages (WF-7) × 4 players × 4 card rounds" in base
    assert "the 5th card playing itself (WF-5) = 80" in base
    tactical = fixed_length(result({"variant": "tactical"}, 180), 180)
    assert tactical is not None and "+ 5 figures to move (WF-10)) = 180" in tactical
    assert fixed_length(result({}, 81), 81) is None  # no made-up reason for another count
    words = length_findings(result({}, 80), tmp_path, None, fixed_length).sections[0].paragraphs
    assert words[0].startswith("Every game took exactly 80 decisions: the rules fix it at 5 stages")
    words = length_findings(result({}, 81), tmp_path, None, fixed_length).sections[0].paragraphs
    assert words == ["Every game took exactly 81 decisions: the rules fix the length."]


def test_comparison_batches_are_sized_from_the_difference_to_detect(tmp_path: Path) -> None:
    def request(**kw: Any) -> ReportRequest:
        return ReportRequest("why-first", {}, ("random",) * 4, 300, tmp_path, **kw)

    assert comparison_games(request()) == 150
    # A fair seat of four wins 25%: telling 30% from it needs 1,251 games a batch.
    assert comparison_games(request(detect=0.05)) == games_to_detect(0.25, 0.30) == 1251
    assert {b.games for b in plan_batches(request(detect=0.05))[1:]} == {1251}
    with pytest.raises(ValueError, match="difference to detect of 60 percentage points"):
        comparison_games(request(detect=0.6))
    assert any("388 each for 50% against 60%" in line for line in METHOD)


def test_length_says_how_decisions_and_the_games_unit_relate(tmp_path: Path) -> None:
    def result(decisions: list[int], turns: list[int]) -> BatchResult:
        batch = Batch(MAIN, "m", "setback", {}, ("random",) * 3, len(turns), 0)
        games = tuple(
            GameMeasures(("random",) * 3, (0.0,) * 3, (1, 1, 1), (0,), d, t)
            for d, t in zip(decisions, turns, strict=True)
        )
        return BatchResult(batch, games, ("Seat 1", "Seat 2", "Seat 3"))

    same = length_findings(
        result([10, 12, 15, 11], [10, 12, 15, 11]),
        tmp_path,
        "cards played",
        None,
        "One card a turn (SD-4).",
    )
    words = same.sections[0].paragraphs
    assert (
        words[0]
        == "Every decision is one of the cards played: they coincide. One card a turn (SD-4)."
    )
    apart = length_findings(
        result([30, 41, 52, 60], [10, 12, 15, 11]),
        tmp_path,
        "turns",
        None,
        "Several a turn (SB-3).",
    )
    words = apart.sections[0].paragraphs
    assert words[0] == "Several a turn (SB-3)."
    # Whole counts have whole quartiles in words (38.25 reads 38).
    assert words[1].endswith("half of the games between 38 and 54).")
