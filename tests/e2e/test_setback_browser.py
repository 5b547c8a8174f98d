"""Setback in a real browser: two people and a bot play a game from START to FINISH.

Ann (desktop) creates the table in the lobby, Bob (phone-sized) joins through the invite link, a
heuristic bot takes the third seat. Both play only by clicking what the renderer offers (cards,
then one complete legal choice; BLOCK or pass in a window; the steps of ALL and REVAMP), Bob
reloads mid-game and goes on, and the end shows who reached FINISH. Bob's phone runs with
reduced motion; Ann's desktop shows the tokens moving until its screenshots are taken, then goes
on with reduced motion too (the board then shows each update at once). BLOCK windows (SB-9
amended): a seat asked sees the same question whether or not it holds a BLOCK, and a BLOCK button
only with a BLOCK in hand; an answer shows as given (sealed until the window closes) instead of
the buttons (and again after a reload while the window waits for Bob). The server runs on
simulated time: the test moves it on between looks, so each window stays open its second
(``window_seconds``) whoever holds a BLOCK, and the test never waits for one. Screenshots are
taken only when ``$RACEDECK_SCREENSHOTS`` is set (``docs/screenshots`` in the repository),
into that folder.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from helpers import (
    DESKTOP,
    PHONE,
    create_table,
    endless_animations,
    invite_link,
    join,
    shots_dir,
    snap_if_wanted,
)
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from server.live import LiveServer

from racedeck.server.rooms import Room

FIXED_CLIENT_SEEDS = """{
  const random = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (a) => (a.length === 16 ? a.fill(9) : random(a));
}"""
"""Both pages give the same share of the deal (the 16 bytes of app.js's ``clientSeed``), so with
the server's known seeds every run deals the same game: how many turns each person gets does not
depend on a random deal."""

WINDOW_QUESTIONS = {"Do you BLOCK it?", "Do you BLOCK the BLOCK?"}


def answer_window(page: Page, rng: random.Random) -> bool:
    """In a BLOCK window this page is asked about: check the prompt, BLOCK or pass."""
    window = page.get_by_test_id("window")
    buttons = window.locator("[data-testid=action]:enabled")
    if not buttons.count():
        return False
    question = window.locator(".sb-question").inner_text(timeout=1000).strip()
    assert question in WINDOW_QUESTIONS, question
    actions = [
        json.loads(a or "{}") for a in buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")
    ]
    if not actions:
        return False  # the window closed between counting its buttons and reading them
    kinds = sorted(a["type"] for a in actions)
    # Everyone asked may pass; only a hand with a BLOCK offers one (SB-9).
    holds_block = page.locator(".sb-hand .sb-hc", has_text="BLOCK").count() > 0
    assert kinds == (["block", "pass"] if holds_block else ["pass"]), (kinds, holds_block)
    pick = "block" if "block" in kinds and rng.random() < 0.4 else "pass"
    window.locator(f'[data-testid=action][data-action=\'{{"type":"{pick}"}}\']').click(timeout=2000)
    # Sealed (SB-9): the page says what it answered until the window closes.
    page.wait_for_function(ANSWERED_OR_CLOSED, timeout=5000)
    return True


ANSWERED_OR_CLOSED = """() => {
  const w = document.querySelector('[data-testid=window]');
  return !w || (w.querySelector('[data-testid=answered]') !== null
    && w.querySelectorAll('[data-testid=action]').length === 0);
}"""


def waiting_for_people(room: Room) -> bool:
    """The table waits for a person's answer: a seat of a person is asked and its answer is
    not in (a forced window pass, sealed when the window opened, counts as in)."""
    ref = room.referee
    table = ref.table
    if table is None or table.is_over:
        return False
    asked = {s for s in table.state.pending if ref.seats[s].kind == "human"}
    if ref.window is not None:
        asked -= set(ref.window.sealed)
    return bool(asked)


def may_block(page: Page) -> bool:
    """This page is offered a BLOCK in the open window: until it answers, the window cannot
    close (a seat without a BLOCK was answered for when it opened)."""
    return bool(
        page.get_by_test_id("board").evaluate(
            "b => b.querySelector('[data-testid=window] [data-action*=block]') !== null"
        )
    )


OFFERED = """b => [
  b.querySelectorAll('[data-testid=window]').length,
  b.querySelectorAll('[data-testid=choice]:enabled').length,
  b.querySelectorAll('[data-testid=card]').length,
  b.querySelectorAll('[data-testid=action]:enabled').length,
]"""
"""How many of each thing the board offers: window panels, choices, cards, action buttons
(one look instead of four)."""


def take_turn(page: Page, rng: random.Random) -> str | None:
    """Make one legal choice this page offers, if any: "answer" when it answered a BLOCK
    window, "sent" when it sent another action, None when nothing was sent."""
    board = page.get_by_test_id("board")
    n_windows, n_choices, n_cards, n_actions = board.evaluate(OFFERED)
    if n_windows:
        try:
            return "answer" if answer_window(page, rng) else None
        except PlaywrightTimeout:
            return None  # the window closed meanwhile
    try:
        choices = board.locator("[data-testid=choice]:enabled")
        if n_choices:
            choices.nth(rng.randrange(n_choices)).click(timeout=2000)
            return "sent"
        cards = board.locator("[data-testid=card]")
        actions = board.locator("[data-testid=action]:enabled")
        # A card when one may be played; ending the turn now and then once a card was played.
        if n_cards and (not n_actions or rng.random() < 0.7):
            cards.nth(rng.randrange(n_cards)).click(timeout=2000)
            expect(board.locator("[data-testid=choice]").first).to_be_visible(timeout=2000)
            return None
        if n_actions:
            actions.nth(rng.randrange(n_actions)).click(timeout=2000)
            return "sent"
    except (PlaywrightTimeout, AssertionError):
        return None  # the board moved on meanwhile (another update); ask again
    return None


def test_two_people_and_a_bot_play_setback_to_the_end(
    browser: Browser, sim_server: LiveServer, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    rng = random.Random(9)
    for ctx in (ann_ctx, bob_ctx):
        ctx.add_init_script(FIXED_CLIENT_SEEDS)
    try:
        ann = ann_ctx.new_page()
        bob = bob_ctx.new_page()
        # A short window clock (SB-9): every window still stays open a moment for everyone.
        create_table(
            ann, sim_server.url, "setback", ["human", "heuristic"], window_seconds="1", rows="4"
        )
        join(bob, invite_link(ann), "Bob")
        table_id = ann.url.rsplit("/", 1)[1]
        for page in (ann, bob):
            expect(page.get_by_test_id("sb-board")).to_be_visible()
            expect(page.locator("[data-testid=token]")).to_have_count(3)
        # The token on turn is ringed; the ring pulses a little and stays (not for ever).
        expect(ann.locator(".sb-halo")).to_have_count(1)
        assert endless_animations(ann) == []

        acted = {"Ann": 0, "Bob": 0}
        missing = {
            f"setback-{what}-{size}.png"
            for what in ("play", "window")
            for size in ("desktop", "phone")
        }
        reloaded = False
        motion_reduced = False
        sealed_reload = False
        windows = 0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if (
                ann.get_by_test_id("standings").is_visible()
                and bob.get_by_test_id("standings").is_visible()
            ):
                break
            for who, page in (("Ann", ann), ("Bob", bob)):
                size = "desktop" if who == "Ann" else "phone"
                board = page.get_by_test_id("board")
                # One look at the page: the window may close (SB-9) between two looks.
                asked, declared, choosing = board.evaluate(
                    "b => [b.querySelectorAll('[data-testid=window] [data-testid=action]')"
                    ".length > 0, b.querySelector('.sb-declared') !== null,"
                    " b.querySelector('[data-testid=choice]') !== null]"
                )
                if asked:
                    windows += 1
                    # The declared action is shown while the window is open.
                    assert declared, "a BLOCK window without the action it answers"
                    name = f"setback-window-{size}.png"
                    if name in missing:
                        snap_if_wanted(page, shots / name)
                        missing.discard(name)
                elif choosing:
                    name = f"setback-play-{size}.png"
                    if name in missing and acted[who] >= 3:
                        snap_if_wanted(page, shots / name)
                        missing.discard(name)
                sent = take_turn(page, rng)
                if sent:
                    acted[who] += 1
                    if sent == "answer" and who == "Ann" and not sealed_reload and may_block(bob):
                        # Ann's answer is in and the window waits for Bob's (he may BLOCK, so
                        # it cannot close first): after a reload her page shows her sealed
                        # answer again (the welcome gives it back).
                        answered = ann.get_by_test_id("answered")
                        text = answered.inner_text(timeout=2000)
                        ann.reload()
                        expect(ann.get_by_test_id("status")).to_have_attribute(
                            "data-state", "online"
                        )
                        expect(answered).to_have_text(text)
                        expect(
                            ann.locator("[data-testid=window] [data-testid=action]")
                        ).to_have_count(0)
                        snap_if_wanted(ann, shots / "setback-window-answered-desktop.png")
                        sealed_reload = True
            if not motion_reduced and not {n for n in missing if "desktop" in n}:
                # Ann's tokens were seen moving; the rest of the game as with reduced motion.
                ann.emulate_media(reduced_motion="reduce")
                motion_reduced = True
            if not reloaded and acted["Bob"] >= 3:
                # Bob reloads mid-game: the seat, the view and his hand come back.
                bob.reload()
                expect(bob.get_by_test_id("status")).to_have_attribute("data-state", "online")
                expect(bob.get_by_test_id("sb-board")).to_be_visible()
                expect(bob.locator(".sb-hand h2")).to_contain_text("Your hand")
                reloaded = True
            # The table's time moves on only while it waits for no person: then the bots
            # and the windows' minimum time are what it waits for.
            if not sim_server.inspect(table_id, waiting_for_people):
                sim_server.advance(1.0)
        assert reloaded, "Bob never acted three times"
        # Whether a window waits for Bob's BLOCK after Ann answered depends on the cards the
        # game deals them and on who answers first; when one does, Ann's page reloads there
        # (the welcome's part is pinned in tests/referee/test_reconnect.py whatever the deal).
        assert acted["Ann"] >= 3 and acted["Bob"] >= 3, acted

        for page, size in ((ann, "desktop"), (bob, "phone")):
            standings = page.get_by_test_id("standings")
            expect(standings).to_be_visible()
            expect(standings).to_contain_text(re.compile(r"wins?!"))
            expect(page.get_by_test_id("win-rule")).not_to_be_empty()
            expect(page.get_by_test_id("sb-status")).to_contain_text("FINISH")
            expect(page.locator("[data-testid=token]")).to_have_count(3)
            snap_if_wanted(page, shots / f"setback-end-{size}.png")
        expect(ann.get_by_test_id("board").locator("[data-testid=card]")).to_have_count(0)
    finally:
        ann_ctx.close()
        bob_ctx.close()
