"""``racedeck games`` lists every game; ``racedeck games GAME`` shows one in detail."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app

runner = CliRunner()


def test_the_list_names_every_game_and_points_to_the_details() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    for game_id in racedeck.available_games():
        assert f"({game_id})" in result.output
    assert "Details of one game: racedeck games GAME" in result.output


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_one_game_in_detail(game_id: str) -> None:
    result = runner.invoke(app, ["games", game_id], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.output
    spec = racedeck.get_spec(game_id)
    assert out.startswith(f"{spec.title} ({game_id}) · {spec.min_players}–{spec.max_players}")
    assert f"rules v{spec.rules_version}" in out
    for opt in spec.options():
        assert f"  {opt.name} = " in out
    assert "Levels: beginner (random), casual (heuristic), strong (search" in out
    assert "(fastsearch) (--bots LEVEL)" in out
    assert "Bots: fastsearch, heuristic, learned, random, search" in out
    assert f"Rules: racedeck rules {game_id}, or docs/rules/{game_id}.md" in out


def test_why_first_details_show_defaults_allowed_values_and_variants() -> None:
    out = runner.invoke(app, ["games", "why-first"], env={"COLUMNS": "80"}).output
    assert "  stages = 5 · integer, 1 to 20\n      Stages in a game (WF-7)." in out
    assert "  card_values = 32 values · a list of integers, -16 to 16" in out
    assert "Variants: base, tactical (--variant NAME)" in out
    six = runner.invoke(app, ["games", "six-day-race"], env={"COLUMNS": "80"}).output
    assert "  sprints = [27, 54] · " in six and "  random_first = true · true/false" in six
    assert "Variants" not in six  # its rules change through options only


def test_a_game_lists_its_presets_and_simulate_plays_one() -> None:
    out = runner.invoke(app, ["games", "setback"], env={"COLUMNS": "120"}).output
    assert (
        "Presets: quick (rows=4), standard (as the rulebook), long (rows=9) (--preset NAME)" in out
    )
    result = runner.invoke(app, ["simulate", "why-first", "--preset", "quick", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "stages=2" in result.output  # the title names what differs from the rulebook
    # An option given on its own overrides the preset's.
    result = runner.invoke(
        app, ["simulate", "why-first", "--preset", "long", "-o", "stages=3", "--games", "1"]
    )
    assert result.exit_code == 0 and "stages=3" in result.output, result.output


def test_an_unknown_preset_names_the_ones_there_are() -> None:
    result = runner.invoke(app, ["play", "six-day-race", "--preset", "long"])
    assert result.exit_code != 0
    assert "six-day-race has no preset 'long'; presets are quick, standard" in result.output
