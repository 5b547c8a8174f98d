"""Six Day Race in the terminal, driven as a person would drive it."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.records import load_record
from racedeck.cli.six_day_race_ui import SixDayRaceUI, format_points
from racedeck.cli.terminal_ui import ui_for
from racedeck.core.events import Event

runner = CliRunner()
PLAY = ["play", "six-day-race"]


def _answers(count: int = 4000) -> str:
    """Inputs that cycle 1..7: values not in the moving rider's hand are refused and re-asked."""
    return "\n".join(str(1 + i % 7) for i in range(count)) + "\n"


def _text(renderable: object, width: int = 120) -> str:
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_play_one_race_with_five_players_and_replay_it(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    result = runner.invoke(
        app,
        [*PLAY, "--players", "5", "--races", "1", "--seed", "3", "--record", str(record)],
        input=_answers(),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Race 1 of 1" in out
    assert "FIN┃" in out and " S1" in out and " FW" in out and " ST" in out  # the strip
    assert "You: 1 1 1 1  2 2 2 2  3 3 3  4 4 4  5 5  7  (17 green)" in out  # the hand
    assert "Your rider 1 You moves from 0." in out
    assert " ×2 → " in out  # a slipstream preview
    assert "You hold no 6." in out  # 6 is not a green card: refused and asked again
    assert "Play which card?" in out
    assert "sprint 1" in out and "finish" in out and "laps lost" in out  # the score sheet
    assert "Series over" in out and "Game over" in out
    saved = load_record(record)
    assert saved.seed == 3
    game = saved.make_game()
    states = [step.state for step in racedeck.replay(saved)]
    assert game.outcome(states[-1]) is not None

    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "Race 1 of 1 starts" in shown.output
    assert "Series over" in shown.output
    assert "card_committed" not in shown.output


def test_play_two_riders_each_over_two_races(tmp_path: Path) -> None:
    record = tmp_path / "two.json"
    result = runner.invoke(
        app,
        [*PLAY, "-p", "3", "--riders", "2", "--races", "2", "--seed", "4", "--record", str(record)],
        input=_answers(),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "6 riders" in out
    assert "1a You-1:" in out and "1b You-2:" in out  # both own hands
    assert "Race 2 of 2 starts" in out
    assert "Series after 1 of 2 races" in out  # the sheet between the races …
    assert out.index("Series after 1 of 2 races") < out.index("Race 2 of 2 starts")  # … in order
    assert "Series after 2 of 2 races" in out and "Series over" in out
    assert len(load_record(record).actions) > 20


def test_simulate_six_day_race_as_json() -> None:
    args = ["simulate", "six-day-race", "--players", "4", "--games", "40", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 40
    assert len(data["contestants"]) == 4
    short = runner.invoke(app, [*args, "--riders", "1", "--races", "2"])
    assert short.exit_code == 0, short.output
    assert json.loads(short.stdout)["config"]["races"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "six-day-race", "--riders", "2", "--players", "6"],
            "two riders per player are for 4 players or fewer (SD-12)",
        ),
        (
            ["simulate", "six-day-race", "--riders", "2", "--players", "6"],
            "two riders per player are for 4 players or fewer (SD-12)",
        ),
        (["play", "six-day-race", "--races", "0"], "option races=0 is not allowed: below 1"),
        (["play", "why-first", "--riders", "2"], "unknown option"),
        (["simulate", "why-first", "--races", "3"], "unknown option"),
    ],
)
def test_bad_options_get_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())  # the console wraps long lines


def test_points_are_written_as_people_write_them() -> None:
    assert format_points("20/3") == "6⅔"
    assert format_points(Fraction(7, 2)) == "3½"
    assert format_points("1/3") == "⅓"
    assert format_points("16/7") == "2 2/7"
    assert format_points(6) == "6"


@pytest.mark.parametrize("width", [120, 100, 80, 60])
def test_the_strip_fits_the_terminal(width: int) -> None:
    game = racedeck.make("six-day-race", players=4)
    state = game.new_initial_state(1)
    for _ in range(30):
        seat = state.pending[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[-1])
    ui = ui_for(game, ["You", "Bot 2", "Bot 3", "Bot 4"])
    assert isinstance(ui, SixDayRaceUI)
    strip = _text(ui.render_strip(game.observe(state, 0), width), width)
    lines = strip.splitlines()
    assert all(len(line.rstrip()) <= width for line in lines)
    assert any("FIN┃" in line for line in lines)
    assert "1a" in strip and "4b" in strip


def test_preview_names_slipstream_and_special_spaces() -> None:
    game = racedeck.make("six-day-race", players=3, riders=1, random_first=False)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    assert isinstance(ui, SixDayRaceUI)
    base = game.observe(game.new_initial_state(0), 0)
    view = replace(base, positions=(14, 17, 17), current=0)
    assert ui.preview(view, 0, 3).plain.startswith("3 → 17 ×3 → 23")
    view = replace(base, positions=(25, 28, 0), current=0)
    assert "crosses sprint 1 1st: +5" in ui.preview(view, 0, 3).plain
    assert "FAHRERWECHSEL" in ui.preview(view, 0, 5).plain  # 30: no slipstream there
    view = replace(base, positions=(46, 50, 0), current=0)
    plain = ui.preview(view, 0, 4).plain
    assert plain.startswith("4 → 50  (1 there, no slipstream)") and "STURZ" in plain
    view = replace(base, positions=(78, 0, 0), current=0)
    assert "crosses the line and wins the race!" in ui.preview(view, 0, 4).plain


def test_only_the_first_pass_of_a_rider_in_a_race_is_shown() -> None:
    game = racedeck.make("six-day-race", players=3)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    passed = [Event("passed", {"rider": 1}), Event("passed", {"rider": 2})]
    assert len(ui.visible_events(passed)) == 2
    assert ui.visible_events(passed) == []
    again = ui.visible_events([Event("race_started", {"race": 2, "order": []}), *passed])
    assert [e.kind for e in again] == ["race_started", "passed", "passed"]
    assert ui.visible_events([Event("card_committed", {})]) == []
