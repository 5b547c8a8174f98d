"""Replays, checks and "what if" forks at a real server: every finished game's record carries
its fairness facts and verifies; a game's steps are given only once it is over; a tampered
record is refused with the reason; a fork is a private table dealt from the game's seed with
the chosen prefix played, the person at the chosen seat and bots elsewhere (every frame passes
the leak checker of ``conftest.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from racedeck.core.fairness import FAIR_KEY, verify
from racedeck.core.record import GameRecord, replay
from racedeck.core.table import Table
from racedeck.server.live import view_json
from racedeck.store.forks import FORK_KEY
from server.live import FrameChecker, LiveServer, serving, validator
from server.test_finished_games import play_to_the_end
from server.test_http import refused

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""

SMALL = {"players": 2, "stages": 1}


def finished_table(server: LiveServer, games: int = 1) -> tuple[str, dict[str, Any]]:
    """A Why First? table of Ann and a random bot that has played ``games`` games to the end;
    its id and the creation answer."""
    created = server.create("why-first", ["human", "random"], SMALL, client_seed="ann")
    table_id = created["table_id"]
    ann = server.socket(table_id)
    ann.hello(created["token"])
    for n in range(1, games + 1):
        if n > 1:
            again = server.http.post(
                f"/api/tables/{table_id}/again",
                json={"token": created["token"], "client_seed": f"ann-{n}"},
            )
            assert again.status_code == 200, again.text
            ann.until(lambda f, n=n: f["type"] == "update" and f["game_no"] == n)
        play_to_the_end(ann)
    ann.close()
    return table_id, created


def record_of(server: LiveServer, table_id: str, game_no: int) -> dict[str, Any]:
    res = server.http.get(f"/api/tables/{table_id}/games/{game_no}/record")
    assert res.status_code == 200, res.text
    data: dict[str, Any] = res.json()
    return data


def test_every_finished_game_record_carries_its_fairness_facts(server: LiveServer) -> None:
    table_id, _ = finished_table(server, games=2)
    first, second = record_of(server, table_id, 1), record_of(server, table_id, 2)
    for n, record in ((1, first), (2, second)):
        assert record["meta"]["game_no"] == n
        assert verify(GameRecord.from_json(record)) == []
    # Each game had its own server seed, revealed in its own record.
    assert first["meta"][FAIR_KEY]["server_seed"] != second["meta"][FAIR_KEY]["server_seed"]
    assert first["meta"][FAIR_KEY]["client_seeds"] == ["ann", ""]
    assert second["meta"][FAIR_KEY]["client_seeds"] == ["ann-2", ""]
    # The current game's record is the same record, by the same path.
    current = server.http.get(f"/api/tables/{table_id}/record")
    assert current.status_code == 200 and current.json() == second


def test_a_replay_is_refused_while_the_game_is_in_play(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "random"], SMALL)
    table_id = created["table_id"]
    refused(server.http.get(f"/api/tables/{table_id}/games/1/replay"), 409, "game/not-over")
    refused(server.http.get(f"/api/tables/{table_id}/games/2/replay"), 404, "game/not-found")
    refused(server.http.get("/api/tables/nope/games/1/replay"), 404, "table/not-found")
    fork = {"table_id": table_id, "game_no": 1, "step": 0, "seat": 0, "bot": "random"}
    refused(server.http.post("/api/forks", json=fork), 409, "game/not-over")


def test_a_replay_holds_every_step_and_every_seat_s_view(server: LiveServer) -> None:
    table_id, _ = finished_table(server)
    record = GameRecord.from_json(record_of(server, table_id, 1))
    res = server.http.get(f"/api/tables/{table_id}/games/1/replay", params={"count": 100})
    assert res.status_code == 200, res.text
    body = res.json()
    validator("replay").validate(body)
    total = len(record.actions) + 1
    assert body["total"] == total and len(body["steps"]) == total and body["over"] is True
    assert body["fair"] is True and body["fork"] is None and body["names"][0] == "Ann"
    assert [s["index"] for s in body["steps"]] == list(range(total))
    assert [s["action"] for s in body["steps"][1:]] == [a.action for a in record.actions]
    # The views are the game's own, step by step: the spectators' then each seat's.
    game = record.make_game()
    table = Table(game, record.seed)
    names = body["names"]
    states = [table.state] + [s.state for s in replay(record)]
    items = body["views"]["items"]
    assert body["views"]["start"] == 0 and len(items) == min(total, 100)
    for state, views in zip(states, items, strict=False):
        table.state = state
        for k, seat in enumerate((None, 0, 1)):
            want = view_json(table, seat, names)
            want["legal_actions"] = []
            assert views[k] == want
    assert items[-1][1]["header"]["terminal"] is (len(items) == total)
    # Private events are shown after the end, tagged with their seat.
    events = [e for s in body["steps"] for e in s["events"]]
    assert any(e.get("audience") == 1 for e in events) and all(e["text"] for e in events)

    # The views of a later stretch only, and a record given as a file: the same steps.
    tail = server.http.get(
        f"/api/tables/{table_id}/games/1/replay",
        params={"start": total - 2, "count": 5, "steps": "false"},
    ).json()
    assert "steps" not in tail and tail["views"]["start"] == total - 2
    assert len(tail["views"]["items"]) == 2 and tail["views"]["items"][-1][1]["header"]["terminal"]
    posted = server.http.post(
        "/api/replay", content=json.dumps(record.to_json()), params={"count": 100}
    )
    assert posted.status_code == 200 and posted.json() == body


def test_the_replay_pages_serve_the_client(server: LiveServer) -> None:
    for path in ("/replay", "/t/someid/games/3"):
        page = server.http.get(path)
        assert page.status_code == 200 and "<script" in page.text
    assert server.http.get("/static/replay.js").status_code == 200


def test_a_record_that_is_not_one_is_refused(server: LiveServer) -> None:
    refused(server.http.post("/api/replay", content=b"{nope"), 400, "record/invalid")
    refused(server.http.post("/api/replay", json={"game": "why-first"}), 400, "record/invalid")
    refused(server.http.post("/api/verify", json=[1, 2]), 400, "record/invalid")
    big = {"game": "why-first", "pad": "x" * 2_000_000}
    refused(server.http.post("/api/replay", json=big), 413, "message/too-large")


def test_the_check_passes_a_true_record_and_names_each_tampering(server: LiveServer) -> None:
    table_id, _ = finished_table(server)
    true = record_of(server, table_id, 1)
    # Larger than an ordinary message (8 kB): records have their own limit.
    padded = {**true, "meta": {**true["meta"], "note": "x" * 20_000}}
    for record in (true, padded):
        ok = server.http.post("/api/verify", json=record).json()
        validator("record-check").validate(ok)
        assert ok["ok"] is True and ok["problems"] == [] and ok["replays"] is True
        assert ok["result_matches"] is True and ok["result"] == ok["stated"]

    # A changed action: it no longer replays (or no longer gives the stated result).
    moved = json.loads(json.dumps(true))
    first = moved["actions"][0]
    first["action"] = {"type": "nonsense"}
    bad = server.http.post("/api/verify", json=moved).json()
    assert bad["ok"] is False and bad["replays"] is False and "action 0" in bad["replay_error"]

    # A changed seed: not the one derived from the seeds.
    reseeded = {**true, "seed": true["seed"] + 1}
    bad = server.http.post("/api/verify", json=reseeded).json()
    assert bad["ok"] is False and any("derived" in p for p in bad["problems"])

    # A changed result: the actions give another.
    fair = dict(true["meta"][FAIR_KEY])
    fair["result"] = {**fair["result"], "winners": [1 - fair["result"]["winners"][0]]}
    claimed = {**true, "meta": {**true["meta"], FAIR_KEY: fair}}
    bad = server.http.post("/api/verify", json=claimed).json()
    validator("record-check").validate(bad)
    assert bad["ok"] is False and bad["replays"] is True and bad["result_matches"] is False
    assert any("result" in p for p in bad["problems"])


def test_a_fork_is_a_private_game_from_the_chosen_step(
    server: LiveServer, checker: FrameChecker
) -> None:
    table_id, _ = finished_table(server)
    source = GameRecord.from_json(record_of(server, table_id, 1))
    step = len(source.actions) // 2
    res = server.http.post(
        "/api/forks",
        json={
            "table_id": table_id,
            "game_no": 1,
            "step": step,
            "seat": 1,
            "bot": "heuristic",
            "name": "Cy",
        },
    )
    assert res.status_code == 201, res.text
    forked = res.json()
    validator("fork-response").validate(forked)
    checker.tokens.add(forked["token"])
    fork_id = forked["table_id"]
    assert forked["seat"] == 1 and forked["url"].endswith(f"/t/{fork_id}")
    assert forked["fork"] == {
        "source": "table",
        "table": table_id,
        "game_no": 1,
        "commitment": source.meta[FAIR_KEY]["commitment"],
        "step": step,
        "seat": 1,
        "bot": "heuristic",
        "fair": False,
    }
    # Not in the lobby; a bot plays seat 0, the person seat 1; no fair-deal facts.
    assert fork_id not in {t["id"] for t in server.http.get("/api/tables").json()}
    info = server.http.get(f"/api/tables/{fork_id}").json()
    assert [s["kind"] for s in info["seats"]] == ["bot", "human"]
    assert info["seats"][0]["bot"] == "heuristic" and info["seats"][1]["name"] == "Cy"
    # The bot keeps the name of the seat it plays on: who is who stays as it was.
    assert info["seats"][0]["name"] == source.meta["names"][0] == "Ann"
    assert info["fair"] is None
    room = server.service.rooms[fork_id]
    assert room.table is not None
    assert room.seed == source.seed
    assert room.table.record.actions[:step] == source.actions[:step]

    # The person plays on from there (the bot answers), to the end.
    cy = server.socket(fork_id)
    welcome = cy.hello(forked["token"])
    assert welcome["seat"] == 1 and welcome["view"]["header"]["move"] >= step
    final = play_to_the_end(cy)
    assert final["header"]["terminal"]
    record = server.http.get(f"/api/tables/{fork_id}/record").json()
    assert record["actions"][:step] == source.to_json()["actions"][:step]
    assert record["meta"][FORK_KEY] == forked["fork"] and FAIR_KEY not in record["meta"]
    assert verify(GameRecord.from_json(record))[0].startswith("the record holds no fairness")
    # Played once: its next deal's seed could not be committed before the seats' seeds.
    again = server.http.post(f"/api/tables/{fork_id}/again", json={"token": forked["token"]})
    refused(again, 409, "fork/again")


def test_a_fork_from_a_record_file_and_bad_forks(server: LiveServer, tmp_path: Path) -> None:
    table_id, _ = finished_table(server)
    source = record_of(server, table_id, 1)
    n = len(source["actions"])
    ask = {"record": source, "step": 3, "seat": 0, "bot": "random"}
    validator("fork-request").validate(ask)
    res = server.http.post("/api/forks", json=ask)
    assert res.status_code == 201, res.text
    server.checker.tokens.add(res.json()["token"])
    assert res.json()["fork"]["source"] == "record" and res.json()["fork"]["table"] == table_id
    for wrong, code in (
        ({"step": n}, "fork/invalid"),  # the game is over there
        ({"seat": 2}, "fork/invalid"),  # a two-seat game
        ({"bot": "nobody"}, "fork/invalid"),
        ({"table_id": table_id}, "fork/invalid"),  # a record and a table
        ({"step": -1}, "message/invalid"),
    ):
        refused(server.http.post("/api/forks", json={**ask, **wrong}), 400, code)
    refused(
        server.http.post(
            "/api/forks", json={"table_id": table_id, "step": 1, "seat": 0, "bot": "random"}
        ),
        400,
        "fork/invalid",
    )


def test_a_fork_stays_private_and_records_verify_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    checker = FrameChecker()
    with serving(db, checker) as server:
        table_id, _ = finished_table(server)
        res = server.http.post(
            "/api/forks",
            json={"table_id": table_id, "game_no": 1, "step": 2, "seat": 0, "bot": "random"},
        )
        assert res.status_code == 201, res.text
        forked = res.json()
        checker.tokens.add(forked["token"])
    with serving(db, checker) as server:
        lobby = {t["id"] for t in server.http.get("/api/tables").json()}
        assert forked["table_id"] not in lobby
        room = server.service.rooms[forked["table_id"]]
        assert room.origin == forked["fork"] and room.table is not None
        assert room.table.move >= 2
        cy = server.socket(forked["table_id"])
        assert cy.hello(forked["token"])["seat"] == 0
        # The finished game's fairness facts were stored with it: its record still verifies.
        assert verify(GameRecord.from_json(record_of(server, table_id, 1))) == []
