"""Turn alerts in a real browser: the tab's title and icon say it is your turn; a sound and a
system notification, when asked for, come as a turn begins; the choices are remembered.

The browser's Notification API is replaced by a recorder before the page loads (a headless
browser shows no notifications to look at), and so is whether the page is in sight: the page
is told it is out of sight to check that a notification then comes. The bot decides when the
test moves the server's (simulated) time on, so a turn begins when the test says.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import PHONE, create_table, shot_if_wanted, shots_dir
from playwright.sync_api import Browser, Page, expect
from server.live import LiveServer

RECORDER = """
(() => {
  window.__notices = [];
  window.__away = false;
  class Recorder {
    constructor(title, options) { window.__notices.push(title); this.options = options; }
    close() {}
    static get permission() { return localStorage.getItem("__permission") || "default"; }
    static requestPermission() {
      localStorage.setItem("__permission", "granted");
      return Promise.resolve("granted");
    }
  }
  window.Notification = Recorder;
  Object.defineProperty(document, "visibilityState", {
    get: () => (window.__away ? "hidden" : "visible"),
  });
  document.hasFocus = () => !window.__away;
})();
"""


def _commit_a_card(page: Page) -> None:
    board = page.get_by_test_id("board")
    board.locator("[data-testid=card]:enabled").first.click()
    board.get_by_test_id("target").first.click()


def _sounds(page: Page) -> int:
    return int(page.get_by_test_id("alerts").get_attribute("data-sounds") or 0)


def test_title_icon_sound_and_notification_follow_the_turn(
    browser: Browser, paused_bots: LiveServer, tmp_path: Path
) -> None:
    ctx = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    try:
        ctx.add_init_script(RECORDER)
        page = ctx.new_page()
        create_table(page, paused_bots.url, "why-first", ["heuristic"])
        # Every seat is asked to commit: the title and the icon say it is Ann's turn.
        expect(page).to_have_title(re.compile(r"^▶ Your turn · Why First\? · racedeck$"))
        icon = page.locator("link[rel=icon]")
        expect(icon).to_have_attribute("href", "/static/favicon-alert.svg")

        alerts = page.get_by_test_id("alerts")
        expect(alerts).to_be_visible()
        alerts.locator("summary").click()
        shot_if_wanted(page, shots_dir(tmp_path) / "alerts-phone.png")
        page.get_by_test_id("alert-sound").check()
        # Turning the sound on plays it once, as it will sound.
        expect(alerts).to_have_attribute("data-sounds", "1")
        page.get_by_test_id("alert-notify").check()
        expect(page.get_by_test_id("alert-notify")).to_be_checked()
        alerts.locator("summary").click()  # the menu folds away again
        stored = page.evaluate("JSON.parse(localStorage.getItem('racedeck.alerts'))")
        assert stored == {"sound": True, "notify": True}

        # Ann commits and looks elsewhere: the bot still thinks, the title is the plain one.
        page.evaluate("window.__away = true")
        _commit_a_card(page)
        expect(page).to_have_title("Why First? · racedeck")
        expect(icon).to_have_attribute("href", "/static/favicon.svg")
        # The bot commits, the next round asks Ann: a sound, and a notification (out of sight).
        paused_bots.advance(1.0)
        expect(page).to_have_title(re.compile(r"^▶ Your turn"))
        expect(alerts).to_have_attribute("data-sounds", "2")
        assert page.evaluate("window.__notices") == ["Your turn · Why First? · racedeck"]

        # In sight, a new turn sounds but notifies nobody (the page itself shows it).
        page.evaluate("window.__away = false")
        _commit_a_card(page)
        expect(page).to_have_title("Why First? · racedeck")
        paused_bots.advance(1.0)
        expect(alerts).to_have_attribute("data-sounds", "3")
        assert len(page.evaluate("window.__notices")) == 1

        # The choices are this browser's: a reload keeps them, and the title follows the
        # language.
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("alert-sound")).to_be_checked()
        expect(page.get_by_test_id("alert-notify")).to_be_checked()
        page.get_by_test_id("lang-switch").select_option("nl")
        expect(page).to_have_title(re.compile(r"^▶ Jij bent aan de beurt · "))
    finally:
        ctx.close()


def test_a_spectator_gets_no_alerts(browser: Browser, live_server: str) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        create_table(page, live_server, "why-first", ["heuristic"])
        table_id = page.url.rsplit("/", 1)[1]
        watcher = ctx.new_page()
        watcher.goto(f"{live_server}/t/{table_id}/watch")
        expect(watcher.get_by_test_id("watching")).to_be_visible()
        expect(watcher.get_by_test_id("alerts")).to_be_hidden()
        expect(watcher).to_have_title("Why First? · racedeck")
    finally:
        ctx.close()
