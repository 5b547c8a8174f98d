"""Watching and finished games in a real browser.

- Ann creates a Why First? table against a bot; her table page shows the spectator link beside
  the game. Sam opens it in another browser: he sees the table live, labelled "Watching", with
  no hand and nothing to click, and Ann sees that one person watches.
- A table of two bots plays a whole game; a spectator sees the standings, the game listed under
  "Finished games", and its "Download record" link downloads a record that replays to the
  result shown.

Screenshots are taken only when ``$RACEDECK_SCREENSHOTS`` is set, into that folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from helpers import DESKTOP, PHONE, create_table, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, expect

from racedeck.core.record import GameRecord, replay


def test_a_spectator_watches_through_the_link(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    ann = browser.new_context(viewport=DESKTOP)
    sam = browser.new_context(viewport=PHONE)
    try:
        page = ann.new_page()
        create_table(page, live_server, "why-first", ["heuristic"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("watching")).to_be_hidden()
        link = page.get_by_test_id("watch-link")
        expect(link).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]+/watch$"))

        watcher = sam.new_page()
        watcher.goto(link.input_value())
        expect(watcher.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(watcher.get_by_test_id("watching")).to_be_visible()
        expect(watcher.get_by_test_id("watching")).to_have_text("Watching")
        expect(watcher.get_by_test_id("scoreboard")).to_contain_text("Ann")
        expect(watcher.get_by_test_id("log")).to_contain_text("Stage 1")
        expect(watcher.get_by_test_id("wf-board")).to_be_visible()
        # The public view only: no hand of cards to choose from, nothing to click.
        expect(watcher.locator("[data-testid=wf-board] button:enabled")).to_have_count(0)
        expect(watcher.get_by_test_id("table-header")).not_to_contain_text("you are seat")
        expect(page.get_by_test_id("spectators")).to_contain_text("1 watching")
        expect(watcher.get_by_test_id("spectators")).to_contain_text("1 watching")
        snap_if_wanted(page, shots / "spectator-player.png")
        snap_if_wanted(watcher, shots / "spectator-watching.png")

        # Sam leaves: Ann sees nobody watching any more.
        watcher.close()
        expect(page.get_by_test_id("spectators")).to_have_text("")
    finally:
        ann.close()
        sam.close()


def test_a_finished_game_is_listed_and_its_record_downloads(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    created = httpx.post(
        live_server + "/api/tables",
        json={
            "game": "why-first",
            "config": {"players": 2, "stages": 1},
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}],
        },
        trust_env=False,
    ).json()
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{created['table_id']}/watch")
        expect(page.get_by_test_id("standings")).to_be_visible(timeout=60_000)
        game = page.get_by_test_id("finished-game")
        expect(game).to_have_count(1)
        expect(game).to_contain_text("Game 1")
        winners = page.get_by_test_id("standings").locator("h2").inner_text()
        snap_if_wanted(page, shots / "finished-games.png")

        with page.expect_download() as download:
            game.get_by_test_id("download-record").click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.name == f"racedeck-{created['table_id']}-game-1.json"
        record = GameRecord.from_json(json.loads(saved.read_text()))
        final = list(replay(record))[-1].state
        outcome = record.make_game().outcome(final)
        assert outcome is not None
        # The seats by their names; a contestant the engine plays (Leo, WF-9) by its own.
        seats = record.meta["names"]
        assert isinstance(seats, list)
        names = [str(n) for n in seats] + list(outcome.names[len(seats) :])
        for i in outcome.winners:
            assert names[i] in winners
    finally:
        context.close()
