"""The server's garbage collector policy (racedeck.server.collector): what lived a while is
frozen out of the automatic collections, and everything is collected once per period, on the
time given (the service's clock), so a garbage cycle frozen while it lived is freed after all."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from racedeck.server.collector import Collector


class Node:
    """A container that can be part of a cycle and be watched with a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """The test process's collector as it was (gc.freeze is process-wide)."""
    yield
    gc.unfreeze()


def test_what_lived_is_frozen_and_everything_is_collected_once_a_period() -> None:
    collector = Collector(freeze_every=5.0, full_every=60.0)
    a, b = Node(), Node()
    a.other, b.other = b, a
    watch = weakref.ref(a)
    assert collector.tick(0.0) is False
    assert gc.get_freeze_count() > 0
    # The cycle dies while frozen: no automatic collection looks at it …
    del a, b
    gc.collect()
    assert watch() is not None
    assert collector.tick(55.0) is False
    assert watch() is not None
    # … until the period's full collection, which frees it and freezes the rest again.
    assert collector.tick(60.0) is True
    assert watch() is None
    assert gc.get_freeze_count() > 0
    assert collector.tick(65.0) is False
    assert collector.tick(120.0) is True
