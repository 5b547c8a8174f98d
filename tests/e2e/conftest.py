"""Fixtures for browser tests: a real ``racedeck serve`` and Debian's Chromium.

``live_server`` yields the base URL of a server process on a free loopback port over a fresh
SQLite file (bots move at once). pytest-playwright's ``page``/``context``/``browser`` fixtures
launch ``/usr/bin/chromium`` with the arguments below (never a downloaded browser).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck.server.process import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """Launch Debian's Chromium headless (see the module docstring)."""
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A desktop-sized window; tests that want a phone set their own viewport."""
    return {**browser_context_args, "viewport": {"width": 1280, "height": 860}}


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """A real server on 127.0.0.1 with a fresh database; yields its base URL."""
    server = ServerProcess(tmp_path / "racedeck.sqlite", extra=["--bot-delay", "0"])
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
