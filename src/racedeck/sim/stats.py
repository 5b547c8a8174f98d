"""Statistics for simulations: win shares with confidence intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Share", "wilson_interval"]

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (shared wins count fractionally)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Share:
    """A proportion with its 95% interval."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, successes: float, n: int) -> Share:
        """The share ``successes / n`` with its Wilson interval."""
        low, high = wilson_interval(successes, n)
        return cls(successes / n if n else 0.0, low, high)
