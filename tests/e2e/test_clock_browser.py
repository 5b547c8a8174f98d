"""Clocks in a real browser: a seat's clock runs out and a bot plays on.

- Ann's Why First? table against a bot has a tiny clock (made through the API, as the form's
  profiles are minutes long): she does not place her card, her clock runs out, the page says so
  and offers "I'm back" while the table's stand-in bot places for her; she clicks it and the
  table says she is back.
- The new-table form chooses a clock: a blitz table shows each seat's time ticking down.

Screenshots go to ``$RACEDECK_SCREENSHOTS`` when it is set, else to the test's own folder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import DESKTOP, PHONE, shots_dir, snap
from playwright.sync_api import Browser, Page, expect

from racedeck.server.process import ServerProcess


def ann_against_a_bot(server: str, clock: dict[str, Any]) -> dict[str, Any]:
    """A table of Why First? where Ann, a person, plays the heuristic bot under ``clock``;
    the creation's answer (her seat's token)."""
    res = httpx.post(
        server + "/api/tables",
        json={
            "game": "why-first",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            "clock": clock,
            "name": "Ann",
        },
        trust_env=False,
    )
    assert res.status_code == 201, res.text
    return dict(res.json())


def sit_down(page: Page, server: str, created: dict[str, Any]) -> None:
    """Open the table ``created`` at its creator's seat, as their browser would remember it."""
    page.goto(server + "/")
    seats = {created["table_id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate(f"localStorage.setItem('racedeck.seats', {json.dumps(json.dumps(seats))})")
    page.goto(f"{server}/t/{created['table_id']}")


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[str]:
    """A server whose bots wait a second before each move, so a person can come back before
    the stand-in bot has played the whole game."""
    server = ServerProcess(tmp_path / "racedeck.sqlite", extra=["--bot-delay", "1"])
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def test_a_clock_runs_out_and_a_bot_plays_on(
    browser: Browser, slow_bots: str, tmp_path: Path
) -> None:
    live_server = slow_bots
    shots = shots_dir(tmp_path)
    created = ann_against_a_bot(live_server, {"move": 4, "bank": 0, "grace": 0, "bot": "heuristic"})
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            sit_down(page, live_server, created)
            expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
            mine = page.locator('[data-testid=clock][data-seat="0"]')
            if name == "desktop":
                # Her clock runs down from the per-move time…
                expect(mine).to_have_attribute("data-state", "running")
                expect(mine).to_have_text(re.compile(r"^0:0[0-4]$"))
                snap(page, shots / "clock-running.png")
            # …runs out: the stand-in bot plays for her, and the page says so.
            notice = page.get_by_test_id("clock-notice")
            expect(notice).to_contain_text("Ann ran out of time", timeout=20_000)
            expect(notice).to_contain_text("heuristic bot plays for them")
            expect(mine).to_have_attribute("data-state", "bot")
            # The bot placed her card: the round goes on without her.
            expect(page.get_by_test_id("log")).to_contain_text(
                "Ann has chosen a card", timeout=20_000
            )
            snap(page, shots / f"clock-takeover-{name}.png")
            page.get_by_test_id("im-back").click()
            expect(page.get_by_test_id("log")).to_contain_text("Ann is back.", timeout=20_000)
            if name == "desktop":
                snap(page, shots / "clock-back.png")
        finally:
            context.close()
    games = httpx.get(f"{live_server}/api/tables/{created['table_id']}", trust_env=False).json()
    assert games["clock"]["seats"][0]["bot_played"]


def test_the_form_chooses_a_clock(browser: Browser, live_server: str, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        page.get_by_test_id("game-select").select_option("why-first")
        page.get_by_test_id("your-name").fill("Ann")
        page.get_by_test_id("players").select_option("2")
        page.locator('[data-testid=seat-kind][data-seat="1"]').select_option("heuristic")
        page.locator("details.clock-box > summary").click()
        page.get_by_test_id("clock-profile").select_option("blitz")
        page.get_by_test_id("clock-bot").select_option("random")
        snap(page, shots / "clock-form.png")
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        mine = page.locator('[data-testid=clock][data-seat="0"]')
        expect(mine).to_have_attribute("data-state", "running")
        expect(mine).to_have_text(re.compile(r"^0:0\d \+ 0:45$"))
        table_id = page.url.rsplit("/", 1)[1]
        info = httpx.get(f"{live_server}/api/tables/{table_id}", trust_env=False).json()
        assert (info["clock"]["profile"], info["clock"]["bot"]) == ("blitz", "random")
    finally:
        context.close()


def test_the_results_mark_a_game_a_bot_stood_in(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    """Ann never plays: her time runs out at once and the stand-in bot plays the game to its
    end; the standings and the finished games say a bot stood in for her."""
    shots = shots_dir(tmp_path)
    created = ann_against_a_bot(live_server, {"move": 1, "bank": 0, "grace": 0, "bot": "random"})
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        sit_down(page, live_server, created)
        standings = page.get_by_test_id("standings")
        expect(standings).to_be_visible(timeout=60_000)
        expect(standings.get_by_test_id("bot-played")).to_have_count(1)
        expect(standings.get_by_test_id("bot-played")).to_have_text("bot stood in")
        # The game is over: nothing to come back to.
        expect(page.get_by_test_id("im-back")).to_have_count(0)
        finished = page.get_by_test_id("finished-game")
        expect(finished.get_by_test_id("bot-played")).to_have_text("A bot stood in for Ann")
        snap(page, shots / "clock-standings.png")
    finally:
        context.close()
