"""``racedeck --help``, every command's help and ``--version``: whole sentences at 80 columns,
and a start that loads none of the heavy libraries."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app

runner = CliRunner()

SRC = Path(__file__).resolve().parents[2] / "src"

COMMANDS = [
    [],
    *([name] for name in ("games", "play", "simulate", "replay", "tournament", "versus")),
]
COMMANDS += [["report"], ["serve"]]

WIDTH = 80
PANEL_ROW_START = 4
"""In a framed panel a row starts within these columns; text further right continues a cell."""


def early_breaks(text: str, width: int = WIDTH) -> list[tuple[str, str]]:
    """Pairs of lines where the second continues the first although its first word would have
    fitted on the first: a sentence broken by a hard newline, not by wrapping."""
    found = []
    lines = text.splitlines()
    for above, below in itertools.pairwise(lines):
        a, b, edge, panel = above.rstrip(), below.rstrip(), width - 1, False
        if a.startswith("│") and b.startswith("│"):
            a = a[1:].removesuffix("│").rstrip()
            b = b[1:].removesuffix("│").rstrip()
            edge, panel = width - 3, True
        if not a.strip() or not b.strip():
            continue
        col = len(b) - len(b.lstrip())
        if (panel and col <= PANEL_ROW_START) or len(a) <= col or b[:col].strip():
            continue
        if a[col] == " " or a[col - 1] != " ":  # the line above has no text in this column
            continue
        word = b.split()[0]
        if word.startswith(("[default:", "[required")):  # Typer's own notes, set apart
            continue
        if len(a) + 1 + len(word) <= edge:
            found.append((above.rstrip(), below.rstrip()))
    return found


def test_the_checker_finds_a_sentence_broken_by_a_newline() -> None:
    broken = " Each game is kept at once: after Ctrl-C the same\n command continues.\n"
    assert early_breaks(broken) == [
        (" Each game is kept at once: after Ctrl-C the same", " command continues.")
    ]
    wrapped = " " + "word " * 15 + "\n wrapped because it did not fit.\n"
    assert early_breaks(wrapped) == []
    cell = "│ report   Write a report of GAME: win shares by seat and bot with  │\n"
    assert early_breaks(
        cell
        + "│          tests,                                                  │\n"
        + "│          score and length distributions                          │\n"
    )


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "racedeck")
def test_help_at_80_columns_breaks_no_sentence(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    assert early_breaks(result.output) == []
    assert all(len(line) <= WIDTH for line in result.output.splitlines())
    assert "list[str]" not in result.output  # a type of Python's, not what to type


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"racedeck {version('racedeck')}\n"


def test_help_loads_no_database_web_or_plotting_library() -> None:
    heavy = ["sqlalchemy", "fastapi", "starlette", "uvicorn", "matplotlib", "numpy", "openskill"]
    script = (
        "import json, sys\n"
        "from racedeck.cli.app import main\n"
        "sys.argv = ['racedeck', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "COLUMNS": "80", "PATH": "/usr/bin:/bin"},
        check=True,
        timeout=60,
    )
    assert "Usage" in done.stdout
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
