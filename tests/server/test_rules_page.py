"""``/rules/<game-id>``: the rules pages of ``docs/rules`` as HTML, in the client's style."""

from __future__ import annotations

import re

import pytest

from racedeck import rulebook
from racedeck.core.registry import available_games
from server.live import LiveServer


def test_every_game_has_its_rules_page(server: LiveServer) -> None:
    for game_id in available_games():
        res = server.http.get(f"/rules/{game_id}")
        assert res.status_code == 200, res.text
        assert res.headers["content-type"].startswith("text/html")
        page = res.text
        title = rulebook.title(game_id)
        assert f"<title>{title} rules · racedeck</title>" in page
        assert '<link rel="stylesheet" href="/static/style.css">' in page
        assert re.search(r"<h1 id=\"[a-z-]+\">[^<]+ — rules</h1>", page)
        assert '<h2 id="in-brief">In brief</h2>' in page
        assert '<h2 id="rulings">Rulings</h2>' in page
        for section in rulebook.BRIEF_SECTIONS:
            assert f">{section}</h3>" in page
        # Every ruling has a heading a link can point at (/rules/setback#SB-9).
        ids = re.findall(r'<h3 id="([A-Z]+-\d+)">', page)
        assert tuple(ids) == rulebook.ruling_ids(game_id)
        assert page.count('<p class="option">Option: ') == len(ids)
        # Every game's page is one click away; this one is marked as the current page.
        for other in available_games():
            assert f'href="/rules/{other}"' in page
        assert f'<a href="/rules/{game_id}" aria-current="page">' in page
        assert "`" not in page  # the Markdown is rendered, code spans included


def test_the_setback_deck_is_a_table(server: LiveServer) -> None:
    page = server.http.get("/rules/setback").text
    assert "<table>" in page and "<th>card</th>" in page
    assert "<td>MOVE</td>" in page and "<td>8 (2 FREE)</td>" in page


@pytest.mark.parametrize("asked", ["chess", "README", "why-first.md", "Why-First"])
def test_a_game_without_rules_is_404_naming_the_pages(server: LiveServer, asked: str) -> None:
    res = server.http.get(f"/rules/{asked}")
    assert res.status_code == 404
    assert res.headers["content-type"].startswith("text/html")
    assert "<h1>No rules for" in res.text
    for game_id in available_games():
        assert f'<li><a href="/rules/{game_id}">' in res.text


def test_no_path_leaves_the_pages(server: LiveServer) -> None:
    for path in ("/rules/..%2Fpyproject.toml", "/rules/../pyproject.toml", "/rules/%2E%2E"):
        res = server.http.get(path)
        assert res.status_code == 404, path
        assert "[project]" not in res.text


def test_a_name_with_markup_is_escaped(server: LiveServer) -> None:
    res = server.http.get("/rules/<b>x")
    assert res.status_code == 404
    assert "<b>x" not in res.text and "No rules for &lt;b&gt;x</h1>" in res.text
