"""Provably fair deals at a real server: the commitment is public before the deal, the server
seed stays hidden (the leak checker of :mod:`server.live` watches every frame) until the game
is over, then is revealed; the record verifies; the seats' client seeds change the deal."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from racedeck.core.fairness import game_seed, verify
from racedeck.core.record import GameRecord
from server.live import FrameChecker, LiveServer
from server.test_leaks import play_to_the_end

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


def test_a_fair_game_from_commitment_to_verified_record(
    server: LiveServer, checker: FrameChecker
) -> None:
    created = server.create(
        "why-first", ["human", "human", "random"], {"stages": 1}, client_seed="ann-seed"
    )
    table_id = created["table_id"]
    fair = created["table"]["fair"]
    committed = fair["commitment"]
    assert len(committed) == 64 and fair["server_seed"] is None and fair["client_seeds"] is None
    joined = server.join(table_id, client_seed="bob-seed")
    # Dealt now: the commitment is the one published before, the seed still hidden.
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "playing"
    # The bot may have placed its card face down already: a hash, no salt (WF-4).
    sealed = info["fair"].pop("commitments")
    assert all(e["seat"] == 2 and "salt" not in e for e in sealed)
    assert info["fair"] == {
        "commitment": committed,
        "server_seed": None,
        "client_seeds": None,
        "next_commitment": None,
    }
    early = server.http.get(f"/api/tables/{table_id}/record")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game/not-over"
    room = server.service.rooms[table_id]
    assert room.seed == game_seed(room.server_seed, ["ann-seed", "bob-seed", ""])

    clients = []
    for token in (created["token"], joined["token"]):
        c = server.socket(table_id)
        welcome = c.hello(token)
        assert welcome["table"]["fair"]["commitment"] == committed
        clients.append(c)
    play_to_the_end(clients, random.Random(3), [])

    def ended(f: dict[str, Any]) -> bool:
        return bool(f["type"] == "table" and f["table"]["status"] == "over")

    # The table frame of the end was read while playing, or is on its way.
    over = [f for f in clients[0].frames if ended(f)] or [clients[0].until(ended)]
    revealed = over[-1]["table"]["fair"]
    assert revealed["commitment"] == committed
    assert hashlib.sha256(revealed["server_seed"].encode()).hexdigest() == committed
    assert revealed["client_seeds"] == ["ann-seed", "bob-seed", ""]
    # No frame before the end held the server seed (the checker fails the test otherwise);
    # the frames of the end do.
    assert any(revealed["server_seed"] in str(f) for _t, _s, f in checker.frames)

    res = server.http.get(f"/api/tables/{table_id}/record")
    assert res.status_code == 200
    record = GameRecord.from_json(res.json())
    assert record.meta["fair"]["server_seed"] == revealed["server_seed"]
    assert record.meta["fair"]["result"]["winners"]
    assert verify(record) == []
    for c in clients:
        c.close()

    # Play again: the server seed committed to at the end (before Ann sends her fresh client
    # seed), hidden until that game ends.
    following = revealed["next_commitment"]
    assert following is not None and following != committed
    again = server.http.post(
        f"/api/tables/{table_id}/again", json={"token": created["token"], "client_seed": "ann-2"}
    )
    assert again.status_code == 200
    info = server.http.get(f"/api/tables/{table_id}").json()
    sealed = info["fair"].pop("commitments")
    assert all(e["seat"] == 2 and "salt" not in e for e in sealed)
    assert info["fair"] == {
        "commitment": following,
        "server_seed": None,
        "client_seeds": None,
        "next_commitment": None,
    }
    assert room.seed == game_seed(room.server_seed, ["ann-2", "bob-seed", ""])


def test_client_seeds_change_the_deal(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "random", "random"], client_seed="mine")
    room = server.service.rooms[created["table_id"]]
    assert room.table is not None
    without = game_seed(room.server_seed, ["", "", ""])
    assert room.table.seed == game_seed(room.server_seed, ["mine", "", ""]) != without
    dealt = room.table.history[0][1]
    other = room.game.start(without).events
    assert [e.to_json() for e in dealt] != [e.to_json() for e in other]


def test_a_bad_client_seed_is_refused(server: LiveServer) -> None:
    body = {"game": "why-first", "seats": [{"kind": "human"}] * 3, "client_seed": "two words"}
    res = server.http.post("/api/tables", json=body)
    assert res.status_code == 400 and res.json()["error"]["code"] == "message/invalid"
    assert "client_seed" in res.json()["error"]["message"]


def test_the_checker_catches_the_server_seed_before_the_end(
    server: LiveServer, checker: FrameChecker
) -> None:
    created = server.create("why-first", ["human", "random", "random"])
    room = server.service.rooms[created["table_id"]]
    info = server.service.info(room)
    assert isinstance(info["fair"], dict)
    info["fair"] = {**info["fair"], "server_seed": room.server_seed}
    before = len(checker.problems)
    checker(room, 0, {"type": "table", "table": info})
    assert len(checker.problems) == before + 1 and "before the end" in checker.problems[-1]
    checker.problems.clear()
