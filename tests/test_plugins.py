"""One registration per game: shared code finds what a game offers through its plugins and
never switches on a game id, so a fourth game (*Dash*, ``tests/dash_game.py``) plays through
every face without touching a shared module."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from dash_game import SPEC as DASH
from dash_game import DashGreedyBot
from rich.console import Console
from test_conformance import follow_the_contract

import racedeck
from racedeck.bots.playouts import FALLBACK_ITERATIONS, playout_for
from racedeck.bots.registry import available_bots, make_bot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.cli.play import play_in_terminal
from racedeck.cli.records import load_record
from racedeck.cli.terminal_ui import TerminalUI, ui_for
from racedeck.core import registry
from racedeck.plugins import optional_plugin, plugin
from racedeck.report.findings import findings_for
from racedeck.report.measures import collector_for, measure_game
from racedeck.report.measures.base import NoCollector
from racedeck.sim.runner import GameJob
from racedeck.sim.simulate import simulate

SRC = Path(__file__).resolve().parents[1] / "src" / "racedeck"
GAME_IDS = ("why-first", "six-day-race", "setback")
ENGINE_NAMES = ("Leo",)


@pytest.fixture
def dash(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """*Dash* registered for the test only (other tests see the three real games)."""
    monkeypatch.setitem(registry._REGISTRY, DASH.id, DASH)
    yield DASH.id


# -- no shared module switches on a game ------------------------------------------------------


def _plugin_modules() -> set[str]:
    """Every module a registered game names as one of its plugins: the game's own modules."""
    return {
        path
        for game_id in racedeck.available_games()
        for path in racedeck.get_spec(game_id).plugins.values()
    }


def _shared_modules() -> list[tuple[str, Path]]:
    own = _plugin_modules()
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[1] == "games":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if name not in own:
            found.append((name, path))
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """Ids of the string constants that are docstrings (of modules, classes, functions and
    the attributes they document)."""
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                ids.add(id(stmt.value))
    return ids


def game_names_in(source: str) -> list[str]:
    """Game ids and engine-played contestants named in code (docstrings and comments aside)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.extend(
                f"{name!r} on line {node.lineno}"
                for name in (*GAME_IDS, *ENGINE_NAMES)
                if name in node.value
            )
    return found


SHARED = _shared_modules()


def test_the_scan_sees_the_shared_faces_and_leaves_the_games_own_modules() -> None:
    names = {name for name, _ in SHARED}
    assert {"racedeck.bots.registry", "racedeck.bots.search", "racedeck.cli.terminal_ui"} <= names
    assert {
        "racedeck.report.measures.play",
        "racedeck.report.findings",
        "racedeck.sim.simulate",
    } <= names
    assert "racedeck.bots.why_first" not in names and "racedeck.cli.setback_ui" not in names


@pytest.mark.parametrize(("module", "path"), SHARED, ids=[m for m, _ in SHARED])
def test_no_shared_module_names_a_game(module: str, path: Path) -> None:
    assert game_names_in(path.read_text(encoding="utf-8")) == []


def test_the_scan_finds_a_switch_on_a_game_id() -> None:
    switch = (
        'def f(game):\n    """For why-first."""\n    if game.spec.id == "setback":\n'
        "        return 1\n"
    )
    assert game_names_in(switch) == ["'setback' on line 3"]
    assert game_names_in('NAMES = {"six-day-race": 1}\n') == ["'six-day-race' on line 1"]
    assert game_names_in('name = "Leo" if i == 2 else "P1"\n') == ["'Leo' on line 1"]
    assert game_names_in('"""A module about why-first and Leo."""\n# setback\nX = 1\n') == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_face_of_a_real_game_loads_from_its_registration(game_id: str) -> None:
    game = racedeck.make(game_id)
    assert "heuristic" in plugin(game_id, "bots").BOTS
    assert "heuristic" in available_bots(game_id)
    assert playout_for(game) is not None
    assert type(ui_for(game, game.seat_names())) is not TerminalUI
    assert not isinstance(collector_for(game), NoCollector)
    assert findings_for(game_id) is plugin(game_id, "findings").FINDINGS


def test_a_face_a_game_does_not_offer_is_named(dash: str) -> None:
    assert optional_plugin(dash, "terminal") is None
    with pytest.raises(KeyError, match=r"dash offers no 'terminal' plugin \(it offers: bots\)"):
        plugin(dash, "terminal")


# -- a fourth game -------------------------------------------------------------------------------


def test_dash_follows_the_contract(dash: str) -> None:
    for players, seed in itertools.product((2, 4), (0, 1, 2)):
        follow_the_contract(racedeck.make(dash, players=players), seed)


def test_dash_simulates_with_the_random_bot_on_one_or_two_workers(dash: str) -> None:
    one = simulate(dash, {"players": 3}, ["random"] * 3, games=40, seed=5, workers=1)
    two = simulate(dash, {"players": 3}, ["random"] * 3, games=40, seed=5, workers=2)
    assert one == two
    assert one.games == 40 and [c.name for c in one.contestants] == ["P1", "P2", "P3"]
    assert sum(c.wins for c in one.contestants) == pytest.approx(40)
    # The driver answers the passes of empty hands: decisions include them.
    assert one.mean_decisions > 0


def test_dash_bots_come_from_its_plugin_and_the_generic_ones_play_too(dash: str) -> None:
    game = racedeck.make(dash, players=2)
    assert available_bots(dash) == ("greedy", "random", "search")
    assert isinstance(make_bot("greedy", game, 0, 1), DashGreedyBot)
    assert SearchBudget.default_for(dash).iterations == FALLBACK_ITERATIONS
    assert playout_for(game) is None  # no playout plugin: play out to the end
    result = simulate(dash, {"players": 2}, ["greedy", "search@30"], games=4, seed=1)
    assert result.by_bot.keys() == {"greedy", "search@30"}
    view = game.observe(game.new_initial_state(3), 0)
    assert SearchBot(game, 0, 3, SearchBudget(20)).act(view) in view.legal_actions


def test_the_other_faces_fall_back_for_dash(dash: str, tmp_path: Path) -> None:
    game = racedeck.make(dash, players=3)
    assert type(ui_for(game, game.seat_names())) is TerminalUI
    assert isinstance(collector_for(game), NoCollector)
    assert findings_for(dash).turns is None
    measured = measure_game(GameJob(0, dash, {"players": 3}, ("random",) * 3, 11))
    assert measured.extra == {} and len(measured.scores) == 3

    answers = itertools.cycle(["9", "hello", "3", "2", "1"])
    console = Console(record=True, width=100)
    path = tmp_path / "dash.json"
    code = play_in_terminal(
        game, 4, 0, ["human", "random", "random"], path, console, lambda _: next(answers)
    )
    assert code == 0
    shown = console.export_text()
    assert "Dash · move 0" in shown and "Game over" in shown
    assert shown.count("your hand:") == 1  # of the deal, the person sees their own hand only
    record = load_record(path)
    assert len(list(racedeck.replay(record))) == len(record.actions) > 0
