"""A guided first game: "Learn to play" in the lobby makes a short table against heuristic bots
and opens it with a coach above the board that explains the decision asked right now, follows
the game move by move, says when it is over, can be skipped for the rest of the game (across a
reload too), passes the accessibility audit, and on a phone never covers the docked hand.

The tests wait only on what the page shows (never on the wall clock).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import test_language_browser as language
import test_six_day_race_browser as six_day_race
import test_why_first_browser as why_first
from helpers import DESKTOP, POLL_MS, create_table, shot_if_wanted, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, Page, Route, expect
from test_accessibility_browser import audit

GAMES = ("why-first", "six-day-race", "setback")
PLAYERS = {"why-first": 3, "six-day-race": 3, "setback": 2}
PHONE = {"width": 390, "height": 844}

# Shorter still than the quick preset, to play a whole game in a test (the request the lobby
# sends is changed on its way; the page does not know).
TO_THE_END: dict[str, dict[str, Any]] = {
    "why-first": {"stages": 1, "hand_size": 3},
    "six-day-race": {k: json.loads(v) for k, v in six_day_race.SHORT_RACE.items()},
    "setback": {"rows": 2, "window_seconds": 0},
}

# The first decision's tip, in English, by game.
FIRST_TIP = {
    "why-first": re.compile(r"^Choose a card from your hand \(.+\)\."),
    "six-day-race": re.compile(
        r"^(Your rider .+ is on space \d+\. Play one of your cards|Waiting for)"
    ),
    "setback": re.compile(r"Hand Action|Board Action|BLOCK|Waiting for|turn"),
}

SOMETHING_TO_DO = language.SOMETHING_TO_DO
"""The page offers a choice, or shows the standings."""

WF_SOMETHING_TO_DO = """() => {
  const end = document.querySelector('[data-testid=standings]');
  if (end && end.offsetParent !== null) return true;
  const b = document.querySelector('[data-testid=board]');
  return !!b && b.querySelector('[data-testid=target], [data-testid=card]:not([disabled]), '
    + '[data-testid=action]:not([disabled])') !== null;
}"""


def learn(
    page: Page, base: str, game: str, shorter: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Press "Learn to play" for ``game`` in the lobby; return the request it sent. With
    ``shorter``, those options are added to the request on its way to the server (what is
    returned is what the page sent)."""
    asked: list[dict[str, Any]] = []  # the request as the page made it
    if shorter is not None:

        def shorten(route: Route) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            body = json.loads(route.request.post_data or "{}")
            asked.append(body)
            route.continue_(post_data=json.dumps({**body, "config": {**body["config"], **shorter}}))

        page.route("**/api/tables", shorten)
    page.goto(base + "/")
    button = page.locator(f"[data-testid=learn][data-game={game}]")
    with page.expect_request(
        lambda r: r.url.endswith("/api/tables") and r.method == "POST"
    ) as sent:
        button.click()
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
    body: dict[str, Any] = asked[0] if asked else json.loads(sent.value.post_data or "{}")
    return body


def tip(page: Page) -> str:
    return page.get_by_test_id("coach-tip").inner_text()


def offered(page: Page, selector: str, attr: str) -> list[str]:
    found = page.get_by_test_id("board").locator(selector)
    return [v for v in found.evaluate_all(f"es => es.map(e => e.dataset.{attr})") if v]


def wait_for_choice(page: Page, script: str = SOMETHING_TO_DO) -> None:
    page.wait_for_function(script, timeout=60_000, polling=POLL_MS)


PLAYED_ON = ("why-first", "six-day-race")
"""The games whose coached first decisions are played on to the end in the same test (on a
shorter table: the request is changed on its way). Setback's shortest table may end before a
second decision of the person's: its end has a test of its own."""


@pytest.mark.parametrize("game", GAMES)
def test_learn_to_play_coaches_each_decision(
    browser: Browser, live_server: str, tmp_path: Path, game: str
) -> None:
    # Reduced motion: the board shows each move at once (the coach follows the views, not
    # the board's animations, which the games' own tests watch at full length).
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        page = context.new_page()
        body = learn(page, live_server, game, TO_THE_END[game] if game in PLAYED_ON else None)
        # A short game with the person in seat 1 and heuristic bots, no clock.
        spec = next(
            g for g in page.request.get(live_server + "/api/games").json() if g["id"] == game
        )
        n = PLAYERS[game]
        assert body["game"] == game
        assert body["config"] == {"players": n, **spec["presets"]["quick"]}
        assert body["seats"] == [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (
            n - 1
        )
        assert body["clock"] == {"profile": "unlimited"}
        expect(page.get_by_test_id("score")).to_have_count(n)
        expect(page.get_by_test_id("scoreboard")).to_contain_text("heuristic bot")

        coach = page.get_by_test_id("coach")
        expect(coach).to_be_visible()
        expect(coach).to_have_attribute("aria-live", "polite")
        expect(page.get_by_test_id("coach-tip")).to_have_text(FIRST_TIP[game])
        audit(page, f"guided {game}")
        snap_if_wanted(page, shots_dir(tmp_path) / f"guide-{game}-desktop.png")

        if game == "why-first":
            follow_why_first(page)
        elif game == "six-day-race":
            follow_six_day_race(page)
        else:
            follow_setback(page)
        expect(page.get_by_test_id("toasts")).to_have_text("")
        if game in PLAYED_ON:
            play_to_the_end_and_hear_it_is_over(page, game, tmp_path)
    finally:
        context.close()


def follow_why_first(page: Page) -> None:
    """A card, then the figure, then the next round's card: the tip follows each step."""
    board = page.get_by_test_id("board")
    coach_tip = page.get_by_test_id("coach-tip")
    values = offered(page, "[data-testid=card]:enabled", "value")
    for v in set(values):
        expect(coach_tip).to_contain_text(f"+{v}" if int(v) > 0 else f"\u2212{-int(v)}")
    first = tip(page)
    board.locator("[data-testid=card]:enabled").first.click()
    expect(coach_tip).to_contain_text("Now choose the figure")
    names = board.locator("[data-testid=target] .wf-target-name").all_inner_texts()
    assert names
    for name in names:
        expect(coach_tip).to_contain_text(name)
    chosen = tip(page)
    board.locator("[data-testid=target]").first.click()
    # The bots choose at once: the reveal comes, and the next round's card is asked.
    expect(coach_tip).not_to_have_text(chosen)
    expect(page.get_by_test_id("coach-recap")).to_contain_text("The reveal")
    expect(coach_tip).to_have_text(re.compile(r"^Choose a card from your hand"))
    for v in set(offered(page, "[data-testid=card]:enabled", "value")):
        expect(coach_tip).to_contain_text(f"+{v}" if int(v) > 0 else f"\u2212{-int(v)}")
    assert tip(page) != first or len(values) > 1


def follow_six_day_race(page: Page) -> None:
    """The card to play (the values the board offers), the picked card, then the next turn."""
    board = page.get_by_test_id("board")
    coach_tip = page.get_by_test_id("coach-tip")
    wait_for_choice(page)
    expect(coach_tip).to_contain_text("Play one of your cards")
    values = sorted(set(offered(page, "[data-testid=card]", "value")), key=int)
    expect(coach_tip).to_contain_text(f"({' '.join(values)})")
    first = tip(page)
    card = board.locator("[data-testid=card]").first
    value = card.get_attribute("data-value")
    card.click()
    expect(coach_tip).to_have_text(
        f"You picked {value}. Press “Play {value}” to play it, or choose another card."
    )
    picked = tip(page)
    board.locator("[data-testid=confirm]").click()
    expect(coach_tip).not_to_have_text(picked)
    # The next decision (the other rider, after the bots' riders), worded from its own view.
    page.wait_for_function(
        """first => {
          const tip = document.querySelector('[data-testid=coach-tip]').textContent;
          return tip !== first && tip.includes('Play one of your cards');
        }""",
        arg=first,
        timeout=60_000,
        polling=POLL_MS,
    )
    wait_for_choice(page)  # the board offers the cards once it has drawn the moves
    values = sorted(set(offered(page, "[data-testid=card]", "value")), key=int)
    expect(coach_tip).to_contain_text(f"({' '.join(values)})")
    expect(page.get_by_test_id("coach-recap")).to_have_text(re.compile(r"played|crossed|landed"))


def follow_setback(page: Page) -> None:
    """Whatever Setback asks first (a hand, a board card, a BLOCK window), the tip names what
    the board offers; after the answer the tip follows the next decision."""
    rng = random.Random(3)
    coach_tip = page.get_by_test_id("coach-tip")
    for _ in range(2):
        wait_for_choice(page)
        before = tip(page)
        window = page.get_by_test_id("board").locator("[data-testid=window] [data-testid=action]")
        if window.count():
            assert re.search(r"Pass", before), before
        else:
            cards = offered(page, "[data-testid=card]", "card")
            assert cards, "nothing offered"
            assert any(c in before for c in cards), (before, cards)
            # The turn's action, or (a card picked) what that card does and its options.
            assert re.search(r"Hand Action|Board Action|options offered", before), before
        # One answer; setback_turn lets a click go when the board moves meanwhile (on a busy
        # machine a click can miss its moment), so answer again until the question changes.
        for _ in range(5):
            language.setback_turn(page, rng)
            with contextlib.suppress(AssertionError):
                expect(coach_tip).not_to_have_text(before, timeout=10_000)
                break
        else:
            raise AssertionError(f"the tip stayed {before!r} after five answers")


def play_why_first_to_the_end(page: Page, rng: random.Random) -> None:
    while not page.get_by_test_id("standings").is_visible():
        why_first.take_turn(page, rng)
        wait_for_choice(page, WF_SOMETHING_TO_DO)


def play_to_the_end_and_hear_it_is_over(page: Page, game: str, tmp_path: Path) -> None:
    """Play on to the end of the game; the coach says it is over, who won, and what next."""
    rng = random.Random(7)
    if game == "why-first":
        play_why_first_to_the_end(page, rng)
    else:
        language.play_to_the_end(page, game, rng)
    coach_tip = page.get_by_test_id("coach-tip")
    expect(coach_tip).to_contain_text("The game is over")
    expect(coach_tip).to_contain_text("won")
    expect(coach_tip).to_contain_text("“Play again”")
    if game == "why-first":
        expect(page.get_by_test_id("coach-recap")).to_contain_text("Stage 1 is scored")
    elif game == "six-day-race":
        expect(page.get_by_test_id("coach-recap")).to_contain_text("Race 1 is over")
    snap_if_wanted(page, shots_dir(tmp_path) / f"guide-{game}-over-desktop.png")


@pytest.mark.parametrize("game", [g for g in GAMES if g not in PLAYED_ON])
def test_the_coach_says_when_the_game_is_over(
    browser: Browser, live_server: str, tmp_path: Path, game: str
) -> None:
    """(The other games are played to their end in test_learn_to_play_coaches_each_decision.)"""
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    try:
        page = context.new_page()
        learn(page, live_server, game, TO_THE_END[game])
        expect(page.get_by_test_id("coach")).to_be_visible()
        play_to_the_end_and_hear_it_is_over(page, game, tmp_path)
    finally:
        context.close()


def test_skip_hides_the_guide_for_the_game_even_after_a_reload(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        page = context.new_page()
        learn(page, live_server, "why-first")
        coach = page.get_by_test_id("coach")
        expect(coach).to_be_visible()
        skip = page.get_by_test_id("coach-skip")
        expect(skip).to_have_text("Skip the guide")
        skip.click()
        expect(coach).to_be_hidden()
        page.reload()
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("wf-board")).to_be_visible()
        expect(
            page.get_by_test_id("board").locator("[data-testid=card]:enabled").first
        ).to_be_visible()
        expect(coach).to_be_hidden()

        # A table made with the new-table form is no guided game: no coach.
        create_table(page, live_server, "why-first", ["heuristic"])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("wf-board")).to_be_visible()
        expect(page.get_by_test_id("coach")).to_be_hidden()
    finally:
        context.close()


def test_the_guide_speaks_the_chosen_language(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        expect(page.locator("[data-testid=learn][data-game=setback]")).to_have_text(
            "Spielen lernen"
        )
        learn(page, live_server, "why-first")
        expect(page.get_by_test_id("coach-skip")).to_have_text("Anleitung überspringen")
        expect(page.get_by_test_id("coach-tip")).to_contain_text("Wähle eine Karte aus deiner Hand")
        snap_if_wanted(page, shots_dir(tmp_path) / "guide-why-first-de-desktop.png")
        page.get_by_test_id("lang-switch").select_option("fr")
        expect(page.get_by_test_id("coach-skip")).to_have_text("Ignorer le guide")
        expect(page.get_by_test_id("coach-tip")).to_contain_text(
            "Choisissez une carte de votre main"
        )
    finally:
        context.close()


DOCK_SEEN = """() => {
  const dock = document.querySelector('.board.my-turn .dock');
  if (!dock) return null;
  const r = dock.getBoundingClientRect();
  const inside = r.top >= -1 && r.left >= -1
    && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
  const points = [[r.left + 6, r.top + 6], [r.right - 6, r.top + 6],
    [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
    [r.left + 6, r.bottom - 6], [r.right - 6, r.bottom - 6]];
  const coach = document.querySelector('[data-testid=coach]');
  const covered = points.some(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !hit || !dock.contains(hit) || (coach && coach.contains(hit));
  });
  return { inside, covered, height: r.height };
}"""
"""Whether the docked hand is in the viewport and nothing (the coach least of all) lies on it."""


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_coach_never_covers_the_docked_hand(
    browser: Browser, live_server: str, tmp_path: Path, game: str
) -> None:
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB", reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        learn(page, live_server, game)
        coach = page.get_by_test_id("coach")
        expect(coach).to_be_visible()
        page.wait_for_function(
            "() => document.querySelector('.board.my-turn .dock') !== null",
            timeout=60_000,
            polling=POLL_MS,
        )
        # The coach is in the page flow above the board, not over it.
        assert coach.evaluate("e => getComputedStyle(e).position") == "static"
        coach_box = coach.bounding_box()
        board_box = page.get_by_test_id("board").bounding_box()
        assert (
            coach_box and board_box and coach_box["y"] + coach_box["height"] <= board_box["y"] + 1
        )
        for where in ("top", "coach", "bottom"):
            if where == "top":
                page.evaluate("window.scrollTo(0, 0)")
            elif where == "coach":
                coach.scroll_into_view_if_needed()
            else:
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            seen = page.evaluate(DOCK_SEEN)
            assert seen is not None, "the hand is not docked"
            assert seen["inside"], f"{game}: the docked hand leaves the screen ({where})"
            assert not seen["covered"], f"{game}: something lies on the docked hand ({where})"
        page.evaluate("window.scrollTo(0, 0)")
        snap_if_wanted(page, shots_dir(tmp_path) / f"guide-{game}-phone.png")
        shot_if_wanted(page, shots_dir(tmp_path) / f"guide-{game}-phone-screen.png")
        # The docked hand is usable: a tap on a card there changes the question.
        before = tip(page)
        dock = page.locator(".board.my-turn .dock")
        dock.locator(
            "[data-testid=card]:enabled, [data-testid=choice]:enabled, [data-testid=action]:enabled"
        ).first.tap()
        expect(page.get_by_test_id("coach-tip")).not_to_have_text(before)
    finally:
        context.close()
