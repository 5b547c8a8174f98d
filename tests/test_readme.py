"""The README's examples run as written: the Python one, and the shell commands it shows."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_example_runs() -> None:
    match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert match, "the README has a Python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(match.group(1), "README.md", "exec"), {})
    assert "Second-highest total wins" in out.getvalue()


def _shell_commands() -> list[list[str]]:
    """The README's ``racedeck`` command lines, split as a shell would (comments dropped)."""
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith(".venv/bin/racedeck "):
                commands.append(shlex.split(line, comments=True)[1:])
    return commands


def test_every_command_the_readme_shows_exists() -> None:
    from typer.main import get_command

    from racedeck.cli.app import app

    known = set(get_command(app).commands)  # type: ignore[attr-defined]
    shown = {args[0] for args in _shell_commands()}
    assert {"play", "replay", "simulate"} <= shown
    assert shown <= known


def test_the_replay_example_replays_what_the_play_example_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from racedeck.cli.app import app

    commands = _shell_commands()
    replays = [args for args in commands if args[0] == "replay"]
    assert replays, "the README shows replay"
    monkeypatch.chdir(tmp_path)  # the examples' paths are relative: records/…
    runner = CliRunner()
    cards = ["+1", "-1", "+2", "-2", "+3", "-3", "+4", "-4", "+5"]
    answers = "".join(f"{cards[i % 9]} {1 + i % 3}\n" for i in range(3000))
    for replay in replays:
        path = replay[1]
        saving = [args for args in commands if args[0] == "play" and path in args]
        assert saving, f"no example before `replay {path}` saves {path}"
        played = runner.invoke(app, saving[0], input=answers)
        assert played.exit_code == 0, played.output
        assert f"racedeck replay {path}" in played.output  # the game's end says how to replay
        shown = runner.invoke(app, [*replay, "--print"])
        assert shown.exit_code == 0, shown.output
        assert "Second-highest total wins" in shown.output  # the game's result
