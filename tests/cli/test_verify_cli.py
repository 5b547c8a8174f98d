"""``racedeck verify``: OK with what was checked for an honest record; one line per problem
and exit code 1 for a tampered one (an action, the seed, the commitment, the result)."""

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
    meta = {"fair": fair_meta(server_seed, CLIENT_SEEDS, result_of(base, table.state))}
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
