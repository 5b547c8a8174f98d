"""``racedeck tournament``: tables, JSON, resuming, refusing bad input, stopping on Ctrl-C."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.cli.progress import game_progress
from racedeck.store.tournaments import TournamentStore

runner = CliRunner()

BASE = ["tournament", "why-first", "--bots", "random,heuristic", "--players", "3", "--seed", "3"]


def _json(db: Path, games: int, workers: int = 1) -> dict[str, object]:
    args = [*BASE, "--games", str(games), "--workers", str(workers), "--db", str(db), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def test_prints_standings_sorted_by_rating(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    result = runner.invoke(app, [*BASE, "--games", "12", "--workers", "2", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for word in ("why-first", "3 players", "12 games", "ordinal", "μ ± σ", "wins by seat"):
        assert word in out
    assert "heuristic" in out and "random" in out and "seat 3" in out
    with TournamentStore(db) as store:
        (row,) = store.tournaments()
        assert store.count_games(row.id) == 12


def test_rerunning_resumes_and_a_larger_count_continues(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    _json(db, 10)
    first_seconds = _seconds(db)
    again = runner.invoke(app, [*BASE, "--games", "10", "--workers", "1", "--db", str(db)])
    assert again.exit_code == 0
    assert "10 of 10 games already stored" in " ".join(again.output.split())
    assert _seconds(db) == first_seconds  # nothing played again
    resumed = _json(db, 16, workers=2)  # stdout holds only the JSON, messages go to stderr
    assert _seconds(db)[:10] == first_seconds and len(_seconds(db)) == 16
    fresh = _json(tmp_path / "fresh.sqlite", 16)
    for payload in (resumed, fresh):
        del payload["db"]
    assert resumed == fresh
    assert resumed["games"] == 16
    fewer = _json(db, 6)  # a smaller count reports on the first games only
    assert fewer["games"] == 6


def _seconds(db: Path) -> list[float]:
    with TournamentStore(db) as store:
        (row,) = store.tournaments()
        return [g.seconds for g in store.games(row.id, with_records=False)]


def test_bad_input_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    bad_bot = runner.invoke(app, ["tournament", "why-first", "--bots", "random,nobody", "--db", db])
    assert bad_bot.exit_code == 2
    assert "no bot 'nobody' for why-first" in bad_bot.output
    bad_game = runner.invoke(app, ["tournament", "chess", "--bots", "random", "--db", db])
    assert bad_game.exit_code == 2 and "unknown game 'chess'" in bad_game.output
    bad_count = runner.invoke(app, [*BASE, "--games", "0", "--db", db])
    assert bad_count.exit_code == 2 and "--games" in bad_count.output
    too_many = runner.invoke(app, [*BASE[:4], "--players", "9", "--db", db])
    assert too_many.exit_code == 2 and "2 to 6 players" in too_many.output


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", "why-first", "--bots", "random,heuristic", "--games", "100000"]
    command = [
        sys.executable,
        "-c",
        "from racedeck.cli.app import main; main()",
        *args,
        "--workers",
        "2",
        "--db",
        str(db),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_a_terminal_gives_it,
    )
    try:
        deadline = time.monotonic() + 60
        while not _stored(db) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _stored(db), "no game was stored within a minute"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, err
    kept = _stored(db)
    assert 0 < kept < 100000
    assert f"{kept} of 100000 games are stored" in " ".join(err.split())
    assert "Run the same command again to resume" in " ".join(err.split())


def _ctrl_c_as_a_terminal_gives_it() -> None:
    """In the child before it starts: SIGINT handled by default and not blocked, whatever
    the test process that starts it has set (an ignored or blocked signal is inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    with TournamentStore(db) as store:
        rows = store.tournaments()
        return store.count_games(rows[0].id) if rows else 0


def test_progress_shows_count_rate_and_eta() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with game_progress(10, "demo", completed=2, console=console) as advance:
        for _ in range(8):
            time.sleep(0.01)
            advance(1)
    text = out.getvalue()
    assert "10/10" in text and "games/s" in text and "ETA" in text and "demo" in text
    quiet = io.StringIO()  # not a terminal: nothing drawn, advancing still works
    with game_progress(3, console=Console(file=quiet)) as advance:
        advance(3)
    assert quiet.getvalue() == ""


def test_a_postgresql_url_as_db(postgres_url: str) -> None:
    """``--db postgresql://…`` stores the games on a PostgreSQL server (through psycopg 3),
    and the same command again finds them there."""
    args = [*BASE, "--games", "4", "--workers", "1", "--db", postgres_url, "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["db"].startswith("postgresql+psycopg://")
    again = runner.invoke(app, args[:-1])
    assert again.exit_code == 0, again.output
    assert "4 of 4 games already stored" in " ".join(again.output.split())
    with TournamentStore(postgres_url) as store:
        (row,) = store.tournaments()
        assert store.count_games(row.id) == 4
