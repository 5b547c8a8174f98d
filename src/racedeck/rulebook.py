"""The rules pages of the games, one Markdown page per game id (``docs/rules/<id>.md``).

They are the one source of the rules for every face: ``racedeck rules`` in the terminal and
``/rules/<id>`` in the browser read them here. The pages ship with the package (the folder
``racedeck/rulebook_pages`` is the repository's ``docs/rules``), so an installed racedeck has
them too. Each page has this shape, which the functions below rely on::

    # <Title> — rules
    <one paragraph>
    ## In brief
    ### Goal, ### Setup, ### A turn, ### Scoring, ### The end, ### Variants
    ## Rulings
    ### XX-n · <short title>      (one per ruling, each ending with an ``Option:`` line)

A game id without a page raises :class:`UnknownRules`; a ruling the page does not hold is
``None``.

A short summary of each game in Dutch, French and German lives in ``docs/rules/<lang>/<id>.md``
(:func:`summary`): a title, one paragraph, the six brief sections in that language in the same
order, and a link to the full English page, which stays the reference.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

__all__ = [
    "BRIEF_SECTIONS",
    "SUMMARY_LANGUAGES",
    "UnknownRules",
    "available",
    "brief",
    "page",
    "ruling",
    "ruling_ids",
    "summary",
    "title",
]

BRIEF_SECTIONS = ("Goal", "Setup", "A turn", "Scoring", "The end", "Variants")
"""The sections of "In brief", in the order every page gives them."""

SUMMARY_LANGUAGES = ("nl", "fr", "de")
"""The languages with a short summary of every game (English has the full page)."""

_FOLDER = "rulebook_pages"
_RULING = re.compile(r"^### ([A-Z]+-\d+) · ")
_SUFFIX = " — rules"


class UnknownRules(LookupError):
    """No rules page for a game id; the message names the pages there are."""


def available() -> tuple[str, ...]:
    """The game ids that have a rules page, sorted."""
    return _available()


@cache
def _available() -> tuple[str, ...]:
    folder = files("racedeck").joinpath(_FOLDER)
    names = (entry.name for entry in folder.iterdir() if entry.is_file())
    return tuple(sorted(n[:-3] for n in names if n.endswith(".md") and n != "README.md"))


def page(game_id: str) -> str:
    """The whole rules page of ``game_id`` as Markdown; :class:`UnknownRules` if it has none."""
    known = available()
    if game_id not in known:
        raise UnknownRules(f"no rules page for {game_id}; there are pages for {', '.join(known)}")
    return _read(game_id)


@cache
def _read(game_id: str) -> str:
    return files("racedeck").joinpath(_FOLDER, f"{game_id}.md").read_text(encoding="utf-8")


def title(game_id: str) -> str:
    """The game's name as its page's first heading gives it (``Why First?``)."""
    first = page(game_id).split("\n", 1)[0]
    return first.removeprefix("# ").removesuffix(_SUFFIX)


def _section(text: str, level: int, heading: str) -> str | None:
    """The section that starts with the heading line ``heading`` (of ``level`` ``#``), up to
    the next heading of that level or higher; ``None`` when there is no such heading."""
    lines = text.splitlines()
    if heading not in lines:
        return None
    start = lines.index(heading)
    end = start + 1
    while end < len(lines) and not _is_heading(lines[end], level):
        end += 1
    return "\n".join(lines[start:end]).strip() + "\n"


def _is_heading(line: str, level: int) -> bool:
    """True for a Markdown heading of ``level`` or a higher level (fewer ``#``)."""
    hashes = len(line) - len(line.lstrip("#"))
    return 0 < hashes <= level and line[hashes : hashes + 1] == " "


def brief(game_id: str) -> str:
    """The "In brief" section of ``game_id``'s page, its ``## In brief`` heading first."""
    found = _section(page(game_id), 2, "## In brief")
    if found is None:  # every shipped page has one (tests check it)
        raise UnknownRules(f"the rules page of {game_id} has no In brief section")
    return found


def ruling_ids(game_id: str) -> tuple[str, ...]:
    """The ids of the rulings on ``game_id``'s page, in page order (``WF-1``, ``WF-2`` …)."""
    return tuple(
        m.group(1) for line in page(game_id).splitlines() if (m := _RULING.match(line)) is not None
    )


def ruling(game_id: str, ruling_id: str) -> str | None:
    """The section of one ruling (``SB-9`` or ``sb-9``), its heading first; ``None`` when the
    page holds no such ruling."""
    wanted = ruling_id.strip().upper()
    for line in page(game_id).splitlines():
        m = _RULING.match(line)
        if m is not None and m.group(1) == wanted:
            return _section(page(game_id), 3, line)
    return None


def summary(game_id: str, lang: str) -> str | None:
    """The short summary of ``game_id`` in ``lang`` (one of :data:`SUMMARY_LANGUAGES`) as
    Markdown; ``None`` for another language. :class:`UnknownRules` if the game has no page."""
    page(game_id)  # the game must have rules at all
    if lang not in SUMMARY_LANGUAGES:
        return None
    return _read_summary(game_id, lang)


@cache
def _read_summary(game_id: str, lang: str) -> str:
    return files("racedeck").joinpath(_FOLDER, lang, f"{game_id}.md").read_text(encoding="utf-8")
