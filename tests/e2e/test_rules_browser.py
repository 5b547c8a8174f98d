"""The rules pages in a real browser: the lobby links every game's rules, the new-table form
links the chosen game's, and a running table's header links its game's; each opens the page
(``/rules/<game-id>``, rendered from ``docs/rules``) in a new tab.

Screenshots of the lobby and of a rules page are taken only when ``$RACEDECK_SCREENSHOTS``
is set (``docs/screenshots`` in the repository), into that folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import DESKTOP, PHONE, create_table, shot_if_wanted, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, Page, expect

from racedeck import rulebook


def _opens_in_a_new_tab(page: Page, game_id: str, where: str) -> Page:
    """Click the rules link of ``game_id`` inside ``where`` and return the tab it opens."""
    link = page.locator(f"{where} [data-testid=rules-link][data-game={game_id}]")
    expect(link).to_have_attribute("target", "_blank")
    with page.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.wait_for_load_state()
    expect(tab).to_have_url(re.compile(rf"^http://127\.0\.0\.1:\d+/rules/{game_id}$"))
    expect(tab.locator("h1")).to_have_text(f"{rulebook.title(game_id)} — rules")
    return tab


def test_the_lobby_and_a_table_link_the_rules(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        games = page.get_by_test_id("games")
        for game_id in rulebook.available():
            expect(games.locator(f"[data-testid=rules-link][data-game={game_id}]")).to_have_text(
                "Rules"
            )
        form = page.get_by_test_id("new-table")
        page.get_by_test_id("game-select").select_option("setback")
        expect(form.get_by_test_id("rules-link")).to_have_text("Rules of Setback")
        snap_if_wanted(page, shots / "rules-lobby-desktop.png")

        tab = _opens_in_a_new_tab(page, "six-day-race", "[data-testid=games]")
        expect(tab.locator("#SD-5")).to_have_text("SD-5 · Slipstream")
        tab.close()
        tab = _opens_in_a_new_tab(page, "setback", "[data-testid=new-table]")
        expect(tab.locator("table")).to_contain_text("8 (2 FREE)")
        tab.goto(live_server + "/rules/setback#SB-9")
        expect(tab.locator("#SB-9")).to_be_in_viewport()
        shot_if_wanted(tab, shots / "rules-setback-desktop.png")  # the screen, at SB-9
        tab.close()

        # A table being played: the header links its game's rules; the table stays open.
        create_table(page, live_server, "why-first", ["random"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        header = page.get_by_test_id("table-header")
        expect(header.get_by_test_id("rules-link")).to_have_text("Rules")
        tab = _opens_in_a_new_tab(page, "why-first", "[data-testid=table-header]")
        expect(tab.get_by_test_id("rules")).to_contain_text("second-highest total")
        tab.close()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        snap_if_wanted(page, shots / "rules-table-link-desktop.png")
    finally:
        context.close()


def test_a_rules_page_on_a_phone(browser: Browser, live_server: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server + "/rules/why-first")
        expect(page.get_by_test_id("rules")).to_contain_text("WF-10 · Tactical variant")
        # Nothing is wider than the screen: no sideways scrolling to read the rules.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        shot_if_wanted(page, shots_dir(tmp_path) / "rules-why-first-phone.png")
        page.goto(live_server + "/rules/chess")
        expect(page.locator("h1")).to_have_text("No rules for chess")
        page.get_by_role("link", name="Six Day Race").last.click()
        expect(page.locator("h1")).to_have_text("Six Day Race — rules")
    finally:
        context.close()
