"""Screenshots of every game on a phone and a desktop, in every language, for docs/screenshots.

A server on its own SQLite file; for each language, size and game, Ann sits down with a bot
(the game's quick preset), and the page is captured when she is first asked to play and when
the game is over. Not a test: it is for looking at (``make test`` checks what these show).

Usage::

    python scripts/screenshots.py                      # everything, into docs/screenshots/tour
    python scripts/screenshots.py --lang fr --game setback --out /tmp/shots
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import DESKTOP, create_table  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from test_language_browser import play_to_the_end  # noqa: E402

from racedeck.server.process import ServerProcess  # noqa: E402

LANGS = ("en", "nl", "fr", "de")
SIZES = {"desktop": DESKTOP, "phone": {"width": 390, "height": 844}}
BOARD_AT_REST = """() => {
  const board = document.querySelector('[data-testid=board]');
  return board !== null && board.querySelector('svg, [data-testid=card], .dock') !== null
    && document.getAnimations().every((a) => a.effect.getComputedTiming().endTime === Infinity);
}"""
"""The game's board is drawn and nothing on it moves (endless animations aside)."""

GAMES = {
    "why-first": {"stages": "1"},
    "six-day-race": {"races": "1"},
    "setback": {"rows": "4", "window_seconds": "0"},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "tour")
    parser.add_argument("--lang", choices=LANGS, action="append", help="only this language")
    parser.add_argument("--game", choices=list(GAMES), action="append", help="only this game")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # Every shot makes a table: more than a stranger may make in a while.
        server = ServerProcess(Path(tmp) / "shots.db", extra=["--max-creations", "10000"]).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
                for code in args.lang or LANGS:
                    for size_name, size in SIZES.items():
                        for game in args.game or list(GAMES):
                            shoot(browser, server.url, args.out, code, size_name, size, game)
                browser.close()
        finally:
            server.stop()
    return 0


def shoot(
    browser: object,
    base: str,
    out: Path,
    code: str,
    size_name: str,
    size: dict[str, int],
    game: str,
) -> None:
    phone = size_name == "phone"
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport=size, reduced_motion="reduce", has_touch=phone, is_mobile=phone
    )
    context.add_init_script(f"localStorage.setItem('racedeck.lang', '{code}');")
    try:
        page = context.new_page()
        create_table(page, base, game, ["heuristic"], **GAMES[game])
        expect(page).to_have_title(re.compile(r"^▶ "), timeout=30_000)  # Ann is asked
        page.wait_for_function(BOARD_AT_REST)  # and her board is drawn, its moves played out
        name = f"{game}-{code}-{size_name}"
        page.screenshot(path=str(out / f"{name}-play.png"))
        play_to_the_end(page, game, random.Random(3))
        page.get_by_test_id("standings").scroll_into_view_if_needed()
        page.wait_for_function(BOARD_AT_REST)
        page.screenshot(path=str(out / f"{name}-end.png"))
        print(name)
    finally:
        context.close()


if __name__ == "__main__":
    sys.exit(main())
