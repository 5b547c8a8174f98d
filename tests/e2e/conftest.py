"""Fixtures for browser tests: a real server and Debian's Chromium.

``live_server`` yields the base URL of a ``racedeck serve`` process on a free loopback port
over its own SQLite file (bots move at once). It is started once per test process and shared
by its tests: each makes tables of its own, and nothing a test checks depends on the others'.
``sim_server`` is a server in the test's own process on simulated time, for what depends on
time (clocks running out, a stand-in bot's pause): the test moves the time with
:meth:`~server.live.LiveServer.advance` and never waits for it; every frame it sends passes
the leak checker of :mod:`server.live`. pytest-playwright's ``page``/``context``/``browser``
fixtures launch Debian's Chromium headless shell (package ``chromium-headless-shell``, which
``make test`` installs) with the arguments below, never a downloaded browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import serve
from playwright.sync_api import Browser, Page
from server.live import FrameChecker, LiveServer, serving

from racedeck.server.timekeeper import SimulatedClock

CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
"""Chromium's headless shell: the same engine as the browser (Blink, V8, the same pages and
screenshots), without the browser's own interface, and the headless Chromium Playwright itself
chooses. The browser tests spent most of their CPU in Chromium: with the shell instead of
``chromium --headless=new`` they took 30% less time (146 → 102 s on two cores, measured back to
back), every test passing on both."""
CHROMIUM_ARGS = [
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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process with a database of its own, whose bots move at once; yields its
    base URL."""
    yield from serve(tmp_path_factory.mktemp("live-server"), 0)


def _simulated(db: Path, bot_delay: float) -> Iterator[LiveServer]:
    with serving(db, FrameChecker(), clock=SimulatedClock(), bot_delay=bot_delay) as live:
        yield live


@pytest.fixture
def sim_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server on simulated time (see the module docstring) whose bots move at once; fails
    the test if any frame it sent leaked or was malformed."""
    yield from _simulated(tmp_path / "racedeck.sqlite", 0.0)


@pytest.fixture
def paused_bots(tmp_path: Path) -> Iterator[LiveServer]:
    """As ``sim_server``, but each bot move waits a second of the server's time: a bot
    decides only when the test moves the time on."""
    yield from _simulated(tmp_path / "racedeck.sqlite", 1.0)


@pytest.fixture(scope="module")
def lobby(browser: Browser, live_server: str) -> Iterator[Page]:
    """One lobby page shared by a module's tests that only word things in it (each sets the
    language it words in, and none changes what the page shows): a browser context and a cold
    page load cost more than most such checks."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(live_server + "/")
        yield page
    finally:
        ctx.close()
