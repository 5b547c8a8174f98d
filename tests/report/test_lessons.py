"""The report's section on a learned policy: its games, its numbers, its plots and when it is
left out; Why First?'s second-place measure on cases checked by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import racedeck
from racedeck.bots import learned
from racedeck.cli.app import app
from racedeck.core.events import Event
from racedeck.plugins import plugin
from racedeck.report.lessons.base import SeatGame, lesson_for
from racedeck.report.lessons.play import learned_policy, play_lessons
from racedeck.report.lessons.section import (
    OTHER,
    TITLE,
    lesson_findings,
    opening_choices,
    value_curve,
)
from racedeck.report.lessons.why_first import (
    BEHIND,
    FIRST,
    LEVEL,
    SECOND,
    StagePlaces,
    place_counts,
    stage_places,
)
from racedeck.rl.network import Network

runner = CliRunner()

WF4 = {"players": 4}


def _policy(path: Path, game_id: str, config: dict[str, Any], value_head: bool = True) -> Path:
    """A small random network of ``game_id``'s sizes, saved at ``path``."""
    game = racedeck.make(game_id, **config)
    size = plugin(game_id, "observation").observer(game).size
    actions = plugin(game_id, "encoding").action_encoding(game).num_distinct_actions
    network = Network.create([size, 8, actions + int(value_head)], seed=3)
    return network.policy(game_id, config, value_head=value_head).save(path)


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _policy(tmp_path_factory.mktemp("policy") / "wf4.npz", "why-first", WF4)


def test_stage_places_follow_the_scoring_rule() -> None:
    # WF-6: the distinct spaces in descending order; the second one scores.
    assert stage_places([5, 3, 3, -1]) == [FIRST, SECOND, SECOND, BEHIND]
    assert stage_places([4, 4, 1, 0]) == [FIRST, FIRST, SECOND, BEHIND]
    assert stage_places([2, 2, 2]) == [LEVEL, LEVEL, LEVEL]
    assert stage_places([-3, 7, 0]) == [BEHIND, FIRST, SECOND]


def test_second_of_the_front_counts_only_stages_at_the_front() -> None:
    collector = StagePlaces(3)
    for positions in ([5, 3, 3], [1, 6, 1], [0, 0, 0], [2, 4, -1]):
        collector.observe([Event.fresh("stage_scored", {"positions": positions})], None)
    places = collector.finish()
    assert places[0] == [FIRST, SECOND, LEVEL, SECOND]
    counts = place_counts([SeatGame(0, None, (), 0.0, places[0])])
    assert counts.stages == 4
    assert counts.counts == {FIRST: 1, SECOND: 2, BEHIND: 0, LEVEL: 1}
    # Of the three stages seat 0 ended at the front, two on the scoring space.
    assert counts.front == 3
    assert counts.second_of_front.value == pytest.approx(2 / 3)


def test_opening_shares_sum_to_one_with_the_rare_choices_together() -> None:
    learned_seats = [SeatGame(0, c, (), 0.0) for c in ["a", "a", "b", "c", "d", None]]
    field_seats = [SeatGame(0, c, (), 0.0) for c in ["b", "b", "b", "e", "a", "a"]]
    labels, mine, theirs = opening_choices(learned_seats, field_seats, top=3)
    assert labels == ["a", "b", OTHER]  # a and b are the most frequent over both bots
    assert sum(mine.values()) == pytest.approx(1.0)
    assert sum(theirs.values()) == pytest.approx(1.0)
    assert mine["a"] == pytest.approx(2 / 5)  # the seat without a choice does not count
    assert theirs[OTHER] == pytest.approx(1 / 6)


def test_value_curve_stops_where_too_few_seats_reached() -> None:
    seats = [SeatGame(0, None, (0.1, 0.3), 1.0), SeatGame(1, None, (0.3,), 1.0)]
    curve = value_curve(seats, least=2)
    assert [d for d, _ in curve] == [1]
    assert curve[0][1].value == pytest.approx(0.2)


def test_games_give_a_value_per_decision_on_the_same_deals(policy: Path) -> None:
    name = f"policy:{policy}"
    games = play_lessons("why-first", WF4, name, 6, seed=1, lesson=lesson_for("why-first"))
    assert games.n == 6 and games.field == "heuristic" and games.value_head
    assert [s.seat for s in games.learned] == [0, 1, 2, 3, 0, 1]  # rotated over the seats
    for mine, theirs in zip(games.learned, games.field_games, strict=True):
        # 5 stages × 4 rounds with a choice: the 5th card plays itself (WF-5).
        assert len(mine.values) == 20 and theirs.values == ()
        assert mine.first is not None and theirs.first is not None
        assert len(mine.extra) == 5 and len(theirs.extra) == 5
    # The same deals: the field bots are seeded alike, so a rerun gives the same games.
    again = play_lessons("why-first", WF4, name, 6, seed=1, lesson=lesson_for("why-first"))
    assert again == games


def test_the_section_has_its_plots_and_numbers(policy: Path, tmp_path: Path) -> None:
    games = play_lessons("why-first", WF4, f"policy:{policy}", 8, 2, lesson_for("why-first"))
    found = lesson_findings(games, tmp_path, lesson_for("why-first"))
    (section,) = found.sections
    assert section.title == TITLE
    images = [f.image for f in section.figures]
    assert images == ["learned_openings.png", "learned_values.png", "learned_second_place.png"]
    for image in images:
        assert (tmp_path / image).stat().st_size > 1000
    openings, values, places = (f.table for f in section.figures)
    for column in (1, 2):
        assert sum(row[column] for row in openings.rows) == pytest.approx(1.0)  # type: ignore[misc]
    assert [row[0] for row in values.rows] == list(range(1, 21))  # one row per decision
    assert sum(row[1] for row in places.rows[:-1]) == pytest.approx(1.0)  # type: ignore[misc]
    assert any(s.startswith("Playing for second:") for s in found.summary)


def test_a_policy_without_a_value_head_skips_the_value_plot(tmp_path: Path) -> None:
    path = _policy(tmp_path / "plain.npz", "why-first", WF4, value_head=False)
    games = play_lessons("why-first", WF4, f"policy:{path}", 4, 0)
    found = lesson_findings(games, tmp_path, None)
    (section,) = found.sections
    assert [f.image for f in section.figures] == ["learned_openings.png"]
    assert any("has no value head" in p for p in section.paragraphs)
    assert not (tmp_path / "learned_values.png").exists()


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty folder in place of the shipped policies (read again after the test)."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    monkeypatch.setattr(learned, "LEARNED", folder)
    learned._policies.cache_clear()
    yield folder
    learned._policies.cache_clear()


def test_a_shipped_policy_is_used_when_it_fits(shipped: Path, tmp_path: Path) -> None:
    assert learned_policy("why-first", WF4, tmp_path / "x.npz") == f"policy:{tmp_path / 'x.npz'}"
    assert learned_policy("why-first", WF4, None) is None
    _policy(shipped / "why-first-3.npz", "why-first", {"players": 3})
    learned._policies.cache_clear()
    assert learned_policy("why-first", WF4, None) is None  # trained for 3 players only
    _policy(shipped / "why-first-4.npz", "why-first", WF4)
    learned._policies.cache_clear()
    assert learned_policy("why-first", WF4, None) == "learned"


def _report(out: Path, *extra: str) -> str:
    args = ["report", "why-first", "-p", "4", "--games", "4", "--out", str(out)]
    result = runner.invoke(app, [*args, "--workers", "1", "--bots", "random", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_report_with_a_policy_shows_the_section(policy: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    output = _report(out, "--policy", str(policy), "--policy-games", "6")
    assert "Playing for second:" in output
    page = (out / "index.html").read_text(encoding="utf-8")
    assert f">{TITLE}<" in page
    data = json.loads((out / "data.json").read_text(encoding="utf-8"))
    (section,) = [s for s in data["sections"] if s["key"] == "learned"]
    for figure in section["figures"]:
        assert (out / figure["image"]).stat().st_size > 1000
        assert f'src="{figure["image"]}"' in page
    assert data["findings"]["learned"]["deals"] == 6
    assert data["facts"]["learned policy"].startswith(f"policy:{policy}")


def test_report_without_a_policy_notes_its_absence(shipped: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    output = _report(out)
    assert "Learned policy: none ships for Why First?" in output
    page = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="learned"' not in page
    assert not list(out.glob("learned_*.png"))
    data = json.loads((out / "data.json").read_text(encoding="utf-8"))
    assert "--policy PATH adds the section" in data["facts"]["learned policy"]


def test_report_refuses_a_policy_of_another_configuration(policy: Path, tmp_path: Path) -> None:
    args = ["report", "why-first", "-p", "3", "--games", "2", "--out", str(tmp_path / "r")]
    result = runner.invoke(app, [*args, "--policy", str(policy)])
    assert result.exit_code != 0
    assert "not of this why-first game" in result.output


def test_report_uses_the_shipped_policy_of_its_configuration(shipped: Path, tmp_path: Path) -> None:
    _policy(shipped / "why-first-4.npz", "why-first", WF4)
    out = tmp_path / "report"
    _report(out, "--policy-games", "4")
    data = json.loads((out / "data.json").read_text(encoding="utf-8"))
    assert data["findings"]["learned"]["policy"] == "learned"
    assert (out / "learned_openings.png").stat().st_size > 1000
