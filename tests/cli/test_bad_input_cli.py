"""Bad options and broken records on the command line: one line that says what is wrong,
exit code 2, no traceback — for every command that takes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.core import Table

runner = CliRunner()


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    """Every command that takes game options, ready for ``-o`` and the game id."""
    return {
        "play": ["play", "--seed", "1", "--record", str(tmp_path / "r.json")],
        "simulate": ["simulate", "--games", "2"],
        "tournament": [
            *("tournament", "--bots", "random,heuristic", "--games", "2"),
            *("--db", str(tmp_path / "t.sqlite")),
        ],
        "report": ["report", "--games", "2", "--out", str(tmp_path / "report")],
    }


def _one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("command", ["play", "simulate", "tournament", "report"])
@pytest.mark.parametrize(
    ("game_id", "option", "words"),
    [
        ("why-first", "stages=abc", ["stages='abc'", "expected an integer"]),
        ("why-first", "stages=2.5", ["stages=2.5", "expected an integer"]),
        ("why-first", "hand_size=3.0", ["hand_size=3.0", "integer"]),
        ("six-day-race", "random_first=maybe", ["random_first='maybe'", "true or false"]),
        ("six-day-race", "races=2.5", ["races=2.5", "integer"]),
        ("setback", "lanes=[1,2]", ["lanes=[1, 2]", "integer"]),
        ("why-first", "no_such=1", ["unknown option(s) no_such", "options are"]),
        ("why-first", "stages", ["'stages' must look like key=value"]),
    ],
)
def test_a_bad_option_is_one_clear_line(
    tmp_path: Path, command: str, game_id: str, option: str, words: list[str]
) -> None:
    args = _commands(tmp_path)[command]
    result = runner.invoke(app, [args[0], game_id, *args[1:], "-o", option])
    line = _one_line_error(result)
    for word in words:
        assert word in line


@pytest.mark.parametrize("command", ["play", "simulate", "tournament", "report"])
def test_an_unknown_game_is_one_clear_line(tmp_path: Path, command: str) -> None:
    args = _commands(tmp_path)[command]
    line = _one_line_error(runner.invoke(app, [args[0], "chess", *args[1:]]))
    assert "unknown game 'chess'" in line and "why-first" in line


def _saved_record(tmp_path: Path) -> dict[str, Any]:
    game = racedeck.make("why-first", players=3)
    table = Table(game, 5, meta={"names": ["Ann", "Bob", "Cy"]})
    for _ in range(6):
        seat = table.pending[0]
        table.submit(seat, game.legal_actions(table.state, seat)[0])
    return json.loads(json.dumps(table.record.to_json()))


def _broken(obj: dict[str, Any], breakage: str) -> Any:
    if breakage == "unknown action type":
        obj["actions"][3]["action"] = {"type": "teleport"}
    elif breakage == "wrong-typed config":
        obj["config"]["stages"] = "five"
    elif breakage == "bad meta":
        obj["meta"] = "Ann, Bob"
    elif breakage == "bad seat names":
        obj["meta"]["names"] = ["Ann", 7]
    elif breakage == "missing field":
        del obj["seed"]
    elif breakage == "unknown game":
        obj["game"] = "chess"
    elif breakage == "seat out of range":
        obj["actions"][0]["seat"] = 5
    elif breakage == "not a record":
        return [1, 2]
    return obj


@pytest.mark.parametrize(
    ("breakage", "words"),
    [
        ("unknown action type", "record action 3 does not replay"),
        ("wrong-typed config", "stages='five'"),
        ("bad meta", "'meta' must be an object"),
        ("bad seat names", "meta.names must list 3 seat names"),
        ("missing field", "'seed' is missing"),
        ("unknown game", "unknown game 'chess'"),
        ("seat out of range", "record action 0 does not replay"),
        ("not a record", "does not hold a game record"),
    ],
)
def test_replay_of_a_broken_record_is_one_clear_line(
    tmp_path: Path, breakage: str, words: str
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_saved_record(tmp_path)))
    shown = runner.invoke(app, ["replay", str(good)])
    assert shown.exit_code == 0, shown.output
    assert "Ann" in shown.output and "The record ends before the game does" in shown.output

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_broken(_saved_record(tmp_path), breakage)))
    line = _one_line_error(runner.invoke(app, ["replay", str(bad)]))
    assert words in line and str(bad) in line


def test_replay_of_a_file_that_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{not json")
    line = _one_line_error(runner.invoke(app, ["replay", str(bad)]))
    assert "is not JSON" in line


def _clean(line: str) -> None:
    """No Python internals and no framed panel in a message for people."""
    for internal in ("Traceback", "KeyError", "Input should be", "not supported between", "╭"):
        assert internal not in line, line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # values of the wrong type: the option, the value and what it must be
        (
            ["play", "why-first", "--players", "abc"],
            "--players 'abc' is not allowed: expected a whole number",
        ),
        (
            ["simulate", "why-first", "--players", "2.5"],
            "--players '2.5' is not allowed: expected a whole number",
        ),
        (
            ["report", "why-first", "--out", "r", "--games", "x"],
            "--games 'x' is not allowed: expected a whole number",
        ),
        (
            ["tournament", "why-first", "--bots", "random,heuristic", "--seed", "s"],
            "--seed 's' is not allowed",
        ),
        (
            ["play", "why-first", "--seat", "x"],
            "--seat 'x' is not allowed: expected a whole number",
        ),
        (["serve", "--port", "abc"], "--port 'abc' is not allowed: expected a whole number"),
        (["serve", "--bot-delay", "soon"], "--bot-delay 'soon' is not allowed: expected a number"),
        # values of the right type out of range
        (
            ["play", "why-first", "--seat", "9"],
            "--seat 9 is not allowed: a game of 4 players has seats 1 to 4",
        ),
        (["play", "why-first", "--seat", "0"], "--seat 0 is not allowed"),
        (
            ["play", "why-first", "--players", "9"],
            "players=9 is not allowed: Why First? is for 2 to 6 players",
        ),
        (["simulate", "why-first", "--games", "0"], "--games 0 is not allowed: at least 1"),
        (["simulate", "why-first", "--workers", "0"], "--workers 0 is not allowed: at least 1"),
        (["serve", "--port", "70000"], "--port 70000 is not allowed: a port is 1 to 65535"),
        (["serve", "--bot-delay", "-1"], "--bot-delay -1.0 is not allowed: 0 seconds or more"),
        (["serve", "--bot-workers", "0"], "--bot-workers 0 is not allowed: at least 1"),
        (["report", "why-first", "--out", "r", "-n", "0"], "--games 0 is not allowed: at least 1"),
        (["report", "why-first", "--out", "r", "--workers", "0"], "--workers 0 is not allowed"),
        (["tournament", "why-first", "--bots", "random,heuristic", "-n", "0"], "--games 0 is not"),
        (
            ["tournament", "why-first", "--bots", "random,heuristic", "--workers", "0"],
            "--workers 0",
        ),
        (["play", "six-day-race", "--riders", "3"], "riders=3 is not allowed"),
        (["simulate", "why-first", "-o", "stages"], "option 'stages' must look like key=value"),
        # bot names
        (
            ["play", "why-first", "--bots", "heurstic"],
            "no bot 'heurstic' for why-first; levels: beginner, casual, strong, expert; "
            "bots: fastsearch, heuristic, learned, random, search",
        ),
        (
            ["play", "why-first", "--bots", "random,random"],
            "--bots 'random,random' is not allowed: name 1 bot or 3",
        ),
        (
            ["simulate", "why-first", "--bots", "heuristc"],
            "no bot 'heuristc' for why-first; levels:",
        ),
        (
            ["simulate", "why-first", "--bots", "random,random"],
            "--bots 'random,random' is not allowed: 4 seats need 1 or 4",
        ),
        (["report", "why-first", "--out", "r", "--bots", "rnd"], "no bot 'rnd' for why-first"),
        (
            ["tournament", "why-first", "--bots", "random,heuristc"],
            "no bot 'heuristc' for why-first",
        ),
        # the command line itself
        (["play"], "missing GAME; see 'racedeck play --help'"),
        (["tournament", "why-first"], "missing --bots; see 'racedeck tournament --help'"),
        (["play", "why-first", "--sead", "2"], "no option --sead (did you mean --seat or --seed?)"),
        (
            ["simulate", "why-first", "--frobnicate"],
            "no option --frobnicate; see 'racedeck simulate --help'",
        ),
        (["frobnicate"], "no such command 'frobnicate'"),
        (["replay", "no-such-file.json"], "PATH 'no-such-file.json' does not exist"),
        # game ids
        (
            ["play", '"why-first"'],
            """unknown game '"why-first"'; available: setback, six-day-race, why-first""",
        ),
        (["games", "chess"], "unknown game 'chess'; games are setback, six-day-race, why-first"),
    ],
)
def test_every_bad_value_is_one_line_naming_it(args: list[str], words: str) -> None:
    line = _one_line_error(runner.invoke(app, args, prog_name="racedeck"))
    _clean(line)
    assert words in line


def test_a_record_that_is_a_folder_or_lacks_its_rules_version(tmp_path: Path) -> None:
    line = _one_line_error(runner.invoke(app, ["replay", str(tmp_path)]))
    assert "this is a folder, not a record file" in line
    record = _saved_record(tmp_path)
    del record["rules_version"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    line = _one_line_error(runner.invoke(app, ["replay", str(bad)]))
    _clean(line)
    assert "record field 'rules_version' is missing or not text" in line


@pytest.mark.parametrize("command", ["tournament", "serve"])
def test_db_in_a_missing_folder_is_refused(tmp_path: Path, command: str) -> None:
    db = tmp_path / "no-such-folder" / "t.sqlite"
    args = {
        "tournament": ["tournament", "why-first", "--bots", "random,heuristic", "--games", "2"],
        "serve": ["serve", "--port", "1"],
    }[command]
    for target in (str(db), f"sqlite:///{db}"):
        line = _one_line_error(runner.invoke(app, [*args, "--db", target]))
        assert line == (
            f"error: --db {target}: folder {db.parent} does not exist; "
            "create it or choose another --db"
        )
    assert not db.parent.exists()


def test_the_default_data_folder_may_be_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from racedeck.cli.db_option import check_db_folder

    monkeypatch.chdir(tmp_path)
    check_db_folder("data/racedeck.sqlite")  # the service's own folder: made when missing
    check_db_folder("sqlite://")  # in memory
    check_db_folder("postgresql+psycopg://host/db")  # not a file


def test_a_tournament_of_one_bot_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    for bots in ("heuristic", "heuristic,heuristic"):
        args = ["tournament", "why-first", "--bots", bots, "--games", "2", "--db", db]
        line = _one_line_error(runner.invoke(app, args))
        assert line == (
            f"error: --bots {bots!r}: a tournament rates two or more bots against each other; "
            "for one bot in every seat, use racedeck simulate why-first --bots heuristic"
        )
    assert not Path(db).exists()


def test_a_record_path_that_is_not_a_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    # Saving is an atomic rename: onto a folder or a device (/dev/null) it would replace it.
    result = runner.invoke(app, ["play", "why-first", "--record", str(tmp_path)])
    assert result.exit_code == 2
    assert "is not a file; name a file to save the game to" in result.output
    assert tmp_path.is_dir()
