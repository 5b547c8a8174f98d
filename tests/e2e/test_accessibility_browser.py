"""Accessibility in a real browser: an axe-core audit of every page, and every game played by
keyboard alone.

The audit (axe-core, installed by ``make test`` from ``tests/e2e/package-lock.json``) runs on
the lobby with its options open, a table of each game at its start, in the middle and at its
end, a Setback BLOCK window, a spectator's page, a finished game in the replay viewer, and the
lobby and a table in French; at a desktop and a phone size (the rules pages are audited in
every language in ``test_rules_pictures_browser``). It fails on any violation, whatever its
impact (the issue's bar is "no serious or critical", the pages meet the rest too), and names
each rule with the elements that break it.

Keyboard: a person who uses no pointer creates a table with Tab, arrows and Enter, then plays
the whole game with Tab and Enter only; every control they need gets the focus, visibly, and
the events are read out through a live region.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import test_six_day_race_browser as six_day_race
from helpers import DESKTOP, PHONE, POLL_MS, create_table
from playwright.sync_api import Browser, Page, expect

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

AUDIT = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}"""

SHORT = {
    "why-first": {"stages": "1", "hand_size": "3"},
    "six-day-race": six_day_race.SHORT_RACE,
    "setback": {"rows": "3", "window_seconds": "0"},
}
"""Options for games short enough to play to the end by keyboard in a few seconds."""


def audit(page: Page, where: str) -> None:
    """Run axe-core on the page once it shows its heading; fail with every violation it finds.

    Every page of the app has a level-one heading; between a navigation and the page's first
    drawing there is none, and an audit run then reports a missing heading that no one sees.
    """
    assert AXE.exists(), f"{AXE} is missing: `make test` installs it (npm ci in tests/e2e)"
    expect(page.locator("h1").first).to_be_attached()
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(AUDIT)
    assert not violations, f"{where}:\n" + "\n".join(
        f"  {v['impact']} {v['id']} ({v['help']}): {', '.join(v['nodes'])}" for v in violations
    )


SIZES = {"desktop": DESKTOP, "phone": PHONE}

SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
"""Resolves once the page has drawn two frames (a board redrawn for a new width is in place)."""


def resize(page: Page, size: dict[str, int]) -> None:
    """Give the window ``size`` and let the page lay itself out (and redraw) for it."""
    page.set_viewport_size(size)
    page.evaluate(SETTLED)


def audit_at_every_size(page: Page, where: str, back: dict[str, int]) -> None:
    """Audit the page as it is now at a desktop's and a phone's size, then give the window
    ``back`` its size."""
    for name, size in SIZES.items():
        resize(page, size)
        audit(page, f"{where} at {name} {size['width']}×{size['height']}")
    resize(page, back)


FOCUSED_CONTROL = """() => {
  const a = document.activeElement;
  const board = document.querySelector('[data-testid=board]');
  if (!a || !board || !board.contains(a) || a.tagName !== 'BUTTON' || a.disabled) return null;
  if (a.classList.contains('sdr-cancel')) return null;
  const card = a.dataset.testid === 'card';
  return { card, picked: card && a.getAttribute('aria-pressed') === 'true' };
}"""
"""What the focus is on: a usable control of the board (a card, whether picked) or null."""

OFFERS = """() => {
  const board = document.querySelector('[data-testid=board]');
  return !!board && [...board.querySelectorAll('button:enabled')]
    .some((b) => !b.classList.contains('sdr-cancel') && b.checkVisibility());
}"""

OVER = """() => {
  const end = document.querySelector('[data-testid=standings]');
  return !!end && !end.hidden;
}"""
"""Whether the standings are shown (the section is on every table page, hidden until the end)."""

FOCUS_SHOWN = """() => {
  const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
}"""
"""Whether the focused element shows that it has the focus (an outline of 2 px or more)."""

CONTROL_FOCUS_SHOWN = f"""() => ({FOCUSED_CONTROL})() === null ? null : ({FOCUS_SHOWN})()"""
"""In one look: null if the focus is not on a control of the board (the board was drawn again
meanwhile), else whether it shows."""


COUNT_CHANGES = """() => {
  window.boardChanges = 0;
  new MutationObserver(() => { window.boardChanges += 1; }).observe(
    document.querySelector('[data-testid=board]'),
    { subtree: true, childList: true, attributes: true, characterData: true });
}"""
"""Count the changes to the board (``window.boardChanges``), to wait for what a key did."""


def tab_to_control(page: Page, *, past_cards: bool) -> bool:
    """Press Tab until the focus is on a control of the board (with ``past_cards``: one that
    is not a card, as after picking a card the choice of what to do with it comes next);
    False if the board stopped offering any meanwhile (the table moved on)."""
    look = f"() => [({FOCUSED_CONTROL})(), ({OFFERS})()]"  # one look a press
    for _ in range(200):
        got, offers = page.evaluate(look)
        if got is not None and not (past_cards and got["card"]):
            return True
        if not offers:
            return False
        page.keyboard.press("Tab")
    offered = page.evaluate(
        "[...document.querySelectorAll('[data-testid=board] button:enabled')]"
        ".map((b) => b.textContent.trim().slice(0, 30))"
    )
    raise AssertionError(f"200 presses of Tab never reached a control of the board: {offered}")


def play_by_keyboard(page: Page, where: str, sizes: list[dict[str, int]] | None = None) -> int:
    """Play Ann's part of the game to the end with Tab and Enter; return how many keys chose
    something. Audits the page once, in the middle of the game. With ``sizes``, the window
    takes the next of them after each choice sent (a key on anything but a card), and the
    audits run at a desktop's and a phone's size."""
    turn = 0
    if sizes:
        resize(page, sizes[0])

    def check(where: str) -> None:
        if sizes:
            audit_at_every_size(page, where, sizes[turn % len(sizes)])
        else:
            audit(page, where)

    chose = 0
    audited = window_audited = False
    page.evaluate(COUNT_CHANGES)
    for _ in range(600):
        page.wait_for_function(f"() => ({OFFERS})() || ({OVER})()", timeout=15000, polling=POLL_MS)
        if page.get_by_test_id("standings").is_visible():
            return chose
        if chose == 4 and not audited:
            check(f"{where}, mid-game")
            audited = True
        if not window_audited and page.locator("[data-testid=window]").count():
            check(f"{where}, a BLOCK window")
            window_audited = True
        got = page.evaluate(FOCUSED_CONTROL)
        if not tab_to_control(page, past_cards=bool(got and got["picked"])):
            continue
        shown = page.evaluate(CONTROL_FOCUS_SHOWN)
        if shown is None:
            continue  # the board was drawn again meanwhile (it keeps the focus on the board)
        assert shown, "the focus is not shown on " + page.evaluate(
            "document.activeElement.outerHTML.slice(0, 120)"
        )
        changes = page.evaluate("window.boardChanges")
        on_card = bool(sizes) and (page.evaluate(FOCUSED_CONTROL) or {}).get("card")
        page.keyboard.press("Enter")
        chose += 1
        # The press did something to the board (a card picked, an action sent) before the
        # next look: a press that changed nothing would fail here.
        page.wait_for_function(f"() => window.boardChanges > {changes}")
        if sizes and not on_card:
            turn += 1  # a choice sent: the next is made at the next size
            resize(page, sizes[turn % len(sizes)])
    raise AssertionError(f"{where}: the game did not end after 600 looks")


def create_by_keyboard(page: Page, base: str) -> None:
    """Create a Why First? table against a bot (the form's default seat) with the keyboard
    only."""
    page.goto(base + "/")
    for _ in range(30):  # the game: the first field of the form
        if page.evaluate("document.activeElement.dataset.testid") == "game-select":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the choice of game")
    page.keyboard.press("W")  # a closed list takes the first entry of the letter typed
    expect(page.get_by_test_id("game-select")).to_have_value("why-first")
    page.keyboard.press("Tab")
    page.keyboard.type("Ann")  # your name
    for _ in range(60):
        if page.evaluate("document.activeElement.dataset.testid") == "create-table":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the create button")
    assert page.evaluate(FOCUS_SHOWN), "the focus is not shown on the create button"
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))


@pytest.mark.parametrize("game_id", list(SHORT))
def test_every_game_passes_the_audit_and_plays_by_keyboard(
    browser: Browser, live_server: str, game_id: str
) -> None:
    """One game at both sizes: the window takes a desktop's and a phone's size in turn, a
    choice at each, and every audit runs at both. With reduced motion, as many people who
    play by keyboard ask for: every update is drawn as with motion, without the wait for its
    animation (the animated boards are played in each game's own browser test)."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        page = context.new_page()
        where = game_id
        create_table(page, live_server, game_id, ["heuristic", "heuristic"], **SHORT[game_id])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        audit_at_every_size(page, f"{where}, start", PHONE)
        chose = play_by_keyboard(page, where, [PHONE, DESKTOP])
        for _ in range(3):
            if chose >= 2:
                break
            # A short deal may end before Ann has chosen twice (the bots can finish a Setback
            # of three rows before her first turn): another game, asked for by keyboard too.
            page.get_by_test_id("play-again").focus()
            page.keyboard.press("Enter")
            expect(page.get_by_test_id("standings")).to_be_hidden()
            chose += play_by_keyboard(page, where, [PHONE, DESKTOP])
        assert chose >= 2, "the keyboard chose nothing in three games"
        expect(page.get_by_test_id("standings")).to_be_visible()
        # What happened was read out: the log is a live region and holds the game's events.
        log = page.get_by_test_id("log")
        expect(log).to_have_attribute("aria-live", "polite")
        expect(log.locator("li").first).to_be_attached()
        audit_at_every_size(page, f"{where}, end", DESKTOP)
        # The finished game in the replay viewer, stepped to its end.
        page.goto(page.url + "/games/1")
        expect(page.get_by_test_id("replay-step")).to_be_visible()
        page.keyboard.press("End")
        audit_at_every_size(page, f"{where}, replay", DESKTOP)
    finally:
        context.close()


def test_the_lobby_the_replay_viewer_and_a_spectator_pass_the_audit(
    browser: Browser, live_server: str
) -> None:
    """Each page audited at a desktop's and a phone's size (the window resized, the page as
    it is)."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.get_by_test_id("game-select")).to_be_visible()
        page.locator("details.options > summary").click()
        audit_at_every_size(page, "the lobby, options open", DESKTOP)
        for game_id in SHORT:
            page.get_by_test_id("game-select").select_option(game_id)
            audit_at_every_size(page, f"the lobby, {game_id}'s options", DESKTOP)
        # (The rules pages are audited in every language at both sizes where their pictures
        # are checked: test_rules_pictures_browser.)
        page.goto(live_server + "/replay")
        expect(page.get_by_test_id("record-drop")).to_be_visible()  # the viewer is drawn
        audit_at_every_size(page, "the replay viewer, empty", DESKTOP)
        # A spectator of a table of bots.
        create_table(page, live_server, "setback", ["heuristic"])
        spectator = context.new_page()
        spectator.goto(page.url + "/watch")
        expect(spectator.get_by_test_id("watching")).to_be_visible()
        expect(spectator.get_by_test_id("board")).to_be_visible()
        audit_at_every_size(spectator, "a spectator's table", DESKTOP)
    finally:
        context.close()


def test_french_pages_pass_the_audit_and_say_their_language(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        audit(page, "the lobby in French")
        create_table(page, live_server, "six-day-race", ["heuristic"], **SHORT["six-day-race"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        audit(page, "a Six Day Race table in French")
    finally:
        context.close()


def test_a_table_is_created_and_played_by_keyboard_alone(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        create_by_keyboard(page, live_server)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        assert play_by_keyboard(page, "a keyboard-made table") >= 2
    finally:
        context.close()
