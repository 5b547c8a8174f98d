"""SplitMix64 streams for compiled code: :class:`racedeck.core.rng.Rng` on a slot of an array.

A compiled loop keeps one stream per game (or per search) as a ``uint64`` in an array, and
draws from it in place: ``next_u64(streams, i)`` is ``Rng(streams[i]).next_u64()`` with the
advanced state written back, ``below(streams, i, n)`` is ``Rng.below(n)``, exactly (the tests
compare them), so a compiled draw and the engine's agree where a kernel must reproduce it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from racedeck.kernels.why_first import _jit

__all__ = ["below", "next_u64"]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@_jit(inline=True, cache=True)
def next_u64(streams: NDArray[np.uint64], i: int) -> np.uint64:
    """The next 64-bit output of stream ``streams[i]``, which advances."""
    z = streams[i] + _GAMMA
    streams[i] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))  # type: ignore[no-any-return]


@_jit(inline=True, cache=True)
def below(streams: NDArray[np.uint64], i: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` from stream ``streams[i]``, by rejection as
    :meth:`racedeck.core.rng.Rng.below` draws it (``n >= 1``)."""
    un = np.uint64(n)
    # 2**64 - (2**64 % n), computed in 64 bits: (2**64 - n) % n == 2**64 % n.
    limit = np.uint64(0) - ((np.uint64(0) - un) % un)
    while True:
        x = next_u64(streams, i)
        if limit == np.uint64(0) or x < limit:
            return int(x % un)
