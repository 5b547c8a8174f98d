"""Six Day Race in a real browser: two people and a bot ride a one-race game to the end.

Ann (desktop) creates the table in the lobby, Bob (phone-sized) joins through the invite link, a
heuristic bot takes the third seat. Both play by clicking the cards the renderer offers (only
legal ones), Bob reloads mid-race and goes on, and the end shows the standings, the reason and
the series table. Screenshots of the main screens are taken only when ``$RACEDECK_SCREENSHOTS`` is
set (``docs/screenshots`` in the repository), into that folder.
"""

from __future__ import annotations

import contextlib
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

SHORT_RACE = {
    "races": "1",
    "line": "30",
    "sprints": "[10, 20]",
    "rider_change": "12",
    "crash": "18",
}
"""One race on a short track, with both sprints, the rider change and the crash space."""


OFFERED = """() => {
  const end = document.querySelector('[data-testid=standings]');
  return (end !== null && end.offsetParent !== null)
    || document.querySelector('[data-testid=board] [data-testid=card]') !== null;
}"""


OTHER_ASKED = """seat => document.querySelector(
  `[data-testid=score][data-seat="${seat}"]`)?.classList.contains('acting') ?? false"""
"""Whether the page shows seat ``seat`` as the one asked now."""


def await_offer(page: Page, other: int | None = None) -> None:
    """Wait a moment for this page to offer a card (or show the end): it may be its turn once
    the update is in, or another seat's (then the wait ends without one). With ``other``, the
    seat of the other person, the wait also ends as soon as the page shows that seat asked:
    this page has nothing to offer before that person has played (a bot's move comes at once,
    so it is waited for)."""
    script = OFFERED
    if other is not None:
        script = f"() => ({OFFERED})() || ({OTHER_ASKED})({other})"
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(script, timeout=300)


def take_turn(page: Page, rng: random.Random, shot: Path | None = None) -> bool:
    """Play one of the offered cards if this page may; True when a card was played."""
    board = page.get_by_test_id("board")
    cards = board.locator("[data-testid=card]")
    count = cards.count()
    if not count:
        return False
    try:
        card = cards.nth(rng.randrange(count))
        value = card.get_attribute("data-value", timeout=1000)
        card.click(timeout=2000)
        confirm = board.locator("[data-testid=confirm]")
        expect(confirm).to_have_attribute("data-action", f'{{"type":"play","value":{value}}}')
        if shot is not None:
            snap_if_wanted(page, shot)
        confirm.click(timeout=2000)
    except (PlaywrightTimeout, AssertionError):
        return False  # the board moved on meanwhile (another update); ask again
    return True


def test_two_people_and_a_bot_ride_a_race_to_the_end(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    rng = random.Random(6)
    try:
        ann = ann_ctx.new_page()
        bob = bob_ctx.new_page()
        create_table(ann, live_server, "six-day-race", ["human", "heuristic"], **SHORT_RACE)
        join(bob, invite_link(ann), "Bob")
        for page in (ann, bob):
            expect(page.get_by_test_id("sdr-board")).to_be_visible()
            expect(page.get_by_test_id("log")).to_contain_text("Race 1 of 1")

        # The oval shows every rider: 3 players with two riders each (SD-12).
        expect(ann.locator("[data-testid=rider]")).to_have_count(6)
        # The rider on turn is ringed; the ring turns a little and stops (not for ever).
        expect(ann.locator(".sdr-halo")).to_have_count(1)
        assert endless_animations(ann) == []

        played = {"Ann": 0, "Bob": 0}
        wanted = {
            "play-desktop": (ann, shots / "six-day-race-play-desktop.png"),
            "play-phone": (bob, shots / "six-day-race-play-phone.png"),
        }
        slipstream_seen: set[str] = set()
        reloaded = False
        motion_reduced = False
        scored_mid_race = False
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if (
                ann.get_by_test_id("standings").is_visible()
                and bob.get_by_test_id("standings").is_visible()
            ):
                break
            for who, page, other in (("Ann", ann, 1), ("Bob", bob, 0)):
                key = "play-desktop" if who == "Ann" else "play-phone"
                shot = wanted.pop(key)[1] if key in wanted and played[who] >= 4 else None
                await_offer(page, other)
                if take_turn(page, rng, shot):
                    played[who] += 1
                elif shot is not None:
                    wanted[key] = (page, shot)
                # A slipstream is shown where it happens, with its multiplier (SD-5).
                suffix = "desktop" if who == "Ann" else "phone"
                note = page.locator("[data-testid=callout][data-kind=slipstream]")
                if suffix not in slipstream_seen and note.count():
                    try:
                        text = note.first.text_content(timeout=1000) or ""
                    except PlaywrightTimeout:
                        continue  # the next move replaced it
                    assert re.fullmatch(r"slipstream ×\d", text), text
                    snap_if_wanted(page, shots / f"six-day-race-slipstream-{suffix}.png")
                    slipstream_seen.add(suffix)
            # Sprint points count in the scores as they are won, not only when the race ends.
            if not scored_mid_race and not ann.get_by_test_id("standings").is_visible():
                points = ann.locator("[data-testid=score] .pts").all_text_contents()
                scored_mid_race = any(p not in ("", "0") for p in points)
            if "play-desktop" not in wanted and not motion_reduced:
                # Ann's riders were seen moving; the rest of the race as with reduced motion.
                ann.emulate_media(reduced_motion="reduce")
                motion_reduced = True
            if not reloaded and played["Bob"] >= 6:
                # Bob reloads mid-race: the seat, the view and his hands come back.
                bob.reload()
                expect(bob.get_by_test_id("status")).to_have_attribute("data-state", "online")
                expect(bob.get_by_test_id("sdr-board")).to_be_visible()
                expect(bob.locator(".sdr-hand")).to_have_count(2)
                reloaded = True
        assert reloaded, "Bob never played six cards"
        assert slipstream_seen, "no slipstream was shown"
        assert scored_mid_race, "the scores stayed 0 while the sprints were won (SD-8)"
        assert played["Ann"] > 6 and played["Bob"] > 6, played

        for page, suffix in ((ann, "desktop"), (bob, "phone")):
            standings = page.get_by_test_id("standings")
            expect(standings).to_be_visible()
            expect(standings).to_contain_text(re.compile(r"wins?!"))
            expect(page.get_by_test_id("win-rule")).not_to_be_empty()
            series = page.get_by_test_id("series")
            expect(series).to_contain_text("Ann")
            expect(series).to_contain_text("Bob")
            expect(series).to_contain_text("Series after 1 of 1 race")
            expect(page.get_by_test_id("race-result")).to_contain_text("Race 1 of 1")
            expect(page.get_by_test_id("turn")).to_contain_text("over")
            snap_if_wanted(page, shots / f"six-day-race-end-{suffix}.png")
        # Nobody can play a card any more.
        expect(ann.get_by_test_id("board").locator("[data-testid=card]")).to_have_count(0)
    finally:
        ann_ctx.close()
        bob_ctx.close()
