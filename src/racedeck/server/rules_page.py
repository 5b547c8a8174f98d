"""The rules pages (:mod:`racedeck.rulebook`) as HTML for the browser, at ``/rules/<game-id>``.

The Markdown is the same the terminal shows; here it is rendered with markdown-it (raw HTML in
the source is not passed through) into a small page in the client's style. Every heading gets
an id, a ruling's its own (``/rules/setback#SB-9``), so a link can point at one ruling; the
``Option:`` line of a ruling has the class ``option``.

``/rules/<game-id>?lang=nl`` (or ``fr``, ``de``) shows the game's short summary in that language
(:func:`racedeck.rulebook.summary`) in the same page, its few words of chrome in that language
too; English, and any language without summaries, gets the full page.

A paragraph that is only an image whose address is ``picture:<name>`` becomes a ``<figure>``:
the image's text is its caption, and it carries the position :mod:`racedeck.server.rules_pictures`
plays for ``name`` as JSON, which ``static/rules-pictures.js`` draws with the game's own
renderer. A name without a position raises :class:`~racedeck.server.rules_pictures.UnknownPicture`
when the page is built, as does a picture not alone in its paragraph.
"""

from __future__ import annotations

import html
import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token

from racedeck import rulebook
from racedeck.server.rules_pictures import MARKER, UnknownPicture, picture_script

__all__ = ["not_found_html", "rules_html"]

_RULING = re.compile(r"^([A-Z]+-\d+) · ")

# The page's own words by language: the label before the games' links, the navigation's names.
_CHROME = {
    "en": ("Rules", "rules of the games", "languages"),
    "nl": ("Spelregels", "spelregels van de spellen", "talen"),
    "fr": ("Règles", "règles des jeux", "langues"),
    "de": ("Regeln", "Regeln der Spiele", "Sprachen"),
}
_LANGUAGES = {"en": "English", "nl": "Nederlands", "fr": "Français", "de": "Deutsch"}
_PICTURE_HEAD = (
    '<link rel="stylesheet" href="/static/rules-pictures.css">\n'
    '<script type="module" src="/static/rules-pictures.js"></script>\n'
)


def _anchor(text: str) -> str:
    """A heading's id: the ruling id (``SB-9``) or its words in lower case (``a-turn``)."""
    m = _RULING.match(text)
    if m is not None:
        return m.group(1)
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _markdown(text: str) -> str:
    """``text`` as HTML: CommonMark with tables, no raw HTML, ids on the headings, pictures
    (``![caption](picture:name)``) as figures."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open":
            token.attrSet("id", _anchor(tokens[i + 1].content))
        elif token.type == "paragraph_open" and tokens[i + 1].content.startswith("Option: "):
            token.attrSet("class", "option")  # the line that names a ruling's options
        elif token.type == "paragraph_open" and _pictures(tokens[i + 1]):
            # The paragraph (open, inline, close) becomes the figure.
            figure = Token("html_block", "", 0)
            figure.content = _figure(*_picture(md, tokens[i + 1]))
            out.append(figure)
            i += 3
            continue
        out.append(token)
        i += 1
    _close_gaps(out)
    return str(md.renderer.render(out, md.options, {}))


def _close_gaps(tokens: list[Token]) -> None:
    """Number the headings without gaps (a summary's ``#`` then ``###`` is h1 then h2): a
    screen reader's outline skips no level."""
    used = sorted({t.tag for t in tokens if t.type in ("heading_open", "heading_close")})
    levels = {tag: f"h{n}" for n, tag in enumerate(used, start=1)}
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = levels[token.tag]


def _pictures(inline: Token) -> list[Token]:
    """The images of an inline token that ask for a picture (``picture:<name>``)."""
    return [
        c
        for c in inline.children or []
        if c.type == "image" and str(c.attrGet("src") or "").startswith("picture:")
    ]


def _picture(md: MarkdownIt, inline: Token) -> tuple[str, str]:
    """The name and the caption (as HTML) of the picture a paragraph asks for; a picture must
    be the paragraph's only content."""
    image = _pictures(inline)[0]
    src = str(image.attrGet("src"))
    m = MARKER.match(src)
    others = [c for c in inline.children or [] if c is not image and c.content.strip()]
    if m is None or others or len(_pictures(inline)) > 1:
        raise UnknownPicture(
            f"{inline.content!r}: a picture is a paragraph of its own, "
            "![caption](picture:<name>), with a name of lower-case letters, digits and dashes"
        )
    caption = RendererHTML().renderInline(image.children or [], md.options, {}).strip()
    if not caption:
        raise UnknownPicture(f"{inline.content!r}: a picture needs a caption")
    return m.group(1), caption


def _figure(name: str, caption: str) -> str:
    """The figure of picture ``name``: the board the renderer draws into, the caption, and
    the position as JSON (:func:`~racedeck.server.rules_pictures.picture_script`)."""
    return (
        f'<figure class="rules-picture" data-testid="rules-picture" data-picture="{name}">\n'
        '<div class="rules-picture-board" aria-hidden="true" inert></div>\n'
        f"<figcaption>{caption}</figcaption>\n"
        f'<script type="application/json">{picture_script(name)}</script>\n'
        "</figure>\n"
    )


def _shell(title: str, current: str | None, body: str, lang: str = "en") -> str:
    """The page around ``body``: the client's top bar and style, links to every game's rules
    (in ``lang``) and, on a game's page, to the same page in the other languages; a body with
    pictures loads what draws them."""
    here = ' aria-current="page"'
    query = "" if lang == "en" else f"?lang={lang}"
    label, nav, langs_label = _CHROME[lang]
    links = " · ".join(
        f'<a href="/rules/{g}{query}"{here if g == current else ""}>'
        f"{html.escape(rulebook.title(g))}</a>"
        for g in rulebook.available()
    )
    pictures = _PICTURE_HEAD if 'data-testid="rules-picture"' in body else ""
    langs = ""
    if current is not None:
        langs = (
            f'<nav class="rules-langs" aria-label="{langs_label}">'
            + " · ".join(
                f'<a href="/rules/{current}?lang={code}" lang="{code}"'
                f"{here if code == lang else ''}>{name}</a>"
                for code, name in _LANGUAGES.items()
            )
            + "</nav>"
        )
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)} · racedeck</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n'
        f"{pictures}"
        "</head>\n<body>\n"
        '<header class="topbar"><a class="brand" href="/" data-testid="home">racedeck</a>'
        f'<nav class="rules-nav" aria-label="{nav}">{label}: {links}</nav>{langs}</header>\n'
        f'<main class="rules-page"><article class="panel rules" data-testid="rules">\n{body}'
        "</article></main>\n</body>\n</html>\n"
    )


def rules_html(game_id: str, lang: str = "en") -> str:
    """The rules page of ``game_id`` as a whole HTML document: the full English page, or the
    short summary in ``lang`` where there is one; raises
    :class:`~racedeck.rulebook.UnknownRules` when the game has no page."""
    # Only known languages reach the cache, so made-up ones cannot fill it.
    return _rules_html(game_id, lang if lang in rulebook.SUMMARY_LANGUAGES else "en")


@cache
def _rules_html(game_id: str, lang: str) -> str:
    text = rulebook.summary(game_id, lang)
    if text is None:
        text = rulebook.page(game_id)
        return _shell(f"{rulebook.title(game_id)} rules", game_id, _markdown(text))
    heading = text.split("\n", 1)[0].removeprefix("# ")
    return _shell(heading, game_id, _markdown(text), lang)


def not_found_html(game_id: str) -> str:
    """The page for a game id without rules: what was asked for and what there is."""
    body = (
        f"<h1>No rules for {html.escape(game_id)}</h1>\n"
        "<p>There are rules pages for these games:</p>\n<ul>\n"
        + "".join(
            f'<li><a href="/rules/{g}">{html.escape(rulebook.title(g))}</a></li>\n'
            for g in rulebook.available()
        )
        + "</ul>\n"
    )
    return _shell("No such rules", None, body)
