"""Why First? in a real browser: people play whole games by clicking the choices offered.

Three games over a real server process and Debian's Chromium:

- the base game for three: Ann (desktop) creates the table in the lobby, Bob (phone-sized)
  joins through the invite link, a heuristic bot takes the third seat; both choose a card and
  then a figure for it (WF-4), Bob reloads mid-game and goes on, and the end shows the
  standings with the winner(s) and why (the second-best total wins, WF-7);
- the 2-player game with Leo (WF-9): one person and a bot, Leo on the track and a target;
- the tactical variant (WF-10): white numbers on the cards, then one figure per card in
  white-number order.

Every choice clicked is one the renderer offers, and the renderer offers only the view's legal
actions, so the server refusing anything would show up as an error toast: the tests check that
none appears. Screenshots of the main screens are taken only when ``$RACEDECK_SCREENSHOTS`` is
set (``docs/screenshots`` in the repository), into that folder.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import (
    DESKTOP,
    PHONE,
    create_table,
    invite_link,
    join,
    moves_finished,
    screenshots_wanted,
    shot_if_wanted,
    shots_dir,
)
from playwright.sync_api import Browser, Locator, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

GAME_TIMEOUT = 120.0


def board(page: Page) -> Locator:
    """The Why First? board drawn by the renderer."""
    return page.get_by_test_id("wf-board")


def is_over(page: Page) -> bool:
    """True once the renderer shows the game as over."""
    return board(page).get_attribute("data-phase", timeout=5000) == "over"


class Views:
    """The latest view each page received over its WebSocket (welcome or update frames)."""

    def __init__(self) -> None:
        self.latest: dict[int, dict[str, Any]] = {}

    def watch(self, page: Page) -> None:
        """Record ``page``'s views from now on, across reloads (each opens a new socket)."""

        def on_socket(ws: WebSocket) -> None:
            def on_frame(payload: str | bytes) -> None:
                msg = json.loads(payload)
                if msg.get("type") in ("welcome", "update") and msg.get("view"):
                    self.latest[id(page)] = msg["view"]

            ws.on("framereceived", on_frame)

        page.on("websocket", on_socket)

    def check_offers(self, page: Page) -> None:
        """What the board offers is exactly the view's legal actions: the cards that may be
        played, then the figures for the chosen card (WF-4), or the tactical commits and
        moves (WF-10). Retried briefly, as a new view may be on its way."""
        problem = ""
        for _ in range(20):
            problem = self._mismatch(page)
            if not problem:
                return
            page.wait_for_timeout(100)
        raise AssertionError(problem)

    def _mismatch(self, page: Page) -> str:
        view = self.latest.get(id(page))
        if view is None:
            return "no view received"
        legal = view["legal_actions"]
        seen = board(page).evaluate(OFFERS)  # one look: the board may redraw between two
        offered = [json.loads(a or "{}") for a in seen["targets"] + seen["actions"]]
        if seen["prompt"] == "Sending…":
            return ""
        places = [a for a in legal if a["type"] == "place"]
        commits = [a for a in legal if a["type"] == "commit"]
        moves = [a for a in legal if a["type"] == "move"]
        values = {int(v or 0) for v in seen["values"]}
        cards = {int(v or 0) for v in seen["cards"]}
        if places:
            if values != {a["value"] for a in places}:
                return f"cards offered {values}, legal {places}"
            picked = seen["picked"]
            want = [a for a in places if picked and a["value"] == int(picked[0] or 0)]
            if offered != want:
                return f"figures offered {offered}, legal {want}"
        elif commits:
            if cards != {a["card"] for a in commits} or any(a not in commits for a in offered):
                return f"cards offered {cards} {offered}, legal {commits}"
        elif moves:
            if offered != moves or values:
                return f"figures offered {offered}, legal {moves}"
        elif offered or values:
            return f"choices offered {offered} {values} when none is legal"
        return ""


OFFERS = """b => {
  const all = (selector, name) => [...b.querySelectorAll(selector)]
    .map((e) => e.dataset[name] ?? null);
  const prompt = b.querySelector('[data-testid=prompt]');
  return {
    targets: all('[data-testid=target]', 'action'),
    actions: all('[data-testid=action]', 'action'),
    prompt: prompt ? prompt.textContent : null,
    values: all('[data-testid=card]:enabled', 'value'),
    cards: all('[data-testid=card]:enabled', 'card'),
    picked: all('[data-testid=card][aria-pressed=true]', 'value'),
  };
}"""
"""What a Why First? board offers, in one look: the ``data-action`` of its targets and action
buttons, its prompt, the ``data-value`` and ``data-card`` of its enabled cards and the value of
the picked one."""


def take_turn(page: Page, rng: random.Random) -> str | None:
    """Make one choice this page offers now; return what was clicked, None if nothing was."""
    b = board(page)
    try:
        targets = b.locator("[data-testid=target]")
        # Each list is counted once: the board may redraw between two counts.
        if count := targets.count():
            target = targets.nth(rng.randrange(count))
            action = json.loads(target.get_attribute("data-action", timeout=1000) or "{}")
            target.click(timeout=2000)
            return str(action.get("type"))
        confirm = b.locator("[data-testid=action]")
        if confirm.count():
            confirm.first.click(timeout=2000)
            return "commit"
        cards = b.locator("[data-testid=card]:enabled")
        if count := cards.count():
            cards.nth(rng.randrange(count)).click(timeout=2000)
            return "card"
    except PlaywrightTimeout:
        return None  # the board moved on meanwhile (another update); look again
    return None


def play_to_the_end(
    pages: list[Page],
    rng: random.Random,
    on_choice: Callable[[Page, str], None] | None = None,
    watch: Callable[[Page], None] | None = None,
    views: Views | None = None,
) -> int:
    """Click offered choices on every page until all show the game as over; return the
    number of actions sent. With ``watch``, each page's board is let finish its reveal, moves
    and scoring before the page chooses, and ``watch`` looks at it meanwhile. With ``views``,
    what each page offers is checked against its view's legal actions before every click."""
    sent = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while not all(is_over(p) for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for p in pages:
            if watch is not None:
                # Watch the board play each resolution out, as a person would, then choose.
                watch(p)
                while board(p).get_attribute("data-animating") == "true":
                    assert time.monotonic() < deadline, "the board never came to rest"
                    p.wait_for_timeout(100)
                    watch(p)
            if views is not None:
                views.check_offers(p)
            what = take_turn(p, rng)
            if what is None:
                continue
            moved = True
            if what != "card":
                sent += 1
            if on_choice is not None:
                on_choice(p, what)
        if not moved:
            pages[0].wait_for_timeout(100)
    return sent


def settle(page: Page) -> None:
    """Wait until the board has played its reveal, moves and scoring."""
    expect(board(page)).to_have_attribute("data-animating", "false", timeout=15000)


def no_errors(page: Page) -> None:
    """No error toast: the server accepted every choice the renderer offered."""
    expect(page.get_by_test_id("toasts")).to_have_text("")


def check_standings(page: Page) -> None:
    """The end shows the standings, the winners and the game's reason."""
    standings = page.get_by_test_id("standings")
    expect(standings).to_be_visible()
    expect(standings).to_contain_text(re.compile(r"wins?!"))
    expect(page.get_by_test_id("win-rule")).to_contain_text("second-best total wins")
    winners = board(page).get_by_test_id("winners")
    # Equal totals (a tie all round) share the win; otherwise the second-highest total wins.
    expect(winners).to_contain_text(
        re.compile("the second-highest total wins|every total is equal, so everyone shares")
    )


def test_two_people_and_a_bot_play_the_base_game_to_the_end(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE)
    try:
        views = Views()
        ann = ann_ctx.new_page()
        views.watch(ann)
        # Two stages of three rounds: a stage scored and the game's end, each round's choice.
        create_table(
            ann, live_server, "why-first", ["human", "heuristic"], stages="2", hand_size="3"
        )
        link = invite_link(ann)
        bob = bob_ctx.new_page()
        views.watch(bob)
        join(bob, link, "Bob")
        for p in (ann, bob):
            expect(board(p)).to_have_attribute("data-phase", "commit")
            expect(board(p).get_by_test_id("pawn")).to_have_count(3)
            expect(board(p).locator("[data-testid=space][data-space='0']")).to_have_count(1)
            expect(board(p).get_by_test_id("space")).to_have_count(29)  # WF-1: −12 … 16

        # WF-4: a card first (only values in hand are offered), then a figure for it; the card
        # may be changed before the figure is chosen.
        cards = board(ann).locator("[data-testid=card]:enabled")
        expect(cards).to_have_count(3)  # the hand dealt (WF-3)
        expect(board(ann).get_by_test_id("target")).to_have_count(0)
        shot_if_wanted(ann, shots / "why-first-choose-card-desktop.png")
        shot_if_wanted(bob, shots / "why-first-choose-card-phone.png", full_page=True)
        first = int(cards.first.get_attribute("data-value") or "0")
        cards.first.click()
        targets = board(ann).get_by_test_id("target")
        expect(targets).to_have_count(3)
        for i in range(3):
            action = json.loads(targets.nth(i).get_attribute("data-action") or "{}")
            assert action == {"type": "place", "value": first, "target": i}
        other = board(ann).locator(f"[data-testid=card]:enabled:not([data-value='{first}'])")
        if other.count():
            second = int(other.first.get_attribute("data-value") or "0")
            other.first.click()
            expect(board(ann).locator("[data-testid=target][data-figure='1']")).to_have_attribute(
                "data-action",
                json.dumps({"type": "place", "value": second, "target": 1}, separators=(",", ":")),
            )
        shot_if_wanted(ann, shots / "why-first-choose-figure-desktop.png")
        board(ann).locator("[data-testid=target][data-figure='1']").click()
        expect(board(ann).locator("[data-testid=figure-row][data-figure='0']")).to_have_attribute(
            "data-committed", "true"
        )
        # Bob sees that Ann has chosen, not what.
        expect(board(bob).locator("[data-testid=figure-row][data-figure='0']")).to_have_attribute(
            "data-committed", "true"
        )
        expect(board(bob).get_by_test_id("revealed-card")).to_have_count(0)

        # Bob chooses on his phone; the round is revealed to both, "3 – 2 – 1 – NOW!".
        ann.evaluate(
            """() => {
              window.wfWords = [];
              const c = document.querySelector('[data-testid=countdown]');
              new MutationObserver(() => window.wfWords.push(c.textContent))
                .observe(c, { childList: true });
            }"""
        )
        board(bob).locator("[data-testid=card]:enabled").first.click()
        shot_if_wanted(bob, shots / "why-first-choose-figure-phone.png", full_page=True)
        board(bob).get_by_test_id("target").first.click()
        countdown = board(ann).get_by_test_id("countdown")
        expect(countdown).to_be_visible()
        shot_if_wanted(ann, shots / "why-first-reveal-countdown-desktop.png")
        expect(board(ann).get_by_test_id("revealed-card")).to_have_count(3)
        assert ann.evaluate("window.wfWords") == ["3", "2", "1", "NOW!"]
        for p in (ann, bob):
            settle(p)
            expect(board(p).get_by_test_id("countdown")).to_be_hidden()
        shot_if_wanted(ann, shots / "why-first-reveal-desktop.png")
        shot_if_wanted(bob, shots / "why-first-reveal-phone.png", full_page=True)
        # The countdown and the moves were seen at full length; the rest of the game is
        # played as with reduced motion (the board reads the setting at each reveal).
        for p in (ann, bob):
            p.emulate_media(reduced_motion="reduce")
        # The end of stage 1 lights the second-farthest space (WF-6) only for a moment with
        # reduced motion: the page itself notes that it was shown, whenever a look comes.
        ann.evaluate(
            """() => {
              window.wfScored = false;
              new MutationObserver(() => {
                if (document.querySelector('[data-testid=wf-board][data-scoring=true]')) {
                  window.wfScored = true;
                }
              }).observe(document.body, {
                attributes: true, attributeFilter: ['data-scoring'], subtree: true,
              });
            }"""
        )

        rng = random.Random(9)
        reloaded = False
        scored: set[str] = set()

        def watch(_page: Page) -> None:
            # The end of stage 1: the second-farthest space lit on the track (WF-6).
            for p, name in (
                (ann, "why-first-stage-scored-desktop"),
                (bob, "why-first-stage-scored-phone"),
            ):
                if name not in scored and board(p).get_attribute("data-scoring") == "true":
                    scored.add(name)
                    if screenshots_wanted():
                        moves_finished(p)  # the figures' last steps
                        p.screenshot(path=str(shots / f"{name}.png"), full_page=p is bob)

        def after(page: Page, what: str) -> None:
            nonlocal reloaded
            if page is bob and not reloaded and what == "place":
                # Mid-game, once his choice is in, Bob reloads: his seat and the table come back.
                reloaded = True
                expect(board(bob).get_by_test_id("prompt")).not_to_have_text("Sending…")
                # The board shows the stage and round it is drawing: read them at rest, on both
                # sides of the reload (his choice may have ended a round, even a stage).
                settle(bob)
                before = {
                    k: board(bob).get_attribute(f"data-{k}") for k in ("stage", "round", "phase")
                }
                mine = board(bob).locator("[data-testid=figure-row][data-figure='1']")
                committed = mine.get_attribute("data-committed")
                hand = board(bob).get_by_test_id("card").count()
                bob.reload()
                expect(bob.get_by_test_id("status")).to_have_attribute("data-state", "online")
                expect(board(bob).get_by_test_id("pawn")).to_have_count(3)
                settle(bob)
                # The same stage and round on both sides, or the comparison says nothing: read
                # before the update with his own choice came, the board can still show the
                # round he chose in (seen: stage 0 before, stage 1 after, round 0 on both).
                if all(
                    board(bob).get_attribute(f"data-{k}") == before[k] for k in ("stage", "round")
                ):
                    for k, v in before.items():
                        expect(board(bob)).to_have_attribute(f"data-{k}", v or "")
                    expect(mine).to_have_attribute("data-committed", committed or "")
                    expect(board(bob).get_by_test_id("card")).to_have_count(hand)

        sent = play_to_the_end([ann, bob], rng, after, watch, views)
        assert reloaded
        assert ann.evaluate("window.wfScored")
        assert sent >= 4
        for p in (ann, bob):
            settle(p)
            check_standings(p)
            no_errors(p)
            # The last stage's scoring stays on the board: the second-farthest space lit.
            expect(board(p)).to_have_attribute("data-scoring", "true")
            result = board(p).get_by_test_id("stage-result")
            expect(result).to_contain_text("Stage 2")
            expect(board(p).get_by_test_id("history")).to_contain_text("2 of 2 scored")
        shot_if_wanted(ann, shots / "why-first-end-desktop.png", full_page=True)
        shot_if_wanted(bob, shots / "why-first-end-phone.png", full_page=True)
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_two_players_with_leo(browser: Browser, live_server: str, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    ctx = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        views = Views()
        views.watch(page)
        # One stage of three rounds: Leo's part is the same in each round.
        create_table(page, live_server, "why-first", ["heuristic"], stages="1", hand_size="3")
        b = board(page)
        # WF-9: Leo is a third figure on the track and at the table, and a target.
        expect(b.get_by_test_id("pawn")).to_have_count(3)
        expect(b.locator("[data-testid=figure-row][data-figure='2']")).to_contain_text("Leo")
        b.locator("[data-testid=card]:enabled").first.click()
        expect(b.locator("[data-testid=target][data-figure='2']")).to_contain_text("Leo")
        shot_if_wanted(page, shots / "why-first-leo-phone.png", full_page=True)
        b.locator("[data-testid=target][data-figure='2']").click()
        # Leo flips his top card onto himself with the others (WF-9).
        expect(
            b.locator("[data-testid=revealed-card][data-by='2'][data-target='2']")
        ).to_have_count(1)
        play_to_the_end([page], random.Random(4), views=views)
        settle(page)
        check_standings(page)
        no_errors(page)
        expect(page.get_by_test_id("standings")).to_contain_text("Leo")
    finally:
        ctx.close()


def test_tactical_variant_moves_in_white_number_order(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        views = Views()
        views.watch(page)
        create_table(
            page,
            live_server,
            "why-first",
            ["heuristic", "heuristic"],
            stages="1",
            hand_size="3",  # three rounds of commits and moves in white-number order
            variant="tactical",
        )
        b = board(page)
        expect(b).to_have_attribute("data-variant", "tactical")
        # WF-10: a card is committed on its own, its white number shown.
        card = b.locator("[data-testid=card]:enabled").first
        number = card.get_attribute("data-card")
        assert number is not None and 1 <= int(number) <= 32
        expect(card).to_contain_text(number)
        card.click()
        confirm = b.get_by_test_id("action")
        expect(confirm).to_have_attribute(
            "data-action",
            json.dumps({"type": "commit", "card": int(number)}, separators=(",", ":")),
        )
        shot_if_wanted(page, shots / "why-first-tactical-commit-desktop.png")
        confirm.click()
        # After the reveal, the order of moves by white number, highest first.
        order = b.get_by_test_id("order")
        expect(order).to_be_visible()
        whites = [int(x) for x in order.locator(".wf-card-white").all_text_contents()]
        assert whites == sorted(whites, reverse=True) and len(whites) == 3
        shot = False

        def moving(p: Page) -> None:
            nonlocal shot
            if not shot and b.get_by_test_id("target").count():
                shot = True
                shot_if_wanted(p, shots / "why-first-tactical-move-desktop.png")

        rng = random.Random(2)
        deadline = time.monotonic() + GAME_TIMEOUT
        targeted = False  # a figure was moved by clicking its target (WF-10)
        while not is_over(page):
            assert time.monotonic() < deadline, "the game did not end in time"
            moving(page)
            views.check_offers(page)
            clicked = take_turn(page, rng)
            if clicked is None:
                page.wait_for_timeout(100)
            # The targets may show up between the look for a screenshot and the click.
            targeted = targeted or clicked not in (None, "card", "commit")
        assert shot or targeted
        settle(page)
        check_standings(page)
        no_errors(page)
    finally:
        ctx.close()


PILLS_AT_SCORING = """() => {
  window.pillsAtScoring = [];
  const seen = (b) => window.pillsAtScoring.push(b.querySelector('.wf-where').textContent);
  new MutationObserver((changes) => {
    for (const c of changes) if (c.target.dataset.scoring === 'true') seen(c.target);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-scoring'] });
}"""
"""Record the board's pills each time it starts showing a stage's scoring (a MutationObserver
runs as the attribute changes: nothing depends on when the test looks)."""


def test_the_pills_name_the_stage_the_board_shows(browser: Browser, live_server: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        create_table(page, live_server, "why-first", ["heuristic"], stages="2", hand_size="2")
        b = board(page)
        expect(b.locator(".wf-where")).to_contain_text("Stage 1 of 2")
        page.evaluate(PILLS_AT_SCORING)
        # Round 1 is Ann's choice; round 2, everyone's last card, plays itself and ends the
        # stage, so the view is at stage 2 while the board still shows stage 1 being scored.
        b.locator("[data-testid=card]:enabled").first.click()
        b.locator("[data-testid=target]").first.click()
        page.wait_for_function("() => window.pillsAtScoring.length > 0")
        assert page.evaluate("window.pillsAtScoring[0]").startswith("Stage 1 of 2Round 2 of 2")
        # Once the scoring has been shown, the board and its pills are at the new stage.
        expect(b).to_have_attribute("data-animating", "false")
        expect(b.locator(".wf-where")).to_have_text(re.compile("^Stage 2 of 2Round 1 of 2"))
        no_errors(page)
    finally:
        ctx.close()
