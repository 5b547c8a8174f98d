"""The new-table form speaks to people: how long to play as named presets, every other rule
under "Custom rules" in words, a list option as one field per item, a link to the ruling
instead of its id, settings the server refuses shown on the field they name, and bot seats
given by level."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from helpers import DESKTOP, PHONE, fill_option, shots_dir, snap_if_wanted, wider_than_the_window
from playwright.sync_api import Browser, Page, expect

LANGS = ("en", "nl", "fr", "de")
GAMES = ("why-first", "six-day-race", "setback")


def table_config(page: Page, base: str) -> dict[str, Any]:
    """The configuration of the table the page is at, as the server has it."""
    table_id = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{base}/api/tables/{table_id}") as res:
        info: dict[str, Any] = json.load(res)
    config: dict[str, Any] = info["config"]
    return config


def open_form(page: Page, base: str, game: str) -> None:
    page.goto(base + "/")
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("your-name").fill("Ann")


def checked_preset(page: Page) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('[data-testid=preset]:checked')].map(r => r.dataset.preset)"
    )


def test_a_preset_sets_how_long_and_the_custom_rules_follow(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        open_form(page, live_server, "why-first")
        assert checked_preset(page) == ["standard"]
        expect(page.locator("label.preset", has_text="Quick")).to_contain_text("2 stages")
        page.locator("[data-testid=preset][data-preset=long]").check()
        page.locator("details.options > summary").click()
        expect(page.locator("[data-option=stages]")).to_have_value("8")
        # Changing the length by hand: no preset is it any more, until one is again.
        fill_option(page, "stages", "3")
        assert checked_preset(page) == []
        fill_option(page, "stages", "2")
        assert checked_preset(page) == ["quick"]
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        assert table_config(page, live_server)["stages"] == 2
    finally:
        page.close()


def test_a_list_option_has_a_field_per_item_and_reaches_the_table(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        open_form(page, live_server, "six-day-race")
        page.locator("[data-testid=preset][data-preset=quick]").check()
        page.locator("details.options > summary").click()
        sprints = page.locator("[data-option=sprints]")
        expect(sprints.get_by_test_id("option-item")).to_have_count(2)
        sprints.get_by_test_id("option-remove").click()
        sprints.get_by_test_id("option-item").first.fill("40")
        points = page.locator("[data-option=sprint_points]")
        points.get_by_test_id("option-add").click()  # a fifth place, worth what the fourth is
        expect(points.get_by_test_id("option-item")).to_have_count(5)
        # A fixed-length list is labelled by what each item stands for: the grey 4-6 deck.
        grey = page.locator("[data-option=grey_high]")
        expect(grey.get_by_test_id("option-remove")).to_have_count(0)
        expect(grey.locator(".item-label")).to_have_text(["4", "5", "6"])
        grey.get_by_test_id("option-item").nth(2).fill("12")
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        config = table_config(page, live_server)
        assert config["races"] == 1
        assert config["sprints"] == [40]
        assert config["sprint_points"] == [5, 3, 2, 1, 1]
        assert config["grey_high"] == [11, 11, 12]
    finally:
        page.close()


def test_setbacks_deck_is_counted_card_by_card(browser: Browser, live_server: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        open_form(page, live_server, "setback")
        page.locator("details.options > summary").click()
        deck = page.locator("[data-option=deck]")
        total = page.get_by_test_id("deck-total")
        expect(total).to_have_text("96 cards in the deck")
        deck.locator("[data-item=BLOCK]").fill("0")
        deck.locator('[data-item="SHIFT*"]').fill("2")
        expect(total).to_have_text("90 cards in the deck")
        page.get_by_test_id("create-table").click()
        expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        cards = dict(table_config(page, live_server)["deck"])
        assert "BLOCK" not in cards and cards["SHIFT*"] == 2 and cards["MOVE+1"] == 6
        # The table's header and the lobby say the deck is custom, not what it holds as JSON.
        header = page.get_by_test_id("table-header")
        expect(header).to_contain_text("Deck: custom")
        assert "[" not in header.inner_text()
        table_id = page.url.rsplit("/", 1)[1]
        page.goto(live_server + "/")
        row = page.locator(f'[data-testid=lobby-table][data-table="{table_id}"]')
        expect(row).to_contain_text("Deck: custom", timeout=15_000)  # the lobby asks every 4 s
        assert "[" not in row.inner_text()
    finally:
        page.close()


def test_settings_the_server_refuses_are_shown_on_the_option_they_name(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        open_form(page, live_server, "six-day-race")
        page.locator("details.options > summary").click()
        fill_option(page, "line", "52")  # the sprints at 27 and 54: one is past the line
        page.get_by_test_id("create-table").click()
        toast = page.get_by_test_id("toasts").locator(".toast.error")
        expect(toast).to_contain_text("These table settings are not valid.")
        expect(toast).to_contain_text("sprints")
        field = page.locator(".field.invalid")
        expect(field).to_have_count(1)
        expect(field.locator("[data-option=sprints]")).to_have_count(1)
        assert page.url.rstrip("/") == live_server  # nothing was created; the form is as it was
        expect(page.locator("[data-option=line]")).to_have_value("52")
    finally:
        page.close()


def test_the_form_names_no_ruling_and_shows_no_json(
    browser: Browser, live_server: str, tmp_path: Any
) -> None:
    """In every language and game: words, not rule ids or JSON; each option's ruling is a link
    to its heading on the rules page. One page, switched from language to language (the lobby
    draws its form again), French on a phone's width."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(f"{live_server}/")
        for lang in LANGS:
            page.set_viewport_size(PHONE if lang == "fr" else DESKTOP)
            page.get_by_test_id("lang-switch").select_option(lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            for game in GAMES:
                page.get_by_test_id("game-select").select_option(game)
                page.locator("details.options").evaluate("d => { d.open = true; }")
                text = page.get_by_test_id("new-table").inner_text()
                assert not re.search(r"\b(WF|SD|SB)-\d+\b", text), (lang, game, text)
                assert "[" not in text and "{" not in text, (lang, game, text)
                links = page.get_by_test_id("option-rule")
                assert links.count() > 0, (lang, game)
                for href in links.evaluate_all("ls => ls.map(l => l.getAttribute('href'))"):
                    assert re.fullmatch(rf"/rules/{game}#(WF|SD|SB)-\d+", href), href
                snap_if_wanted(page, shots_dir(tmp_path) / f"new-table-{game}-{lang}.png")
    finally:
        page.close()


def seat_choices(page: Page, seat: int) -> list[str]:
    """The texts of the choices of ``seat``'s list."""
    return page.locator(f'[data-testid=seat-kind][data-seat="{seat}"] option').all_inner_texts()


def test_a_bot_seat_is_given_a_level_and_the_table_names_it_so(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    """A bot seat offers the four levels and "Custom bot…" (the bots by name, the search with
    its budget); a seat given a level is named by it at the table."""
    shots = shots_dir(tmp_path)
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(viewport=viewport)
        try:
            open_form(page, live_server, "why-first")
            page.get_by_test_id("players").select_option("3")
            assert seat_choices(page, 1) == [
                "A person (invite)",
                "Bot: Beginner",
                "Bot: Casual",
                "Bot: Strong",
                "Bot: Expert",
                "Custom bot…",
            ]
            kind = page.locator('[data-testid=seat-kind][data-seat="1"]')
            expect(kind).to_have_value("casual")
            custom = page.locator('[data-testid=seat-bot][data-seat="2"]')
            budget = page.locator('[data-testid=seat-budget][data-seat="2"]')
            expect(custom).to_be_hidden()
            page.locator('[data-testid=seat-kind][data-seat="2"]').select_option("custom")
            expect(custom).to_be_visible()
            assert custom.locator("option").all_inner_texts() == [
                "fast search bot",
                "heuristic bot",
                "random bot",
                "search bot",
            ]
            custom.select_option("search")
            budget.fill("30")
            kind.select_option("expert")
            assert not wider_than_the_window(page)
            snap_if_wanted(page, shots / f"new-table-levels-{label}.png")
            page.get_by_test_id("create-table").click()
            expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
            table_id = page.url.rsplit("/", 1)[1]
            with urllib.request.urlopen(f"{live_server}/api/tables/{table_id}") as res:
                seats = json.load(res)["seats"]
            assert [s["bot"] for s in seats] == [None, "expert", "search@30"]
            expect(page.get_by_test_id("scoreboard")).to_contain_text("Expert bot")
        finally:
            page.close()
