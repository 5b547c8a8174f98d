"""The pictures of the rules pages in a real browser: every rules page, in every language, draws
each of its pictures with the game's own renderer (a spectator's board: nothing to press), at a
desktop and a phone size, with nothing wider than the phone, no console error, no axe-core
violation, and the renderer's words in the page's language.

Screenshots of every page are taken when ``$RACEDECK_SCREENSHOTS`` is set (``docs/screenshots``
in the repository) and go there; a plain test run takes none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import DESKTOP, PHONE, shot_if_wanted, shots_dir
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from test_accessibility_browser import AXE, audit

from racedeck import rulebook

LANGS = ("en", *rulebook.SUMMARY_LANGUAGES)
BOARD = {"six-day-race": "sdr-board", "why-first": "track", "setback": "sb-board"}
"""The renderer's drawing of the board (an SVG) in each game's pictures."""
PLAYER_1 = {"en": "Player 1", "nl": "Speler 1", "fr": "Joueur 1", "de": "Spieler 1"}
"""Seat 1 as the renderers name it in each language."""

ALL_DRAWN = """() => {
  const figures = [...document.querySelectorAll('[data-testid=rules-picture]')];
  return figures.length > 0 && figures.every((f) => f.dataset.drawn);
}"""

DRAWINGS = """(testid) => [...document.querySelectorAll('[data-testid=rules-picture]')].map((f) => {
  const svg = f.querySelector(`[data-testid=${testid}]`);
  const box = svg ? svg.getBoundingClientRect() : null;
  return {
    name: f.dataset.picture,
    drawn: f.dataset.drawn,
    shapes: svg ? svg.querySelectorAll('rect, path, circle, text, line, polyline').length : 0,
    width: box ? box.width : 0,
    height: box ? box.height : 0,
    caption: f.querySelector('figcaption').textContent,
    text: f.querySelector('.rules-picture-board').textContent,
    buttons: [...f.querySelectorAll('button')].filter((b) => b.checkVisibility()).length,
  };
})"""


def _watch(page: Page) -> list[str]:
    """Every console error and uncaught exception of ``page`` from now on."""
    errors: list[str] = []

    def console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(msg.text)

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


FIGURE_BOXES = """() => [...document.querySelectorAll('[data-testid=rules-picture]')].map((f) => {
  const box = f.getBoundingClientRect();
  return { name: f.dataset.picture, left: box.left, right: box.right, width: box.width };
})"""
"""Where each picture lies across the window (one look at all of them)."""


@pytest.mark.parametrize("game_id", rulebook.available())
def test_every_picture_is_drawn_on_a_desktop_and_a_phone(
    browser: Browser, live_server: str, tmp_path: Path, game_id: str
) -> None:
    """Each language's page is loaded afresh in one window of each size (a page is drawn once,
    at its load, in the language of its address)."""
    shots = shots_dir(tmp_path)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            # The person's own choice of language for the client; the page keeps it.
            page.add_init_script("localStorage.setItem('racedeck.lang', 'fr')")
            # axe-core comes with every page (audit() then finds it there, and says so if
            # it is not installed): one script for the browser, not one sent into each page.
            if AXE.exists():
                page.add_init_script(path=AXE)
            errors = _watch(page)
            for lang in LANGS:
                where = f"/rules/{game_id}?lang={lang} ({size})"
                page.goto(f"{live_server}/rules/{game_id}?lang={lang}")
                page.wait_for_function(ALL_DRAWN)
                pictures = page.evaluate(DRAWINGS, BOARD[game_id])
                assert len(pictures) >= 2, where
                for p in pictures:
                    assert p["drawn"] == "true", (where, p["name"])
                    assert p["shapes"] > 20, f"{where} {p['name']}: the board is empty"
                    assert p["width"] > 200 and p["height"] > 50, (where, p)
                    assert p["buttons"] == 0, f"{where} {p['name']} offers a choice"
                    assert len(p["caption"]) > 40, where
                    assert PLAYER_1[lang] in p["text"], f"{p['name']} is not worded in {lang}"
                # The renderer speaks the page's language; the person's choice is unchanged.
                assert page.evaluate("document.documentElement.lang") == lang
                assert page.evaluate("localStorage.getItem('racedeck.lang')") == "fr"
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], f"{where}: {width}px wide"
                for box in page.evaluate(FIGURE_BOXES):
                    assert box["width"] > 0 and box["left"] >= 0, (where, box)
                    assert box["right"] <= viewport["width"], (where, box)
                shot_if_wanted(
                    page, shots / f"rules-pictures-{game_id}-{lang}-{size}.png", full_page=True
                )
                audit(page, where)
                assert errors == [], where
        finally:
            context.close()


def test_a_picture_is_a_named_figure_not_a_control(browser: Browser, live_server: str) -> None:
    """Screen readers hear the caption as the figure's name; the board inside is hidden from
    them and from the keyboard (the caption says what it shows)."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/rules/setback")
        page.wait_for_function(ALL_DRAWN)
        figure = page.get_by_role("figure", name=re.compile(r"^A BLOCK: Player 1 declared"))
        expect(figure).to_have_count(1)
        expect(figure.get_by_test_id("window")).to_contain_text("Player 2")
        board = figure.locator(".rules-picture-board")
        expect(board).to_have_attribute("aria-hidden", "true")
        expect(board).to_have_attribute("inert", "")
        # Tab goes from the page's links past the pictures: nothing in them takes the focus.
        for _ in range(12):
            page.keyboard.press("Tab")
            assert page.evaluate("!document.activeElement.closest('[data-testid=rules-picture]')")
    finally:
        context.close()
