"""Plain words for numbers and tests: what a game designer reads at the top of a report."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.report.stats import (
    ChiSquareResult,
    ZTestResult,
    detectable_difference,
    games_to_detect,
)
from racedeck.sim.stats import Share

__all__ = [
    "PLANNED_DIFFERENCE",
    "comparison_verdict",
    "count",
    "fair_share_sentence",
    "p_text",
    "pct",
    "pct_interval",
    "percentage_points",
    "resolution_sentence",
    "spread_sentence",
]

PLANNED_DIFFERENCE = 0.05
"""The difference in win share the report names as worth telling (5 percentage points) when it
says how many games a comparison would need."""


def pct(x: float) -> str:
    """``0.418`` → ``41.8%``."""
    return f"{x:.1%}"


def pct_interval(share: Share) -> str:
    """``39.7–44.0%``."""
    return f"{share.low * 100:.1f}–{share.high:.1%}"


def percentage_points(x: float) -> str:
    """``0.031`` → ``3.1 percentage points``."""
    value = abs(x) * 100
    return f"{value:.1f} percentage point{'' if f'{value:.1f}' == '1.0' else 's'}"


def count(n: float) -> str:
    """``2000`` → ``2,000``."""
    return f"{n:,.0f}"


def p_text(p: float) -> str:
    """``p = 0.041``, ``p < 0.001``."""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def spread_sentence(
    labels: Sequence[str],
    shares: Sequence[float],
    games: int,
    test: ChiSquareResult,
    gap: tuple[int, int, ZTestResult],
    *,
    what: str = "seat",
) -> str:
    """Whether the win shares of seats (or turn positions) differ, in words.

    The verdict follows the chi-square test of equal shares; the largest gap between two of
    them is named either way, with its own Bonferroni-corrected test when it is significant.
    """
    best, worst, pair = gap
    a, b = labels[best], labels[worst]
    if test.significant:
        text = (
            f"{_cap(a)} wins {percentage_points(pair.difference)} more often than {b} "
            f"({pct(shares[best])} against {pct(shares[worst])}, significant at 95%: "
            f"chi-square test of equal win shares over {count(games)} games, {p_text(test.p_value)}"
        )
        if pair.significant:
            text += (
                f"; this pair alone, corrected for {pair.comparisons} pairs, {p_text(pair.p_value)}"
            )
        return text + ")."
    return (
        f"No {what} advantage is significant over {count(games)} games (chi-square test of "
        f"equal win shares, {p_text(test.p_value)}); the largest gap, {a} over {b}, is "
        f"{percentage_points(pair.difference)} ({pct(shares[best])} against {pct(shares[worst])})."
    )


def fair_share_sentence(
    who: str, share: Share, fair: float, test: ZTestResult, *, of: str = "games"
) -> str:
    """``heuristic wins 41.8% of games (95% CI 39.7–44.0%) against a fair share of 25.0%:
    significantly more (p < 0.001).`` (``who`` as given: bot names keep their case)."""
    if test.significant:
        verdict = (
            f"significantly {'more' if test.difference > 0 else 'less'} ({p_text(test.p_value)})"
        )
    else:
        verdict = f"not a significant difference ({p_text(test.p_value)})"
    return (
        f"{who} wins {pct(share.value)} of {of} (95% CI {pct_interval(share)}) against "
        f"a fair share of {pct(fair)}: {verdict}."
    )


def _planned(p: float) -> float:
    """The share ``PLANNED_DIFFERENCE`` away from ``p``, towards 50%."""
    return p + PLANNED_DIFFERENCE if p <= 0.5 else p - PLANNED_DIFFERENCE


def resolution_sentence(
    p: float, n1: int, n2: int, what: str = "win shares", *, lead: str = ""
) -> str:
    """What two batches of ``n1`` and ``n2`` games can tell, around a share ``p``, after
    ``lead`` and a colon when given:

    ``With 300 and 150 games, only win shares at least 13.6 percentage points apart can be told
    (95% confidence, 80% power); telling 5.0 percentage points needs 1,251 games in each.``
    """
    d = detectable_difference(p, n1, n2)
    start = f"{lead}: with" if lead else "With"
    return (
        f"{start} {count(n1)} and {count(n2)} games, only {what} at least {percentage_points(d)} "
        f"apart can be told (95% confidence, 80% power); telling "
        f"{percentage_points(PLANNED_DIFFERENCE)} needs "
        f"{count(games_to_detect(p, _planned(p)))} games in each."
    )


def comparison_verdict(test: ZTestResult, p: float, n1: int, n2: int) -> str:
    """The verdict of a two-proportion test of two batches around a share ``p``: significant,
    or how small a difference these games could not have told (not a bare "not
    significant", which reads as "no difference").

    ``the difference is significant (two-proportion z-test, p < 0.001)`` or
    ``there are not enough games to tell a difference smaller than 13.6 percentage points
    (300 and 150 games; two-proportion z-test, p = 0.41)``.
    """
    if test.significant:
        return f"the difference is significant (two-proportion z-test, {p_text(test.p_value)})"
    d = detectable_difference(p, n1, n2)
    return (
        f"there are not enough games to tell a difference smaller than {percentage_points(d)} "
        f"({count(n1)} and {count(n2)} games; two-proportion z-test, {p_text(test.p_value)})"
    )
