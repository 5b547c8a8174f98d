"""The shell in a real browser: create a table in the lobby, invite, a second person joins."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect


def test_create_invite_join_and_reload(browser: Browser, live_server: str) -> None:
    ann = browser.new_context(viewport={"width": 1280, "height": 860})
    bob = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = ann.new_page()
        page.goto(live_server + "/")
        page.get_by_test_id("game-select").select_option("why-first")
        page.get_by_test_id("your-name").fill("Ann")
        page.get_by_test_id("players").select_option("3")
        page.locator('[data-testid=seat-kind][data-seat="1"]').select_option("human")
        page.locator('[data-testid=seat-kind][data-seat="2"]').select_option("random")
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        invite = page.get_by_test_id("invite-link")
        expect(invite).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/t/"))
        expect(page.get_by_test_id("waiting")).to_contain_text("1 more person")
        link = invite.input_value()

        other = bob.new_page()
        other.goto(link)
        other.get_by_test_id("your-name").fill("Bob")
        other.get_by_test_id("join").click()
        expect(other.get_by_test_id("status")).to_have_attribute("data-state", "online")

        # The game starts for both: names on the scoreboard, the deal narrated.
        for p in (page, other):
            expect(p.get_by_test_id("scoreboard")).to_contain_text("Ann")
            expect(p.get_by_test_id("scoreboard")).to_contain_text("Bob")
            expect(p.get_by_test_id("log")).to_contain_text("Stage 1")
        expect(page.get_by_test_id("invite-link")).to_have_count(0)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")

        # A reload keeps the seat: the token is in localStorage, the view comes back.
        other.reload()
        expect(other.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(other.get_by_test_id("table-header")).to_contain_text("you are seat 2")

        # The lobby lists the table as being played.
        page.get_by_test_id("home").click()
        expect(page.get_by_test_id("lobby-table")).to_have_count(1)
    finally:
        ann.close()
        bob.close()
