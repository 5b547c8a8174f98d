"""The table's header stays quiet: fairness and the spectator link are small badges that open
their details, so on a phone the hand is in view when it is your turn."""

from __future__ import annotations

from pathlib import Path

from helpers import create_table, shots_dir, snap
from playwright.sync_api import Browser, expect

PHONE_TALL = {"width": 390, "height": 844}


def test_on_a_phone_the_hand_is_in_view_under_a_quiet_header(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    ctx = browser.new_context(viewport=PHONE_TALL)
    try:
        page = ctx.new_page()
        create_table(page, live_server, "why-first", ["heuristic"])
        header = page.get_by_test_id("table-header")
        expect(page.get_by_test_id("fair-badge")).to_have_text("Fair deal")
        # The details wait behind their badges.
        expect(page.get_by_test_id("fairness")).to_be_hidden()
        expect(page.get_by_test_id("watch-link")).to_be_hidden()
        box = header.bounding_box()
        assert box is not None and box["height"] < 220, box
        # Ann's turn: every card she may play is on the screen without scrolling.
        cards = page.locator("[data-testid=board] [data-testid=card]:enabled")
        expect(cards.first).to_be_visible()
        for i in range(cards.count()):
            card = cards.nth(i).bounding_box()
            assert card is not None and card["y"] + card["height"] <= PHONE_TALL["height"], card
        snap(page, shots_dir(tmp_path) / "header-why-first-phone.png")

        # Share opens the spectator link; the fairness badge opens the commitment.
        page.get_by_test_id("share").click()
        expect(page.get_by_test_id("watch-link")).to_be_visible()
        expect(page.get_by_test_id("copy-watch")).to_be_visible()
        page.get_by_test_id("fair-badge").click()
        expect(page.get_by_test_id("commitment")).to_be_visible()
    finally:
        ctx.close()
