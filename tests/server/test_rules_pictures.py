"""The pictures of the rules pages (``![caption](picture:<name>)``, :mod:`rules_pictures`):
every marker of every page resolves to a real position, each position is what a spectator is
sent (no hand, no secret, no choice), each shows what its caption says, and a page that asks
for a picture there is none of fails when it is built, naming the pictures there are.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck import rulebook
from racedeck.server import rules_page, rules_pictures
from racedeck.server.rules_pictures import POSITIONS, UnknownPicture, picture, play
from racedeck.server.web import six_day_race as six_day_race_web
from server.live import LiveServer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
MARKER = re.compile(r"!\[[^\]]+\]\(picture:([^)]*)\)")
FIGURE = re.compile(
    r'<figure class="rules-picture" data-testid="rules-picture" data-picture="([a-z0-9-]+)">\n'
    r'<div class="rules-picture-board" aria-hidden="true" inert></div>\n'
    r"<figcaption>([^<]+)</figcaption>\n"
    r'<script type="application/json">([^<]*)</script>\n</figure>'
)
LANGS = ("en", *rulebook.SUMMARY_LANGUAGES)


def _page_text(game_id: str, lang: str) -> str:
    text = rulebook.page(game_id) if lang == "en" else rulebook.summary(game_id, lang)
    assert text is not None
    return text


def _figures(game_id: str, lang: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(name, caption, embedded JSON) of every figure of a built page, in page order."""
    for name, caption, data in FIGURE.findall(rules_page.rules_html(game_id, lang)):
        yield name, caption, json.loads(data)


# -- every marker resolves -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", rulebook.available())
def test_every_marker_becomes_a_figure_with_its_caption_and_position(
    game_id: str, lang: str
) -> None:
    asked = MARKER.findall(_page_text(game_id, lang))
    assert asked, f"{game_id} ({lang}) has no pictures"
    figures = list(_figures(game_id, lang))
    assert [name for name, _, _ in figures] == asked
    for name, caption, data in figures:
        assert name in POSITIONS
        assert POSITIONS[name].game == game_id == data["game"]
        assert data == picture(name)  # the page carries the position as played
        assert len(html.unescape(caption)) > 40  # a sentence, not a label
    page = rules_page.rules_html(game_id, lang)
    assert '<script type="module" src="/static/rules-pictures.js"></script>' in page
    assert '<link rel="stylesheet" href="/static/rules-pictures.css">' in page
    assert "picture:" not in page  # no marker is left as an image or a link


def test_every_language_shows_the_same_pictures_in_the_same_order() -> None:
    for game_id in rulebook.available():
        english = MARKER.findall(_page_text(game_id, "en"))
        for lang in rulebook.SUMMARY_LANGUAGES:
            assert MARKER.findall(_page_text(game_id, lang)) == english, (game_id, lang)


def test_every_position_is_shown_somewhere() -> None:
    shown = {n for g in rulebook.available() for n in MARKER.findall(_page_text(g, "en"))}
    assert shown == set(POSITIONS)


def test_the_files_on_disk_are_the_pages_served() -> None:
    """The markers checked here are the ones in the repository's docs/rules."""
    for path in [*DOCS.glob("*.md"), *DOCS.glob("*/*.md")]:
        for name in MARKER.findall(path.read_text(encoding="utf-8")):
            assert name in POSITIONS, f"{path.relative_to(DOCS)} asks for {name}"


def test_a_page_without_pictures_loads_no_script() -> None:
    assert "rules-pictures" not in rules_page.not_found_html("chess")


# -- positions are spectators' views ---------------------------------------------------------------

_PRIVATE_EVENTS = {"hand_dealt", "card_chosen", "cards_drawn", "cards_received", "window_asked"}
"""Events only a seat (or the record) sees; ``cards_drawn`` is Six Day Race's private one."""


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_position_is_what_a_spectator_is_sent(name: str) -> None:
    data = picture(name)
    view = data["view"]
    assert view["seat"] is None
    assert view["legal_actions"] == []
    assert view["header"]["seat_names"] == data["seats"]
    assert data["seats"] == [f"Player {i + 1}" for i in range(len(data["seats"]))]
    game = data["game"]
    if game == "six-day-race":
        assert view["my_hands"] == []
    elif game == "why-first":
        assert view["hand"] == [] and view["hand_values"] == [] and view["my_commit"] is None
    else:
        assert view["hand"] == [] and view["answer"] in ("", None)
    table, _ = play(POSITIONS[name])
    public = table.feed(None)
    assert len(data["events"]) == len(public)
    assert [e["kind"] for e in data["events"]] == [e.kind for e in public]
    kinds = {e["kind"] for e in data["events"]}
    if game == "setback":
        # Setback's cards_drawn says only how many: it is public there.
        assert not kinds & (_PRIVATE_EVENTS - {"cards_drawn"})
    else:
        assert not kinds & _PRIVATE_EVENTS
    # No seat's hand is in it: while the game goes on, every seat's own view holds more.
    for seat in range(table.game.num_players if not table.is_over else 0):
        own = table.view(seat).to_json()
        hidden = {k for k in own if own[k] != view.get(k)} - {"header", "seat", "legal_actions"}
        assert hidden, f"{name}: seat {seat}'s view is the spectators'"


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_position_replays_to_the_same_picture(name: str) -> None:
    picture.cache_clear()
    first = rules_pictures.picture_script(name)
    picture.cache_clear()
    assert rules_pictures.picture_script(name) == first


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_embedded_json_cannot_end_its_script(name: str) -> None:
    text = rules_pictures.picture_script(name)
    assert not set(text) & set("<>&`")
    assert json.loads(text) == picture(name)


# -- each picture shows what its caption says ----------------------------------------------------


def _last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["kind"] == kind]
    assert found, f"no {kind} event"
    return found[-1]


def _since(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events from the last one of ``kind`` on."""
    at = max(i for i, e in enumerate(events) if e["kind"] == kind)
    return events[at:]


@pytest.mark.parametrize(("name", "times", "start", "first", "to"), [
    ("slipstream-x2", 2, 8, 13, 18),
    ("slipstream-x3", 3, 4, 11, 25),
])  # fmt: skip
def test_the_slipstreams(name: str, times: int, start: int, first: int, to: int) -> None:
    data = picture(name)
    events, view = data["events"], data["view"]
    played = _last(events, "card_played")
    assert events[-1] is played  # the picture is right after that card
    assert played["multiplier"] == times and played["riders_there"] == times - 1
    assert (played["from"], played["first"], played["to"]) == (start, first, to)
    assert played["to"] - played["first"] == (times - 1) * played["value"]
    others = [p for r, p in enumerate(view["positions"]) if r != played["rider"]]
    assert others.count(first) == times - 1  # the riders whose slipstream it rode
    assert view["positions"][played["rider"]] == to


def test_laps_lost() -> None:
    data = picture("laps-lost")
    view = data["view"]
    assert view["phase"] == "over" and view["race"] == view["races"] == 2
    last = view["results"][-1]
    assert [r["laps"] for r in last] == [2, 1, 0, 0]
    assert view["positions"] == [71, 74, 81, 78]
    assert view["finishers"] == [2]
    scored = _last(data["events"], "race_scored")
    assert scored["race"] == 2 and [r["laps"] for r in scored["riders"]] == [2, 1, 0, 0]


def test_the_reveal() -> None:
    data = picture("reveal")
    view = data["view"]
    assert view["phase"] == "commit" and view["stage"] == 0 and view["round"] == 2
    revealed = _since(data["events"], "cards_revealed")
    cards = revealed[0]["cards"]
    assert revealed[0]["round"] == 2
    assert {(c["by"], c["value"], c["target"]) for c in cards} == {(0, -1, 1), (1, 1, 0), (2, 3, 1)}
    moves = {e["figure"]: (e["from"], e["to"]) for e in revealed if e["kind"] == "figure_moved"}
    assert moves == {0: (0, 1), 1: (-4, -2)}
    assert not [e for e in revealed if e["kind"] == "stage_scored"]


def test_the_second_figure_scores() -> None:
    data = picture("second-scores")
    scored = _last(data["events"], "stage_scored")
    assert scored["positions"] == [12, 9, -9]
    assert scored["space"] == 9 and scored["scorers"] == [1]
    assert scored["points"] == [0, 9, 0]  # the farthest figure scores nothing
    outcome = data["view"]["header"]["outcome"]
    assert sorted(outcome["winners"]) == [0, 2]  # the second-highest total wins


def test_the_bump() -> None:
    data = picture("bump")
    moved = [e for e in _since(data["events"], "declared") if e["kind"] == "token_moved"]
    bumped = [e for e in moved if e["why"] == "bumped"]
    assert len(bumped) == 1 and bumped[0]["player"] == 0
    assert bumped[0]["from"] == [0, 2] and bumped[0]["to"] == [1, 2]
    assert moved[-2]["player"] == 1 and moved[-2]["to"] == [0, 2]  # Player 2 came in
    assert data["view"]["tokens"][:2] == [[1, 2], [0, 2]]


def test_the_block() -> None:
    data = picture("block")
    view = data["view"]
    assert view["window_open"] and view["phase"] == "window"
    assert view["declared"] == {
        "player": 0,
        "source": "hand",
        "play": {"type": "play", "card": "MOVE+1", "lane": 0},
    }
    assert view["blocks"] == [1]
    assert _last(data["events"], "block_played")["player"] == 1


# -- a page that asks for what there is not ------------------------------------------------------


def test_an_unknown_picture_fails_naming_the_pictures_there_are() -> None:
    with pytest.raises(UnknownPicture, match=r"no picture 'slipstream-x9'; there are pictures"):
        rules_page._markdown("Text.\n\n![A caption that says much](picture:slipstream-x9)\n")
    try:
        picture("nope")
    except UnknownPicture as exc:
        for name in POSITIONS:
            assert name in str(exc)


@pytest.mark.parametrize(
    "text",
    [
        "See ![this](picture:bump) here.",  # not a paragraph of its own
        "![one](picture:bump) ![two](picture:block)",
        "![Bad name](picture:Bump_1)",
        "![](picture:bump)",  # no caption
    ],
)
def test_a_malformed_marker_fails(text: str) -> None:
    with pytest.raises(UnknownPicture):
        rules_page._markdown(text)


def test_a_position_that_no_longer_shows_its_claim_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    moved = rules_pictures.Position(
        game="six-day-race",
        config={"players": 4, "riders": 1},
        seed=7,
        moves=("3:3",),
        claim="a slipstream ×2",
        holds=six_day_race_web._slipstream(2),
    )
    monkeypatch.setitem(POSITIONS, "moved", moved)
    with pytest.raises(UnknownPicture, match="no longer shows what it claims: a slipstream ×2"):
        picture("moved")


def test_an_action_that_does_not_play_names_its_place() -> None:
    wrong = rules_pictures.Position(
        game="six-day-race", seed=7, moves=("3:3", "3:3"), claim="", holds=lambda t, e: True
    )
    with pytest.raises(ValueError, match=r"move 1 \('3:3'\) does not play"):
        play(wrong)


# -- served ----------------------------------------------------------------------------------------


def test_the_server_serves_the_pictures_and_what_draws_them(server: LiveServer) -> None:
    page = server.http.get("/rules/setback?lang=de").text
    assert [n for n, _, _ in FIGURE.findall(page)] == ["bump", "block"]
    assert "<figcaption>Ein BLOCK: Spieler 1 hat MOVE+1" in page
    for path in ("/static/rules-pictures.js", "/static/rules-pictures.css"):
        res = server.http.get(path)
        assert res.status_code == 200, path
