"""The web client in four languages: chosen from the browser, switched in the top bar (the
choice kept across a reload), a live table redrawn in place, and no English narration in a
game played in another language."""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path

import test_six_day_race_browser as six_day_race
import test_why_first_browser as why_first
from helpers import DESKTOP, PHONE, create_table, shots_dir, snap
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# English words the narration of each game uses; none may show up in another language.
ENGLISH = re.compile(
    r"\b(?:begins|hand for|has chosen|revealed|moves|scored|Game over|wins|Race \d|starts|"
    r"plays|draws|crosses|the line|turn|lanes|is dealt|Nobody|cancelled|reaches)\b"
)


def log_lines(page: Page) -> list[str]:
    return page.get_by_test_id("log").locator("li").all_inner_texts()


def test_browser_locale_picks_dutch(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="nl-NL")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        expect(page.get_by_test_id("new-table")).to_contain_text("Nieuwe tafel")
        expect(page.get_by_test_id("lang-switch")).to_have_value("nl")
        expect(page.get_by_test_id("create-table")).to_have_text("Tafel maken")
    finally:
        context.close()


def test_switch_changes_lobby_and_live_table_and_persists(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.get_by_test_id("new-table")).to_contain_text("New table")
        page.get_by_test_id("lang-switch").select_option("fr")
        expect(page.get_by_test_id("new-table")).to_contain_text("Nouvelle table")
        expect(page.locator("html")).to_have_attribute("lang", "fr")

        # A live table against bots; the switch redraws it and the socket stays open.
        create_table(page, live_server, "why-first", ["random", "random"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("log")).to_contain_text("La manche 1 commence")
        expect(page.get_by_test_id("table-header")).to_contain_text("vous êtes à la place 1")
        opened = page.evaluate("performance.getEntriesByType('resource').length")
        page.get_by_test_id("lang-switch").select_option("de")
        expect(page.get_by_test_id("log")).to_contain_text("Etappe 1 beginnt")
        expect(page.get_by_test_id("table-header")).to_contain_text("du bist Platz 1")
        expect(page.get_by_test_id("board")).to_contain_text("Etappe 1 von 5")
        expect(page.get_by_test_id("status")).to_have_text("verbunden")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert page.evaluate("performance.getEntriesByType('resource').length") >= opened

        # The choice is kept: a reload comes back in German.
        page.reload()
        expect(page.get_by_test_id("lang-switch")).to_have_value("de")
        expect(page.get_by_test_id("log")).to_contain_text("Etappe 1 beginnt")
        snap(page, shots_dir(tmp_path) / "lang-de-why-first-desktop.png")
    finally:
        context.close()


def setback_turn(page: Page, rng: random.Random) -> None:
    """One Setback choice, whatever the language: pass when asked in a BLOCK window, else a
    card, one of its options, or an action button."""
    board = page.get_by_test_id("board")
    with contextlib.suppress(PlaywrightTimeout):  # the board moved on meanwhile: ask again
        passing = board.locator(
            """[data-testid=window] [data-testid=action][data-action='{"type":"pass"}']"""
        )
        if passing.count():
            passing.click(timeout=2000)
            return
        for what in (
            "[data-testid=choice]:enabled",
            "[data-testid=card]",
            "[data-testid=action]:enabled",
        ):
            found = board.locator(what)
            if found.count():
                found.nth(rng.randrange(found.count())).click(timeout=2000)
                return


def play_to_the_end(page: Page, game: str, rng: random.Random) -> None:
    """Play the choices offered until the standings show (a bot fills the other seat)."""
    if game == "why-first":
        why_first.play_to_the_end([page], rng)
        expect(page.get_by_test_id("standings")).to_be_visible()
        return
    deadline = time.monotonic() + 300
    while not page.get_by_test_id("standings").is_visible():
        assert time.monotonic() < deadline, f"{game} did not end in time"
        if game == "six-day-race":
            six_day_race.take_turn(page, rng)
        else:
            setback_turn(page, rng)
        page.wait_for_timeout(120)


def test_games_played_in_dutch_show_no_english(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=PHONE, locale="nl-BE")
    try:
        page = context.new_page()
        rng = random.Random(12)
        for game, options in (
            ("why-first", {"stages": "1", "hand_size": "2"}),
            ("six-day-race", {"races": "1"}),
            ("setback", {"rows": "2", "window_seconds": "0"}),
        ):
            create_table(page, live_server, game, ["random"], **options)
            expect(page.get_by_test_id("status")).to_have_text("verbonden")
            play_to_the_end(page, game, rng)
            expect(page.get_by_test_id("standings")).to_contain_text("Nog een keer")
            lines = log_lines(page)
            assert lines, f"{game}: nothing narrated"
            english = [line for line in lines if ENGLISH.search(line)]
            assert english == [], f"{game}: English narration {english[:3]}"
            assert not ENGLISH.search(page.get_by_test_id("waiting").inner_text())
            snap(page, shots_dir(tmp_path) / f"lang-nl-{game}-end-phone.png")
    finally:
        context.close()
