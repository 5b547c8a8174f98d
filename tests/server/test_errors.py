"""Every refusal in the documented shape, and the limits the protocol states: the web layer's
own refusals and failures over HTTP, bodies nested too deeply, frames too large for a message
but not for the transport, messages over the rate answered with their ``id``, a ``hello`` that
asks to play and to watch at once, and the options' bounds as values in ``/api/games``."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from racedeck.core.registry import available_games, get_spec
from racedeck.server.messages import MAX_DEPTH, MAX_FRAME_BYTES, MAX_MESSAGE_BYTES
from racedeck.server.replays import MAX_RECORD_BYTES
from racedeck.server.rooms import FLOOD_LIMIT, RATE_BURST, RATE_PER_SECOND
from racedeck.server.timekeeper import SimulatedClock
from server.live import ROOT, Client, FrameChecker, LiveServer, eventually, serving, validator

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""

JSON = {"Content-Type": "application/json"}
DEEP = 100_000
"""Levels of nesting in the deep bodies: far past what Python's parser recurses through."""


def refused(res: Any, status: int, code: str) -> str:
    """Check a refusal's status, shape and code; its message."""
    assert res.status_code == status, res.text
    assert res.headers["content-type"] == "application/json", res.headers
    body = res.json()
    validator("http-error").validate(body)
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    return message


def nested(depth: int, inner: str = "1") -> str:
    """JSON text of ``depth`` arrays and objects around ``inner``, alternating."""
    opening = "".join('{"a":' if i % 2 else "[" for i in range(depth))
    closing = "".join("}" if i % 2 else "]" for i in reversed(range(depth)))
    return opening + inner + closing


# -- HTTP: what the web layer refuses before any route ------------------------------------------


def test_paths_that_are_not_served_are_not_found(server: LiveServer) -> None:
    for path in ("/api/nope", "/nope", "/static/nope.js", "/api/tables/t1/nope"):
        assert path in refused(server.http.get(path), 404, "http/not-found")


def test_a_method_a_path_does_not_take_is_not_allowed(server: LiveServer) -> None:
    res = server.http.delete("/api/games")
    assert "DELETE" in refused(res, 405, "http/method-not-allowed")
    assert res.headers["allow"] == "GET"
    res = server.http.get("/api/tables/t1/join")
    refused(res, 405, "http/method-not-allowed")
    assert res.headers["allow"] == "POST"


def test_unreadable_and_invalid_requests_are_refused_as_invalid(server: LiveServer) -> None:
    bad = server.http.post("/api/tables", content=b"{not json", headers=JSON)
    refused(bad, 400, "message/invalid")
    refused(server.http.post("/api/tables", json=[1, 2]), 400, "message/invalid")
    refused(server.http.post("/api/tables", content=b"", headers=JSON), 400, "message/invalid")
    refused(server.http.get("/api/tables/t1/games/first/record"), 400, "message/invalid")
    refused(server.http.get("/api/tables/t1/games/1/replay?count=-1"), 400, "message/invalid")
    big = {"game": "why-first", "name": "x" * MAX_MESSAGE_BYTES, "seats": []}
    refused(server.http.post("/api/tables", json=big), 413, "message/too-large")
    record = {"actions": [{"seat": 0, "action": {}}] * (MAX_RECORD_BYTES // 20)}
    refused(server.http.post("/api/verify", json=record), 413, "message/too-large")


def test_a_failure_is_answered_in_the_shape_and_logged_not_shown(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(table_id: str) -> Any:
        raise RuntimeError("internal detail 7f3a")

    monkeypatch.setattr(server.service, "room", broken)
    caplog.set_level(logging.ERROR, logger="racedeck.server")
    res = server.http.get("/api/tables/t1")
    message = refused(res, 500, "server/error")
    assert "7f3a" not in res.text and "Traceback" not in res.text and "RuntimeError" not in message
    logged = [r for r in caplog.records if r.name == "racedeck.server" and r.exc_info]
    assert logged and "/api/tables/t1" in logged[0].getMessage()
    exc_info = logged[0].exc_info
    assert exc_info is not None and isinstance(exc_info[1], RuntimeError)
    assert server.http.get("/api/games").status_code == 200


def test_the_openapi_description_declares_the_error_shape(server: LiveServer) -> None:
    doc = server.http.get("/openapi.json").json()
    shape = doc["components"]["schemas"]
    assert shape["ErrorBody"]["required"] == ["error"]
    assert shape["ErrorBody"]["additionalProperties"] is False
    assert "HTTPValidationError" not in shape
    operations = [(p, m, op) for p, ops in doc["paths"].items() for m, op in ops.items()]
    assert len(operations) >= 13
    for path, method, op in operations:
        responses = op["responses"]
        assert "422" not in responses, (method, path)
        assert "500" in responses, (method, path)
        for status, answer in responses.items():
            if status.startswith("2"):
                continue
            ref = answer["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/ErrorBody", (method, path, status)
        if "requestBody" in op:
            assert "413" in responses and "400" in responses, (method, path)


# -- bodies nested too deeply -------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/verify", "/api/replay"])
def test_a_record_nested_100000_deep_is_refused(server: LiveServer, path: str) -> None:
    for body in ("[" * DEEP + "]" * DEEP, nested(DEEP)):
        res = server.http.post(path, content=body, headers=JSON)
        assert "nested too deeply" in refused(res, 400, "record/invalid")
    # Shallow enough for the parser, too deep for the code that walks a record.
    parses = '{"game": "why-first", "config": {"x": ' + nested(900) + "}}"
    res = server.http.post(path, content=parses, headers=JSON)
    assert "nested too deeply" in refused(res, 400, "record/invalid")
    assert server.http.get("/api/games").status_code == 200


def test_request_bodies_nested_too_deeply_are_refused(server: LiveServer) -> None:
    # Past the parser: FastAPI reads these bodies itself.
    fork = '{"step": 0, "seat": 0, "bot": "random", "record": ' + nested(DEEP) + "}"
    res = server.http.post("/api/forks", content=fork, headers=JSON)
    assert "nested too deeply" in refused(res, 400, "message/invalid")
    table = '{"game": "why-first", "seats": [], "config": {"x": ' + "[" * 3000 + "]" * 3000 + "}}"
    assert len(table) < MAX_MESSAGE_BYTES
    res = server.http.post("/api/tables", content=table, headers=JSON)
    assert "nested too deeply" in refused(res, 400, "message/invalid")
    # Parsed, but past the depth anything from outside may have.
    table = '{"game": "why-first", "seats": [], "config": {"x": ' + nested(MAX_DEPTH) + "}}"
    res = server.http.post("/api/tables", content=table, headers=JSON)
    assert "nested too deeply" in refused(res, 400, "message/invalid")


# -- the socket -----------------------------------------------------------------------------------


def seated(server: LiveServer) -> tuple[str, str, Client]:
    """A Why First? table of Ann and two random bots that have placed their first cards, and
    Ann's greeted socket: nothing moves until Ann acts."""
    created = server.create("why-first", ["human", "random", "random"], {"players": 3})
    table_id = created["table_id"]
    eventually(lambda: actions(server, table_id) == 2, "the bots place their cards")
    ann = server.socket(table_id)
    ann.hello(created["token"])
    return table_id, created["token"], ann


def actions(server: LiveServer, table_id: str) -> int:
    stored = server.service.store.load(table_id)
    assert stored is not None
    return len(stored.actions)


def test_a_frame_too_large_for_a_message_is_refused_on_an_open_socket(
    server: LiveServer,
) -> None:
    table_id, _token, ann = seated(server)
    for frame in ("x" * 100_000, b"\x00" * 100_000, '{"type": "ping", "x": "' + "y" * 900_000):
        if isinstance(frame, bytes):
            ann.ws.send(frame)
        else:
            ann.send(frame)
        error = ann.until(lambda f: f["type"] == "error")
        assert error["code"] == "message/too-large", error
        ann.send({"type": "ping", "id": "still-open"})
        assert ann.until(lambda f: f["type"] == "pong")["id"] == "still-open"
    assert actions(server, table_id) == 2
    # Past the transport's limit the socket is closed: 1009, message too big.
    ann.ws.send("x" * (MAX_FRAME_BYTES + 1))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ann.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_serve_reads_frames_up_to_the_transport_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from racedeck.cli import serve as serve_command
    from racedeck.server import shutdown

    given: dict[str, Any] = {}
    monkeypatch.setattr(shutdown, "run", lambda app, **options: given.update(options))
    monkeypatch.setattr(serve_command, "_tune_gc", lambda: None)
    serve_command.serve(db=str(tmp_path / "tables.sqlite"))
    assert given["ws_max_size"] == MAX_FRAME_BYTES > MAX_MESSAGE_BYTES


def test_hello_with_a_token_and_spectator_is_refused(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "human", "random"])
    table_id, token = created["table_id"], created["token"]
    both = {"type": "hello", "token": token, "spectator": True}
    assert not validator("hello").is_valid(both)
    assert validator("hello").is_valid({"type": "hello", "token": token})
    client = server.socket(table_id)
    client.send(both)
    error = client.recv()
    assert error["type"] == "error" and error["code"] == "message/invalid", error
    assert "not both" in error["message"]
    with pytest.raises(ConnectionClosed):
        client.recv(5)
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["spectators"] == 0 and not info["seats"][0]["connected"]
    # Each alone is as it was.
    assert server.socket(table_id).hello(token)["seat"] == 0
    assert server.socket(table_id).hello(None)["seat"] is None


@pytest.fixture
def limited(tmp_path: Path, checker: FrameChecker) -> Iterator[LiveServer]:
    """A server with the real rate limits (10 messages a second, 30 at once), on simulated
    time: its sockets' budgets refill only as the test moves the time on."""
    with serving(
        tmp_path / "tables.sqlite",
        checker,
        rate=RATE_PER_SECOND,
        burst=RATE_BURST,
        clock=SimulatedClock(),
    ) as live:
        yield live


def answers(client: Client, ids: list[str]) -> dict[str, str]:
    """How each message of ``ids`` was answered: ``pong``, ``ack`` (an update acknowledging
    it) or its error's code; an error without an ``id`` fails."""
    out: dict[str, str] = {}
    while len(out) < len(ids):
        frame = client.recv()
        if frame["type"] == "pong":
            key, how = frame["id"], "pong"
        elif frame["type"] == "update" and "ack" in frame:
            key, how = frame["ack"], "ack"
        elif frame["type"] == "error":
            key, how = frame["id"], frame["code"]
        else:
            continue
        assert key in ids and key not in out, frame
        out[key] = how
    return out


def test_a_message_dropped_for_the_rate_is_answered_with_its_id(limited: LiveServer) -> None:
    table_id, _token, ann = seated(limited)
    assert ann.view is not None
    pings = [f"p{i}" for i in range(int(RATE_BURST) + 10)]
    for cid in pings:
        ann.send({"type": "ping", "id": cid})
    ann.act(ann.view["legal_actions"][0], cid="a1")
    ids = [*pings, "a1"]
    first = answers(ann, ids)
    dropped = [cid for cid in ids if first[cid] == "message/rate-limited"]
    assert dropped, first
    assert {first[cid] for cid in ids if cid not in dropped} <= {"pong", "ack"}
    # As the protocol says: wait a tenth of a second per message, then send them again.
    limited.advance(len(dropped) / RATE_PER_SECOND + 0.3)
    for cid in dropped:
        if cid == "a1":
            ann.act(ann.view["legal_actions"][0], cid="a1")
        else:
            ann.send({"type": "ping", "id": cid})
    again = answers(ann, dropped)
    assert set(again.values()) <= {"pong", "ack"}, again
    assert "ack" in (first["a1"], again.get("a1")), "Ann's card was placed once"
    assert actions(limited, table_id) >= 3


# -- what the protocol states -------------------------------------------------------------------


def test_games_give_each_options_bounds_and_choices_as_values(server: LiveServer) -> None:
    games = server.http.get("/api/games").json()
    validator("games").validate(games)
    assert [g["id"] for g in games] == list(available_games())
    for g in games:
        spec = get_spec(g["id"])
        for listed, option in zip(g["options"], spec.options(), strict=True):
            assert (listed["min"], listed["max"]) == (option.min, option.max)
            assert listed["choices"] == (list(option.choices) if option.choices else None)
            if type(listed["default"]) is int and listed["choices"] is None:
                assert listed["min"] <= listed["default"] <= listed["max"], listed
        players = next(o for o in g["options"] if o["name"] == "players")
        assert (players["min"], players["max"]) == (spec.min_players, spec.max_players)
    why_first = {o["name"]: o for o in next(g for g in games if g["id"] == "why-first")["options"]}
    assert why_first["players"]["allowed"] == "integer, 2 to 6"
    assert why_first["variant"]["choices"] == ["base", "tactical"]


def test_the_protocol_states_the_limits_the_server_has() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text()
    assert MAX_FRAME_BYTES == 1 << 20 and "up to 1 MiB" in doc and "close code 1009" in doc
    assert f"nests at most {MAX_DEPTH} levels" in doc
    assert f"{RATE_PER_SECOND:g} messages a second on average and {RATE_BURST:g} at once" in doc
    assert f"({FLOOD_LIMIT} messages dropped)" in doc
