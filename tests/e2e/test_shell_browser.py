"""The shell in a real browser: create a table in the lobby, invite, a second person joins."""

from __future__ import annotations

import re

from helpers import DESKTOP, PHONE, create_table, invite_link, join
from playwright.sync_api import Browser, expect


def test_create_invite_join_and_reload(browser: Browser, live_server: str) -> None:
    ann = browser.new_context(viewport=DESKTOP)
    bob = browser.new_context(viewport=PHONE)
    try:
        page = ann.new_page()
        create_table(page, live_server, "why-first", ["human", "random"])
        invite = page.get_by_test_id("invite-link")
        expect(invite).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/t/"))
        expect(page.get_by_test_id("waiting")).to_contain_text("1 more person")
        link = invite_link(page)

        other = bob.new_page()
        join(other, link, "Bob")

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
        table_id = page.url.rsplit("/", 1)[1]
        page.get_by_test_id("home").click()
        expect(page.locator(f'[data-testid=lobby-table][data-table="{table_id}"]')).to_have_count(1)
    finally:
        ann.close()
        bob.close()
