"""How much random play the randomised tests do: one switch for a longer run.

``make test`` runs the counts written in the tests (budget 1). ``RACEDECK_TEST_BUDGET=4``
multiplies every count that goes through :func:`scaled` — Hypothesis examples, seeds, games
and pairs of worlds — by four (``0.5`` halves them, for a quick look); ``scripts/soak.py``
runs the referee's simulated tables for as long as one likes.
"""

from __future__ import annotations

import os

ENV = "RACEDECK_TEST_BUDGET"
BUDGET = float(os.environ.get(ENV) or "1")
"""The multiplier read from ``RACEDECK_TEST_BUDGET`` (1 when unset)."""
if BUDGET <= 0:
    raise ValueError(f"{ENV} must be a positive number, not {BUDGET}")


def scaled(count: int, least: int = 1) -> int:
    """``count`` times the budget, rounded, and never below ``least``: a test that needs a
    number of cases to meet what it checks gives that number as ``least``."""
    return max(least, round(count * BUDGET))
