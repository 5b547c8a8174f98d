"""The rules pages (``docs/rules/``) and their reader, :mod:`racedeck.rulebook`.

Every ruling of the rulings list has a section on its game's page, every id the code and tests
cite is there too, every option of a game is named on its page and every option a ruling's
``Option:`` line names exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import racedeck
from racedeck import rulebook
from racedeck.rulebook import BRIEF_SECTIONS, UnknownRules

ROOT = Path(__file__).resolve().parents[1]
GAME_IDS = ("why-first", "six-day-race", "setback")
PREFIX = {"WF": "why-first", "SD": "six-day-race", "SB": "setback"}
RULINGS = {
    # The ids of the rulings list, game by game (WF-1 … WF-11, SD-1 … SD-12, SB-1 … SB-11).
    "why-first": tuple(f"WF-{i}" for i in range(1, 12)),
    "six-day-race": tuple(f"SD-{i}" for i in range(1, 13)),
    "setback": tuple(f"SB-{i}" for i in range(1, 12)),
}
_CITED = re.compile(r"\b(WF|SD|SB)-(\d+)\b")
_OPTION_NAME = re.compile(r"`([a-z_]+)`")
_ASKING_FOR_MISSING = {"test_rulebook.py", "test_rules_cli.py", "test_rules_page.py"}
"""Tests that ask for rulings that do not exist, on purpose: they cite nothing."""


def _cited_ids() -> set[str]:
    """Every ruling id cited in the sources and tests of the repository."""
    found: set[str] = set()
    for folder in ("src", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name in _ASKING_FOR_MISSING:
                continue
            found.update(f"{a}-{b}" for a, b in _CITED.findall(path.read_text(encoding="utf-8")))
    return found


def _option_line(section: str) -> str:
    """The ``Option:`` paragraph that ends a ruling, joined into one line."""
    paragraphs = [p for p in section.strip().split("\n\n") if p.strip()]
    last = " ".join(paragraphs[-1].split())
    assert last.startswith("Option: "), section
    return last


def test_every_game_has_a_page() -> None:
    assert set(rulebook.available()) == set(GAME_IDS) == set(racedeck.available_games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_page_has_the_shape_the_faces_rely_on(game_id: str) -> None:
    text = rulebook.page(game_id)
    lines = text.splitlines()
    assert lines[0] == f"# {racedeck.get_spec(game_id).title} — rules"
    assert rulebook.title(game_id) == racedeck.get_spec(game_id).title
    assert lines[1] == "" and lines[2].strip(), "one paragraph says what the game is"
    h2 = [line for line in lines if line.startswith("## ")]
    assert h2 == ["## In brief", "## Rulings"]
    brief_lines = rulebook.brief(game_id).splitlines()
    assert tuple(line[4:] for line in brief_lines if line.startswith("### ")) == BRIEF_SECTIONS
    rulings_part = text.split("\n## Rulings\n", 1)[1]
    headings = [line for line in rulings_part.splitlines() if line.startswith("### ")]
    assert headings == [
        line for line in headings if re.fullmatch(r"### [A-Z]{2}-\d+ · \S.*", line)
    ], "every ruling heading reads '### XX-n · title'"
    assert len(headings) == len(rulebook.ruling_ids(game_id))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_ruling_has_its_section_in_order(game_id: str) -> None:
    assert rulebook.ruling_ids(game_id) == RULINGS[game_id]


def test_every_ruling_the_code_and_tests_cite_is_on_its_page() -> None:
    cited = _cited_ids()
    assert {"WF-10", "SD-11", "SB-9"} <= cited  # the scan reads the sources
    for ruling_id in sorted(cited):
        game_id = PREFIX[ruling_id[:2]]
        assert ruling_id in rulebook.ruling_ids(game_id), f"{ruling_id} is not on {game_id}.md"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_of_the_game_is_named_on_its_page(game_id: str) -> None:
    text = rulebook.page(game_id)
    for opt in racedeck.get_spec(game_id).options():
        assert f"`{opt.name}`" in text, f"option {opt.name} is not named on {game_id}.md"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_line_names_real_options_or_says_fixed(game_id: str) -> None:
    options = {opt.name: opt for opt in racedeck.get_spec(game_id).options()}
    for ruling_id in rulebook.ruling_ids(game_id):
        section = rulebook.ruling(game_id, ruling_id)
        assert section is not None
        line = _option_line(section)
        names = _OPTION_NAME.findall(line)
        if line.startswith("Option: fixed"):
            continue
        assert names, f"{ruling_id}: the Option line names no option and does not say fixed"
        for name in names:
            assert name in options, f"{ruling_id} names {name}, which {game_id} does not have"
        # The first option named is given with its default.
        first = options[names[0]]
        if isinstance(first.default, int) and not isinstance(first.default, bool):
            assert f"`{first.name}` (default {first.default}" in line, line


@pytest.mark.parametrize(
    ("game_id", "ruling_id", "option"),
    [
        # The amended rulings as the code plays them (SB-9, SD-11 Amended).
        ("setback", "SB-9", "self_block"),
        ("setback", "SB-9", "window_seconds"),
        ("six-day-race", "SD-11", "two_rider_order"),
        ("why-first", "WF-10", "variant"),
        ("six-day-race", "SD-5", None),
    ],
)
def test_option_lines_of_some_rulings(game_id: str, ruling_id: str, option: str | None) -> None:
    section = rulebook.ruling(game_id, ruling_id)
    assert section is not None
    line = _option_line(section)
    if option is None:
        assert line == "Option: fixed."
    else:
        assert f"`{option}`" in line


def test_the_amended_rulings_say_what_the_code_does() -> None:
    sb9 = rulebook.ruling("setback", "SB-9")
    assert sb9 is not None and "*As amended.*" in sb9
    assert "whether or not anyone holds a BLOCK" in sb9 and "can only pass" in sb9
    sd11 = rulebook.ruling("six-day-race", "SD-11")
    assert sd11 is not None and "over the series so far" in sd11


def test_ruling_returns_one_section_from_its_heading_to_the_next() -> None:
    text = rulebook.ruling("why-first", "WF-6")
    assert text is not None
    assert text.startswith("### WF-6 · Stage scoring\n")
    assert "### WF-7" not in text and "WF-5" not in text
    assert text.endswith("Option: fixed.\n")
    assert rulebook.ruling("why-first", "wf-6") == text
    last = rulebook.ruling("setback", "SB-11")
    assert last is not None and last.endswith("Option: `players` (default 3).\n")


def test_ruling_of_another_game_or_a_missing_id_is_none() -> None:
    assert rulebook.ruling("why-first", "SB-9") is None
    assert rulebook.ruling("why-first", "WF-99") is None
    assert rulebook.ruling("why-first", "hello") is None


def test_brief_is_the_in_brief_section_only() -> None:
    text = rulebook.brief("six-day-race")
    assert text.startswith("## In brief\n\n### Goal\n")
    assert "## Rulings" not in text and "SD-5 ·" not in text
    assert text.rstrip().endswith("created.")
    assert text in rulebook.page("six-day-race")


@pytest.mark.parametrize("call", [rulebook.page, rulebook.brief, rulebook.ruling_ids])
def test_an_unknown_game_is_refused_naming_the_pages(call: object) -> None:
    assert callable(call)
    with pytest.raises(UnknownRules) as caught:
        call("chess")
    assert str(caught.value) == (
        "no rules page for chess; there are pages for setback, six-day-race, why-first"
    )


def test_an_unknown_game_for_a_ruling_and_a_path_are_refused() -> None:
    with pytest.raises(UnknownRules):
        rulebook.ruling("chess", "WF-1")
    with pytest.raises(UnknownRules):
        rulebook.page("../README")
    with pytest.raises(UnknownRules):
        rulebook.page("README")


def test_the_pages_are_the_docs_folder() -> None:
    for game_id in GAME_IDS:
        on_disk = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
        assert rulebook.page(game_id) == on_disk
