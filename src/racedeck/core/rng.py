"""A small, portable, seedable random number generator that lives inside game states.

States carry their own RNG so that `apply` is deterministic and a state round-trips through
JSON: the whole generator is one 64-bit integer. The algorithm is SplitMix64, fixed forever
(records and golden files depend on it), independent of the Python version.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["Rng", "derive_seed"]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_GROUP_LIMIT = 1 << 56  # keeps the rejection chance of a grouped draw below 1/256

T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


_PLANS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_plan(n: int) -> tuple[tuple[int, int, int], ...]:
    """Groups ``(top, bottom, limit)`` of Fisher–Yates steps served by one 64-bit draw each."""
    plan = _PLANS.get(n)
    if plan is None:
        groups = []
        i = n - 1
        while i > 0:
            radix, k = 1, i
            while k > 0 and radix * (k + 1) <= _GROUP_LIMIT:
                radix *= k + 1
                k -= 1
            groups.append((i, k, (1 << 64) - ((1 << 64) % radix)))
            i = k
        plan = _PLANS[n] = tuple(groups)
    return plan


def derive_seed(seed: int, *path: int) -> int:
    """Derive an independent 64-bit seed from ``seed`` and a path of integers.

    Used to give game number ``i`` of a simulation, or bot ``k`` of a game, its own stream
    that does not depend on how work is split between processes.
    """
    z = seed & _MASK
    for p in path:
        z = _mix((z + _GAMMA * (p + 1)) & _MASK)
    return _mix(z)


class Rng:
    """SplitMix64 generator whose entire state is the integer ``state``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        """Return the next 64-bit output and advance."""
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, uniform).

        Several swap indices are cut from one 64-bit draw (mixed radix, with rejection so each
        stays exactly uniform): a 32-card deck costs three draws instead of thirty-one.
        """
        for top, bottom, limit in _shuffle_plan(len(items)):
            x = self.next_u64()
            while x >= limit:
                x = self.next_u64()
            for i in range(top, bottom, -1):
                x, j = divmod(x, i + 1)
                items[i], items[j] = items[j], items[i]

    def copy(self) -> Rng:
        """Return an independent generator in the same state."""
        return Rng(self.state)
