"""Tests of significance for balance reports, in plain Python (no statistics package needed).

* Are the seats' win shares equal? Pearson's chi-square goodness-of-fit test of the win counts
  against equal shares (:func:`equal_shares_test`).
* How far apart are two seats of the same games? Their win shares come from one multinomial
  sample, so the difference has variance ``(p_a + p_b - (p_a - p_b)^2) / n``
  (:func:`seat_gap_test`); picking the best and worst seat after the fact is paid for with a
  Bonferroni correction over all pairs.
* Do two independent batches differ? A two-proportion z-test (:func:`two_proportion_test`),
  and for means a large-sample z-test with unequal variances (:func:`mean_difference_test`).
* Does a share differ from a fair share? A one-proportion score test (:func:`proportion_test`);
  its interval is Wilson's, from :mod:`racedeck.sim.stats`.
* How many games does a comparison need? The standard sample size of a two-proportion test
  (:func:`games_to_detect`), and the other way round the smallest difference a given number of
  games can tell (:func:`detectable_difference`), at 95% confidence and 80% power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ALPHA",
    "POWER",
    "ChiSquareResult",
    "Mean",
    "ZTestResult",
    "chi_square_sf",
    "detectable_difference",
    "equal_shares_test",
    "games_to_detect",
    "mean_difference_test",
    "mean_of",
    "normal_quantile",
    "normal_two_sided_p",
    "proportion_test",
    "seat_gap_test",
    "two_proportion_test",
]

ALPHA = 0.05
"""Significance level of every test in a report (95% confidence)."""

POWER = 0.8
"""Chance that a comparison finds a difference of the size it was planned for (80% power)."""

_Z95 = 1.959963984540054


def normal_two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def normal_quantile(q: float) -> float:
    """The standard normal ``x`` with ``P(X <= x) = q`` (``0 < q < 1``), by bisection on the
    distribution function to within 1e-12."""
    if not 0 < q < 1:
        raise ValueError(f"a quantile needs 0 < q < 1, not {q}")
    lo, hi = -40.0, 40.0
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2.0)) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def games_to_detect(p1: float, p2: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Games each of two batches needs for a two-sided two-proportion z-test at level
    ``alpha`` to find win shares ``p1`` and ``p2`` different with probability ``power``.

    The standard formula (Fleiss, without continuity correction), rounded up::

        n = (z(1 - alpha/2) * sqrt(2 * pm * (1 - pm)) + z(power) * sqrt(p1*(1-p1) + p2*(1-p2)))²
            / (p1 - p2)²

    with ``pm = (p1 + p2) / 2``, the pooled share under "no difference". At 95% confidence
    and 80% power (z = 1.960 and 0.842): 388 games each for 50% against 60%.
    """
    if p1 == p2:
        raise ValueError("equal shares need no games to tell apart, or infinitely many")
    pm = (p1 + p2) / 2
    za = normal_quantile(1 - alpha / 2)
    zb = normal_quantile(power)
    root = za * math.sqrt(2 * pm * (1 - pm)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    # The rounding guard keeps a result that is whole up to float error from rising by one.
    return math.ceil(root**2 / (p1 - p2) ** 2 - 1e-9)


def detectable_difference(
    p: float, n1: int, n2: int, alpha: float = ALPHA, power: float = POWER
) -> float:
    """The smallest difference ``d`` in win share that two independent batches of ``n1`` and
    ``n2`` games tell apart from chance at level ``alpha`` with probability ``power``, around a
    share of ``p`` (e.g. the fair share).

    It solves the power equation of the pooled two-proportion z-test for ``d``::

        z(1 - alpha/2) * sqrt(pm * (1 - pm) * (1/n1 + 1/n2))
            + z(power) * sqrt(p1*(1-p1)/n1 + p2*(1-p2)/n2) = d

    with ``p1 = p`` in the larger batch, ``p2 = p + d`` in the smaller (towards 50%, where
    shares vary most: the cautious side) and ``pm`` their mean weighted by the games; for
    ``n1 = n2 = n`` it is the inverse of :func:`games_to_detect`. Returns the largest possible
    difference when even that cannot be told (too few games for anything).
    """
    if n1 < 1 or n2 < 1:
        raise ValueError("a comparison needs games in both batches")
    n1, n2 = max(n1, n2), min(n1, n2)  # the same answer whichever batch is named first
    za = normal_quantile(1 - alpha / 2)
    zb = normal_quantile(power)
    sign = 1.0 if p <= 0.5 else -1.0
    room = 1 - p if sign > 0 else p

    def needed(d: float) -> float:
        p2 = p + sign * d
        pm = (n1 * p + n2 * p2) / (n1 + n2)
        se0 = math.sqrt(pm * (1 - pm) * (1 / n1 + 1 / n2))
        se1 = math.sqrt(p * (1 - p) / n1 + p2 * (1 - p2) / n2)
        return za * se0 + zb * se1 - d

    if needed(room) > 0:
        return room
    lo, hi = 0.0, room
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        if needed(mid) > 0:
            lo = mid
        else:
            hi = mid
    return hi


def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function Q(a, x) (series or continued fraction)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        # Series for P(a, x); Q = 1 - P.
        term = total = 1.0 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction for Q(a, x).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(log_front))


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a chi-square distribution needs at least one degree of freedom")
    return _gamma_q(df / 2.0, statistic / 2.0)


@dataclass(frozen=True, slots=True)
class ChiSquareResult:
    """A chi-square test: statistic, degrees of freedom, p-value and sample size."""

    statistic: float
    df: int
    p_value: float
    n: float

    @property
    def significant(self) -> bool:
        """True when the p-value is below :data:`ALPHA`."""
        return self.p_value < ALPHA

    def to_json(self) -> dict[str, float | int | str]:
        """Return the JSON form."""
        return {
            "test": "chi-square goodness of fit against equal shares",
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "n": self.n,
        }


def equal_shares_test(counts: Sequence[float]) -> ChiSquareResult:
    """Pearson's chi-square test that ``counts`` (wins by seat) come from equal shares.

    Shared wins count fractionally, which keeps the total equal to the games won by these
    seats; the test is then approximate, as it is for any small expected count.
    """
    total = float(sum(counts))
    k = len(counts)
    if k < 2 or total <= 0:
        return ChiSquareResult(0.0, max(1, k - 1), 1.0, total)
    expected = total / k
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return ChiSquareResult(statistic, k - 1, chi_square_sf(statistic, k - 1), total)


@dataclass(frozen=True, slots=True)
class ZTestResult:
    """A z-test of a difference ``a - b``; ``p_value`` is two-sided and already corrected for
    ``comparisons`` (Bonferroni) when there were several."""

    a: float
    b: float
    difference: float
    z: float
    p_value: float
    comparisons: int = 1

    @property
    def significant(self) -> bool:
        """True when the (corrected) p-value is below :data:`ALPHA`."""
        return self.p_value < ALPHA

    def to_json(self) -> dict[str, float | int | None]:
        """Return the JSON form."""
        return {
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "z": self.z if math.isfinite(self.z) else None,  # JSON has no infinity
            "p_value": self.p_value,
            "comparisons": self.comparisons,
        }


def _z_result(a: float, b: float, se: float, comparisons: int = 1) -> ZTestResult:
    diff = a - b
    if se > 0:
        z = diff / se
    elif diff == 0:
        z = 0.0
    else:  # no spread at all, yet a difference: as certain as it gets
        z = math.copysign(math.inf, diff)
    p = min(1.0, normal_two_sided_p(z) * comparisons)
    return ZTestResult(a, b, diff, z, p, comparisons)


def seat_gap_test(shares: Sequence[float], n: int) -> tuple[int, int, ZTestResult]:
    """The best and the worst of several seats' win shares over the same ``n`` games.

    Returns ``(best, worst, test)``: a z-test of the difference of two cells of one
    multinomial sample, Bonferroni-corrected for all ``k(k-1)/2`` pairs of seats since the
    pair was chosen for being the farthest apart.
    """
    k = len(shares)
    best = max(range(k), key=lambda i: shares[i])
    worst = min(range(k), key=lambda i: shares[i])
    pa, pb = shares[best], shares[worst]
    var = (pa + pb - (pa - pb) ** 2) / n if n else 0.0
    return best, worst, _z_result(pa, pb, math.sqrt(max(var, 0.0)), k * (k - 1) // 2)


def two_proportion_test(x1: float, n1: int, x2: float, n2: int) -> ZTestResult:
    """Two-proportion z-test (pooled) of independent samples: ``x1/n1`` against ``x2/n2``."""
    if n1 == 0 or n2 == 0:
        return ZTestResult(0.0, 0.0, 0.0, 0.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return _z_result(p1, p2, se)


def proportion_test(x: float, n: int, p0: float) -> ZTestResult:
    """One-proportion score test of ``x/n`` against the share ``p0`` (e.g. a fair share)."""
    if n == 0 or not 0 < p0 < 1:
        return ZTestResult(0.0, p0, 0.0, 0.0, 1.0)
    return _z_result(x / n, p0, math.sqrt(p0 * (1 - p0) / n))


@dataclass(frozen=True, slots=True)
class Mean:
    """A sample mean with its standard deviation and normal 95% interval."""

    value: float
    sd: float
    low: float
    high: float
    n: int

    @property
    def se(self) -> float:
        """Standard error of the mean."""
        return self.sd / math.sqrt(self.n) if self.n else 0.0


def mean_of(values: Sequence[float]) -> Mean:
    """Mean, standard deviation (n - 1) and 95% interval of ``values``."""
    n = len(values)
    if n == 0:
        return Mean(0.0, 0.0, 0.0, 0.0, 0)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = _Z95 * sd / math.sqrt(n)
    return Mean(m, sd, m - half, m + half, n)


def mean_difference_test(a: Sequence[float], b: Sequence[float]) -> ZTestResult:
    """Large-sample z-test that two independent samples have the same mean (Welch's
    standard error; with hundreds of games the t and normal distributions agree)."""
    ma, mb = mean_of(a), mean_of(b)
    return _z_result(ma.value, mb.value, math.sqrt(ma.se**2 + mb.se**2))
