"""Distribution plots show their bulk: a long tail goes to one overflow bar that says so."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from racedeck.report.plots import Overflow, bulk_range, count_bars, histogram


def _counts(values: list[int]) -> dict[float, float]:
    return {float(v): float(c) for v, c in Counter(values).items()}


def test_a_compact_distribution_keeps_every_value() -> None:
    assert bulk_range(_counts([v % 20 for v in range(1000)])) == (None, None)
    # Too few values for percentiles to mean anything: nothing is cut.
    assert bulk_range(_counts([1, 500])) == (None, None)


def test_a_few_far_values_are_cut_at_the_99th_percentile() -> None:
    # 297 games between 0 and 20, three far out (the lead changes of a Setback report).
    values = [v % 21 for v in range(297)] + [30, 35, 39]
    low, high = bulk_range(_counts(values))
    assert low is None
    assert high == 20  # the 99th percentile by nearest rank: the 297th of 300 values
    # A tail that reaches a quarter of the bulk's width (20) beyond it or less is kept.
    bulk = [v % 21 for v in range(297)]
    assert bulk_range(_counts([*bulk, 21, 22, 23])) == (None, None)
    assert bulk_range(_counts([*bulk, 25, 25, 25])) == (None, None)
    assert bulk_range(_counts([*bulk, 26, 26, 26])) == (None, 20)


def test_a_far_low_tail_is_cut_at_the_1st_percentile() -> None:
    values = [494, 500] + [520 + v % 40 for v in range(298)]
    low, high = bulk_range(_counts(values))
    assert low == 520 and high is None


def test_count_bars_gather_the_tail_in_one_bar(tmp_path: Path) -> None:
    values = [v % 21 for v in range(297)] + [30, 35, 39]
    overflows = count_bars(
        tmp_path / "lead.png", {"games": Counter(values)}, title="t", xlabel="lead changes"
    )
    assert overflows == [Overflow("above", 20, 3, 0.01, 39, "≥21")]
    assert overflows[0].note() == "3 games above 20 (up to 39) are gathered in the ≥21 bar."
    assert (tmp_path / "lead.png").stat().st_size > 10_000
    # whole=True: a few categories that all matter (slipstream multipliers) are never cut.
    assert (
        count_bars(tmp_path / "all.png", {"m": Counter(values)}, title="", xlabel="", whole=True)
        == []
    )


def test_histograms_gather_both_tails(tmp_path: Path) -> None:
    values = [494.0, 500.0] + [520.0 + v % 40 for v in range(296)] + [700.0, 720.0]
    overflows = histogram(tmp_path / "length.png", {"cards": values}, title="t", xlabel="cards")
    below, above = overflows
    assert (below.side, below.count, below.extreme, below.label) == ("below", 2, 494, "≤519")
    assert (above.side, above.count, above.extreme, above.label) == ("above", 2, 720, "≥560")
    assert below.note("series") == "2 series below 520 (down to 494) are gathered in the ≤519 bar."
    one = Overflow("above", 13, 1, 0.01, 17, "≥14")
    assert one.note() == "1 game above 13 (up to 17) is gathered in the ≥14 bar."
    assert one.note("series") == "1 series above 13 (up to 17) is gathered in the ≥14 bar."
    assert one.note("games of all decks").startswith("1 game of all decks above 13")


def test_several_series_share_one_overflow(tmp_path: Path) -> None:
    a = [float(v % 30) for v in range(300)] + [90.0]
    b = [float(v % 30) for v in range(150)] + [120.0, 150.0]
    (above,) = histogram(tmp_path / "decks.png", {"a": a, "b": b}, title="t", xlabel="turns")
    assert above.count == 3 and above.extreme == 150
    assert above.share == pytest.approx(3 / 453)
