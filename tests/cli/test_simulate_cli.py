"""``racedeck simulate``: the title names the options that differ from the defaults."""

from __future__ import annotations

from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.cli.options import options_shown

runner = CliRunner()


def test_the_title_names_changed_options_only() -> None:
    plain = runner.invoke(app, ["simulate", "why-first", "-n", "2", "--seed", "1"])
    assert plain.exit_code == 0, plain.output
    title = plain.output.splitlines()[0].strip()
    assert title == "why-first · 2 games · seed 1"
    args = ["simulate", "why-first", "-n", "2", "-p", "3", "-o", "stages=2", "-o", "variant=base"]
    changed = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert changed.exit_code == 0, changed.output
    assert "why-first · 2 games · seed 0 · players=3, stages=2" in changed.output


def test_options_shown() -> None:
    assert options_shown("why-first", {}) == ""
    assert options_shown("why-first", {"players": 4, "variant": "base"}) == ""
    assert options_shown("why-first", {"variant": "tactical"}) == "variant=tactical"
    assert options_shown("six-day-race", {"sprints": [20, 40]}) == "sprints=[20,40]"
    assert options_shown("six-day-race", {"random_first": False}) == "random_first=false"
