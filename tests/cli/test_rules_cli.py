"""``racedeck rules``: a game's rules page, its brief or one ruling, and the refusals."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from racedeck import rulebook
from racedeck.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize("game_id", ["why-first", "six-day-race", "setback"])
def test_the_whole_page_is_shown(game_id: str) -> None:
    result = runner.invoke(app, ["rules", game_id])
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"{rulebook.title(game_id)} — rules" in out
    for heading in ("In brief", "Goal", "The end", "Variants", "Rulings"):
        assert heading in out
    for ruling_id in rulebook.ruling_ids(game_id):
        assert f"{ruling_id} · " in out
    assert "###" not in out and "`" not in out  # rendered, not raw Markdown


def test_the_brief_only() -> None:
    result = runner.invoke(app, ["rules", "why-first", "--brief"])
    assert result.exit_code == 0, result.output
    assert "Why First? in brief" in result.output
    assert "second-highest total" in result.output
    assert "WF-1 ·" not in result.output and "Rulings" not in result.output


def test_one_ruling_by_its_id_in_any_case() -> None:
    result = runner.invoke(app, ["rules", "setback", "sb-9"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.startswith("SB-9 · BLOCK")
    assert "can only pass" in out and "Option: self_block (default board;" in out
    assert "SB-10" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["chess"],
            "error: no rules page for chess; there are pages for setback, six-day-race, why-first",
        ),
        (["setback", "SB-99"], "error: Setback has no ruling SB-99; its rulings are SB-1 to SB-11"),
        (
            ["why-first", "SD-5"],
            "error: Why First? has no ruling SD-5; its rulings are WF-1 to WF-11",
        ),
        (["why-first", "WF-6", "--brief"], "error: give a ruling (WF-6) or --brief, not both"),
    ],
)
def test_an_unknown_game_or_ruling_is_one_line_naming_what_exists(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["rules", *args])
    assert result.exit_code == 2
    assert result.output.strip() == message
