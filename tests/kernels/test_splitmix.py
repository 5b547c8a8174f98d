"""The compiled SplitMix64 draws (:mod:`racedeck.kernels.splitmix`) are
:class:`racedeck.core.rng.Rng`'s, draw for draw, and leave the stream where ``Rng`` leaves its
state."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from racedeck.core.rng import Rng
from racedeck.kernels.splitmix import below, next_u64


@settings(max_examples=200, deadline=None)
@given(
    state=st.integers(0, 2**64 - 1),
    bounds=st.lists(st.integers(1, 2**62), max_size=12),
)
def test_draws_are_the_engines(state: int, bounds: list[int]) -> None:
    streams = np.array([0, state], np.uint64)
    rng = Rng(state)
    assert int(next_u64(streams, 1)) == rng.next_u64()
    assert [below(streams, 1, n) for n in bounds] == [rng.below(n) for n in bounds]
    assert int(streams[1]) == rng.state
    assert streams[0] == 0
