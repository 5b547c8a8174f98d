"""No English left in Dutch, French or German: every text a page shows while a game is created,
played to its end and replayed step by step — its words, and the titles, labels and
placeholders read aloud — is checked against the English catalogue. A piece of an English
message that the other language does not use itself (a name or a card face, such as "MOVE+1"
or "FAHRERWECHSEL", is the same in every catalogue) must not appear."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest
import test_language_browser as language
from helpers import DESKTOP, create_table, shots_dir, snap
from playwright.sync_api import Browser, Page, expect

STATIC = Path(__file__).resolve().parents[2] / "src" / "racedeck" / "server" / "static"

# Every text the page shows, from the moment it loads: text nodes as they are added or
# changed, and the attributes that are read aloud or shown on hovering.
COLLECT = """(() => {
  const seen = (window.__seen = window.__seen || new Set());
  const ATTRS = ["title", "aria-label", "placeholder", "alt", "aria-description"];
  const take = (node) => {
    if (!node) return;
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.data.trim()) seen.add(node.data.trim());
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_NODE) return;
    const root = node.nodeType === Node.DOCUMENT_NODE ? node.documentElement : node;
    if (!root) return;
    for (const el of [root, ...root.querySelectorAll("*")]) {
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
      for (const a of ATTRS) {
        const v = el.getAttribute(a);
        if (v && v.trim()) seen.add(v.trim());
      }
      for (const c of el.childNodes) {
        if (c.nodeType === Node.TEXT_NODE && c.data.trim()) seen.add(c.data.trim());
      }
    }
  };
  new MutationObserver((changes) => {
    for (const m of changes) {
      if (m.type === "characterData") take(m.target);
      else if (m.type === "attributes") take(m.target);
      else for (const n of m.addedNodes) take(n);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ATTRS });
  document.addEventListener("DOMContentLoaded", () => take(document));
})()"""

SEEN = "() => [...(window.__seen || [])]"


def catalogue(code: str) -> dict[str, str]:
    """The messages of ``static/i18n/<code>.js``."""
    text = (STATIC / "i18n" / f"{code}.js").read_text(encoding="utf-8")
    return {k: json.loads(v) for k, v in re.findall(r'^\s*"([^"]+)":\s*(".*"),?\s*$', text, re.M)}


@cache
def english_pieces(code: str) -> tuple[re.Pattern[str], ...]:
    """Pieces of the English messages (split at their placeholders) that ``code``'s catalogue
    does not use: two words or more, or one word of six letters or more."""
    en, other = catalogue("en"), catalogue(code)
    theirs = "\n".join(other.values())
    pieces = set()
    for key, message in en.items():
        if other.get(key) == message:
            continue  # the same in both languages: a name, a card face, a number
        for part in re.split(r"\{[^}]*\}", message):
            part = part.strip(" .,:;·—–-()!?…\"'“”‘’/↗×+=")
            words = re.findall(r"[A-Za-z]+", part)
            long_enough = len(words) >= 2 or re.fullmatch(r"[A-Za-z]{6,}", part)
            if long_enough and not re.search(rf"(?<!\w){re.escape(part)}(?!\w)", theirs):
                pieces.add(part)
    return tuple(re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in sorted(pieces))


def english_in(texts: list[str], code: str) -> list[str]:
    """The texts that hold a piece of English, each with the piece found."""
    return [
        f"{text!r} ← {p.pattern}" for text in texts for p in english_pieces(code) if p.search(text)
    ]


def test_the_detector_finds_english_and_passes_the_language() -> None:
    """It would catch the English words once found left over, and passes the catalogue's own
    words (so a failure below is English on the page, not noise)."""
    assert english_in(["Carte d'Anna", "START", "MOVE+1", "FAHRERWECHSEL"], "fr") == []
    assert english_in(list(catalogue("de").values()), "de") == []
    for leftover in ("Anna's hand for stage 1", "1 watching", "Hand size", "Create table"):
        assert english_in([leftover], "nl"), leftover


def step_replay_to_the_end(page: Page) -> None:
    counter = page.get_by_test_id("replay-step")
    expect(counter).to_have_attribute("data-total", re.compile(r"\d+"))
    total = int(counter.get_attribute("data-total") or 0)
    page.get_by_test_id("replay-next").focus()
    for n in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_attribute("data-step", str(n))
    expect(page.get_by_test_id("replay-standings")).to_be_visible()


GAMES = {
    "why-first": {"stages": "1", "hand_size": "2"},
    "six-day-race": language.six_day_race.SHORT_RACE,
    "setback": {"rows": "2", "window_seconds": "0"},
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("code", ["nl", "fr", "de"])
def test_a_whole_game_shows_no_english(
    browser: Browser, live_server: str, tmp_path: Path, code: str, game: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('racedeck.lang', '{code}');")
    context.add_init_script(COLLECT)
    try:
        page = context.new_page()
        # The lobby with the game's custom rules open, then the game to its end.
        page.goto(live_server + "/")
        page.get_by_test_id("game-select").select_option(game)
        page.locator("details.options").evaluate("d => { d.open = true; }")
        page.locator("details.clock-box").evaluate("d => { d.open = true; }")
        seen_in_lobby = page.evaluate(SEEN)  # (a new page load starts the collection again)
        create_table(page, live_server, game, ["random"], **GAMES[game])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        language.play_to_the_end(page, game, random.Random(5))
        page.locator("details.fair-box").evaluate("d => { d.open = true; }")
        page.get_by_test_id("share").click()
        snap(page, shots_dir(tmp_path) / f"no-english-{game}-{code}.png")
        seen_at_table = page.evaluate(SEEN)
        # The replay of that game, every step of it.
        page.get_by_test_id("standings").get_by_test_id("replay-link").first.click()
        step_replay_to_the_end(page)
        seen = page.evaluate(SEEN)
        assert len(seen) > len(seen_at_table) > 20 and len(seen_in_lobby) > 20, "nothing seen"
        assert english_in(seen_in_lobby + seen, code) == []
    finally:
        context.close()
