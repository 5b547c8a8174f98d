"""The table's header stays quiet: fairness and the spectator link are small badges that open
their details, so on a phone the hand is in view when it is your turn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import create_table, shots_dir, snap_if_wanted
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
        # One look at every card (the board is drawn again as the bot's frames come in).
        bottoms = cards.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().bottom)")
        assert bottoms and max(bottoms) <= PHONE_TALL["height"], bottoms
        snap_if_wanted(page, shots_dir(tmp_path) / "header-why-first-phone.png")

        # Share opens the spectator link; the fairness badge opens the commitment.
        page.get_by_test_id("share").click()
        expect(page.get_by_test_id("watch-link")).to_be_visible()
        expect(page.get_by_test_id("copy-watch")).to_be_visible()
        page.get_by_test_id("fair-badge").click()
        expect(page.get_by_test_id("commitment")).to_be_visible()
    finally:
        ctx.close()


def test_two_bots_of_one_kind_have_distinct_names(browser: Browser, live_server: str) -> None:
    ctx = browser.new_context(viewport=PHONE_TALL)
    try:
        page = ctx.new_page()
        create_table(page, live_server, "why-first", ["heuristic", "heuristic"])
        rows = page.get_by_test_id("scoreboard").get_by_test_id("score")
        expect(rows).to_have_count(3)
        expect(rows.nth(1)).to_contain_text("heuristic bot 2")
        expect(rows.nth(2)).to_contain_text("heuristic bot 3")
        expect(page.get_by_test_id("log")).to_contain_text("heuristic bot 2")
        page.get_by_test_id("lang-switch").select_option("de")
        expect(rows.nth(2)).to_contain_text("Heuristik-Bot 3")
    finally:
        ctx.close()


def test_the_finished_games_show_the_latest_five_then_the_rest_on_request(
    browser: Browser, live_server: str
) -> None:
    """The list of finished games is paged (its answer is made up here: seven games)."""
    ctx = browser.new_context(viewport=PHONE_TALL)
    try:
        page = ctx.new_page()
        games = [
            {
                "game_no": n,
                "finished": "2026-11-27T12:00:00+00:00",
                "winners": ["Ann"],
                "bot_played": [],
                "outcome": {"names": ["Ann", "heuristic bot"]},
                "record_url": f"/api/tables/x/games/{n}/record",
            }
            for n in range(1, 8)
        ]
        page.route(
            "**/api/tables/*/games",
            lambda route: route.fulfill(json={"games": games}),
        )
        create_table(page, live_server, "why-first", ["heuristic"])
        shown = page.locator("[data-testid=finished-game]:visible")
        expect(shown).to_have_count(5)
        expect(shown.first).to_have_attribute("data-game-no", "7")  # the latest first
        more = page.get_by_test_id("more-finished")
        expect(more).to_have_text("Show 2 earlier games")
        more.click()
        expect(shown).to_have_count(7)
        expect(more).to_be_hidden()
    finally:
        ctx.close()


def test_every_setback_card_says_what_it_does(browser: Browser, live_server: str) -> None:
    """A tooltip with its rule on every card, in the hand and on the board (TRADE, CUT and
    REVAMP too)."""
    ctx = browser.new_context(viewport=PHONE_TALL)
    try:
        page = ctx.new_page()
        create_table(page, live_server, "setback", ["heuristic"])
        expect(page.locator(".sb-hand .sb-hc").first).to_be_attached()
        tips = page.locator(".sb-hand .sb-hc").evaluate_all("cs => cs.map(c => c.title)")
        board = page.locator("[data-testid=board] g.sb-card > title").evaluate_all(
            "ts => ts.map(t => t.textContent)"
        )
        cards = [tip for tip in tips + board if tip]
        assert len(cards) >= 10, cards
        for tip in cards:
            face, _, rule = tip.partition(": ")
            assert face and len(rule) > 5, tip
    finally:
        ctx.close()


CONTROLS = """d => [...d.querySelectorAll(
  '[data-testid=card]:enabled, [data-testid=action]:enabled, [data-testid=choice]:enabled')]
  .map(c => { const r = c.getBoundingClientRect(); return [r.top, r.bottom]; })"""


TOUCH_SIZES = [
    {"width": 360, "height": 640},
    {"width": 390, "height": 844},
    {"width": 768, "height": 1024},  # a tablet held upright (a touch screen)
]

SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input, summary, a[href]')]
  .filter((e) => e.checkVisibility() && !e.disabled)
  // a radio or a checkbox inside its label is pressed anywhere on the label
  .map((e) => [e.outerHTML.slice(0, 60),
    (e.matches('input') && e.closest('label') || e).getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([html, r]) => `${html} ${Math.round(r.width)}×${Math.round(r.height)}`)"""
"""Every control a finger may press on the page that is smaller than 44 × 44 px (an input
inside a label counts as its label: pressing the label presses it)."""


@pytest.mark.parametrize("size", TOUCH_SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_on_a_touch_screen_what_you_act_on_stays_on_screen_on_your_turn(
    browser: Browser, live_server: str, tmp_path: Path, size: dict[str, int]
) -> None:
    """The hand and the question you are asked are docked at the bottom of a phone's or a
    tablet's screen while it is your turn, and the page has room below so the board is never
    hidden for good. Every control there, in the lobby and at the table, is a target of at
    least 44 × 44 px. Each game's table in turn in one window, then the lobby (which then
    lists all three tables as Ann's)."""
    ctx = browser.new_context(viewport=size, reduced_motion="reduce", has_touch=True)
    try:
        page = ctx.new_page()
        for game in ("why-first", "six-day-race", "setback"):
            create_table(page, live_server, game, ["heuristic"])
            expect(page).to_have_title(re.compile(r"^▶ "))  # Ann is asked
            dock = page.locator("[data-testid=board] .dock")
            expect(dock).to_have_css("position", "fixed")
            # One look at a time (a window may close meanwhile and the dock be drawn again).
            page.wait_for_function(
                f"""() => {{
                  const d = document.querySelector('[data-testid=board] .dock');
                  return d && ({CONTROLS})(d).some(([top, bottom]) => top >= 0
                    && bottom <= {size["height"]});
                }}"""
            )
            # The page has room below the dock, as tall as it is (kept up as it changes).
            page.wait_for_function(
                """() => {
                  const d = document.querySelector('[data-testid=board] .dock');
                  return d && document.body.style.paddingBottom === `${d.offsetHeight}px`;
                }"""
            )
            assert page.evaluate(SMALL_TARGETS) == [], f"{game}: too small to press at the table"
            # A card picked (unless Ann is asked something else first, as in a Setback
            # window): the choices it opens are targets as large.
            cards = page.locator("[data-testid=board] .dock [data-testid=card]:enabled")
            if cards.count():
                cards.first.click()
                assert page.evaluate(SMALL_TARGETS) == [], f"{game}: too small after a card"
            snap_if_wanted(
                page, shots_dir(tmp_path) / f"dock-{game}-{size['width']}x{size['height']}.png"
            )
        page.goto(live_server + "/")
        expect(page.get_by_test_id("create-table")).to_be_visible()
        page.locator("details.options > summary").click()
        assert page.evaluate(SMALL_TARGETS) == [], "too small to press in the lobby"
    finally:
        ctx.close()
