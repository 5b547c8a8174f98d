"""Six Day Race's velodrome draws cleanly at every size: no label on a rider or a number.

Ann and three heuristic bots ride a short race, two riders each (eight pawns start on one
space), on a desktop and on two phones. Every board the page draws is measured in the page
itself (a MutationObserver runs the checks below on each new oval once it is in place): the box
of every text label or pill (callouts, space names, space numbers, sprint and line labels, lap
marks, the infield title, finishers' badges) must miss every rider's disc, every space number
and every other label; riders on one space are fanned out so their discs do not cover one
another; nothing is drawn outside the oval's picture. The race start (all eight riders on the
line, the "Race 1 starts" pill), a callout mid-race and a rider change are waited for and
checked on their own. Ann's cards are checked to be readable and pressable on a phone.

The pages prefer reduced motion: the layout is checked where everything comes to rest, and the
board draws every update alike either way (the riders' moves are seen in
``test_six_day_race_browser``); animated, the race takes three times the browser's work. Without
the animations' pauses, updates that arrive together would be drawn over one another before the
screen shows them (a person sees only the last), so the bots here take a moment for each move,
as they do at a table of people (``--bot-delay``, 0.6 s there): every oval is on the screen.

Screenshots are taken when ``$RACEDECK_SCREENSHOTS`` names a folder (see :mod:`helpers`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import DESKTOP, POLL_MS, create_table, serve, shots_dir, snap
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_six_day_race_browser import SHORT_RACE

SIZES = {
    "desktop": DESKTOP,
    "phone-390": {"width": 390, "height": 844},
    "phone-360": {"width": 360, "height": 640},
}

# In the page: the checks, run on every oval drawn (kept on window.__velodrome).
CHECKER = """
(() => {
  const TOL = 1; // user units of the oval a box may touch another by (anti-aliasing)
  // Boxes in the oval's own user units, from the transform attributes (a rider's move
  // animation does not count: where it comes to rest does).
  function boxOf(svg, el) {
    let m = svg.createSVGMatrix();
    const chain = [];
    for (let e = el; e && e !== svg; e = e.parentNode) chain.unshift(e);
    for (const e of chain) {
      const list = e.transform && e.transform.baseVal;
      if (list && list.numberOfItems) m = m.multiply(list.consolidate().matrix);
    }
    const b = el.getBBox();
    const xs = [];
    const ys = [];
    for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                          [b.x + b.width, b.y + b.height]]) {
      xs.push(m.a * x + m.c * y + m.e);
      ys.push(m.b * x + m.d * y + m.f);
    }
    return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  }
  const overlap = (a, b) =>
    Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > TOL
    && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > TOL;
  const outside = (b, f) =>
    b.x0 < f.x0 - TOL || b.y0 < f.y0 - TOL || b.x1 > f.x1 + TOL || b.y1 > f.y1 + TOL;
  const name = (el) => {
    const co = el.closest('[data-testid=callout]');
    if (co) return `callout "${co.textContent}"`;
    const rider = el.closest('[data-testid=rider]');
    if (rider) return `badge "${el.textContent}" of rider ${rider.dataset.rider}`;
    const cls = el.getAttribute('class') || el.parentNode.getAttribute('class');
    return `"${el.textContent}" (${cls})`;
  };
  const fmt = (b) => [b.x0, b.y0, b.x1, b.y1].map(Math.round).join(',');
  window.__velodromeCheck = function () {
    const svg = document.querySelector('[data-testid=sdr-board]');
    if (!svg || !svg.isConnected) return null;
    const vb = svg.viewBox.baseVal;
    const frame = { x0: vb.x, y0: vb.y, x1: vb.x + vb.width, y1: vb.y + vb.height };
    const riders = [...svg.querySelectorAll('[data-testid=rider]')].map((r) => {
      const box = boxOf(svg, r.querySelector('.sdr-disc'));
      return { el: r, box, id: r.dataset.rider, pos: r.dataset.position,
               cx: (box.x0 + box.x1) / 2, cy: (box.y0 + box.y1) / 2, r: (box.x1 - box.x0) / 2 };
    });
    // Labels: every text but a rider's own mark inside its disc; a callout counts as its pill.
    const labels = [];
    for (const co of svg.querySelectorAll('[data-testid=callout]'))
      labels.push({ el: co, box: boxOf(svg, co) });
    for (const tx of svg.querySelectorAll('text')) {
      if (tx.closest('[data-testid=callout]') || tx.closest('.sdr-ghost')) continue;
      if (tx.classList.contains('sdr-token-text')) continue;
      if (!tx.textContent.trim()) continue;
      labels.push({ el: tx, box: boxOf(svg, tx), rider: tx.closest('[data-testid=rider]') });
    }
    const problems = [];
    for (const l of labels) {
      const b = l.box;
      if (outside(b, frame))
        problems.push(`${name(l.el)} is cut off by the picture's edge (${fmt(b)})`);
      for (const r of riders) {
        if (l.rider === r.el) continue; // a rider's own badge sits on its disc's rim
        if (overlap(b, r.box)) problems.push(`${name(l.el)} covers rider ${r.id}`);
      }
    }
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++)
        if (overlap(labels[i].box, labels[j].box))
          problems.push(`${name(labels[i].el)} overlaps ${name(labels[j].el)}`);
    const spaces = new Map();
    for (const r of riders) {
      if (outside(r.box, frame)) problems.push(`rider ${r.id} is cut off by the picture's edge`);
      if (!spaces.has(r.pos)) spaces.set(r.pos, []);
      spaces.get(r.pos).push(r);
    }
    let most = 0;
    for (const [pos, here] of spaces) {
      most = Math.max(most, here.length);
      for (let i = 0; i < here.length; i++)
        for (let j = i + 1; j < here.length; j++) {
          const a = here[i];
          const b = here[j];
          if (Math.hypot(a.cx - b.cx, a.cy - b.cy) < a.r + b.r - TOL)
            problems.push(`riders ${a.id} and ${b.id} on space ${pos} cover each other`);
        }
    }
    const kinds = [...svg.querySelectorAll('[data-testid=callout]')].map((c) => c.dataset.kind);
    const state = window.__velodrome;
    state.frames += 1;
    state.most = Math.max(state.most, most);
    for (const k of kinds) state.kinds[k] = (state.kinds[k] || 0) + 1;
    for (const p of problems)
      if (state.problems.length < 40 && !state.problems.includes(p)) state.problems.push(p);
    if (problems.length && !state.bad) state.bad = svg.outerHTML; // for the failure's report
    return { problems, kinds, most, riders: riders.length };
  };
  window.__velodrome = { frames: 0, most: 0, kinds: {}, problems: [] };
  // Each oval the renderer puts in place is checked as it is shown (the next frame, once the
  // page's styles and layout are settled); ovals replaced before that were never on screen.
  let checked = null;
  new MutationObserver(() => {
    const svg = document.querySelector('[data-testid=sdr-board]');
    if (!svg || svg === checked) return;
    checked = svg;
    requestAnimationFrame(() => { if (svg.isConnected) window.__velodromeCheck(); });
  }).observe(document, { childList: true, subtree: true });
})();
"""

ALL_ON_THE_LINE = """() => {
  const riders = [...document.querySelectorAll('[data-testid=rider]')];
  return riders.length === 8 && riders.every((r) => r.dataset.position === '0')
    && document.querySelector('[data-testid=callout][data-kind=race]') !== null
    && document.querySelector('[data-testid=board] [data-testid=card]') !== null;
}"""

OFFERED_OR_OVER = """() => {
  const end = document.querySelector('[data-testid=standings]');
  return (end !== null && end.offsetParent !== null)
    || document.querySelector('[data-testid=board] [data-testid=card]') !== null;
}"""


def check_now(page: Page, moment: str) -> dict[str, Any]:
    """Run the layout checks on the oval as it is now; fail with what overlaps."""
    result = page.evaluate("window.__velodromeCheck()")
    assert result is not None, f"{moment}: no oval on the page"
    assert not result["problems"], f"{moment}: " + "; ".join(result["problems"])
    return result


def choose_card(page: Page) -> tuple[str | None, bool]:
    """The card Ann plays, and whether it lands her rider on the rider change space: she
    plays that card when she has it (a rider change is one of the moments checked), else her
    lowest (her riders stay among the others: crowded spaces)."""
    board = page.get_by_test_id("board")
    cards = board.locator("[data-testid=card]")
    values = [v for v in cards.evaluate_all("cs => cs.map((c) => c.dataset.value)") if v]
    if not values:
        return None, False
    at = page.evaluate(
        "() => { const r = document.querySelector('[data-testid=rider].sdr-current');"
        " return r ? Number(r.dataset.position) : null; }"
    )
    change = int(SHORT_RACE["rider_change"])
    if at is not None and str(change - at) in values:
        return str(change - at), True
    return min(values, key=int), False


def check_cards(page: Page, size: str) -> None:
    """Ann's cards: large numbers, all on the screen; on a phone each is a finger's target
    (44 px each way) and both her hands fit in the dock without scrolling it."""
    cards = page.get_by_test_id("board").locator("[data-testid=card]")
    width = SIZES[size]["width"]
    phone = size.startswith("phone")
    for box in cards.evaluate_all(
        "cs => cs.map((c) => { const r = c.getBoundingClientRect();"
        " const f = parseFloat(getComputedStyle(c).fontSize);"
        " return {x: r.x, w: r.width, h: r.height, font: f}; })"
    ):
        assert box["x"] >= 0 and box["x"] + box["w"] <= width, (size, box)
        assert box["font"] >= (26 if phone else 20), (size, box)
        if phone:
            assert box["w"] >= 44 and box["h"] >= 44, (size, box)
    if phone:
        dock = page.evaluate(
            "() => { const d = document.querySelector('.sdr-hands');"
            " return {fixed: getComputedStyle(d).position === 'fixed',"
            " content: d.scrollHeight, shown: d.clientHeight}; }"
        )
        assert dock["fixed"] and dock["content"] <= dock["shown"] + 1, (size, dock)


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bots take 0.3 s a move (see the module docstring); yields its URL."""
    yield from serve(tmp_path_factory.mktemp("paced"), 0.3)


def test_the_velodrome_keeps_labels_off_riders_and_numbers(
    browser: Browser, paced_server: str, tmp_path: Path
) -> None:
    """One race, drawn at every size at once: Ann plays it on the desktop, and the same seat
    is open on both phones (a window each, with her browser's token), whose boards draw every
    update as hers does and are checked the same way."""
    shots = shots_dir(tmp_path)
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    ctx.add_init_script(CHECKER)
    others: list[BrowserContext] = []
    try:
        ann = ctx.new_page()
        # Ann moves first (no random first player): the race waits for her with every rider
        # still on the line.
        create_table(
            ann, paced_server, "six-day-race", ["heuristic"] * 3, **SHORT_RACE, random_first="false"
        )
        pages = {"desktop": ann}
        for size in SIZES:
            if size != "desktop":
                # Her seat again: a window of its own with what her browser keeps (her token).
                phone = browser.new_context(
                    viewport=SIZES[size], storage_state=ctx.storage_state(), reduced_motion="reduce"
                )
                phone.add_init_script(CHECKER)
                others.append(phone)
                pages[size] = phone.new_page()
                pages[size].goto(ann.url)

        for size, page in pages.items():
            expect(page.get_by_test_id("sdr-board")).to_be_visible()
            # The start: eight riders on the line, fanned out; the race's pill off them.
            page.wait_for_function(ALL_ON_THE_LINE)
            start = check_now(page, f"the start ({size})")
            assert start["riders"] == 8 and start["most"] == 8, (size, start)
            assert "race" in start["kinds"], (size, start)
            snap(page, shots / f"velodrome-start-{size}.png")
            check_cards(page, size)

        # The race: Ann plays until it is over; every oval drawn meanwhile on each page is
        # checked.
        seen_callout: set[str] = set()
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            ann.wait_for_function(OFFERED_OR_OVER, timeout=20000, polling=POLL_MS)
            over = ann.get_by_test_id("standings").is_visible()
            for size, page in pages.items():
                page.wait_for_function(OFFERED_OR_OVER, timeout=20000, polling=POLL_MS)
                if over:
                    continue
                result = check_now(page, f"Ann's turn ({size})")
                if result["kinds"] and size not in seen_callout and "race" not in result["kinds"]:
                    snap(page, shots / f"velodrome-callout-{size}.png")
                    seen_callout.add(size)
            if over:
                break
            value, aiming = choose_card(ann)
            if value is None:
                continue
            board = ann.get_by_test_id("board")
            card = board.locator(f"[data-testid=card][data-value='{value}']")
            if not card.count():
                continue  # the board moved on meanwhile
            card.click()
            board.get_by_test_id("confirm").click()
            if aiming:
                # Her rider lands on the rider change: its note is drawn (and checked).
                for page in pages.values():
                    page.wait_for_function("window.__velodrome.kinds.change > 0", polling=POLL_MS)
        else:
            pytest.fail("the race did not end")
        for size, page in pages.items():
            expect(page.get_by_test_id("standings")).to_be_visible()
            snap(page, shots / f"velodrome-end-{size}.png")
            check_now(page, f"the end ({size})")

            seen = page.evaluate("window.__velodrome")
            if seen.get("bad"):
                (shots / f"velodrome-bad-{size}.svg").write_text(seen["bad"])
            assert not seen["problems"], f"{size}: " + "; ".join(seen["problems"])
            assert seen["frames"] > 10, (size, seen)
            # Moments worth a note were drawn and checked: the start, a move's note and a
            # rider change (Ann aims for the rider change space; the bots land there too).
            assert "race" in seen["kinds"], (size, seen)
            assert set(seen["kinds"]) - {"race"}, (size, seen)
            assert "change" in seen["kinds"], (size, seen)
    finally:
        for context in [ctx, *others]:
            context.close()
