"""Face-down commitments in the browser: the table page counts the *Why First?* cards committed
face down (WF-4) as they are placed, and at the end checks each against the record — and says
so, naming the move, when the record's card is not the one committed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from helpers import create_table, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, Route, expect

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def bots_table(live_server: str) -> str:
    """A *Why First?* table of three bots, one stage: twelve cards placed face down."""
    res = httpx.post(
        f"{live_server}/api/tables",
        json={
            "game": "why-first",
            "config": {"stages": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * 3,
        },
        trust_env=False,
    )
    return str(res.json()["table_id"])


def test_a_placed_card_is_counted_while_the_game_goes_on(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    create_table(page, live_server, "why-first", ["random", "random"], stages="1")
    line = page.get_by_test_id("face-down")
    board = page.get_by_test_id("wf-board")
    expect(board).to_have_attribute("data-phase", "commit")
    board.locator("[data-testid=card]:enabled").first.click()
    board.get_by_test_id("target").first.click()
    # Ann's card and the bots' are committed: at least hers before any reveal. The count is
    # in the fairness badge's details, which the header keeps folded until asked.
    expect(line).to_be_hidden()
    page.get_by_test_id("fair-badge").click()
    expect(line).to_be_visible()
    expect(line).to_have_text(re.compile(r"^[1-9]\d* face-down cards? committed$"))
    snap_if_wanted(page, shots_dir(tmp_path) / "face-down-committed-desktop.png")
    context.close()


def test_the_end_checks_every_face_down_card(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{live_server}/t/{bots_table(live_server)}")
        verified = page.get_by_test_id("face-down-verified")
        expect(verified).to_be_visible(timeout=30_000)
        expect(verified).to_have_text(
            "12 face-down cards checked: each is the card committed when it was placed"
        )
        expect(page.get_by_test_id("fair-verified")).to_be_visible()
        snap_if_wanted(page, shots_dir(tmp_path) / f"face-down-verified-{name}.png")
        context.close()


def test_a_changed_face_down_card_in_the_record_is_named(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    def tamper(route: Route) -> None:
        record = route.fetch().json()
        placed = record["actions"][1]["action"]
        placed["target"] = (placed["target"] + 1) % 3  # another figure, same value (WF-4)
        route.fulfill(content_type="application/json", body=json.dumps(record))

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.route("**/api/tables/*/record", tamper)
    page.goto(f"{live_server}/t/{bots_table(live_server)}")
    mismatch = page.get_by_test_id("face-down-mismatch")
    expect(mismatch).to_be_visible(timeout=30_000)
    expect(mismatch).to_have_text(
        "NOT verified: the face-down card of move 1 is not the one committed"
    )
    expect(page.get_by_test_id("face-down-verified")).to_have_count(0)
    snap_if_wanted(page, shots_dir(tmp_path) / "face-down-mismatch-desktop.png")
    context.close()
