"""*Why First?* at the terminal: every prompt reads the same forms, and the screens fit 80×24.

The prompts are asked with real views from real games (base, tactical, two players with Leo):
a bare number is a list number, a card is also its signed value (and its white number ``#32``
in the tactical variant only, WF-2/WF-10), a figure its board label or its name.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from scripted import script
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.play import play_in_terminal
from racedeck.cli.prompt import Prompter, Quit
from racedeck.cli.records import load_record
from racedeck.cli.terminal_ui import ui_for
from racedeck.cli.why_first_ui import WhyFirstUI
from racedeck.core.table import Table
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard
from racedeck.games.why_first.view import WhyFirstView

runner = CliRunner()

BASE_NAMES = ["You", "Bot 2", "Bot 3", "Bot 4"]


def _console(width: int = 80) -> Console:
    return Console(record=True, width=width, file=io.StringIO(), color_system=None)


def _ui(game: Any, names: list[str]) -> WhyFirstUI:
    ui = ui_for(game, names)
    assert isinstance(ui, WhyFirstUI)
    ui.width = 80
    return ui


def _base(players: int = 4, seed: int = 3) -> tuple[WhyFirstUI, WhyFirstView]:
    game = racedeck.make("why-first", players=players)
    names = BASE_NAMES[:players] if players > 2 else ["You", "Bot 2"]
    return _ui(game, names), Table(game, seed).view(0)


def _ask(ui: WhyFirstUI, view: WhyFirstView, *answers: str) -> tuple[Any, str]:
    """The action ``answers`` give at the seat's prompt, and everything said on the way (on
    one line each: the console is wide)."""
    console = _console(300)
    scripted = script(*answers)

    def ask(prompt: str) -> str:  # echoed, as a terminal shows it
        answer = scripted(prompt)
        console.print(prompt + answer, highlight=False)
        return answer

    action = ui.ask_action(view, Prompter(ask, console))
    return action, console.export_text()


def _tactical_views(seed: int = 3) -> tuple[WhyFirstUI, WhyFirstView, WhyFirstView]:
    """A commit view of seat 0 and, played on, its move view (WF-10) in a 3-player game."""
    game = racedeck.make("why-first", players=3, variant="tactical")
    table = Table(game, seed)
    commit = table.view(0)
    while True:
        if table.forced_step() is not None:
            continue
        seat = table.pending[0]
        view = table.view(seat)
        if seat == 0 and isinstance(view.legal_actions[0], MoveFigure):
            return _ui(game, ["You", "Bot 2", "Bot 3"]), commit, view
        table.submit(seat, view.legal_actions[0])


# -- the base game: card, then figure (WF-4) --------------------------------------------------


def test_the_base_hand_is_listed_by_value_with_list_numbers() -> None:
    ui, view = _base()
    assert view.hand_values == (-1, 1, 2, 4, 5)
    _, said = _ask(ui, view, "1", "1")
    assert "Your cards:   1) -1   2) +1   3) +2   4) +4   5) +5" in said
    assert "-1 in front of whom?  1 You  2 Bot 2  3 Bot 3  4 Bot 4" in said


@pytest.mark.parametrize(
    ("answers", "action"),
    [
        (["4", "2"], PlaceCard(4, 1)),  # a bare number is the list number: the 4th card is +4
        (["5", "1"], PlaceCard(5, 0)),
        (["+2", "3"], PlaceCard(2, 2)),
        (["−1", "4"], PlaceCard(-1, 3)),  # a typographic minus
        (["–1", "4"], PlaceCard(-1, 3)),
        (["+5", "you"], PlaceCard(5, 0)),
        (["+5", "YOU"], PlaceCard(5, 0)),
        (["+5", "bot 3"], PlaceCard(5, 2)),
        (["+5", "Bot3"], PlaceCard(5, 2)),
        (["+5", "p2"], PlaceCard(5, 1)),
        (["+4 2"], PlaceCard(4, 1)),  # card and figure on one line, card first
        (["+4 bot 2"], PlaceCard(4, 1)),
        (["4 2"], PlaceCard(4, 1)),  # list number 4, figure 2
        (["1 you"], PlaceCard(-1, 0)),
        (["+4>2"], PlaceCard(4, 1)),  # the record's text form
        (["+4>P2"], PlaceCard(4, 1)),
        ([" +4   3 "], PlaceCard(4, 2)),
    ],
)
def test_base_card_and_figure_forms(answers: list[str], action: PlaceCard) -> None:
    ui, view = _base()
    assert _ask(ui, view, *answers)[0] == action


def test_a_card_not_held_is_refused_with_what_to_type() -> None:
    ui, view = _base()
    action, said = _ask(ui, view, "+3", "9", "bot", "+4 7", "+4 2")
    assert action == PlaceCard(4, 1)
    assert "You hold no +3. Your cards: -1  +1  +2  +4  +5." in said
    assert "There is no choice 9." in said
    assert "bot is not one of the choices." in said
    assert "7 is not a figure. Figures: 1–4 or a name (? for help)." in said


def test_a_white_number_in_the_base_game_is_explained_wf2() -> None:
    ui, view = _base()
    action, said = _ask(ui, view, "#32", "+5 1")
    assert action == PlaceCard(5, 0)
    assert "White numbers (#32) only count in the tactical variant (WF-10)" in said
    assert "a card is just its value (WF-2)" in said
    assert "#" not in ui.render_hand(view, numbered=True).plain  # never shown in the base game


def test_a_wrong_figure_is_asked_again() -> None:
    ui, view = _base()
    action, said = _ask(ui, view, "+5", "5", "leo", "L", "+2", "4")
    assert action == PlaceCard(5, 3)
    assert said.count("Figure (1–4 or a name; undo to change the card): ") == 5
    assert "There is no choice 5. Type 1–4 or a name (? for help)." in said
    assert "leo is not one of the choices." in said  # no Leo with four players


def test_the_card_prompt_gives_examples_from_the_hand() -> None:
    ui, view = _base()
    _, said = _ask(ui, view, "1 1")
    assert "Which card? (1–5 or a value like +5; +5 2 names the figure too): 1 1" in said
    _, commit, _ = _tactical_views()
    top = max(commit.hand, key=lambda c: (commit.card_values[c - 1], c))
    value = commit.card_values[top - 1]
    _, said = _ask(_tactical_views()[0], commit, "1")
    assert f"Commit which card? (1–5, a value like {value:+d}, or #{top}): 1" in said


def test_undo_at_the_figure_prompt_goes_back_to_the_card() -> None:
    ui, view = _base()
    action, said = _ask(ui, view, "+5", "undo", "+2", "2")
    assert action == PlaceCard(2, 1)
    assert said.count("Your cards:") == 2  # the list again, for the new choice
    assert said.count("Which card?") == 2


def test_undo_at_the_card_prompt_has_nothing_to_take_back() -> None:
    ui, view = _base()
    action, said = _ask(ui, view, "undo", "+5 1")
    assert action == PlaceCard(5, 0)
    assert "Nothing to undo here" in said


def test_help_at_each_base_prompt_lists_what_it_accepts() -> None:
    ui, view = _base()
    _, said = _ask(ui, view, "?", "+5", "help", "1")
    assert (
        "Play a card: its number in the list (1–5) or its value (+3, -2). Then say in front of "
        "whose figure, or name it on the same line, card first: +3 2, +3 leo, 2 you"
        in " ".join(said.split())
    )
    assert "A bare number is always a list number." in said
    flat = " ".join(said.split())
    assert "Choose whose figure your +5 goes in front of: its number on the board (1–4)" in flat
    assert "or its name (you, bot 2, bot 3, bot 4). undo goes back to the card" in flat
    assert said.count("rules") >= 2 and "quit" in said


def test_quit_at_the_figure_prompt_leaves() -> None:
    ui, view = _base()
    with pytest.raises(Quit):
        _ask(ui, view, "+5", "quit")


# -- two players with Leo (WF-9) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "target"),
    [
        (["-1", "L"], 2),
        (["-1", "l"], 2),
        (["-1", "leo"], 2),
        (["-1", "LEO"], 2),
        (["-1", "3"], 2),  # the list number: Leo is third
        (["-1", "p3"], 2),  # the record's form
        (["-1 leo"], 2),
        (["-1 L"], 2),
        (["-1", "bot 2"], 1),
        (["-1", "2"], 1),
        (["-1", "you"], 0),
    ],
)
def test_leo_is_named_by_his_board_label_his_name_or_his_number(
    answers: list[str], target: int
) -> None:
    ui, view = _base(players=2, seed=4)
    assert -1 in view.hand_values
    assert _ask(ui, view, *answers)[0] == PlaceCard(-1, target)


def test_with_leo_the_figure_list_shows_his_board_label() -> None:
    ui, view = _base(players=2, seed=4)
    _, said = _ask(ui, view, "-1", "?", "L")
    assert "-1 in front of whom?  1 You  2 Bot 2  L Leo" in said
    assert "Figure (1, 2, L or a name; undo to change the card): " in said
    assert "(you, bot 2, leo)" in said


def test_the_list_item_and_leo_on_one_line() -> None:
    ui, view = _base(players=2, seed=4)
    first = min(view.hand_values)
    assert _ask(ui, view, "1 L")[0] == PlaceCard(first, 2)


def test_a_chosen_name_is_a_figure_name_and_you_still_works() -> None:
    game = racedeck.make("why-first", players=3)
    ui = _ui(game, ["Anna Lee", "Bot 2", "Bot 3"])
    view = Table(game, 3).view(0)
    top = max(view.hand_values)
    assert _ask(ui, view, f"{top:+d} anna lee")[0] == PlaceCard(top, 0)
    assert _ask(ui, view, f"{top:+d}", "ANNA LEE")[0] == PlaceCard(top, 0)
    assert _ask(ui, view, f"{top:+d} you")[0] == PlaceCard(top, 0)


# -- the tactical variant (WF-10) --------------------------------------------------------------


def test_the_tactical_hand_shows_values_and_white_numbers() -> None:
    ui, commit, _ = _tactical_views()
    _, said = _ask(ui, commit, "1")
    cards = sorted(commit.hand, key=lambda c: (commit.card_values[c - 1], c))
    listed = "   ".join(
        f"{i}) {commit.card_values[card - 1]:+d} #{card}" for i, card in enumerate(cards, 1)
    )
    assert f"Your cards:   {listed}" in said


def test_tactical_commit_by_list_number_value_or_white_number() -> None:
    ui, commit, _ = _tactical_views()
    cards = sorted(commit.hand, key=lambda c: (commit.card_values[c - 1], c))
    top = cards[-1]
    value = commit.card_values[top - 1]
    assert commit.hand_values.count(value) == 1  # so that its value names one card
    assert _ask(ui, commit, str(len(cards)))[0] == CommitCard(top)
    assert _ask(ui, commit, f"#{top}")[0] == CommitCard(top)
    assert _ask(ui, commit, f"# {top}")[0] == CommitCard(top)
    assert _ask(ui, commit, f"{value:+d}")[0] == CommitCard(top)
    missing = next(c for c in range(1, 33) if c not in commit.hand)
    _, said = _ask(ui, commit, f"#{missing}", "+9", "1")
    assert f"You hold no #{missing}. Your cards: " in said and "You hold no +9." in said


def test_a_tactical_value_held_twice_asks_which() -> None:
    game = racedeck.make("why-first", players=3, variant="tactical")
    for seed in range(50):
        view = Table(game, seed).view(0)
        twice = [v for v in set(view.hand_values) if view.hand_values.count(v) > 1]
        if twice:
            break
    ui = _ui(game, ["You", "Bot 2", "Bot 3"])
    value = twice[0]
    cards = sorted(c for c in view.hand if view.card_values[c - 1] == value)
    action, said = _ask(ui, view, f"{value:+d}", f"#{cards[1]}")
    assert action == CommitCard(cards[1])
    assert f"{value:+d} could be {value:+d} #{cards[0]} or {value:+d} #{cards[1]}." in said
    assert "Say which by its list number or white number (? for help)." in said


def test_a_tactical_figure_on_the_commit_line_is_explained() -> None:
    ui, commit, _ = _tactical_views()
    action, said = _ask(ui, commit, "1 2", "1")
    assert isinstance(action, CommitCard)
    assert "In the tactical variant the figure is chosen after the reveal" in said


def test_tactical_commit_help_mentions_white_numbers_and_list_numbers() -> None:
    ui, commit, _ = _tactical_views()
    _, said = _ask(ui, commit, "?", "1")
    flat = " ".join(said.split())
    assert "its value (+3, -2) or its white number (#32)" in flat
    assert "A bare number is always a list number." in flat


@pytest.mark.parametrize(
    ("answer", "figure"),
    [("1", 0), ("2", 1), ("3", 2), ("you", 0), ("bot 2", 1), ("BOT 3", 2), ("P3", 2)],
)
def test_tactical_move_by_board_number_or_name(answer: str, figure: int) -> None:
    ui, _, move = _tactical_views()
    assert _ask(ui, move, answer)[0] == MoveFigure(figure)


def test_tactical_move_prompt_lists_figures_and_cannot_undo_the_commit() -> None:
    ui, _, move = _tactical_views()
    card = move.move_queue[0][0]
    value = move.card_values[card - 1]
    action, said = _ask(ui, move, "?", "undo", "leo", "2")
    assert action == MoveFigure(1)
    assert f"Your {value:+d} #{card} moves whom?  1 You  2 Bot 2  3 Bot 3" in said
    flat = " ".join(said.split())
    assert f"Choose the figure your {value:+d} #{card} moves" in flat
    assert "Any figure, yours or another's (WF-10)." in flat
    assert "Nothing to undo here" in said
    assert "leo is not one of the choices." in said


def test_tactical_move_with_leo() -> None:
    game = racedeck.make("why-first", players=2, variant="tactical")
    table = Table(game, 5)
    while True:
        if table.forced_step() is not None:
            continue
        seat = table.pending[0]
        view = table.view(seat)
        if seat == 0 and isinstance(view.legal_actions[0], MoveFigure):
            break
        table.submit(seat, view.legal_actions[0])
    ui = _ui(game, ["You", "Bot 2"])
    for answer in ("L", "leo", "3"):
        assert _ask(ui, view, answer)[0] == MoveFigure(2)


# -- whole games through the command -----------------------------------------------------------

# Each answer is tried in turn; the ones that name nothing legal now are refused and asked again,
# so every form is typed at every kind of prompt over a game.
BASE_FORMS = ["?", "+9", "#3", "1", "undo", "+1 you", "2 2", "−1 bot 3", "3", "L", "leo", "1"]
LEO_FORMS = ["+5 L", "1 leo", "2", "l", "-2 3", "+1 you", "#5", "+3", "bot 2", "1 1"]
TACTICAL_FORMS = ["#32", "+5", "1 2", "2", "leo", "bot 2", "#1", "-1", "L", "1", "you", "1"]


def _cli_game(tmp_path: Path, args: list[str], forms: list[str]) -> str:
    record = tmp_path / "game.json"
    answers = "\n".join(forms * 400) + "\n"
    result = runner.invoke(
        app, ["play", "why-first", *args, "--seed", "7", "--record", str(record)], input=answers
    )
    assert result.exit_code == 0, result.output
    saved = load_record(record)
    assert len(list(racedeck.replay(saved))) == len(saved.actions) > 0
    assert "Game over" in result.output and "Second-highest total wins (WF-7):" in result.output
    # The narration speaks to "You" in the second person.
    assert not re.search(r"\bYou (moves|scores|has|is|plays)\b|\bYou's\b", result.output)
    return result.output


def test_a_whole_base_game_typed_in_every_form(tmp_path: Path) -> None:
    out = _cli_game(tmp_path, ["--players", "4"], BASE_FORMS)
    assert "You hold no +9." in out
    assert "White numbers (#32) only count in the tactical variant" in out
    assert "Press Enter for round 5, played automatically" in out
    assert "Stage 1 ended like this:" in out and "Traceback" not in out
    assert "hand for stage" not in out  # the card list under the board shows it


def test_a_whole_game_with_leo_typed_in_every_form(tmp_path: Path) -> None:
    out = _cli_game(tmp_path, ["--players", "2"], LEO_FORMS)
    assert "in front of Leo" in out and "L Leo on" in out


def test_a_whole_tactical_game_typed_in_every_form(tmp_path: Path) -> None:
    out = _cli_game(tmp_path, ["--players", "3", "--variant", "tactical"], TACTICAL_FORMS)
    assert "In the tactical variant the figure is chosen after the reveal" in out
    assert "moves whom?" in out and "Commit which card?" in out
    assert "You move yourself:" in out and "You move Bot " in out


# -- the screens ---------------------------------------------------------------------------------


def test_the_track_fits_80_columns_and_the_legend_says_where_each_figure_is() -> None:
    ui, view = _base(players=4)
    console = _console()
    console.print(ui.render(view))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[1].startswith("-12 -10  -8") and lines[1].endswith("14  16")
    assert "1 You on 0   2 Bot 2 on 0   3 Bot 3 on 0   4 Bot 4 on 0" in lines
    assert not any("=" in line for line in lines)  # not "1=You (+0)", which reads like a score


def test_the_track_uses_four_columns_a_space_when_there_is_room() -> None:
    ui, view = _base(players=4)
    ui.width = 160
    console = _console(160)
    console.print(ui.render_track(view, 160))
    ruler = console.export_text().splitlines()[0]
    assert ruler.split() == [str(s) for s in range(-12, 17)]


@pytest.mark.parametrize(
    ("low", "high", "width"), [(-12, 16, 60), (-5, 5, 80), (-30, 40, 80), (-64, 64, 100)]
)
def test_any_track_fits_its_width_and_shows_every_figure(low: int, high: int, width: int) -> None:
    """WF-1's track is a config option: every length is drawn within the terminal's width."""
    game = racedeck.make("why-first", players=5, track_min=low, track_max=high)
    ui = _ui(game, ["You", "Bot 2", "Bot 3", "Bot 4", "Bot 5"])
    table = Table(game, 3)
    while table.view(0).round < 3:  # figures spread out a little
        if table.forced_step() is None:
            seat = table.pending[0]
            table.submit(seat, table.view(seat).legal_actions[0])
    view = table.view(0)
    console = _console(width)
    console.print(ui.render_track(view, width, legend=False))
    drawn = console.export_text()
    assert max(len(line) for line in drawn.splitlines()) <= width
    lines = drawn.splitlines()
    rulers = {i - 1 for i, line in enumerate(lines) if "·" in line}  # each part's numbers
    marks = [c for i, line in enumerate(lines) if i not in rulers for c in line if c not in " ·"]
    assert sorted(marks) == list("12345")  # every figure once
    assert {str(low), str(high)} <= {n for i in rulers for n in lines[i].split()}


def test_the_move_prompt_redraws_only_what_changed() -> None:
    ui, commit, move = _tactical_views()
    console = _console()
    console.print(ui.render(commit))
    ui.ask_action(commit, Prompter(script("1"), console))
    start = len(console.export_text(clear=False).splitlines())
    console.print(ui.render(move))
    again = console.export_text().splitlines()[start:]
    assert not any(line.startswith("Stage ") for line in again)  # same stage and round
    assert not any("Your hand" in line or "Your cards" in line for line in again)
    moved = move.positions != commit.positions
    assert any(line.startswith("-12 -10") for line in again) == moved
    assert any(line.startswith("To move (highest # first):") for line in again)


def test_a_replay_that_never_asks_draws_everything() -> None:
    _, _, move = _tactical_views()
    ui = _ui(racedeck.make("why-first", players=3, variant="tactical"), ["You", "B", "C"])
    console = _console()
    console.print(ui.render(move))
    said = console.export_text()
    assert said.startswith("Stage 1/5 · round") and "Your hand:" in said


def _screens(record: Path, players: int, answer: str, **options: Any) -> list[list[str]]:
    """A whole game at 80 columns, cut into screens: the lines printed from one prompt to the
    next, that prompt included (the prompt is echoed with its answer, as a terminal shows)."""
    game = racedeck.make("why-first", players=players, **options)
    console = _console(80)

    def ask(prompt: str) -> str:
        reply = "" if prompt.startswith("Press Enter") else answer
        console.print(prompt + reply, highlight=False)
        return reply

    bots = ["human"] + ["heuristic"] * (players - 1)
    assert play_in_terminal(game, 3, 0, bots, record, console, ask) == 0
    screens: list[list[str]] = [[]]
    for line in console.export_text().splitlines():
        screens[-1].append(line)
        if line.startswith(("Which card?", "Commit which card?", "Figure (", "Press Enter")):
            screens.append([])
    return screens


@pytest.mark.parametrize(
    ("players", "answer", "options"),
    [
        (4, "1 1", {}),
        (6, "1 1", {}),
        (2, "1 L", {}),
        (3, "1", {"variant": "tactical"}),
        (6, "1", {"variant": "tactical"}),
    ],
)
def test_every_screen_fits_80_by_24(
    players: int, answer: str, options: dict[str, str], tmp_path: Path
) -> None:
    """Between two prompts (the events, the board or the stage's sheet, and the prompt) at
    most 23 lines are printed, so on 80×24 nothing the person must read scrolls away."""
    screens = _screens(tmp_path / "game.json", players, answer, **options)
    assert len(screens) > 20
    assert max(len(s) for s in screens[1:]) <= 23, max(screens[1:], key=len)
    assert max(len(line) for s in screens for line in s) <= 80
