"""``/rules/<game-id>``: the rules pages of ``docs/rules`` as HTML, in the client's style."""

from __future__ import annotations

import re

import pytest

from racedeck import rulebook
from racedeck.core.registry import available_games
from server.live import LiveServer

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


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


# -- the short summaries in Dutch, French and German -----------------------------------------------

SUMMARY_HEADINGS = {
    "nl": (
        "Doel",
        "Voorbereiding",
        "Een kaartronde|Een beurt",
        "Puntentelling",
        "Einde van het spel",
        "Varianten",
    ),
    "fr": (
        "But du jeu",
        "Préparation",
        "Une phase|Un tour",
        "Décompte des points",
        "Fin de la partie",
        "Variantes",
    ),
    "de": ("Ziel", "Vorbereitung", "Eine Runde|Ein Zug", "Wertung", "Spielende", "Varianten"),
}


@pytest.mark.parametrize("lang", rulebook.SUMMARY_LANGUAGES)
def test_every_game_has_a_summary_with_the_brief_sections(lang: str) -> None:
    """Each summary has a title, one paragraph, the six brief sections in English's order
    and a link to the full English page."""
    for game_id in available_games():
        text = rulebook.summary(game_id, lang)
        assert text is not None
        lines = text.splitlines()
        assert lines[0].startswith(f"# {rulebook.title(game_id)} — ")
        headings = [line[4:] for line in lines if line.startswith("### ")]
        assert len(headings) == len(rulebook.BRIEF_SECTIONS)
        for heading, wanted in zip(headings, SUMMARY_HEADINGS[lang], strict=True):
            assert re.fullmatch(wanted, heading), (game_id, heading)
        assert not [line for line in lines if line.startswith("## ")]
        assert f"(/rules/{game_id}?lang=en)" in text


def test_english_and_unknown_languages_have_no_summary() -> None:
    assert rulebook.summary("why-first", "en") is None
    assert rulebook.summary("why-first", "xx") is None
    with pytest.raises(rulebook.UnknownRules):
        rulebook.summary("chess", "nl")


@pytest.mark.parametrize(
    ("lang", "title", "label"),
    [
        ("nl", "Why First? — spelregels in het kort", "Spelregels: "),
        ("fr", "Why First? — règles en bref", "Règles: "),
        ("de", "Why First? — Regeln in Kürze", "Regeln: "),
    ],
)
def test_the_summary_page_is_in_its_language(
    server: LiveServer, lang: str, title: str, label: str
) -> None:
    res = server.http.get(f"/rules/why-first?lang={lang}")
    assert res.status_code == 200
    page = res.text
    assert f'<html lang="{lang}">' in page
    assert f"<title>{title} · racedeck</title>" in page
    assert label in page
    # The other games' links keep the language; every language links to this game's page.
    assert f'href="/rules/setback?lang={lang}"' in page
    for code in ("en", "nl", "fr", "de"):
        assert f'href="/rules/why-first?lang={code}"' in page
    assert f'<a href="/rules/why-first?lang={lang}" lang="{lang}" aria-current="page">' in page
    assert '<h2 id="rulings">' not in page  # the rulings stay on the English page
    assert 'href="/rules/why-first?lang=en"' in page


@pytest.mark.parametrize("asked", ["en", "xx", "EN", ""])
def test_other_languages_get_the_full_english_page(server: LiveServer, asked: str) -> None:
    page = server.http.get(f"/rules/six-day-race?lang={asked}").text
    assert '<html lang="en">' in page
    assert '<h2 id="rulings">Rulings</h2>' in page
