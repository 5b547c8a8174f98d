"""The replay viewer in the browser: a finished game stepped to the end with every hand shown,
a record file checked (a true one passes; a changed action, seed, server seed or result is
rejected with the reason), and a "what if" game forked from a step and played on.

The pages run with reduced motion: each step would otherwise play the board's countdown, reveal
and moves at full length (tests/e2e/test_why_first_browser.py watches those), and what these
tests check and photograph is the board at rest."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import PHONE, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, Page, expect
from test_why_first_browser import take_turn

from racedeck.core.record import GameRecord


def snap(page: Page, path: Path) -> None:
    """A screenshot from the top of the page (the step controls stick to the top of the
    window, so a page scrolled by a click would show them part way down), once every board
    has played out its step; the screenshot only when screenshots are wanted
    (:func:`helpers.screenshots_wanted`), the scroll and the wait always."""
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("[data-animating=true]")).to_have_count(0, timeout=15_000)
    snap_if_wanted(page, path)


def new_page(browser: Browser, **options: Any) -> Page:
    """A page of its own with reduced motion (see the module docstring); closed with its
    context after the test (:func:`_close_pages`)."""
    context = browser.new_context(reduced_motion="reduce", **options)
    return context.new_page()


@pytest.fixture(autouse=True)
def _close_pages(browser: Browser) -> Iterator[None]:
    """Close the contexts a test opened with :func:`new_page`: a page left open at a table
    would keep its socket and redraws going while the process's next tests run."""
    before = list(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


def bots_game(base: str, players: int = 3) -> str:
    """A new Why First? table of random bots (it plays itself to the end at once); its id."""
    created = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "why-first",
            "config": {"players": players, "stages": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * players,
        },
        trust_env=False,
    ).json()
    return str(created["table_id"])


def record_text(base: str, table_id: str) -> str:
    res = httpx.get(f"{base}/api/tables/{table_id}/games/1/record", trust_env=False)
    assert res.status_code == 200, res.text
    return res.text


def open_finished(page: Page, base: str, table_id: str) -> None:
    """Watch the table until its game is listed as finished, then open its replay."""
    page.goto(f"{base}/t/{table_id}")
    game = page.locator("[data-testid=finished-game][data-game-no='1']")
    expect(game).to_be_visible(timeout=30_000)
    # The end of the game links its replay too.
    expect(page.get_by_test_id("standings").get_by_test_id("replay-link")).to_have_attribute(
        "href", f"/t/{table_id}/games/1"
    )
    game.get_by_test_id("replay-link").click()
    expect(page).to_have_url(f"{base}/t/{table_id}/games/1")
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", "0")


def test_a_replay_stepped_to_the_end_shows_every_hand(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    table_id = bots_game(live_server)
    page = new_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_finished(page, live_server, table_id)
    record = GameRecord.from_json(json.loads(record_text(live_server, table_id)))
    last = len(record.actions)
    counter = page.get_by_test_id("replay-step")
    expect(counter).to_have_attribute("data-total", str(last))
    expect(page.get_by_test_id("verify")).to_have_attribute("data-state", "pass", timeout=20_000)

    # All hands: one board per seat, each drawing that seat's own hand at the deal.
    boards = page.get_by_test_id("replay-board")
    expect(boards).to_have_count(3)
    hands = []
    for seat in range(3):
        board = page.locator(f"[data-testid=replay-board][data-seat='{seat}']")
        cards = board.locator("[data-testid=card]")
        expect(cards).to_have_count(5)
        hands.append(cards.evaluate_all("cs => cs.map(c => c.dataset.value)"))
    game = record.make_game()
    start = game.start(record.seed).state
    for seat, shown in enumerate(hands):
        want = game.observe(start, seat).to_json()["hand_values"]
        assert sorted(int(v) for v in shown) == sorted(want)
    snap(page, shots_dir(tmp_path) / "replay-desktop-deal.png")

    # Step with the button, then with the arrow key, to the very end.
    page.get_by_test_id("replay-next").click()
    expect(counter).to_have_attribute("data-step", "1")
    narration = page.get_by_test_id("replay-narration")
    expect(narration).to_contain_text("1.")
    for n in range(2, last + 1):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_attribute("data-step", str(n))
        if n == last // 2:
            snap(page, shots_dir(tmp_path) / "replay-desktop-middle.png")
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    standings = page.get_by_test_id("replay-standings")
    expect(standings).to_be_visible()
    outcome = record.make_game().outcome(list(_states(record))[-1])
    assert outcome is not None
    names = record.meta["names"]
    for i in outcome.winners:
        expect(standings).to_contain_text(names[i])
    expect(page.get_by_test_id("whatif")).to_contain_text("over")
    expect(page.get_by_test_id("fork")).to_be_disabled()
    snap(page, shots_dir(tmp_path) / "replay-desktop-end.png")

    # One seat's view, back at the deal: one board, that seat's hand; Home and End jump.
    page.get_by_test_id("replay-seat").select_option("1")
    expect(boards).to_have_count(1)
    page.keyboard.press("Home")
    expect(counter).to_have_attribute("data-step", "0")
    expect(boards.locator("[data-testid=card]")).to_have_count(5)
    page.get_by_test_id("replay-seat").select_option("public")
    expect(boards.locator("[data-testid=card]")).to_have_count(0)
    page.keyboard.press("End")
    expect(counter).to_have_attribute("data-step", str(last))
    # A step from the list.
    page.locator("[data-testid=replay-step-item][data-step='3'] button").click()
    expect(counter).to_have_attribute("data-step", "3")
    assert not errors, errors

    phone = new_page(browser, viewport=PHONE)
    phone.goto(f"{live_server}/t/{table_id}/games/1")
    expect(phone.get_by_test_id("replay-board")).to_have_count(3)
    phone.get_by_test_id("replay-next").click()
    expect(phone.get_by_test_id("replay-step")).to_have_attribute("data-step", "1")
    snap(phone, shots_dir(tmp_path) / "replay-phone.png")


def _states(record: GameRecord) -> Any:
    from racedeck.core.record import replay

    for step in replay(record):
        yield step.state


def _open_file(page: Page, base: str, name: str, text: str) -> None:
    page.goto(f"{base}/replay")
    page.get_by_test_id("record-file").set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": text.encode()}]
    )


def _row(page: Page, check: str) -> Any:
    return page.locator(f"[data-testid=verify-row][data-check={check}]")


def test_a_tampered_record_is_rejected_with_the_reason(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    table_id = bots_game(live_server)
    page = new_page(browser)
    open_finished(page, live_server, table_id)
    text = record_text(live_server, table_id)
    record = json.loads(text)
    verify = page.get_by_test_id("verify")

    # The record as downloaded passes all three checks.
    page.goto(f"{live_server}/")
    page.get_by_test_id("replay-open-link").click()
    expect(page.get_by_test_id("record-drop")).to_be_visible()
    snap(page, shots_dir(tmp_path) / "replay-open-desktop.png")
    _open_file(page, live_server, "true.json", text)
    expect(verify).to_have_attribute("data-state", "pass", timeout=20_000)
    for check in ("commitment", "derivation", "replay"):
        expect(_row(page, check)).to_have_attribute("data-state", "pass")
    expect(page.get_by_test_id("replay-title")).to_contain_text("Why First?")
    snap(page, shots_dir(tmp_path) / "verify-pass.png")
    page.get_by_test_id("replay-another").click()
    expect(page.get_by_test_id("record-drop")).to_be_visible()

    # A changed seed (its exact 63-bit digits, changed by one): not the derived seed.
    seed = str(record["seed"])
    changed = str(int(seed) + 1)
    _open_file(page, live_server, "seed.json", text.replace(f'"seed":{seed}', f'"seed":{changed}'))
    expect(verify).to_have_attribute("data-state", "fail", timeout=20_000)
    expect(_row(page, "derivation")).to_have_attribute("data-state", "fail")
    expect(_row(page, "derivation")).to_contain_text(changed)
    expect(_row(page, "commitment")).to_have_attribute("data-state", "pass")
    snap(page, shots_dir(tmp_path) / "verify-seed-changed.png")
    phone = new_page(browser, viewport=PHONE)
    _open_file(phone, live_server, "seed.json", text.replace(f'"seed":{seed}', f'"seed":{changed}'))
    expect(phone.get_by_test_id("verify")).to_have_attribute("data-state", "fail", timeout=20_000)
    snap(phone, shots_dir(tmp_path) / "verify-seed-changed-phone.png")

    # A changed server seed: it no longer hashes to the commitment.
    fair = record["meta"]["fair"]
    other = fair["server_seed"][::-1]
    _open_file(page, live_server, "server.json", text.replace(fair["server_seed"], other))
    expect(verify).to_have_attribute("data-state", "fail", timeout=20_000)
    expect(_row(page, "commitment")).to_have_attribute("data-state", "fail")
    expect(_row(page, "commitment")).to_contain_text(fair["commitment"])

    # A changed result: the actions give another.
    result = dict(fair["result"])
    result["winners"] = [w for w in range(3) if w not in result["winners"]][:1]
    tampered = json.loads(text)
    tampered["meta"]["fair"]["result"] = result
    _open_file(page, live_server, "result.json", _keep_seed(tampered, seed))
    expect(verify).to_have_attribute("data-state", "fail", timeout=20_000)
    expect(_row(page, "replay")).to_have_attribute("data-state", "fail")
    expect(_row(page, "replay")).to_contain_text("states")
    snap(page, shots_dir(tmp_path) / "verify-result-changed.png")

    # A changed action: the record does not replay (and no replay is shown).
    moved = json.loads(text)
    moved["actions"][0]["action"] = {"type": "place", "value": 99, "target": 0}
    _open_file(page, live_server, "action.json", _keep_seed(moved, seed))
    expect(verify).to_have_attribute("data-state", "fail", timeout=20_000)
    expect(_row(page, "replay")).to_have_attribute("data-state", "fail")
    expect(_row(page, "replay")).to_contain_text("action 0")
    expect(page.get_by_test_id("replay-error")).to_be_visible()
    expect(_row(page, "derivation")).to_have_attribute("data-state", "pass")

    # Not a record at all: said so, nothing opened.
    _open_file(page, live_server, "nothing.json", "[1, 2]")
    expect(page.get_by_test_id("toasts")).to_contain_text("not a game record")


def _keep_seed(record: dict[str, Any], seed: str) -> str:
    """The record as JSON text with its seed's exact digits (Python keeps them anyway)."""
    text = json.dumps(record)
    assert f'"seed": {seed}' in text
    return text


def test_what_if_forks_a_private_game_and_a_move_is_played(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    table_id = bots_game(live_server)
    page = new_page(browser)
    open_finished(page, live_server, table_id)
    record = GameRecord.from_json(json.loads(record_text(live_server, table_id)))
    # A step at which seat 0 is to answer: just before one of its actions.
    step = next(i for i, a in enumerate(record.actions) if i > 0 and a.seat == 0)
    page.locator(f"[data-testid=replay-step-item][data-step='{step}'] button").click()
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(step))
    whatif = page.get_by_test_id("whatif")
    expect(whatif).to_contain_text(f"step {step}")
    page.get_by_test_id("whatif-seat").select_option("0")
    expect(page.get_by_test_id("whatif-bot")).to_have_value("casual")
    page.get_by_test_id("whatif-bot").select_option("beginner")
    snap(page, shots_dir(tmp_path) / "whatif-desktop.png")
    with page.expect_websocket() as socket:
        page.get_by_test_id("fork").click()
    ws = socket.value
    expect(page).to_have_url(re.compile(rf"/t/(?!{re.escape(table_id)}$)[A-Za-z0-9_-]+$"))
    fork_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "online")
    expect(page.get_by_test_id("fork-origin")).to_contain_text(f"step {step}")
    lobby = httpx.get(f"{live_server}/api/tables", trust_env=False).json()
    assert fork_id not in {t["id"] for t in lobby}
    info = httpx.get(f"{live_server}/api/tables/{fork_id}", trust_env=False).json()
    assert info["fair"] is None and info["fork"]["step"] == step
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert [s["bot"] for s in info["seats"]] == [None, "beginner", "beginner"]
    assert info["move"] >= step

    # The person plays a move: the server acknowledges it.
    rng = random.Random(5)
    with ws.expect_event(
        "framereceived", predicate=lambda payload: '"ack"' in str(payload), timeout=20_000
    ):
        for _ in range(6):
            if take_turn(page, rng) in ("place", "commit"):
                break
    snap(page, shots_dir(tmp_path) / "whatif-played.png")
