"""No English left in Dutch, French or German: every text a page shows while a game is created,
played to its end (on a desktop or a phone) and replayed step by step — its words, and the
titles, labels and placeholders read aloud — is checked against the English catalogue. A piece
of an English message that the other language does not use itself (a name or a card face, such
as "MOVE+1" or "FAHRERWECHSEL", is the same in every catalogue) must not appear."""

from __future__ import annotations

import json
import random
import re
import time
from functools import cache
from pathlib import Path

import pytest
import test_language_browser as language
import test_why_first_browser as why_first
from helpers import DESKTOP, PHONE, POLL_MS, create_table, shots_dir, snap
from playwright.sync_api import Browser, Page, expect

STATIC = Path(__file__).resolve().parents[2] / "src" / "racedeck" / "server" / "static"

# Every text the page shows, from the moment it loads: text nodes as they are added or
# changed, and the attributes that are read aloud or shown on hovering; each under the language
# chosen when it was shown (the switch stores its choice before the page draws its words again).
COLLECT = """(() => {
  const all = (window.__seen = window.__seen || {});
  const ATTRS = ["title", "aria-label", "placeholder", "alt", "aria-description"];
  let seen = null;
  const add = (text) => { if (text) seen.add(text); };
  const take = (node) => {
    if (!node) return;
    if (node.nodeType === Node.TEXT_NODE) {
      add(node.data.trim());
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_NODE) return;
    const root = node.nodeType === Node.DOCUMENT_NODE ? node.documentElement : node;
    if (!root) return;
    for (const el of [root, ...root.querySelectorAll("*")]) {
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
      for (const a of ATTRS) {
        const v = el.getAttribute(a);
        if (v) add(v.trim());
      }
      for (const c of el.childNodes) {
        if (c.nodeType === Node.TEXT_NODE) add(c.data.trim());
      }
    }
  };
  const now = () => {
    const code = localStorage.getItem("racedeck.lang") || "?";
    seen = all[code] = all[code] || new Set();
  };
  new MutationObserver((changes) => {
    now();
    for (const m of changes) {
      if (m.type === "characterData") take(m.target);
      else if (m.type === "attributes") take(m.target);
      else for (const n of m.addedNodes) take(n);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ATTRS });
  document.addEventListener("DOMContentLoaded", () => { now(); take(document); });
})()"""

SEEN = "() => Object.fromEntries(Object.entries(window.__seen || {}).map(([k, v]) => [k, [...v]]))"
"""What the page showed, by language."""


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
            # (a piece not in their text at all is not there as a word either: no search)
            if long_enough and (
                part not in theirs or not re.search(rf"(?<!\w){re.escape(part)}(?!\w)", theirs)
            ):
                pieces.add(part)
    return tuple(re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in sorted(pieces))


def english_in(texts: list[str], code: str) -> list[str]:
    """The texts that hold a piece of English, each with the piece found."""
    # A piece that is not in a text at all cannot be there as a word: only those that are
    # get searched (the same findings, in a fraction of the time).
    return [
        f"{text!r} ← {p.pattern}"
        for text in texts
        for p, piece in searched(code)
        if piece in text and p.search(text)
    ]


@cache
def searched(code: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each pattern of :func:`english_pieces` with the piece of English it looks for."""
    return tuple((p, piece_of(p)) for p in english_pieces(code))


def piece_of(pattern: re.Pattern[str]) -> str:
    """The piece of English a pattern of :func:`english_pieces` looks for."""
    return re.sub(r"\\(.)", r"\1", pattern.pattern[len(r"(?<!\w)") : -len(r"(?!\w)")])


def test_the_detector_finds_english_and_passes_the_language() -> None:
    """It would catch the English words once found left over, and passes the catalogue's own
    words (so a failure below is English on the page, not noise)."""
    assert english_in(["Carte d'Anna", "START", "MOVE+1", "FAHRERWECHSEL"], "fr") == []
    assert english_in(list(catalogue("de").values()), "de") == []
    for leftover in ("Anna's hand for stage 1", "1 watching", "Hand size", "Create table"):
        assert english_in([leftover], "nl"), leftover


def step_replay_to_the_end(page: Page, every: EveryLanguage) -> None:
    """Step the replay from its start to its end, each step shown as ``every`` says."""
    counter = page.get_by_test_id("replay-step")
    expect(counter).to_have_attribute("data-total", re.compile(r"\d+"))
    total = int(counter.get_attribute("data-total") or 0)
    for n in range(1, total + 1):
        page.get_by_test_id("replay-next").click()
        expect(counter).to_have_attribute("data-step", str(n))
        every.show(page)
    expect(page.get_by_test_id("replay-standings")).to_be_visible()


GAMES = {
    "why-first": {"stages": "1", "hand_size": "2"},
    "six-day-race": language.six_day_race.SHORT_RACE,
    "setback": {"rows": "2", "window_seconds": "0"},
}

SIZES = {"why-first": DESKTOP, "six-day-race": PHONE, "setback": DESKTOP}
"""The screen each game is played on. A phone's boards draw the same words in another shape
(the upright velodrome, the docked hand), but for one: Why First?'s face-down card backs are
titled on a desktop only, so it is played there. (Setback, played on a phone, took twice as long
in a full run, 40 s against 20, for no word more: it stays on a desktop.)"""

CODES = ("nl", "fr", "de")
FIRST = {"why-first": "nl", "six-day-race": "fr", "setback": "de"}
"""The language each game's pages first load in: every language loads a table page afresh
(words drawn once at a page's start, not again on a switch, are read in each language)."""

SWITCH = """(code) => new Promise((done) => {
  const select = document.querySelector("[data-testid=lang-switch]");
  if (select.value !== code) {
    select.value = code;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // Drawn again once nothing has changed for 100 ms.
  let timer = setTimeout(done, 100);
  new MutationObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(done, 100);
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})"""
"""Choose ``code`` in the top bar's language switch (as a person does: its ``change``) and
wait until the page has drawn its words again."""


def use(page: Page, code: str) -> None:
    """Switch the page to ``code`` and let it draw every word again (a live table redraws in
    place, as a person switching mid-game sees it)."""
    page.evaluate(SWITCH, code)
    assert page.evaluate("document.documentElement.lang") == code


def in_turn(start: int) -> list[str]:
    """The three languages, the ``start``-th last: a loop over them leaves the page in that
    one, so the choices made next and what the bots do meanwhile are shown in each in turn."""
    k = (start + 1) % len(CODES)
    return list(CODES[k:] + CODES[:k])


def harvest(page: Page, into: dict[str, set[str]]) -> None:
    """Add what the page showed in each language to ``into`` (before it loads another page,
    which starts the collection again)."""
    for code, texts in page.evaluate(SEEN).items():
        into.setdefault(code, set()).update(texts)


KINDS = """() => {
  const found = new Set();
  for (const board of document.querySelectorAll('[data-testid=board], [data-testid=replay-board]'))
    for (const el of board.querySelectorAll('[data-testid], [data-kind]')) {
      if (el.dataset.testid) found.add('testid:' + el.dataset.testid);
      if (el.dataset.kind) found.add('kind:' + el.dataset.kind);
    }
  return [...found];
}"""
"""The kinds of things the boards show now (a table's, or a replay's): their parts (test ids)
and their notes' kinds."""


class EveryLanguage:
    """Each time the table moved on (a new line in the log), show the page in another
    language; in all three, ending in a different one each time, when the board shows a kind
    of thing (a part, a note's kind) it has not shown before. So every kind of board is seen
    in every language, the frequent ones many times; and every line of the log is told again
    in each language by the switches (a switch narrates the game so far afresh)."""

    def __init__(self) -> None:
        self.lines = -1
        self.turn = 0
        self.kinds: set[str] = set()

    def __call__(self, page: Page) -> None:
        lines = page.get_by_test_id("log").locator("li").count()
        if lines == self.lines:
            return
        self.show(page)
        self.lines = page.get_by_test_id("log").locator("li").count()

    def show(self, page: Page) -> None:
        """Show the page as it is now in the next language, or in all three if its boards
        show a kind of thing not seen before."""
        kinds = set(page.evaluate(KINDS))
        if kinds - self.kinds:
            self.kinds |= kinds
            for code in in_turn(self.turn):
                use(page, code)
        else:
            use(page, in_turn(self.turn)[-1])
        self.turn += 1


def play_in_every_language(page: Page, game: str, rng: random.Random) -> None:
    """Play the choices offered until the standings show (a bot fills the other seat), the
    table shown in the languages as :class:`EveryLanguage` says at each of its moves."""
    every = EveryLanguage()
    if game == "why-first":
        why_first.play_to_the_end([page], rng, watch=every)
        expect(page.get_by_test_id("standings")).to_be_visible()
        return
    deadline = time.monotonic() + 300
    while not page.get_by_test_id("standings").is_visible():
        assert time.monotonic() < deadline, f"{game} did not end in time"
        every(page)
        if game == "six-day-race":
            language.six_day_race.take_turn(page, rng)
        else:
            language.setback_turn(page, rng)
        # On to the next thing offered (the bot plays meanwhile), or the end.
        page.wait_for_function(language.SOMETHING_TO_DO, timeout=30_000, polling=POLL_MS)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_shows_no_english(
    browser: Browser, live_server: str, tmp_path: Path, game: str
) -> None:
    """One game, shown in Dutch, French or German at each of its moves and every kind of
    board in all three (the top bar's switch), then its replay stepped through the same way;
    on a desktop or a phone (:data:`SIZES`)."""
    context = browser.new_context(viewport=SIZES[game], reduced_motion="reduce")
    context.add_init_script(
        f"if (!localStorage.getItem('racedeck.lang'))"
        f" localStorage.setItem('racedeck.lang', '{FIRST[game]}');"
    )
    context.add_init_script(COLLECT)
    lobby: dict[str, set[str]] = {}
    table: dict[str, set[str]] = {}
    replayed: dict[str, set[str]] = {}
    try:
        page = context.new_page()
        # The lobby with the game's custom rules open, in each language.
        page.goto(live_server + "/")
        for code in in_turn(CODES.index(FIRST[game])):
            use(page, code)
            page.get_by_test_id("game-select").select_option(game)
            page.locator("details.options").evaluate("d => { d.open = true; }")
            page.locator("details.clock-box").evaluate("d => { d.open = true; }")
        harvest(page, lobby)
        # The game to its end.
        create_table(page, live_server, game, ["random"], **GAMES[game])
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
        assert page.evaluate("document.documentElement.lang") == FIRST[game]
        play_in_every_language(page, game, random.Random(5))
        for code in CODES:
            use(page, code)
            page.locator("details.fair-box").evaluate("d => { d.open = true; }")
            if page.locator("details.share-box").evaluate("d => !d.open"):
                page.get_by_test_id("share").click()
            snap(page, shots_dir(tmp_path) / f"no-english-{game}-{code}.png")
        # The replay of that game, every step of it, shown as the game was (a replay stays
        # at its step through a switch).
        harvest(page, table)
        page.get_by_test_id("standings").get_by_test_id("replay-link").first.click()
        every = EveryLanguage()
        every.show(page)
        step_replay_to_the_end(page, every)
        harvest(page, replayed)
        for code in CODES:
            seen_in_lobby = lobby.get(code, set())
            seen_at_table = table.get(code, set())
            seen = seen_at_table | replayed.get(code, set())
            assert len(seen) > len(seen_at_table) > 20 and len(seen_in_lobby) > 20, (
                f"{code}: nothing seen"
            )
            assert english_in(sorted(seen_in_lobby | seen), code) == [], code
    finally:
        context.close()
