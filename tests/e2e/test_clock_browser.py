"""Clocks in a real browser: a seat's clock runs out and a bot plays on.

- Ann's Why First? table against a bot has a tiny clock (made through the API, as the form's
  profiles are minutes long): she does not place her card, her clock runs out, the page says so
  and offers "I'm back" while the table's stand-in bot places for her. Her board says the bot
  plays for her and offers no card to play, even while she is asked; she clicks "I'm back",
  the page tells her what time she has now, and her cards can be played again.
- The new-table form chooses a clock: a blitz table shows each seat's time ticking down.

The clocks run on the server's simulated time (``paused_bots``): the test moves it on, so no
test waits for a clock, and the bots' pause of a second holds each bot's move until then.

Screenshots are taken only when ``$RACEDECK_SCREENSHOTS`` is set, into that folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from helpers import DESKTOP, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, Page, expect
from server.live import LiveServer, eventually


def ann_against_a_bot(
    server: str, clock: dict[str, Any], config: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A table of Why First? where Ann, a person, plays the heuristic bot under ``clock``
    (with ``config``, those options; else the game's own); the creation's answer (her seat's
    token)."""
    res = httpx.post(
        server + "/api/tables",
        json={
            "game": "why-first",
            **({"config": config} if config else {}),
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


def run_out(server: LiveServer, table_id: str, seat: int = 0) -> None:
    """Move the server's time on to half a second after ``seat``'s running clock runs out
    (its move time, then its bank, as the server holds them): a bot's pause of a second,
    begun when it takes over, is not over then."""
    now = server.service.clock.now()
    left = server.inspect(table_id, lambda r: r.referee.clock_json(now)["seats"][seat])
    assert left["running"], left
    server.advance(left["move_left"] + left["bank"] + 0.5)


OUT_OF_TIME = "You ran out of time: the heuristic bot plays for you."

# The sizes the takeover is looked at in: a laptop and a phone.
LAPTOP = {"width": 1366, "height": 900}
HANDSET = {"width": 390, "height": 844}

# Ann's own board at a moment she is asked while the stand-in bot plays for her (her scoreboard
# row acting, her clock "bot", the board's stand-in line drawn): what it offers her then.
WHILE_THE_BOT_PLAYS = """() => {
  const row = document.querySelector('[data-testid=score][data-seat="0"]');
  const clock = document.querySelector('[data-testid=clock][data-seat="0"]');
  const board = document.querySelector('[data-testid=board]');
  const line = board && board.querySelector('[data-testid=prompt] [data-testid=stand-in]');
  if (!row || !row.classList.contains('acting') || !clock || clock.dataset.state !== 'bot'
      || !line) return false;
  const controls = board.querySelectorAll(
    '[data-testid=card], [data-testid=target], [data-testid=action]');
  return {
    stand_in: line.textContent,
    cards: board.querySelectorAll('[data-testid=card]').length,
    enabled: [...controls].filter((c) => !c.disabled).length,
  };
}"""


def test_a_clock_runs_out_and_a_bot_plays_on(
    browser: Browser, paused_bots: LiveServer, tmp_path: Path
) -> None:
    live_server = paused_bots.url
    shots = shots_dir(tmp_path)
    created = ann_against_a_bot(live_server, {"move": 8, "bank": 4, "grace": 0, "bot": "heuristic"})
    stand_in = "The heuristic bot is playing for you — press “I'm back” to play again."
    for viewport, name in ((LAPTOP, "desktop"), (HANDSET, "phone")):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            sit_down(page, live_server, created)
            expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
            mine = page.locator('[data-testid=clock][data-seat="0"]')
            if name == "desktop":
                # Her clock runs down from the per-move time, her bank after it…
                expect(mine).to_have_attribute("data-state", "running")
                expect(mine).to_have_text(re.compile(r"^0:0[0-8] \+ 0:04$"))
                snap_if_wanted(page, shots / "clock-running.png")
            # …runs out: the stand-in bot plays for her, and her page says so to her.
            notice = page.get_by_test_id("clock-notice")
            # Half a second at a time: the stand-in's pause of a second is not over when she
            # is seen to be out of time.
            run_out(paused_bots, created["table_id"])
            expect(notice).to_contain_text(OUT_OF_TIME)
            expect(mine).to_have_attribute("data-state", "bot")
            # While she is asked, her board says the bot plays and offers nothing to click:
            # her cards are there, none of them can be played.
            seen = page.wait_for_function(WHILE_THE_BOT_PLAYS, timeout=20_000).json_value()
            assert seen["stand_in"] == stand_in
            assert seen["cards"] > 0
            assert seen["enabled"] == 0, seen
            expect(page.get_by_test_id("prompt")).not_to_contain_text("Your turn")
            # The bot placed her card: the round goes on without her.
            paused_bots.advance(1.0)
            expect(page.get_by_test_id("log")).to_contain_text("Ann has chosen a card")
            expect(page.get_by_test_id("prompt")).to_have_text(stand_in)
            if name == "phone":
                # In another language the page says the same, the bot named in that language.
                page.get_by_test_id("lang-switch").select_option("de")
                expect(notice).to_contain_text(
                    "Deine Zeit ist abgelaufen: der Heuristik-Bot spielt für dich."
                )
                expect(page.get_by_test_id("prompt")).to_contain_text(
                    "Der Heuristik-Bot spielt für dich — drück auf „Ich bin zurück“"
                )
                page.get_by_test_id("lang-switch").select_option("en")
                expect(page.get_by_test_id("prompt")).to_have_text(stand_in)
            back = page.get_by_test_id("im-back")
            expect(back).to_be_visible()
            snap_if_wanted(page, shots / f"clock-takeover-{name}.png")
            back.click()
            # Back: the page tells her the time she has (her bank went with the timeout).
            said = page.get_by_test_id("clock-back")
            expect(said).to_have_text(
                "You're back. Your bank is used up: each move now has 0:08.", timeout=20_000
            )
            expect(page.get_by_test_id("toasts")).to_contain_text("Your bank is used up")
            expect(page.get_by_test_id("im-back")).to_have_count(0)
            expect(page.get_by_test_id("stand-in")).to_have_count(0)
            expect(page.get_by_test_id("log")).to_contain_text("Ann is back.")
            snap_if_wanted(
                page, shots / ("clock-back.png" if name == "desktop" else "clock-back-phone.png")
            )
            # Her next choice is hers again.
            playable = page.locator("[data-testid=card]:not([disabled])").first
            expect(playable).to_be_visible(timeout=20_000)
            expect(page.get_by_test_id("prompt")).to_contain_text("Your turn")
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
        page.locator('[data-testid=seat-kind][data-seat="1"]').select_option("casual")
        page.locator("details.clock-box > summary").click()
        page.get_by_test_id("clock-profile").select_option("blitz")
        expect(page.get_by_test_id("clock-bot")).to_have_value("casual")  # the stated default
        page.get_by_test_id("clock-bot").select_option("beginner")
        snap_if_wanted(page, shots / "clock-form.png")
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        mine = page.locator('[data-testid=clock][data-seat="0"]')
        expect(mine).to_have_attribute("data-state", "running")
        expect(mine).to_have_text(re.compile(r"^0:0\d \+ 0:45$"))
        table_id = page.url.rsplit("/", 1)[1]
        info = httpx.get(f"{live_server}/api/tables/{table_id}", trust_env=False).json()
        assert (info["clock"]["profile"], info["clock"]["bot"]) == ("blitz", "beginner")
        assert info["seats"][1]["bot"] == "casual"
    finally:
        context.close()


def test_the_results_mark_a_game_a_bot_stood_in(
    browser: Browser, sim_server: LiveServer, tmp_path: Path
) -> None:
    """Ann never plays: her time runs out at once and the stand-in bot plays the game (of one
    stage: every move of it is the same as in a longer one) to its end; the standings and the
    finished games say a bot stood in for her."""
    shots = shots_dir(tmp_path)
    live_server = sim_server.url
    created = ann_against_a_bot(
        live_server, {"move": 1, "bank": 0, "grace": 0, "bot": "random"}, {"stages": 1}
    )
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        sit_down(page, live_server, created)
        standings = page.get_by_test_id("standings")
        # Each time the table waits for her alone, her second runs out and the stand-in
        # plays for her (bots move at once).
        tid = created["table_id"]

        def waiting_for_her() -> bool:
            now = sim_server.service.clock.now()

            def look(r: Any) -> bool:
                if r.table is None or r.table.is_over:
                    return r.table is not None
                return bool(r.referee.clock_json(now)["seats"][0]["running"]) and not r.thinking

            return bool(sim_server.inspect(tid, look))

        for _ in range(200):
            eventually(waiting_for_her, "the table waits for Ann or is over")
            if sim_server.inspect(tid, lambda r: r.table is not None and r.table.is_over):
                break
            run_out(sim_server, tid)
        expect(standings).to_be_visible()
        expect(standings.get_by_test_id("bot-played")).to_have_count(1)
        expect(standings.get_by_test_id("bot-played")).to_have_text("bot stood in")
        # The game is over: nothing to come back to.
        expect(page.get_by_test_id("im-back")).to_have_count(0)
        finished = page.get_by_test_id("finished-game")
        expect(finished.get_by_test_id("bot-played")).to_have_text("A bot stood in for Ann")
        snap_if_wanted(page, shots / "clock-standings.png")
    finally:
        context.close()
