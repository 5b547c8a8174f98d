"""The web client in four languages: chosen from the browser, switched in the top bar (the
choice kept across a reload), a live table redrawn in place, a replay and a face-down check
following the switch. (Whole games shown with no English left, on a desktop and a phone:
``test_no_english_left_browser``.)"""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path

import test_replay_browser as replay
import test_six_day_race_browser as six_day_race
import test_why_first_browser as why_first
from helpers import DESKTOP, POLL_MS, create_table, shots_dir, snap, wider_than_the_window
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# English words the narration of each game uses; none may show up in another language.
ENGLISH = re.compile(
    r"\b(?:begins|hand for|has chosen|revealed|moves|scored|Game over|wins|Race \d|starts|"
    r"plays|draws|crosses|the line|turn|lanes|is dealt|Nobody|cancelled|reaches)\b"
)


def test_browser_locale_picks_dutch(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="nl-NL")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        expect(page.get_by_test_id("new-table")).to_contain_text("Nieuwe tafel")
        expect(page.get_by_test_id("lang-switch")).to_have_value("nl")
        expect(page.get_by_test_id("create-table")).to_have_text("Tafel maken")
    finally:
        context.close()


def test_switch_changes_lobby_and_live_table_and_persists(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.get_by_test_id("new-table")).to_contain_text("New table")
        page.get_by_test_id("lang-switch").select_option("fr")
        expect(page.get_by_test_id("new-table")).to_contain_text("Nouvelle table")
        expect(page.locator("html")).to_have_attribute("lang", "fr")

        # A live table against bots; the switch redraws it and the socket stays open.
        create_table(page, live_server, "why-first", ["random", "random"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("log")).to_contain_text("La manche 1 commence")
        expect(page.get_by_test_id("table-header")).to_contain_text("vous êtes à la place 1")
        opened = page.evaluate("performance.getEntriesByType('resource').length")
        page.get_by_test_id("lang-switch").select_option("de")
        expect(page.get_by_test_id("log")).to_contain_text("Etappe 1 beginnt")
        expect(page.get_by_test_id("table-header")).to_contain_text("du bist Platz 1")
        expect(page.get_by_test_id("board")).to_contain_text("Etappe 1 von 5")
        expect(page.get_by_test_id("status")).to_have_text("verbunden")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert page.evaluate("performance.getEntriesByType('resource').length") >= opened

        # The choice is kept: a reload comes back in German.
        page.reload()
        expect(page.get_by_test_id("lang-switch")).to_have_value("de")
        expect(page.get_by_test_id("log")).to_contain_text("Etappe 1 beginnt")
        snap(page, shots_dir(tmp_path) / "lang-de-why-first-desktop.png")
        # The bots' names follow a live switch too (the page loaded in German).
        expect(page.get_by_test_id("scoreboard")).to_contain_text("Zufallsbot")
        page.get_by_test_id("lang-switch").select_option("en")
        expect(page.get_by_test_id("scoreboard")).to_contain_text("random bot")
        expect(page.get_by_test_id("scoreboard")).not_to_contain_text("Zufallsbot")
        expect(page.get_by_test_id("board")).not_to_contain_text("Zufallsbot")
    finally:
        context.close()


def setback_turn(page: Page, rng: random.Random) -> None:
    """One Setback choice, whatever the language: pass when asked in a BLOCK window, else a
    card, one of its options, or an action button."""
    board = page.get_by_test_id("board")
    with contextlib.suppress(PlaywrightTimeout):  # the board moved on meanwhile: ask again
        passing = board.locator(
            """[data-testid=window] [data-testid=action][data-action='{"type":"pass"}']"""
        )
        if passing.count():
            passing.click(timeout=2000)
            return
        for what in (
            "[data-testid=choice]:enabled",
            "[data-testid=card]",
            "[data-testid=action]:enabled",
        ):
            found = board.locator(what)
            # Counted once: the board may redraw between two counts (the bot plays meanwhile).
            count = found.count()
            if count:
                found.nth(rng.randrange(count)).click(timeout=2000)
                return


def play_to_the_end(page: Page, game: str, rng: random.Random) -> None:
    """Play the choices offered until the standings show (a bot fills the other seat)."""
    if game == "why-first":
        why_first.play_to_the_end([page], rng)
        expect(page.get_by_test_id("standings")).to_be_visible()
        return
    deadline = time.monotonic() + 300
    while not page.get_by_test_id("standings").is_visible():
        assert time.monotonic() < deadline, f"{game} did not end in time"
        if game == "six-day-race":
            six_day_race.take_turn(page, rng)
        else:
            setback_turn(page, rng)
        # On to the next thing offered (the bot plays meanwhile), or the end.
        page.wait_for_function(SOMETHING_TO_DO, timeout=30_000, polling=POLL_MS)


SOMETHING_TO_DO = """() => {
  const end = document.querySelector('[data-testid=standings]');
  if (end && end.offsetParent !== null) return true;
  const board = document.querySelector('[data-testid=board]');
  return board !== null && board.querySelector(
    '[data-testid=card]:not([disabled]), [data-testid=choice]:not([disabled]), '
    + '[data-testid=action]:not([disabled])') !== null;
}"""


# English words of the replay viewer, the record check and "what if" (and the default seat
# names); none may show up in another language.
REPLAY_ENGLISH = re.compile(
    r"\b(?:Step|Steps|Show|All hands|This step|The deal|What if|You play|other seats|"
    r"Play from here|Verified|NOT verified|record|seed|random bot|Player|in front of|"
    r"Nothing else|wins?|game)\b"
)


def replay_words(page: Page) -> str:
    """Every word the replay page shows, with the options of its menus and the controls' names."""
    page_text = page.get_by_test_id("replay").inner_text()
    labels = page.eval_on_selector_all(
        "[data-testid=replay] [aria-label], [data-testid=replay] option",
        "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + e.textContent)",
    )
    return page_text + "\n" + "\n".join(labels)


def test_replay_and_face_down_check_follow_the_switch(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    """A finished game's face-down check and its replay, switched from English: the table page
    words its face-down finding again, and the replay comes back at the same step and hands in
    Dutch, French and German with no English left. About words, not motion: the replay's
    boards step without their animations."""
    table_id = replay.bots_game(live_server)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{table_id}")
        verified = page.get_by_test_id("face-down-verified")
        expect(verified).to_contain_text("face-down cards checked", timeout=30_000)
        page.get_by_test_id("lang-switch").select_option("nl")
        expect(verified).to_contain_text("gedekte kaarten gecontroleerd")

        replay.open_finished(page, live_server, table_id)
        expect(page.get_by_test_id("replay-step")).to_contain_text("Stap 0 van")
        page.get_by_test_id("replay-seat").select_option("0")
        for _ in range(3):
            page.get_by_test_id("replay-next").click()
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "3")
        # The step is kept in the history entry once the stepping pauses.
        page.wait_for_function("history.state && history.state.replay.step === 3")

        for code, step_word in (
            ("fr", "Étape 3 sur"),
            ("de", "Schritt 3 von"),
            ("nl", "Stap 3 van"),
        ):
            page.get_by_test_id("lang-switch").select_option(code)
            counter = page.get_by_test_id("replay-step")
            expect(counter).to_contain_text(step_word)
            expect(page.get_by_test_id("replay-seat")).to_have_value("0")
            expect(page.get_by_test_id("verify")).to_have_attribute("data-state", "pass")
            expect(page.get_by_test_id("replay-board")).to_have_count(1)
            left = REPLAY_ENGLISH.findall(replay_words(page))
            left += ENGLISH.findall(replay_words(page))
            assert left == [], f"{code}: English left in the replay: {sorted(set(left))}"
            if code != "nl":
                page.get_by_test_id("replay-seat").select_option("all")
                expect(page.get_by_test_id("replay-board")).to_have_count(3)
                for name, size in (
                    ("desktop", {"width": 1280, "height": 800}),
                    ("phone", {"width": 390, "height": 844}),
                ):
                    page.set_viewport_size(size)
                    replay.snap(page, shots_dir(tmp_path) / f"lang-{code}-replay-{name}.png")
                    wide = wider_than_the_window(page)
                    assert wide == [], f"{code} {name}: the replay is wider than the window: {wide}"
                page.set_viewport_size({"width": 1280, "height": 800})
                page.get_by_test_id("replay-seat").select_option("0")

        # A record file opened here stays open, at its step, through a switch.
        page.goto(f"{live_server}/replay")
        page.get_by_test_id("record-file").set_input_files(
            files=[
                {
                    "name": "spiel-1.json",
                    "mimeType": "application/json",
                    "buffer": replay.record_text(live_server, table_id).encode(),
                }
            ]
        )
        expect(page.get_by_test_id("verify")).to_have_attribute("data-state", "pass")
        page.get_by_test_id("replay-next").click()
        page.get_by_test_id("replay-next").click()
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "2")
        # Switched at once, before the stepping pauses: the step is kept all the same.
        page.get_by_test_id("lang-switch").select_option("de")
        expect(page.get_by_test_id("replay-step")).to_contain_text("Schritt 2 von")
        expect(page.get_by_test_id("replay")).to_contain_text("spiel-1.json")
        assert REPLAY_ENGLISH.findall(replay_words(page)) == []
    finally:
        context.close()
