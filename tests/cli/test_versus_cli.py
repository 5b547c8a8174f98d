"""``racedeck versus``: the table, the JSON, refusing bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from racedeck.cli.app import app

runner = CliRunner()

BASE = ["versus", "setback", "heuristic", "random", "--players", "2", "--workers", "1"]


def test_json_holds_the_share_its_interval_and_the_times() -> None:
    result = runner.invoke(app, [*BASE, "--deals", "3", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["games"] == 6 and payload["deals"] == 3 and payload["seed"] == 4
    assert payload["ours"] == "heuristic" and payload["theirs"] == "random"
    assert payload["fair"] == 0.5 and payload["seatings"] == [[0], [1]]
    low, high = payload["ci95"]
    assert low <= payload["share"] <= high
    assert payload["ours_seconds_per_decision"] > 0 and payload["theirs_decisions"] > 0
    again = json.loads(runner.invoke(app, [*BASE, "--deals", "3", "--seed", "4", "--json"]).stdout)
    assert again["share"] == payload["share"]


def test_the_table_names_both_sides_and_the_time_ratio() -> None:
    result = runner.invoke(app, [*BASE, "--deals", "2"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    for words in ("setback · 2 players · 4 games (2 deals × 2 seatings)", "won (95% CI)", "equal"):
        assert words in out
    assert "heuristic takes" in out and "the time per decision of random" in out


def test_bad_input_is_refused_in_one_line() -> None:
    unknown = runner.invoke(app, ["versus", "setback", "heuristic", "nobody", "--deals", "1"])
    assert unknown.exit_code != 0 and "no bot 'nobody'" in unknown.output
    no_deals = runner.invoke(app, [*BASE, "--deals", "0"])
    assert no_deals.exit_code != 0 and "--deals 0 is not allowed" in no_deals.output
    bad_option = runner.invoke(app, [*BASE, "-o", "nonsense=1"])
    assert bad_option.exit_code != 0
