"""Golden playthroughs: seeded games must play, read and serialise exactly as recorded.

The files in ``tests/golden/<game-id>/`` are written by ``scripts/regen_golden.py`` (``make
golden``). Here every case is regenerated in memory and compared line by line; every stored
record is replayed to the stored outcome; and every registered game must have golden cases.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import racedeck
from racedeck.core import GameRecord, replay

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "regen_golden.py"
GOLDEN_DIR = ROOT / "tests" / "golden"
REGEN = "run `make golden` (= .venv/bin/python scripts/regen_golden.py) and review the diff"


@cache
def regen() -> ModuleType:
    """The ``scripts/regen_golden.py`` module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("regen_golden", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being created
    spec.loader.exec_module(module)
    return module


def _cases() -> list[Any]:
    return [
        pytest.param(game_id, case, id=f"{game_id}/{case.name}")
        for game_id, cases in regen().GOLDEN_CASES.items()
        for case in cases
    ]


def _first_difference(path: Path, expected: str, actual: str) -> str | None:
    """Describe the first line where the stored file and the regenerated text differ."""
    old, new = expected.splitlines(), actual.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            pairs = enumerate(zip(a, b, strict=False))
            column = next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))
            start = max(0, column - 80)
            return (
                f"{path.relative_to(ROOT)}:{number}: the engine's output differs from the golden "
                f"file (column {column + 1})\n"
                f"  golden: …{a[start : column + 160]}\n"
                f"  engine: …{b[start : column + 160]}\n"
                f"If the change is intended, {REGEN}."
            )
    if len(old) != len(new):
        which = "golden file" if len(old) > len(new) else "engine's output"
        line = min(len(old), len(new)) + 1
        extra = (old if len(old) > len(new) else new)[line - 1][:200]
        return (
            f"{path.relative_to(ROOT)}:{line}: the {which} goes on ({len(old)} lines stored, "
            f"{len(new)} generated): {extra}\nIf the change is intended, {REGEN}."
        )
    if expected != actual:
        return f"{path.relative_to(ROOT)}: differs in line endings. {REGEN}."
    return None


@pytest.mark.parametrize(("game_id", "case"), _cases())
def test_playthrough_matches_golden_file(game_id: str, case: Any) -> None:
    run = regen().play_case(game_id, case)
    for path, content in ((run.text_path, run.text), (run.record_path, run.record)):
        if not path.exists():
            pytest.fail(f"{path.relative_to(ROOT)} is missing; {REGEN}.")
        problem = _first_difference(path, path.read_text(encoding="utf-8"), content)
        if problem:
            pytest.fail(problem, pytrace=False)


@pytest.mark.parametrize(("game_id", "case"), _cases())
def test_stored_record_replays_to_stored_outcome(game_id: str, case: Any) -> None:
    run_paths = regen().Playthrough(game_id, case, "", "")
    record = GameRecord.from_json(json.loads(run_paths.record_path.read_text(encoding="utf-8")))
    assert record.game == game_id and record.seed == case.seed
    text = run_paths.text_path.read_text(encoding="utf-8")
    outcome_lines = [line for line in text.splitlines() if line.startswith("outcome: ")]
    assert len(outcome_lines) == 1, "a golden file ends with exactly one outcome line"
    stored_outcome = json.loads(outcome_lines[0].removeprefix("outcome: "))

    game = record.make_game()
    steps = list(replay(record))
    assert len(steps) == len(record.actions) == text.count("\n== step ") - 1
    final = steps[-1].state if steps else game.new_initial_state(record.seed)
    assert final.is_terminal, "golden games are played to the end"
    outcome = game.outcome(final)
    assert outcome is not None
    assert outcome.to_json() == stored_outcome
    # The last step's events announce the same outcome (a game may add keys, such as the laps
    # lost of six-day-race).
    game_over = [e.to_json() for e in steps[-1].events if e.kind == "game_over"]
    if game_over:
        assert {k: v for k, v in game_over[0].items() if k in stored_outcome} == stored_outcome


def test_every_registered_game_has_golden_files() -> None:
    cases = regen().GOLDEN_CASES
    for game_id in racedeck.available_games():
        assert cases.get(game_id), (
            f"{game_id} has no golden cases: add an entry to GOLDEN_CASES in "
            f"scripts/regen_golden.py, then {REGEN}"
        )
        for case in cases[game_id]:
            for suffix in (".txt", ".record.json"):
                path = GOLDEN_DIR / game_id / f"{case.name}{suffix}"
                assert path.is_file(), f"{path.relative_to(ROOT)} is missing; {REGEN}"


def test_no_stale_golden_files() -> None:
    cases = regen().GOLDEN_CASES
    expected = {
        GOLDEN_DIR / game_id / f"{case.name}{suffix}"
        for game_id, game_cases in cases.items()
        for case in game_cases
        for suffix in (".txt", ".record.json")
    }
    stale = sorted(p for p in GOLDEN_DIR.rglob("*") if p.is_file() and p not in expected)
    assert not stale, f"golden files without a case (delete them): {stale}"
    unknown = sorted(set(cases) - set(racedeck.available_games()))
    assert not unknown, f"GOLDEN_CASES names unregistered games: {unknown}"


def test_golden_files_stay_small() -> None:
    for path in GOLDEN_DIR.rglob("*.txt"):
        size = path.stat().st_size
        assert size <= regen().MAX_BYTES, f"{path.relative_to(ROOT)} is {size:,} bytes"


def test_difference_report_names_the_line() -> None:
    path = GOLDEN_DIR / "x.txt"
    report = _first_difference(path, "a\nb\nc\n", "a\nB\nc\n")
    assert report is not None and "x.txt:2:" in report and "make golden" in report
    report = _first_difference(path, "a\nb\n", "a\nb\nc\n")
    assert report is not None and "x.txt:3:" in report
    assert _first_difference(path, "a\n", "a\n") is None
