"""Every test of this folder runs against a real server in a thread whose every outbound
frame passes the leak checker (see :mod:`server.live`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.live import FrameChecker, LiveServer, serving


@pytest.fixture
def checker() -> FrameChecker:
    return FrameChecker()


@pytest.fixture
def server(tmp_path: Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A started :class:`LiveServer`; fails the test if any frame it sent leaked or was
    malformed."""
    with serving(tmp_path / "tables.sqlite", checker) as live:
        yield live
