"""The tests of significance against values from statistical tables."""

from __future__ import annotations

import json
import math

import pytest

from racedeck.report.stats import (
    chi_square_sf,
    detectable_difference,
    equal_shares_test,
    games_to_detect,
    mean_difference_test,
    mean_of,
    normal_quantile,
    normal_two_sided_p,
    proportion_test,
    seat_gap_test,
    two_proportion_test,
)


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        (3.841458820694124, 1, 0.05),  # the 95% points of the chi-square table
        (5.991464547107979, 2, 0.05),
        (7.814727903251178, 3, 0.05),
        (11.070497693516351, 5, 0.05),
        (6.634896601021214, 1, 0.01),
        (0.5, 3, 0.918891411654676),
        (30.0, 5, 1.4748581038443e-05),
        (2.0, 2, math.exp(-1.0)),  # two degrees of freedom: exactly exp(-x/2)
        (0.0, 4, 1.0),
    ],
)
def test_chi_square_tail(statistic: float, df: int, p: float) -> None:
    assert chi_square_sf(statistic, df) == pytest.approx(p, rel=1e-9, abs=1e-12)


def test_normal_tail() -> None:
    assert normal_two_sided_p(1.959963984540054) == pytest.approx(0.05)
    assert normal_two_sided_p(0.0) == 1.0


def test_equal_shares_are_not_significant_and_unequal_ones_are() -> None:
    assert equal_shares_test([250, 250, 250, 250]).p_value == 1.0
    fair = equal_shares_test([260, 245, 250, 245])
    assert fair.statistic == pytest.approx(0.6)
    assert not fair.significant
    lopsided = equal_shares_test([300, 250, 230, 220])
    assert lopsided.statistic == pytest.approx(15.2)
    assert lopsided.df == 3
    assert lopsided.significant


def test_seat_gap_uses_the_multinomial_variance_and_bonferroni() -> None:
    best, worst, gap = seat_gap_test([0.3, 0.25, 0.23, 0.22], 1000)
    assert (best, worst) == (0, 3)
    assert gap.difference == pytest.approx(0.08)
    assert gap.z == pytest.approx(0.08 / math.sqrt((0.52 - 0.08**2) / 1000))
    assert gap.comparisons == 6
    assert gap.p_value == pytest.approx(6 * normal_two_sided_p(gap.z))


def test_two_proportions() -> None:
    test = two_proportion_test(420, 1000, 380, 1000)
    assert test.z == pytest.approx(1.8257418583505527)
    assert not test.significant
    assert two_proportion_test(450, 1000, 380, 1000).significant


def test_proportion_against_a_fair_share() -> None:
    assert proportion_test(418, 1000, 0.25).significant
    assert not proportion_test(262, 1000, 0.25).significant


def test_means() -> None:
    m = mean_of([1.0, 2.0, 3.0, 4.0])
    assert (m.value, m.sd) == pytest.approx((2.5, math.sqrt(5 / 3)))
    assert m.low < 2.5 < m.high
    assert mean_difference_test([1.0, 2.0] * 50, [1.0, 2.0] * 50).p_value == 1.0
    assert mean_difference_test([3.0, 4.0] * 50, [1.0, 2.0] * 50).significant


def test_a_certain_difference_still_has_a_json_form() -> None:
    # Seat 1 won every game: no spread at all, an infinite z and a p-value of 0.
    _, _, gap = seat_gap_test([1.0, 0.0], 10)
    assert gap.z == math.inf and gap.p_value == 0.0 and gap.significant
    assert json.loads(json.dumps(gap.to_json(), allow_nan=False))["z"] is None


@pytest.mark.parametrize(
    ("p1", "p2", "games"),
    [
        # The standard two-proportion sample size (Fleiss, no continuity correction) at 95%
        # confidence and 80% power, worked by hand from z = 1.959964 and 0.841621:
        (0.50, 0.60, 388),  # (1.95996·√0.495 + 0.84162·√0.49)² / 0.1² = 387.3
        (0.65, 0.85, 73),  # (1.95996·√0.375 + 0.84162·√0.355)² / 0.2² = 72.4
        (0.25, 0.30, 1251),  # (1.95996·√0.39875 + 0.84162·√0.3975)² / 0.05² = 1250.7
        (0.60, 0.50, 388),  # the order of the two shares does not matter
    ],
)
def test_games_to_detect_a_difference(p1: float, p2: float, games: int) -> None:
    assert games_to_detect(p1, p2) == games


def test_normal_quantiles() -> None:
    assert normal_quantile(0.975) == pytest.approx(1.959963984540054, abs=1e-9)
    assert normal_quantile(0.8) == pytest.approx(0.8416212335729143, abs=1e-9)
    assert normal_quantile(0.5) == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="0 < q < 1"):
        normal_quantile(1.0)


def test_the_detectable_difference_inverts_the_sample_size() -> None:
    # 388 games each tell 50% from 60%; 387 fall just short of it.
    assert detectable_difference(0.5, 388, 388) == pytest.approx(0.0999, abs=2e-4)
    assert detectable_difference(0.5, 387, 387) > detectable_difference(0.5, 388, 388)
    assert detectable_difference(0.25, 1251, 1251) == pytest.approx(0.05, abs=2e-4)
    # Fewer games tell only larger differences; the batch named first does not matter.
    assert detectable_difference(0.25, 150, 150) == pytest.approx(0.151, abs=1e-3)
    assert detectable_difference(0.25, 300, 150) == detectable_difference(0.25, 150, 300)
    assert detectable_difference(0.25, 300, 150) < detectable_difference(0.25, 150, 150)
    # Two games each can tell nothing: the whole room up to 100% is returned.
    assert detectable_difference(0.25, 2, 2) == 0.75
    with pytest.raises(ValueError, match="games in both batches"):
        detectable_difference(0.25, 0, 10)
