"""What the summary says: significant only when the numbers are clearly unbalanced."""

from __future__ import annotations

from pathlib import Path

from racedeck.report.batches import MAIN, Batch, BatchResult
from racedeck.report.findings.generic import bots_findings, seat_findings
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import proportion_test, two_proportion_test
from racedeck.report.wording import (
    comparison_verdict,
    fair_share_sentence,
    p_text,
    percentage_points,
    resolution_sentence,
)
from racedeck.sim.stats import Share


def _result(winners: list[int], lineup: tuple[str, ...] = ("random",) * 4) -> BatchResult:
    batch = Batch(MAIN, "Main batch", "why-first", {}, lineup, len(winners), 0)
    games = tuple(
        GameMeasures(batch.bots_of(i), (0.0,) * 4, (2, 2, 2, 2), (w,), 80)
        for i, w in enumerate(winners)
    )
    return BatchResult(batch, games, tuple(f"Seat {i + 1}" for i in range(4)))


def test_clearly_unbalanced_seats_are_called_significant(tmp_path: Path) -> None:
    # Seat 1 wins 40% of 1,000 games, the others 20% each.
    winners = [0] * 400 + [1] * 200 + [2] * 200 + [3] * 200
    found = seat_findings(_result(winners), tmp_path, "total")
    sentence = found.summary[0]
    assert "Seat 1 wins 20.0 percentage points more often than Seat " in sentence
    assert "significant at 95%" in sentence
    assert "chi-square" in sentence
    assert "No seat advantage" not in sentence
    assert (tmp_path / "seat_wins.png").exists()


def test_balanced_seats_are_not_called_significant(tmp_path: Path) -> None:
    winners = [i % 4 for i in range(2000)]
    sentence = seat_findings(_result(winners), tmp_path, "total").summary[0]
    assert "No seat advantage is significant over 2,000 games" in sentence
    assert "significant at 95%" not in sentence


def test_bots_in_a_rotated_lineup_are_compared_with_their_fair_share(tmp_path: Path) -> None:
    lineup = ("heuristic", "random", "random", "random")
    batch = Batch(MAIN, "Main batch", "why-first", {}, lineup, 800, 0)
    # The heuristic bot wins every other game wherever it sits.
    winners = [
        batch.bots_of(i).index("heuristic") if i % 2 else batch.bots_of(i).index("random")
        for i in range(800)
    ]
    found = bots_findings(_result(winners, lineup), tmp_path)
    heuristic = found.summary[0]
    assert heuristic.startswith("Bots: heuristic (1 of 4 seats) wins 50.0% of games")
    assert "fair share of 25.0%: significantly more" in heuristic
    assert "random (3 of 4 seats) wins 50.0%" in found.summary[1]
    assert "fair share of 75.0%: significantly less" in found.summary[1]


def test_rotation_puts_every_bot_in_every_seat() -> None:
    batch = Batch(MAIN, "m", "why-first", {}, ("a", "b", "b", "b"), 8, 0)
    seats_of_a = [batch.bots_of(i).index("a") for i in range(8)]
    assert sorted(seats_of_a) == [0, 0, 1, 1, 2, 2, 3, 3]
    uniform = Batch(MAIN, "m", "why-first", {}, ("a",) * 4, 8, 0)
    assert uniform.bots_of(5) == ("a",) * 4


def test_fair_share_sentence() -> None:
    share = Share.of(418, 1000)
    text = fair_share_sentence("heuristic", share, 0.25, proportion_test(418, 1000, 0.25))
    assert text == (
        "heuristic wins 41.8% of games (95% CI 38.8–44.9%) against a fair share of 25.0%: "
        "significantly more (p < 0.001)."
    )


def test_small_words() -> None:
    assert percentage_points(0.031) == "3.1 percentage points"
    assert percentage_points(-0.01) == "1.0 percentage point"
    assert p_text(0.0004) == "p < 0.001"
    assert p_text(0.0412) == "p = 0.041"
    assert p_text(0.41) == "p = 0.41"


def test_a_comparison_without_enough_games_says_what_it_cannot_tell() -> None:
    # 38.7% against 36.7% of 150 and 300 games: far from anything these games can tell.
    test = two_proportion_test(58, 150, 110, 300)
    assert not test.significant
    assert comparison_verdict(test, 1 / 3, 150, 300) == (
        "there are not enough games to tell a difference smaller than 13.6 percentage points "
        f"(150 and 300 games; two-proportion z-test, {p_text(test.p_value)})"
    )
    clear = two_proportion_test(106, 150, 63, 150)
    assert comparison_verdict(clear, 0.25, 150, 150) == (
        "the difference is significant (two-proportion z-test, p < 0.001)"
    )


def test_resolution_sentence_names_the_games_a_planned_difference_needs() -> None:
    assert resolution_sentence(0.25, 300, 150) == (
        "With 300 and 150 games, only win shares at least 12.9 percentage points apart can be "
        "told (95% confidence, 80% power); telling 5.0 percentage points needs 1,251 games in "
        "each."
    )
    assert resolution_sentence(0.25, 300, 150, lead="Between decks").startswith(
        "Between decks: with 300 and 150 games, only win shares"
    )
