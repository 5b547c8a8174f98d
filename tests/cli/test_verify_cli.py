"""``racedeck verify``: OK with what was checked for an honest record; one line per problem
and exit code 1 for a tampered one (an action, the seed, the commitment, the result, a card
placed face down)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.cli.app import app
from racedeck.core import Table
from racedeck.core.commitments import commitments_of
from racedeck.core.fairness import commitment, fair_meta, game_seed, result_of
from racedeck.core.record import GameRecord
from racedeck.core.table import run

runner = CliRunner()
CLIENT_SEEDS = ["4f2a", "", "c0ffee"]


def fair_record(**options: Any) -> GameRecord:
    """Bots play *Why First?* dealt fairly; the record holds what a server gives at the end."""
    game = racedeck.make("why-first", players=3, **options)
    server_seed = "5e" * 32
    table = Table(game, game_seed(server_seed, CLIENT_SEEDS))
    run(table, [make_bot("random", game, s, 3 + s) for s in range(3)])
    base = table.record
    result = result_of(base, table.state)
    opened = commitments_of(base, server_seed)
    meta = {"fair": fair_meta(server_seed, CLIENT_SEEDS, result, opened)}
    return GameRecord.from_json({**base.to_json(), "meta": meta})


def _write(tmp_path: Path, obj: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(obj))
    return path


def test_an_honest_record_is_ok_and_says_what_was_checked(tmp_path: Path) -> None:
    path = _write(tmp_path, fair_record(stages=1).to_json())
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("OK: why-first")
    assert "hashes to the commitment" in out and "client seeds" in out
    assert "replay to the stated result" in out
    assert "12 face-down actions open the commitments published when they were taken" in out


def test_a_changed_face_down_card_is_rejected_naming_its_move(tmp_path: Path) -> None:
    # WF-4: the second card placed face down (move 1) is changed after the game, to the same
    # value on another figure: still legal, so only its commitment can tell.
    obj = copy.deepcopy(fair_record(stages=1).to_json())
    placed = obj["actions"][1]["action"]
    assert placed["type"] == "place" and obj["meta"]["fair"]["commitments"][1]["move"] == 1
    placed["target"] = (placed["target"] + 1) % 3
    result = runner.invoke(app, ["verify", str(_write(tmp_path, obj))])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert all(line.startswith("FAILED: ") for line in lines)
    named = [line for line in lines if "face-down action at move 1 " in line]
    assert len(named) == 1 and "is not the one committed" in named[0]
    assert "OK" not in result.output


def test_a_record_from_before_face_down_commitments_says_so(tmp_path: Path) -> None:
    obj = copy.deepcopy(fair_record(stages=1).to_json())
    del obj["meta"]["fair"]["commitments"]
    result = runner.invoke(app, ["verify", str(_write(tmp_path, obj))])
    assert result.exit_code == 0, result.output
    assert "holds no face-down commitments" in result.output


def _swap_seat(o: dict[str, Any]) -> None:
    o["actions"][0]["seat"] = (o["actions"][0]["seat"] + 1) % 3


def _winners(o: dict[str, Any]) -> None:
    result = o["meta"]["fair"]["result"]
    result["winners"] = [w for w in range(3) if w not in result["winners"]][:1]


TAMPERING: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "action": (_swap_seat, "does not replay"),
    "seed": (lambda o: o.update(seed=o["seed"] + 1), "not the one derived"),
    "commitment": (
        lambda o: o["meta"]["fair"].update(commitment=commitment("0" * 64)),
        "does not match the commitment",
    ),
    "server seed": (
        lambda o: o["meta"]["fair"].update(server_seed="0" * 64),
        "does not match the commitment",
    ),
    "result": (_winners, "states the result"),
}


@pytest.mark.parametrize("what", list(TAMPERING))
def test_a_tampered_record_is_rejected(tmp_path: Path, what: str) -> None:
    change, words = TAMPERING[what]
    obj = copy.deepcopy(fair_record(stages=1).to_json())
    change(obj)
    result = runner.invoke(app, ["verify", str(_write(tmp_path, obj))])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines and all(line.startswith("FAILED: ") for line in lines)
    assert any(words in line for line in lines)
    assert "Traceback" not in result.output and "OK" not in result.output


def test_a_record_from_the_terminal_has_no_fairness_facts(tmp_path: Path) -> None:
    obj = fair_record(stages=1).to_json()
    obj["meta"] = {"names": ["You", "Bot 2", "Bot 3"]}
    result = runner.invoke(app, ["verify", str(_write(tmp_path, obj))])
    assert result.exit_code == 1
    assert "no fairness facts" in result.output


def test_a_file_that_is_no_record_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("[1, 2]")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "does not hold a game record" in result.output
