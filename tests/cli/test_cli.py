"""The racedeck command, driven as a person would drive it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import scaled
from rich.console import Console
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.play import play_in_terminal
from racedeck.cli.records import load_record

runner = CliRunner()

VALUES = ["+1", "-1", "+2", "-2", "+3", "-3", "+4", "-4", "+5"]


def _answers(count: int = 3000) -> str:
    """Inputs that cycle through every card value and target: wrong ones are re-asked."""
    return "\n".join(f"{VALUES[i % 9]} {1 + i % 3}" for i in range(count)) + "\n"


def test_games_lists_why_first_and_its_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for word in ("why-first", "variant", "track_min", "stages", "heuristic"):
        assert word in result.output


def test_play_a_whole_game_and_replay_it(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "why-first", "--players", "3", "--seed", "5", "--record", str(record)],
        input=_answers(),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your cards:" in out
    assert "You hold no" in out  # an impossible card is refused and asked again
    assert "revealed" in out and "Stage 5 scored" in out and "Game over" in out
    saved = load_record(record)
    assert saved.seed == 5 and len(saved.actions) == 3 * 4 * 5
    game = saved.make_game()
    states = [step.state for step in racedeck.replay(saved)]
    assert game.outcome(states[-1]) is not None

    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "Second-highest total wins" in shown.output


def test_play_tactical_and_two_players(tmp_path: Path) -> None:
    answers = "\n".join(["1"] * 400) + "\n"
    for args in (["--variant", "tactical", "--players", "3"], ["--players", "2"]):
        record = tmp_path / f"{args[-1]}.json"
        result = runner.invoke(
            app,
            ["play", "why-first", *args, "--seed", "2", "--record", str(record)],
            input=answers if "tactical" in args else _answers(),
        )
        assert result.exit_code == 0, result.output
        assert "Game over" in result.output


def test_ctrl_c_ends_cleanly_and_keeps_the_record(tmp_path: Path) -> None:
    calls = {"n": 0}

    def ask(prompt: str) -> str:
        calls["n"] += 1
        if calls["n"] > 6:
            raise KeyboardInterrupt
        return "1" if "Figure" in prompt else "+1 1" if calls["n"] % 2 else "-1 1"

    game = racedeck.make("why-first", players=3, variant="tactical")
    path = tmp_path / "stopped.json"
    console = Console(record=True, width=120)
    code = play_in_terminal(game, 3, 0, ["human", "random", "random"], path, console, ask)
    assert code == 130
    assert "Record saved" in console.export_text()
    saved = load_record(path)
    list(racedeck.replay(saved))  # what was accepted replays


def test_end_of_input_stops_the_game(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    result = runner.invoke(
        app, ["play", "why-first", "--seed", "1", "--record", str(record)], input="+1 1\n"
    )
    assert result.exit_code == 1
    assert "Input ended" in result.output
    assert record.exists()


def test_the_other_seats_are_given_levels_and_the_game_says_whose_is_which(
    tmp_path: Path,
) -> None:
    record = tmp_path / "levels.json"
    args = ["play", "why-first", "--players", "4", "--seed", "1", "--record", str(record)]
    result = runner.invoke(app, [*args, "--bots", "beginner,Casual,random"], input="+1 1\n")
    assert result.exit_code == 1  # the input ends after one move: the bots were made
    assert "Bot 2: Beginner · Bot 3: Casual · Bot 4: random" in result.output
    default = runner.invoke(app, ["play", "why-first", "--seed", "1", "--record", str(record)])
    assert "Bot 2, Bot 3, Bot 4: Casual" in default.output  # the level a newcomer meets first
    wrong = runner.invoke(app, [*args, "--bots", "master"])
    assert wrong.exit_code != 0
    assert "levels: beginner, casual, strong, expert" in wrong.output


def test_simulate_json_and_table() -> None:
    # A few dozen games show both forms (and give two workers several chunks each) as well
    # as more would: the forms count whatever games were played.
    games = scaled(24)
    args = ["simulate", "why-first", "--players", "4", "--games", str(games), "--seed", "1"]
    args += ["--bots", "heuristic,random,random,random"]
    as_json = runner.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert [c["bot"] for c in data["contestants"]] == ["heuristic", "random", "random", "random"]
    assert data["games"] == games
    table = runner.invoke(app, [*args, "--workers", "2"])
    assert table.exit_code == 0
    assert "win share" in table.output and "95% CI" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "why-first", "--players", "9"], "2 to 6 players"),
        (["simulate", "why-first", "--bots", "a,b"], "bot names"),
        (["simulate", "nope"], "unknown game"),
        (["play", "why-first", "-o", "stages"], "key=value"),
        (["play", "why-first", "-o", "colour=red"], "unknown option"),
        (["play", "why-first", "--bots", "oracle"], "no bot 'oracle'"),
    ],
)
def test_bad_input_gets_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_replay_refuses_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "does not hold a game record" in result.output


def test_narration_speaks_to_you_in_the_second_person() -> None:
    from racedeck.cli.terminal_ui import second_person

    assert second_person("Stage 1 scored: second farthest space is 3; You scores +3.") == (
        "Stage 1 scored: second farthest space is 3; You score +3."
    )
    assert second_person("You has no cards and passes.") == "You have no cards and pass."
    assert second_person("You-1 plays 3 → lands on 17") == "You-1 plays 3 → lands on 17"  # a rider
    assert second_person("Bot 2 plays 2") == "Bot 2 plays 2"
