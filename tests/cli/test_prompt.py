"""The commands and input forms every prompt of every game shares (cli/prompt.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from scripted import script

import racedeck
from racedeck.cli.play import play_in_terminal
from racedeck.cli.prompt import Choice, Prompter, Quit, Undo, match_choice, normalise
from racedeck.cli.records import load_record

CARDS = [
    Choice("a", "+3", ("#32",)),
    Choice("b", "-2", ("#7",)),
    Choice("c", "Leo", ("L",)),
]


def _prompter(*answers: str, rules: Callable[[str], str | None] | None = None) -> Prompter:
    console = Console(record=True, width=80, file=io.StringIO())
    return Prompter(script(*answers), console, rules)


def _said(prompter: Prompter) -> str:
    return prompter.console.export_text()


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("1", "a"),
        ("2", "b"),
        ("3", "c"),
        ("+3", "a"),
        ("#32", "a"),
        (" # 32 ", "a"),
        ("−2", "b"),  # a typographic minus
        ("–2", "b"),
        ("leo", "c"),
        ("LEO", "c"),
        ("l", "c"),
    ],
)
def test_a_choice_is_named_by_list_number_or_any_of_its_forms(answer: str, value: str) -> None:
    assert [c.value for c in match_choice(answer, CARDS)] == [value]


@pytest.mark.parametrize("answer", ["", "4", "0", "+4", "#8", "bot", "3 1"])
def test_names_of_nothing_match_nothing(answer: str) -> None:
    assert match_choice(answer, CARDS) == []


def test_a_list_keyed_by_the_choices_own_numbers_matches_those_numbers_only() -> None:
    cards = [Choice(v, str(v), (f"+{v}",), number=v) for v in (1, 3, 7)]
    assert [c.value for c in match_choice("3", cards)] == [3]  # listed second, numbered 3
    assert [c.value for c in match_choice("+7", cards)] == [7]
    assert match_choice("2", cards) == []  # a place in the list is no number here
    prompter = _prompter("2", "7")
    assert prompter.choose("Card: ", cards, hint="Play 1, 3 or 7") == 7
    assert "2 is not one of the choices. Play 1, 3 or 7 (? for help)." in _said(prompter)


def test_normalise_ignores_case_spaces_and_kinds_of_minus() -> None:
    assert normalise(" Move − 1 ") == "move-1"


def test_choose_reasks_with_what_was_wrong_and_what_to_type() -> None:
    prompter = _prompter("9", "+4", "", "#32")
    assert prompter.choose("Card: ", CARDS) == "a"
    said = _said(prompter)
    assert "There is no choice 9. Type a number from 1 to 3 (? for help)." in said
    assert "+4 is not one of the choices." in said
    assert "Please choose." in said


def test_help_shows_this_prompts_forms_and_the_common_commands() -> None:
    prompter = _prompter("?", "help", "2")
    assert prompter.choose("Card: ", CARDS, forms="A card: its value (+3) or #white.") == "b"
    said = _said(prompter)
    assert said.count("A card: its value (+3) or #white.") == 2
    assert said.count("rules") >= 2 and "undo" in said and "quit" in said


def test_quit_raises_quit_at_any_prompt() -> None:
    with pytest.raises(Quit):
        _prompter("quit").choose("Card: ", CARDS)
    with pytest.raises(Quit):
        _prompter("EXIT")("Anything: ")


def test_undo_goes_back_only_where_a_prompt_allows_it() -> None:
    with pytest.raises(Undo):
        _prompter("undo").choose("Figure: ", CARDS, undo=True)
    prompter = _prompter("undo", "1")
    assert prompter.choose("Card: ", CARDS) == "a"
    assert "Nothing to undo here: a move is final once it is complete." in _said(prompter)


def test_rules_shows_the_brief_one_ruling_or_says_what_exists() -> None:
    pages = {"": "Race to the line.", "all": "The whole page.", "WF-4": "Ties share."}
    prompter = _prompter("rules", "rules WF-4", "rules all", "rules XX-9", "1", rules=pages.get)
    assert prompter.choose("Card: ", CARDS) == "a"
    said = _said(prompter)
    for text in ("Race to the line.", "Ties share.", "The whole page."):
        assert text in said
    assert "No ruling XX-9. Type rules for the game in brief, or rules all." in said


def test_without_a_rules_page_rules_says_so() -> None:
    prompter = _prompter("rules", "1")
    prompter.choose("Card: ", CARDS)
    assert "No rules page for this game." in _said(prompter)


def test_pause_waits_for_one_line_and_still_takes_commands() -> None:
    prompter = _prompter("?", "")
    prompter.pause()
    with pytest.raises(Quit):
        _prompter("quit").pause()


def test_quit_in_a_game_keeps_the_record_and_exits_cleanly(tmp_path: Path) -> None:
    game = racedeck.make("setback", players=3)
    console = Console(record=True, width=100, file=io.StringIO())
    path = tmp_path / "left.json"
    bots = ["human", "random", "random"]
    code = play_in_terminal(game, 4, 0, bots, path, console, script("quit"))
    assert code == 0
    assert "You left the game." in console.export_text()
    assert load_record(path).seed == 4
