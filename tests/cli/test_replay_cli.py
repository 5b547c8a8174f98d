"""``racedeck replay`` driven as a person would: keys typed at the stepper, screens that fit
80×24 and 160×50, the printed form for pipes, and the view of one seat or of a spectator."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from budget import scaled
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.cli.app import app
from racedeck.cli.records import load_record
from racedeck.cli.replay import KEYS, parse_key
from racedeck.cli.terminal_ui import ui_for
from racedeck.core import Table
from racedeck.core.table import run

runner = CliRunner()

GAMES: dict[str, dict[str, Any]] = {
    "why-first": {"players": 3, "stages": 2},
    "six-day-race": {"players": 3, "races": 2},
    "setback": {"players": 3},
}
NAMES = ["You", "Bot 2", "Bot 3"]
SAMPLES = scaled(16, least=8)
"""Steps of a game the screen tests draw, spread evenly from the deal to the end (which is
always drawn too): every kind of screen a game shows recurs over its steps, and each one
drawn costs a tenth of a second or so."""
PROMPT = re.compile(r"(?:Enter next · .*? · q quit|Enter goes back to step \d+, or type a key): ")


def _record(tmp_path: Path, game_id: str, seed: int = 7, actions: int | None = None) -> Path:
    """A record of bots playing ``game_id``, saved as ``racedeck play`` saves one (the
    person at seat 1); cut after ``actions`` actions when given."""
    game = racedeck.make(game_id, **GAMES[game_id])
    table = Table(game, seed, meta={"names": NAMES, "human_seat": 0})
    run(table, [make_bot("random", game, seat, seed + seat) for seat in range(3)])
    obj = table.record.to_json()
    if actions is not None:
        obj["actions"] = obj["actions"][:actions]
    path = tmp_path / f"{game_id}.json"
    path.write_text(json.dumps(obj))
    return path


def _last(path: Path) -> int:
    return len(json.loads(path.read_text())["actions"])


def _step(path: Path, keys: list[str], *args: str, size: tuple[int, int] = (80, 24)) -> Any:
    """Run the stepper on ``path`` with ``keys`` typed, one line each, on a screen of ``size``."""
    env = {"COLUMNS": str(size[0]), "LINES": str(size[1])}
    return runner.invoke(
        app, ["replay", str(path), "--step", *args], input="".join(k + "\n" for k in keys), env=env
    )


def _screens(output: str) -> list[str]:
    """The screens drawn, one per prompt (the screen is not cleared off a terminal)."""
    return PROMPT.split(output)[:-1]


def _step_numbers(screens: list[str]) -> list[int]:
    numbers = []
    for screen in screens:
        found = re.search(r"Step (\d+)/\d+", screen)
        numbers.append(int(found.group(1)) if found else -1)
    return numbers


# -- keys -----------------------------------------------------------------------------------------


def test_the_keys_mean_what_the_help_says() -> None:
    assert parse_key("", 3, 10).target == 4 and parse_key("n", 3, 10).target == 4
    assert parse_key("b", 3, 10).target == 2 and parse_key("P", 3, 10).target == 2
    assert parse_key("7", 3, 10).target == 7 and parse_key(" 0 ", 3, 10).target == 0
    assert parse_key("s", 3, 10).target == 0 and parse_key("e", 3, 10).target == 10
    assert [parse_key(k, 3, 10).kind for k in ("q", "?", "t", "a")] == [
        "quit",
        "help",
        "sheet",
        "all",
    ]
    assert parse_key("11", 3, 10).message == "There is no step 11: steps go 0 to 10."
    assert parse_key("n", 10, 10).message == "That is the last step: b goes back, q quits."
    assert parse_key("b", 0, 10).kind == "bad"
    assert parse_key("jump", 3, 10).message == "jump is not a key here; ? lists them."
    assert {key for key, _ in KEYS} >= {"Enter or n", "b or p", "s / e", "q", "?"}


# -- stepping ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
def test_forward_back_jump_end_and_quit(tmp_path: Path, game_id: str) -> None:
    path = _record(tmp_path, game_id)
    last = _last(path)
    result = _step(path, ["", "n", "b", "p", "12", "e", "s", "q", "n", "n"])
    assert result.exit_code == 0, result.output
    screens = _screens(result.output)
    # q stops at once: the two keys after it are never read
    assert _step_numbers(screens) == [0, 1, 2, 1, 0, 12, last, 0]
    assert f"Step 0/{last} The deal." in screens[0]
    assert re.search(rf"Step 1/{last} (You|Bot \d)(: \S| decides in secret)", screens[1])
    assert "Traceback" not in result.output


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_last_step_shows_the_result(tmp_path: Path, game_id: str) -> None:
    path = _record(tmp_path, game_id)
    result = _step(path, ["e", "n", "q"], size=(160, 50))
    screens = _screens(result.output)
    words = {
        "why-first": "Second-highest total wins",
        "six-day-race": "Series over",
        "setback": "FINISH and win",
    }
    assert words[game_id] in screens[1]
    assert "That is the last step: b goes back, q quits." in screens[2]
    assert _step_numbers(screens) == [0, _last(path), _last(path)]


def test_help_lists_every_key_and_enter_goes_back(tmp_path: Path) -> None:
    path = _record(tmp_path, "why-first")
    result = _step(path, ["3", "?", "", "q"])
    screens = _screens(result.output)
    assert "Replay keys" in screens[2]
    for key, does in KEYS:
        assert key in screens[2] and does in screens[2]
    assert _step_numbers(screens) == [0, 3, -1, 3]


def test_a_wrong_key_or_step_says_what_is_allowed(tmp_path: Path) -> None:
    path = _record(tmp_path, "why-first")
    last = _last(path)
    result = _step(path, ["jump", str(last + 1), "b", "q"])
    screens = _screens(result.output)
    assert "jump is not a key here; ? lists them." in screens[1]
    assert f"There is no step {last + 1}: steps go 0 to {last}." in screens[2]
    assert "That is the deal, the first step: Enter goes on." in screens[3]
    assert _step_numbers(screens) == [0, 0, 0, 0]


def test_the_end_of_input_ends_the_stepper_cleanly(tmp_path: Path) -> None:
    path = _record(tmp_path, "setback")
    result = _step(path, ["n"])
    assert result.exit_code == 0, result.output
    assert _step_numbers(_screens(result.output)) == [0, 1]


def test_ctrl_c_stops_the_stepper_with_code_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from racedeck.cli.console import console

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(console, "input", interrupted)
    result = _step(_record(tmp_path, "why-first"), [])
    assert result.exit_code == 130
    assert "Step 0/" in result.output and "Traceback" not in result.output


# -- fitting the screen -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_screen_fits(tmp_path: Path, game_id: str, size: tuple[int, int]) -> None:
    path = _record(tmp_path, game_id)
    last = _last(path)
    stops = sorted({*range(0, last + 1, max(1, last // SAMPLES)), last})
    result = _step(path, [*map(str, stops), "q"], size=size)
    assert result.exit_code == 0, result.output
    screens = _screens(result.output)
    assert _step_numbers(screens) == [0, *stops]
    for screen in screens:
        lines = screen.strip("\n").split("\n")
        assert len(lines) <= size[1] - 1, screen  # the prompt takes the last line
        assert max(Text(line).cell_len for line in lines) <= size[0], screen


def test_a_tall_board_is_cut_with_a_note_and_a_shows_it_whole(tmp_path: Path) -> None:
    # Six Day Race draws its strip, riders, sprints and hands: more than 80×14 holds.
    path = _record(tmp_path, "six-day-race")
    result = _step(path, ["5", "a", "q"], size=(80, 14))
    screens = _screens(result.output)
    assert "more lines: a shows all" in screens[1]
    assert len(screens[1].strip("\n").split("\n")) <= 13
    assert len(screens[2].strip("\n").split("\n")) > 13


def test_t_swaps_the_board_and_the_score_sheet(tmp_path: Path) -> None:
    path = _record(tmp_path, "six-day-race")
    last = _last(path)
    result = _step(path, [str(last - 3), "t", "t", "q"])
    screens = _screens(result.output)
    board, sheet, back = screens[1], screens[2], screens[3]
    assert "Series after 1 of 2 races" not in board and "t shows the score sheet" in board
    assert "Series after 1 of 2 races" in sheet and "t shows the board" in sheet
    assert "Sprint 1 at" not in sheet
    assert back == board


def test_t_where_there_is_no_sheet_says_so(tmp_path: Path) -> None:
    path = _record(tmp_path, "setback")
    result = _step(path, ["t", "q"])
    screens = _screens(result.output)
    assert "No score sheet at this step: the board shows where everyone stands." in screens[1]
    assert "t sheet" not in result.output


def test_why_first_shows_its_score_sheet_under_the_track(tmp_path: Path) -> None:
    path = _record(tmp_path, "why-first")
    scored = next(
        step.index + 1
        for step in racedeck.replay(load_record(path))
        if any(e.kind == "stage_scored" for e in step.events)
    )
    result = _step(path, ["1", str(scored), "q"], size=(160, 50))
    screens = _screens(result.output)
    assert "Score sheet" in screens[1] and "S2" in screens[1]
    assert "Stage 1 ended like this" not in screens[1]
    # WF-6: where the figures stood when the stage was scored, though the next stage has begun
    assert "Stage 1 ended like this" in screens[2] and "Stage 2/2 · round 1" in screens[2]


# -- whose view -----------------------------------------------------------------------------------


def test_the_person_who_played_is_the_default_view(tmp_path: Path) -> None:
    # WF-4: a card is committed face down; only its owner knows which until the reveal.
    path = _record(tmp_path, "why-first")
    out = runner.invoke(app, ["replay", str(path)]).output
    assert "your view" in out
    assert "Your card, face down" in out and "Bot 2's card, face down" not in out
    assert "Bot 2 decides in secret." in out


def test_another_seat_and_a_spectator(tmp_path: Path) -> None:
    path = _record(tmp_path, "why-first")
    seat = runner.invoke(app, ["replay", str(path), "--seat", "2"]).output
    assert "Bot 2's view" in seat
    assert "Bot 2's card, face down" in seat and "Your card, face down" not in seat
    assert "#1 You decide in secret." in seat and "#2 Bot 2: " in seat  # WF-4: secret commits
    watcher = runner.invoke(app, ["replay", str(path), "--spectator"]).output
    assert "spectator's view" in watcher and "face down:" not in watcher
    assert "hand for stage" not in watcher
    steps = _step(path, ["1", "q"], "--spectator", size=(160, 50)).output
    assert "Your hand" not in steps and "You decide in secret." in steps


def test_setback_answers_in_a_block_window_stay_silent(tmp_path: Path) -> None:
    # SB-9 amended again: nobody learns who answered a window or how, BLOCK or pass; a seat
    # sees its own answers, and every BLOCK played is seen by everyone.
    path = _record(tmp_path, "setback")
    watcher = runner.invoke(app, ["replay", str(path), "--spectator"]).output
    assert "let it stand" not in watcher and "BLOCK it" not in watcher
    assert "Bot 2 decides in secret." in watcher
    mine = runner.invoke(app, ["replay", str(path)]).output
    assert "You: let it stand" in mine and "Bot 2: let it stand" not in mine
    assert "Bot 2: BLOCK it" not in mine and "Bot 3: BLOCK it" not in mine
    played = len(re.findall(r" plays? BLOCK!", mine))
    assert played == len(re.findall(r" plays? BLOCK!", watcher)) > 0


def test_a_record_without_a_person_is_shown_to_a_spectator(tmp_path: Path) -> None:
    path = _record(tmp_path, "setback")
    obj = json.loads(path.read_text())
    del obj["meta"]["human_seat"]
    path.write_text(json.dumps(obj))
    out = _step(path, ["q"]).output
    assert "spectator's view" in out and "Your hand" not in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seat", "4"], "--seat must be between 1 and 3, got 4"),
        (["--seat", "0"], "--seat must be between 1 and 3, got 0"),
        (
            ["--seat", "1", "--spectator"],
            "--seat and --spectator each choose the view: give one of them",
        ),
    ],
)
def test_a_bad_view_is_one_clear_line(tmp_path: Path, args: list[str], words: str) -> None:
    path = _record(tmp_path, "why-first")
    result = runner.invoke(app, ["replay", str(path), *args])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: {words}"]


# -- printed, for pipes ------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("args", [[], ["--print"]])
def test_into_a_pipe_every_step_is_printed_without_waiting(
    tmp_path: Path, game_id: str, args: list[str]
) -> None:
    path = _record(tmp_path, game_id)
    last = _last(path)
    result = runner.invoke(app, ["replay", str(path), *args], input="")
    assert result.exit_code == 0, result.output
    assert f"{last} actions" in result.output
    assert f"\n#{last} " in result.output and f"\n#{last + 1} " not in result.output
    assert "quit:" not in result.output  # never asked for a key


def test_a_record_that_stops_early_says_so(tmp_path: Path) -> None:
    path = _record(tmp_path, "six-day-race", actions=20)
    printed = runner.invoke(app, ["replay", str(path)]).output
    assert "The record ends before the game does." in printed
    stepped = _screens(_step(path, ["e", "q"]).output)
    assert "Step 20/20" in stepped[1]


def test_a_broken_record_is_one_clear_line_when_stepping_too(tmp_path: Path) -> None:
    path = _record(tmp_path, "why-first")
    obj = json.loads(path.read_text())
    obj["actions"][2]["action"] = {"type": "teleport"}
    path.write_text(json.dumps(obj))
    result = _step(path, ["n", "q"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "record action 2 does not replay" in lines[0] and "Step" not in result.output


# -- every game's board, as a spectator sees it ---------------------------------------------------


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_every_game_draws_the_spectator_view(game_id: str) -> None:
    game = racedeck.make(game_id)
    table = Table(game, 3)
    run(table, [make_bot("random", game, seat, seat) for seat in range(game.num_players)])
    ui = ui_for(game, game.seat_names())
    states = [game.start(3).state, *(step.state for step in racedeck.replay(table.record))]
    for width in (80, 160):
        ui.width = width
        console = Console(file=io.StringIO(), width=width, record=True)
        for state in states[:: max(1, len(states) // SAMPLES)] + states[-1:]:
            view = game.observe(state, None)
            console.print(ui.render(view))
            sheet = ui.render_sheet(view)
            if sheet is not None:
                console.print(sheet)
        outcome = game.outcome(states[-1])
        assert outcome is not None
        console.print(ui.render_outcome(game.observe(states[-1], None), outcome))
        assert "Your hand" not in console.export_text()
