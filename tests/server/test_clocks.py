"""Table clocks and leavers: per-move time then the bank, seats asked at once run at once, a
bot plays a seat out of time or away past the grace period until its person is back, BLOCK
windows close on their own clock and keep their minimum (SB-9), and all of it is in the record.

The servers here run on simulated time: a test moves the clock on where a person would think
or be away (:meth:`~server.live.LiveServer.advance`), so every time a clock shows is exact and
no test waits for one to run out; what a test waits for is frames. The windows' deal is chosen
in advance (:mod:`server.deals`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.core.errors import InvalidRecord
from racedeck.core.fairness import verify
from racedeck.core.record import GameRecord
from racedeck.core.table import Table
from racedeck.server.timekeeper import SimulatedClock
from server.deals import HELD_THEN_FORCED, windows
from server.live import BASE, REGISTRY, Client, FrameChecker, LiveServer, eventually, seed, serving
from server.test_windows import play_windows

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
# Clocks run in the process that automates a table: on PostgreSQL, the one the sweep gave it.
SERVER_DATABASES = ("sqlite", "postgresql")
SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables
and moves the shared simulated time only on (others' timers due meanwhile fire too)."""

TINY = {"move": 1, "bank": 1, "grace": 0, "bot": "random"}


def _seat(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    clock = frame.get("clock") or frame["table"]["clock"]
    return dict(clock["seats"][seat])


def _clock_says(seat: int, **want: Any) -> Any:
    def pred(frame: dict[str, Any]) -> bool:
        if frame["type"] not in ("update", "table", "welcome"):
            return False
        got = _seat(frame, seat)
        return all(got[k] == v for k, v in want.items())

    return pred


def _two(
    server: LiveServer, game: str, clock: dict[str, Any], config: dict[str, Any] | None = None
) -> tuple[str, list[Client], list[str]]:
    created = server.create(game, ["human", "human"], {"players": 2, **(config or {})}, clock=clock)
    table_id = created["table_id"]
    joined = server.join(table_id)
    # On PostgreSQL the clocks run once the sweep gave the table to the server.
    server.automating(table_id)
    clients = []
    for token in (created["token"], joined["token"]):
        c = server.socket(table_id)
        c.hello(token)
        clients.append(c)
    return table_id, clients, [created["token"], joined["token"]]


def _record(server: LiveServer, table_id: str) -> dict[str, Any]:
    """The record of the table's game, once the bots have played it to the end."""
    # Looked at under the table's lock, so the commands that ended the game are carried out,
    # their rows committed (the record is read from the store), not only decided.
    eventually(
        lambda: server.inspect(table_id, lambda r: r.table is not None and r.table.is_over),
        "the bots finish",
        60,
    )
    res = server.http.get(f"/api/tables/{table_id}/record")
    assert res.status_code == 200, res.text
    record: dict[str, Any] = res.json()
    return record


# -- options ---------------------------------------------------------------------------------------


def test_a_table_names_its_clock_and_bad_clocks_are_refused(server: LiveServer) -> None:
    default = server.create("why-first", ["human", "random"])["table"]["clock"]
    assert (default["profile"], default["move"], default["bank"]) == ("normal", 45, 300)
    assert default["bot"] == "casual" and default["grace"] == 60  # the stated stand-in level
    blitz = server.create("why-first", ["human", "random"], clock={"profile": "blitz"})
    assert blitz["table"]["clock"]["move"] == 8
    custom = server.create("why-first", ["human", "random"], clock={"move": 30, "bank": 0})
    assert custom["table"]["clock"]["profile"] == "custom"
    free = server.create("why-first", ["human", "random"], clock={"profile": "unlimited"})
    assert free["table"]["clock"]["move"] is None
    for bad in (
        {"profile": "bullet"},
        {"move": 0.5},
        {"bank": 9000},
        {"grace": 0.5},
        {"bot": "oracle"},
        {"profile": "custom"},
    ):
        res = server.http.post(
            "/api/tables",
            json={"game": "why-first", "seats": SEATS, "clock": bad},
        )
        assert res.status_code == 400, (bad, res.text)
        assert res.json()["error"]["code"] in ("clock/invalid", "message/invalid"), res.text
    res = server.http.post(
        "/api/tables",
        json={"game": "why-first", "seats": SEATS, "clock": {"profile": "bullet"}},
    )
    assert res.json()["error"]["code"] == "clock/invalid"


# -- running, banks, takeover, return -----------------------------------------------------------


def test_the_bank_pays_for_time_beyond_the_move(sim_server: LiveServer) -> None:
    server = sim_server
    table_id, (ann, bob), _tokens = _two(server, "setback", {"move": 1, "bank": 6, "grace": 0})
    room = server.service.rooms[table_id]
    assert room.table is not None
    first = room.table.pending[0]
    mover = (ann, bob)[first]
    assert mover.view is not None
    server.advance(2.5)  # a person thinking: 1 s of move time, then 1.5 s of bank
    mover.act(mover.view["legal_actions"][0])
    frame = mover.until(lambda f: f["type"] == "update" and not _seat(f, first)["running"])
    assert _seat(frame, first)["bank"] == 4.5
    assert not _seat(frame, first)["bot"]


def test_seats_asked_at_once_run_at_once(sim_server: LiveServer) -> None:
    """Why First?: both seats place at once, both clocks run; a seat's clock stops when it has
    placed, which the view already says (``committed``)."""
    server = sim_server
    _table_id, (ann, bob), _tokens = _two(server, "why-first", {"move": 30, "bank": 30, "grace": 0})
    welcome = ann.frames[0]
    assert _seat(welcome, 0)["running"] and _seat(welcome, 1)["running"]
    assert ann.view is not None
    ann.act(ann.view["legal_actions"][0])
    frame = bob.until(lambda f: f["type"] == "update" and not _seat(f, 0)["running"])
    assert _seat(frame, 1)["running"]
    assert 0 in frame["view"]["committed"]


def test_a_seat_out_of_time_is_played_by_the_bot_until_its_person_is_back(
    sim_server: LiveServer,
) -> None:
    server = sim_server
    table_id, (ann, bob), _tokens = _two(server, "why-first", {**TINY, "bot": "heuristic"})
    # Bob places at once; Ann lets her time run out: the bot places for her.
    assert bob.view is not None
    bob.act(bob.view["legal_actions"][0], cid="b")
    bob.until(lambda f: f.get("ack") == "b")
    server.advance(1.9)  # her move time, and most of her bank: still hers
    assert not server.inspect(table_id, lambda r: r.clock.seats[0].bot)
    server.advance(0.1)
    taken = bob.until(_clock_says(0, bot=True), timeout=30)
    assert _seat(taken, 0)["reason"] == "timeout" and _seat(taken, 0)["bank"] == 0
    ann.until(_clock_says(0, bot=True), timeout=30)
    # The bot plays on for her: the round resolves without her.
    bob.until(lambda f: f["type"] == "update" and f["move"] >= 2, timeout=30)
    ann.send({"type": "back"})
    back = ann.until(_clock_says(0, bot=False), timeout=30)
    assert _seat(back, 0)["bot_played"] and _seat(back, 0)["reason"] is None
    kinds = [n["kind"] for n in server.service.rooms[table_id].clock.notes]
    assert kinds[:1] == ["timeout"] and "back" in kinds


def test_a_disconnect_past_the_grace_hands_the_seat_over_and_reconnecting_returns_it(
    sim_server: LiveServer,
) -> None:
    server = sim_server
    table_id, (ann, bob), (ann_token, _bob) = _two(
        server, "why-first", {"move": 60, "bank": 0, "grace": 1}
    )
    room = server.service.rooms[table_id]
    ann.close()
    eventually(
        lambda: server.inspect(table_id, lambda r: r.clock.seats[0].away is not None),
        "the server sees Ann's socket close",
    )
    server.advance(0.9)  # within the grace: still hers
    assert not server.inspect(table_id, lambda r: r.clock.seats[0].bot)
    server.advance(0.1)
    taken = bob.until(_clock_says(0, bot=True), timeout=30)
    assert _seat(taken, 0)["reason"] == "away"
    assert room.clock.notes[0]["kind"] == "away"
    assert not _seat(taken, 1)["bot"], "Bob is connected: his seat stays his"
    again = server.socket(table_id)
    welcome = again.hello(ann_token)
    assert not _seat(welcome, 0)["bot"] and _seat(welcome, 0)["bot_played"]
    assert [n["kind"] for n in room.clock.notes][-1] == "back"


def test_takeovers_are_in_the_record_and_it_replays_exactly(
    sim_server: LiveServer, tmp_path: Path
) -> None:
    """Both people let their time run out: the bots play the game to its end. The record marks
    the takeovers in ``meta.clock`` at the moves they happened and replays to the same game."""
    server = sim_server
    table_id, _clients, _tokens = _two(server, "why-first", TINY)
    server.advance(2)  # the move time and the bank of both
    record = _record(server, table_id)
    clock = record["meta"]["clock"]
    assert clock["bot_played"] == [0, 1]
    timeouts = [n for n in clock["notes"] if n["kind"] == "timeout"]
    assert [(n["seat"], n["move"]) for n in timeouts] == [(0, 0), (1, 0)]
    Draft202012Validator({"$ref": BASE + "record.schema.json"}, registry=REGISTRY).validate(record)
    parsed = GameRecord.from_json(record)
    assert [n.kind for n in parsed.clock_notes] == [n["kind"] for n in clock["notes"]]
    replayed = Table.from_record(parsed)
    room = server.service.rooms[table_id]
    assert room.table is not None
    assert replayed.state.to_json() == room.table.state.to_json()
    games = server.http.get(f"/api/tables/{table_id}/games").json()["games"]
    assert games[0]["bot_played"] == [0, 1]
    finished = server.http.get(games[0]["record_url"]).json()
    assert finished["meta"]["clock"]["notes"] == clock["notes"]
    assert verify(parsed) == []
    # `racedeck replay` tells of each takeover right before the first move the bot made.
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    shown = CliRunner().invoke(app, ["replay", str(path), "--print", "--spectator"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("ran out of time: the random bot plays for them") == 2
    checked = CliRunner().invoke(app, ["verify", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "stand-in bot played for seats [1, 2]" in checked.output


def test_the_stand_in_plays_at_the_stated_level(sim_server: LiveServer, tmp_path: Path) -> None:
    """A table that names no stand-in gets the Casual level (the server knows nothing of a
    person's strength to match): it plays both seats out of time to the end, and the record
    and its replay say so by the level's name."""
    server = sim_server
    clock = {"move": 1, "bank": 1, "grace": 0}
    table_id, _clients, _tokens = _two(server, "why-first", clock, {"stages": 1})
    server.advance(2)  # the move time and the bank of both
    record = _record(server, table_id)
    assert record["meta"]["clock"]["bot"] == "casual"
    assert record["meta"]["clock"]["bot_played"] == [0, 1]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    shown = CliRunner().invoke(app, ["replay", str(path), "--print", "--spectator"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("ran out of time: the Casual bot plays for them") == 2


def test_a_malformed_clock_note_makes_the_record_invalid() -> None:
    base = {"game": "why-first", "rules_version": "1", "config": {}, "seed": 1, "actions": []}
    for notes in ([{"move": 1, "seat": 0, "kind": "timeout"}], [{"move": 0, "kind": "nap"}]):
        with pytest.raises(InvalidRecord, match="clock note 0"):
            GameRecord.from_json({**base, "meta": {"clock": {"notes": notes}}})
    old = GameRecord.from_json({**base, "meta": {}})
    assert old.clock_notes == ()


def test_a_restart_keeps_the_banks_and_who_a_bot_plays(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    clock = SimulatedClock()  # one time across the restart
    with serving(db, FrameChecker(), clock=clock) as first:
        table_id, (ann, bob), _tokens = _two(first, "setback", {"move": 1, "bank": 6, "grace": 0})
        room = first.service.rooms[table_id]
        assert room.table is not None
        mover = (ann, bob)[room.table.pending[0]]
        seat = room.table.pending[0]
        assert mover.view is not None
        first.advance(2.5)
        mover.act(mover.view["legal_actions"][0])
        frame = mover.until(lambda f: f["type"] == "update" and not _seat(f, seat)["running"])
        assert _seat(frame, seat)["bank"] == 4.5
        ann.close()
        bob.close()
    with serving(db, FrameChecker(), clock=clock) as second:
        info = second.http.get(f"/api/tables/{table_id}").json()
        assert info["clock"]["seats"][seat]["bank"] == 4.5
        assert info["clock"]["move"] == 1


def test_a_restart_keeps_a_takeover(tmp_path: Path) -> None:
    """The bots wait long here, so the game is still on when the server stops: the seat a bot
    took over is still the bot's after the restart, and the bot plays it."""
    db = tmp_path / "tables.sqlite"
    clock = SimulatedClock()  # one time across the restart
    with serving(db, FrameChecker(), bot_delay=600, clock=clock) as first:
        table_id, (ann, bob), _tokens = _two(first, "why-first", TINY)
        first.advance(2)  # the move time and the bank of both
        ann.until(lambda f: _clock_says(0, bot=True)(f) and _clock_says(1, bot=True)(f), 30)
        notes = list(first.service.rooms[table_id].clock.notes)
        ann.close()
        bob.close()
    with serving(db, FrameChecker(), clock=clock) as second:
        room = second.service.rooms[table_id]
        assert room.clock.notes == notes
        assert [s.bot for s in room.clock.seats] == [True, True]
        eventually(
            lambda: room.table is not None and room.table.move > 0,
            "the stand-in bots play on",
            60,
        )


def test_play_again_starts_with_full_banks_and_no_bot(sim_server: LiveServer) -> None:
    server = sim_server
    table_id, (ann, _bob), tokens = _two(server, "why-first", TINY)
    server.advance(2)  # both run out of time: the bots play the game to its end
    _record(server, table_id)
    res = server.http.post(f"/api/tables/{table_id}/again", json={"token": tokens[0]})
    assert res.status_code == 200, res.text
    frame = ann.until(lambda f: f["type"] == "update" and f["game_no"] == 2)
    for seat in (0, 1):
        assert not _seat(frame, seat)["bot"] and not _seat(frame, seat)["bot_played"]
        assert _seat(frame, seat)["bank"] == 1


# -- SB-9: the BLOCK window's own clock --------------------------------------------------------


PLANNED = windows(HELD_THEN_FORCED)


def _windows(
    server: LiveServer, config: dict[str, Any], clock: dict[str, Any], count: int
) -> tuple[list[float], list[dict[str, Any]], list[dict[str, Any]]]:
    """People who take their turns at once but never answer a BLOCK window, at the deal whose
    windows alternate between one Ann holds a BLOCK in and one where every pass is forced:
    return how long the first ``count`` windows stayed open, the spectator's frames and the
    table's clock notes."""
    server.seeds.then(seed(HELD_THEN_FORCED))
    table_id, players, _tokens = _two(server, "setback", clock, {"window_seconds": 0, **config})
    room = server.service.rooms[table_id]
    watcher = server.socket(table_id)
    watcher.hello(None)
    lengths, moves = play_windows(server, table_id, watcher, count, players, pass_at_once=False)
    assert moves == [w.move for w in PLANNED[:count]], "not the deal planned"
    for frame in watcher.frames:
        if frame["type"] == "update" and any(e["kind"] == "window_opened" for e in frame["events"]):
            # Its own clock, the same for all: no seat's clock runs in a window.
            assert frame["clock"]["window"] is not None
            assert not any(s["running"] for s in frame["clock"]["seats"])
    # A window's clock is not a seat's: nobody was taken over, no bank was touched.
    assert not any(s.bot_played for s in room.clock.seats)
    assert [s.bank for s in room.clock.seats] == [clock["bank"]] * 2
    return lengths, watcher.frames, room.clock.notes


def test_an_unanswered_window_closes_on_its_own_clock(sim_server: LiveServer) -> None:
    lengths, frames, notes = _windows(
        sim_server, {"window_seconds": 1}, {"move": 3, "bank": 60, "grace": 0}, 3
    )
    # A window where a person holds a BLOCK and does not answer waits its clock (the per-move
    # time, 3 s), then those still asked pass and the game goes on; windows where every answer
    # is forced last the minimum (1 s).
    assert [bool(w.holders) for w in PLANNED[:3]] == [True, False, True]
    assert lengths == pytest.approx([3, 1, 3]), lengths
    clocked = [(n["move"], n["seat"]) for n in notes if n["kind"] == "window"]
    assert clocked == [(1, 0), (5, 0)], "the window's clock answered for Ann"
    for frame in frames:
        assert "notes" not in frame.get("clock", {}), "the record's notes are not sent"


def test_a_window_keeps_its_minimum_over_a_shorter_clock(sim_server: LiveServer) -> None:
    lengths, _frames, notes = _windows(
        sim_server, {"window_seconds": 3}, {"move": 1, "bank": 60, "grace": 0}, 2
    )
    # SB-9: the minimum (3 s) wins over the 1 s clock, whether Ann held a BLOCK (the first
    # window, answered by its clock) or not (the second).
    assert [bool(w.holders) for w in PLANNED[:2]] == [True, False]
    assert lengths == pytest.approx([3, 3]), lengths
    assert [(n["move"], n["seat"]) for n in notes if n["kind"] == "window"] == [(1, 0)]


def test_back_is_for_seats_only_and_a_no_op_without_a_takeover(sim_server: LiveServer) -> None:
    server = sim_server
    table_id, (ann, _bob), _tokens = _two(server, "why-first", {"move": 60, "bank": 0})
    ann.send({"type": "back", "id": "b1"})
    ann.send({"type": "ping", "id": "p1"})
    assert ann.until(lambda f: f["type"] in ("pong", "error"))["type"] == "pong"
    assert server.service.rooms[table_id].clock.notes == []
    watcher = server.socket(table_id)
    watcher.hello(None)
    watcher.send({"type": "back", "id": "b2"})
    error = watcher.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("auth/invalid", "b2")


def test_a_failed_commit_keeps_who_is_connected(own_sim_server: LiveServer) -> None:
    """A move the database refuses did not happen: the table is reloaded from the database,
    and the people still connected are not counted as away (no bot takes their seats). On a
    server of its own: the refusal is for this table's move, not another test's bot's."""
    server = own_sim_server
    table_id, (ann, _bob), _tokens = _two(server, "why-first", {"move": 60, "bank": 0})
    room = server.service.rooms[table_id]
    store = server.service.store
    real = store.append_action

    def refuse(*args: Any, **kwargs: Any) -> None:
        store.append_action = real  # type: ignore[method-assign]
        raise RuntimeError("the disk is full")

    store.append_action = refuse  # type: ignore[method-assign]
    assert ann.view is not None
    ann.act(ann.view["legal_actions"][0], cid="a1")
    error = ann.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("server/error", "a1")
    assert room.table is not None and room.table.move == 0
    assert [s.away for s in room.clock.seats] == [None, None]
    assert [s.since is not None for s in room.clock.seats] == [True, True]
