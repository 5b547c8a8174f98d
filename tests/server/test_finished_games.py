"""Spectators and finished games: the watch link, the public view a spectator's socket gets,
the list of a table's finished games and their records (every frame also passes the leak
checker of ``conftest.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.core.record import GameRecord, replay
from racedeck.server.live import view_json
from server.live import BASE, REGISTRY, Client, LiveServer, validator
from server.test_http import refused

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""

runner = CliRunner()


def play_to_the_end(client: Client) -> dict[str, Any]:
    """Play the client's seat (its first legal action each time) until the game ends; the
    final view."""
    moves = 0
    while True:
        assert client.view is not None
        if client.view["header"]["terminal"]:
            return client.view
        if client.view["legal_actions"]:
            cid = f"m{moves}"
            client.act(client.view["legal_actions"][0], cid=cid)
            client.until(lambda f, cid=cid: cid in (f.get("id"), f.get("ack")))
            moves += 1
        else:
            client.until(lambda f: f["type"] == "update")
        assert moves < 500


def test_the_watch_link_serves_the_client(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    page = server.http.get(f"/t/{created['table_id']}/watch")
    assert page.status_code == 200 and "<script" in page.text


def test_a_spectator_socket_gets_the_public_view_only(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    table_id = created["table_id"]
    joined = server.join(table_id)
    ann = server.socket(table_id)
    ann.hello(created["token"])
    bob = server.socket(table_id)
    bob.hello(joined["token"])
    watcher = server.socket(table_id)
    welcome = watcher.hello(None)
    room = server.service.room(table_id)
    assert room.table is not None
    assert welcome["seat"] is None
    assert welcome["view"] == view_json(room.table, None, room.names)
    assert welcome["view"] != ann.view and welcome["view"]["legal_actions"] == []
    assert welcome["table"]["spectators"] == 1
    # After a move, the spectator's update is the public view again (the checker looks at
    # every frame for hands, tokens and seeds too).
    assert ann.view is not None
    ann.act(ann.view["legal_actions"][0], cid="a1")
    ann.until(lambda f: f.get("ack") == "a1")
    update = watcher.until(lambda f: f["type"] == "update" and f["move"] >= 1)
    assert update["view"]["header"]["seat"] is None
    assert all("audience" not in e for e in update["events"])
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["spectators"] == 1


def test_a_running_game_has_no_record(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    table_id = created["table_id"]
    server.join(table_id)
    listed = server.http.get(f"/api/tables/{table_id}/games").json()
    validator("table-games").validate(listed)
    assert listed == {"table_id": table_id, "games": []}
    refused(server.http.get(f"/api/tables/{table_id}/games/1/record"), 409, "game/not-over")
    refused(server.http.get(f"/api/tables/{table_id}/games/2/record"), 404, "game/not-found")
    refused(server.http.get(f"/api/tables/{table_id}/games/0/record"), 404, "game/not-found")
    refused(server.http.get(f"/api/tables/{table_id}/games/x/record"), 400, "message/invalid")
    refused(server.http.get("/api/tables/nope/games"), 404, "table/not-found")
    refused(server.http.get("/api/tables/nope/games/1/record"), 404, "table/not-found")


def test_finished_games_are_listed_and_their_records_replay(
    server: LiveServer, tmp_path: Path
) -> None:
    created = server.create("why-first", ["human", "random"], {"players": 2, "stages": 1})
    table_id = created["table_id"]
    ann = server.socket(table_id)
    ann.hello(created["token"])
    final = play_to_the_end(ann)
    outcome = final["header"]["outcome"]
    again = server.http.post(f"/api/tables/{table_id}/again", json={"token": created["token"]})
    assert again.status_code == 200 and again.json()["game_no"] == 2
    ann.until(lambda f: f["type"] == "update" and f["game_no"] == 2)

    listed = server.http.get(f"/api/tables/{table_id}/games").json()
    validator("table-games").validate(listed)
    assert [g["game_no"] for g in listed["games"]] == [1]
    game = listed["games"][0]
    assert game["outcome"] == outcome
    assert game["winners"] == [outcome["names"][i] for i in outcome["winners"]]
    assert game["record_url"] == f"/api/tables/{table_id}/games/1/record"
    # Game 2 is dealt and running: no record yet.
    refused(server.http.get(f"/api/tables/{table_id}/games/2/record"), 409, "game/not-over")

    res = server.http.get(game["record_url"])
    assert res.status_code == 200
    assert "attachment" in res.headers["content-disposition"]
    Draft202012Validator({"$ref": BASE + "record.schema.json"}, registry=REGISTRY).validate(
        res.json()
    )
    record = GameRecord.from_json(res.json())
    assert record.meta["names"][0] == "Ann" and record.meta["game_no"] == 1
    last = list(replay(record))[-1]
    game_obj = record.make_game()
    replayed = game_obj.outcome(last.state)
    assert replayed is not None
    assert sorted(replayed.winners) == outcome["winners"]
    assert list(replayed.scores) == outcome["scores"]

    # The file as downloaded is what `racedeck replay` reads, to the same end.
    path = tmp_path / "game-1.json"
    path.write_text(json.dumps(res.json()))
    shown = runner.invoke(app, ["replay", str(path), "--print", "--spectator"])
    assert shown.exit_code == 0, shown.output
    assert f"{len(record.actions)} actions" in shown.output
    for name in game["winners"]:
        assert name in shown.output
