"""Deals as chance outcomes: every way the cards of a small configuration can fall, each with
its exact probability.

The engine deals by shuffling its whole deck with the state's RNG; a solver needs the same
distribution spelled out. Where a view shows card values only (the base game of *Why First?*,
WF-2), cards of one value are interchangeable, so a deal is enumerated by values: far fewer
outcomes, the same probabilities summed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

__all__ = ["Deal", "hands_by_value", "ordered_by_value"]


@dataclass(frozen=True)
class Deal:
    """One chance outcome: a start state of the engine and its probability."""

    probability: Fraction
    """Exact probability of the deal."""
    label: str
    """The deal in words (for the action string of the chance outcome)."""
    state: Any
    """The engine state at the start of the game with this deal (never changed: states made
    from it play on clones)."""


def hands_by_value(counts: Counter[int], size: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of ``size`` values drawn without replacement from ``counts``, with the
    probability that a uniformly drawn hand holds exactly those values."""
    values = sorted(counts)
    total = comb(sum(counts.values()), size)

    def grow(i: int, left: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if left == 0:
            yield (), 1
            return
        if i == len(values):
            return
        v = values[i]
        for m in range(min(left, counts[v]), -1, -1):
            for rest, ways in grow(i + 1, left - m):
                yield (v,) * m + rest, comb(counts[v], m) * ways

    for hand, ways in grow(0, size):
        yield hand, Fraction(ways, total)


def ordered_by_value(counts: Counter[int], size: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every sequence of ``size`` values drawn one by one without replacement from
    ``counts``, with its probability (for a face-down pile whose order matters, WF-9)."""
    if size == 0:
        yield (), Fraction(1)
        return
    left = sum(counts.values())
    for v in sorted(counts):
        if counts[v] == 0:
            continue
        rest = counts.copy()
        rest[v] -= 1
        for tail, p in ordered_by_value(rest, size - 1):
            yield (v, *tail), Fraction(counts[v], left) * p
