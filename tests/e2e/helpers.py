"""Steps the browser tests share: window sizes, screenshots, a server process, creating and
joining a table.

Screenshots are taken only when ``$RACEDECK_SCREENSHOTS`` names a folder for them
(``docs/screenshots`` in the repository): nobody looks at a test's temporary folder, and a
full page's PNG costs up to a second of the browser's CPU.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from racedeck.server.process import ServerProcess

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}

POLL_MS = 100
"""How often a long wait for the page (the bots' moves, the next thing offered) looks, in ms.
Playwright's default looks at every animation frame, which keeps the browser drawing 60 frames
a second for the whole wait: measured, twice the browser's CPU of the same wait polled every
100 ms. A state that lasts only a moment is caught by a MutationObserver instead."""


def shots_dir(tmp_path: Path) -> Path:
    """Where screenshots go: ``$RACEDECK_SCREENSHOTS`` or the test's own folder."""
    folder = Path(os.environ.get("RACEDECK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


ATTENTION = ("sdr-spin", "sb-pulse")
"""The animations that only draw the eye to the player on turn (a few turns of a halo): no
move on the board waits for them."""


def endless_animations(page: Page) -> list[str]:
    """The names of the animations on the page that never end (none may: a page that draws
    frames for as long as a person thinks keeps a phone busy and drains its battery)."""
    names: list[str] = page.evaluate(
        "document.getAnimations()"
        ".filter(a => a.effect.getComputedTiming().endTime === Infinity)"
        ".map(a => a.animationName || String(a.id) || 'an animation')"
    )
    return names


def moves_finished(page: Page) -> None:
    """Wait (up to 3 s) until the page's animations, the moves on a board, have ended; endless
    ones and the halo of the player on turn (:data:`ATTENTION`) do not count. For screenshots
    only: a screenshot mid-move is still worth having, so running out of time is no failure."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "names => document.getAnimations().every("
            "a => a.effect.getComputedTiming().endTime === Infinity"
            " || names.includes(a.animationName))",
            arg=list(ATTENTION),
            timeout=3000,
        )


WIDER_THAN_THE_WINDOW = """() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  const edge = root.clientWidth + 0.5;
  const classes = (e) => typeof e.className === 'string' && e.className.trim()
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '';
  const name = (e) => e.tagName.toLowerCase()
    + (e.dataset.testid ? `[data-testid=${e.dataset.testid}]` : '') + classes(e);
  const past = [...document.body.querySelectorAll('*')].filter(
    (e) => e.getBoundingClientRect().right > edge);
  // The innermost ones: an element past the edge only because of a child is left out.
  const innermost = past.filter((e) => !past.some((c) => c !== e && e.contains(c)));
  const found = innermost.slice(0, 8).map((e) => `${name(e)} ends at `
    + `${Math.round(e.getBoundingClientRect().right)}px: `
    + `"${(e.textContent || '').trim().slice(0, 60)}"`);
  return [`page ${root.scrollWidth}px wide in a ${root.clientWidth}px window`, ...found];
}"""


def wider_than_the_window(page: Page) -> list[str]:
    """What makes the page wider than its window (empty when it is not): the page's width and
    the innermost elements reaching past the window's right edge, each with its end and text,
    so a failing check names what to fix."""
    found: list[str] = page.evaluate(WIDER_THAN_THE_WINDOW)
    return found


def snap(page: Page, path: Path) -> None:
    """Wait for the moves on the board to finish animating, then take a full-page screenshot
    when screenshots are wanted (:func:`screenshots_wanted`). The wait is kept either way:
    a test's next step may read the board at rest."""
    moves_finished(page)
    if screenshots_wanted():
        page.screenshot(path=str(path), full_page=True)


def create_table(page: Page, base: str, game: str, seats: list[str], **options: str) -> None:
    """Ann creates a ``game`` table in the lobby; ``seats`` after hers: "human", a level or a
    bot's name (chosen as a custom bot, :func:`choose_bot`).

    ``options`` fill the game's option fields under "Custom rules" (a select is chosen from,
    a box typed into; a list option's value is given as JSON, ``"[10, 20]"``, and typed into
    its items' fields, adding or removing items as it needs).
    """
    page.goto(base + "/")
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("players").select_option(str(len(seats) + 1))
    if options:
        page.locator("details.options > summary").click()  # the custom rules fold open
        for name, value in options.items():
            fill_option(page, name, value)
    for i, kind in enumerate(seats, start=1):
        choose_bot(page, i, kind)
    page.get_by_test_id("create-table").click()
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))


LEVELS = ("beginner", "casual", "strong", "expert")


def choose_bot(page: Page, seat: int, kind: str) -> None:
    """Give ``seat`` of the new-table form to ``kind``: "human" or a level from the seat's
    list, any other bot under "Custom bot…" (``search@N`` with its budget)."""
    page.locator(f'[data-testid=seat-kind][data-seat="{seat}"]').select_option(
        kind if kind == "human" or kind in LEVELS else "custom"
    )
    if kind == "human" or kind in LEVELS:
        return
    name, _, budget = kind.partition("@")
    page.locator(f'[data-testid=seat-bot][data-seat="{seat}"]').select_option(name)
    if budget:
        page.locator(f'[data-testid=seat-budget][data-seat="{seat}"]').fill(budget)


def fill_option(page: Page, name: str, value: str) -> None:
    """Set option ``name`` of the new-table form (its custom rules open) to ``value``."""
    field = page.locator(f"[data-testid=option][data-option={name}]")
    tag = field.evaluate("e => e.tagName")
    if tag == "SELECT":
        field.select_option(value)
    elif field.get_attribute("type") == "checkbox":
        field.set_checked(json.loads(value))  # "true" or "false"
    elif tag == "FIELDSET":
        items = json.loads(value)
        boxes = field.get_by_test_id("option-item")
        while boxes.count() < len(items):
            field.get_by_test_id("option-add").click()
        while boxes.count() > len(items):
            field.get_by_test_id("option-remove").click()
        for i, item in enumerate(items):
            boxes.nth(i).fill(str(item))
    else:
        field.fill(value)


def invite_link(page: Page) -> str:
    """The invite link a table with a free seat shows its creator."""
    return page.get_by_test_id("invite-link").input_value()


def join(page: Page, link: str, name: str) -> None:
    """Take the free seat through the invite link."""
    page.goto(link)
    page.get_by_test_id("your-name").fill(name)
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")


def screenshots_wanted() -> bool:
    """Whether the browser tests keep their screenshots: only when ``$RACEDECK_SCREENSHOTS``
    names a folder for them (``docs/screenshots``). A plain test run takes none: nobody looks
    at a test's temporary folder, and a full page's PNG costs up to a second of CPU."""
    return bool(os.environ.get("RACEDECK_SCREENSHOTS"))


def snap_if_wanted(page: Page, path: Path) -> None:
    """:func:`snap` when screenshots are wanted (:func:`screenshots_wanted`), else nothing: for
    where no step after it depends on snap's wait for the board to come to rest."""
    if screenshots_wanted():
        snap(page, path)


def shot_if_wanted(page: Page, path: Path, *, full_page: bool = False) -> None:
    """``page.screenshot`` when screenshots are wanted (:func:`screenshots_wanted`)."""
    if screenshots_wanted():
        page.screenshot(path=str(path), full_page=full_page)


def serve(folder: Path, bot_delay: float) -> Iterator[str]:
    """A real server process on 127.0.0.1 with a database in ``folder``, its bots waiting
    ``bot_delay`` seconds before each move; yields its base URL, stops it afterwards."""
    # Every test of the process creates its tables from one address.
    server = ServerProcess(
        folder / "racedeck.sqlite",
        extra=["--bot-delay", str(bot_delay), "--max-creations", "100000"],
    )
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
