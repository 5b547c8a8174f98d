"""Nothing is wider than the smallest common phone (320 px) in any of the four languages: the
lobby with its new-table form folded open, the join form, a table of each game from a seat, a
replay and each game's rules. French and German words are long ("Unbegrenzt: keine Uhr", "Une
personne (invitation)"), and a name may be 24 letters without a space; a page wider than the
screen scrolls sideways and is cut off in a phone's screenshot.

One page goes through every language (the choice is kept in localStorage, as the language
switch keeps it) and every page in turn: a browser context and a cold start cost more than a
page load."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from helpers import shot_if_wanted, shots_dir, wider_than_the_window
from playwright.sync_api import Browser, Page, expect

SMALL_PHONE = {"width": 320, "height": 640}
LANGS = ("en", "nl", "fr", "de")
LONG_NAME = "Maximiliansgrossmutterxy"  # the longest a name may be, with no space to break at
GAMES = ("why-first", "six-day-race", "setback")


def _create(base: str, body: dict[str, object]) -> dict[str, str]:
    res = httpx.post(f"{base}/api/tables", json=body, trust_env=False)
    assert res.status_code == 201, res.text
    created: dict[str, str] = res.json()
    return created


@pytest.fixture(scope="module")
def tables(live_server: str) -> dict[str, dict[str, str]]:
    """The tables the pages show: one with a free seat (the lobby's "Join", the join form), a
    seat at a table of each game against bots, and a finished game of bots to replay."""
    made = {
        "open": _create(
            live_server,
            {
                "game": "six-day-race",
                "config": {"players": 4},
                "seats": [{"kind": "human"}] * 2 + [{"kind": "bot", "bot": "random"}] * 2,
                "name": LONG_NAME,
            },
        ),
        "finished": _create(
            live_server,
            {
                "game": "why-first",
                "config": {"players": 3, "stages": 1},
                "seats": [{"kind": "bot", "bot": "random"}] * 3,
            },
        ),
    }
    for game in GAMES:
        made[game] = _create(
            live_server,
            {
                "game": game,
                "config": {"players": 3},
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 2,
                "name": LONG_NAME,
                "clock": {"profile": "unlimited"},
            },
        )
    return made


@pytest.fixture(scope="module")
def phone(browser: Browser, live_server: str, tables: dict[str, dict[str, str]]) -> Iterator[Page]:
    """One small phone's page for the module, holding the seats of :func:`tables`."""
    context = browser.new_context(viewport=SMALL_PHONE, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        seats = {tables[g]["table_id"]: {"seat": 0, "token": tables[g]["token"]} for g in GAMES}
        page.evaluate(f"localStorage.setItem('racedeck.seats', {json.dumps(json.dumps(seats))})")
        yield page
    finally:
        context.close()


def fits(page: Page, lang: str, where: str) -> None:
    wide = wider_than_the_window(page)
    assert not wide, f"{where} in {lang}: " + "; ".join(wide)


def small_targets(page: Page) -> list[str]:
    """The visible buttons and fields (not a checkbox or a radio button, whose label is the
    target) less than 40 px tall."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input')]
          .filter((e) => e.type !== 'checkbox' && e.type !== 'radio' && e.offsetParent !== null)
          .filter((e) => e.getBoundingClientRect().height < 40)
          .map((e) => `${e.tagName.toLowerCase()} "${e.textContent || e.value}"`)"""
    )
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_is_wider_than_a_small_phone(
    phone: Page, live_server: str, tables: dict[str, dict[str, str]], lang: str, tmp_path: Path
) -> None:
    page = phone
    shots = shots_dir(tmp_path)
    page.evaluate(f"localStorage.setItem('racedeck.lang', '{lang}')")

    # The lobby: the open tables, the new-table form with its folds open, the games.
    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    row = page.locator(f"[data-testid=lobby-table][data-table='{tables['open']['table_id']}']")
    expect(row).to_contain_text(LONG_NAME)
    expect(page.get_by_test_id("learn")).to_have_count(len(GAMES))
    page.locator("details.clock-box > summary").click()
    page.locator("details.options > summary").click()
    fits(page, lang, "the lobby")
    assert not small_targets(page), small_targets(page)
    shot_if_wanted(page, shots / f"phone-320-lobby-{lang}.png", full_page=True)
    for game in GAMES:
        page.get_by_test_id("game-select").select_option(game)
        fits(page, lang, f"the new-table form of {game}")

    # Someone's invitation: the join form.
    page.goto(f"{live_server}/t/{tables['open']['table_id']}")
    expect(page.get_by_test_id("join-form")).to_be_visible()
    fits(page, lang, "the join form")

    # A seat at a table of each game, the header's share badge open.
    for game in GAMES:
        page.goto(f"{live_server}/t/{tables[game]['table_id']}")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        expect(page.get_by_test_id("board")).not_to_be_empty()
        page.get_by_test_id("share").click()
        fits(page, lang, f"a {game} table")
        shot_if_wanted(page, shots / f"phone-320-{game}-{lang}.png", full_page=True)

    # A finished game's replay, and each game's rules.
    page.goto(f"{live_server}/t/{tables['finished']['table_id']}/games/1")
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "0")
    expect(page.get_by_test_id("replay-board").first).to_be_visible()
    fits(page, lang, "the replay")
    for game in GAMES:
        page.goto(f"{live_server}/rules/{game}" + ("" if lang == "en" else f"?lang={lang}"))
        expect(page.get_by_test_id("rules")).to_be_visible()
        fits(page, lang, f"the rules of {game}")
