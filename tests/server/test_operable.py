"""The service is operable: ``/healthz`` says whether it serves and its database answers,
``/metrics`` counts what it does for Prometheus (each app apart), a log line about a table
names it, and SIGTERM stops a real ``racedeck serve`` within seconds: it refuses new work,
closes every socket with 1012 after what it was sent, exits with 0, and restarted on the
same database it goes on with every accepted move."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from websockets.exceptions import ConnectionClosed

from racedeck.server.app import RESTART_CLOSE, RESTART_REASON, create_app
from racedeck.server.process import ServerProcess
from server.live import Client, LiveServer, plain_http, process_client, seated, validator

TWO = {"players": 2, "stages": 1}
"""A Why First? table of two people: nothing moves but what a test sends."""

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def refused(res: httpx.Response, status: int, code: str) -> None:
    assert res.status_code == status, res.text
    body = res.json()
    validator("http-error").validate(body)
    assert body["error"]["code"] == code, body


def scrape(base_url: str, http: httpx.Client) -> Samples:
    """Every sample ``/metrics`` gives, by name and labels; the text must parse."""
    res = http.get(base_url + "/metrics")
    assert res.status_code == 200, res.text
    assert res.headers["content-type"].startswith("text/plain; version="), res.headers
    samples: Samples = {}
    for family in text_string_to_metric_families(res.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def stored_actions(server: LiveServer, table_id: str) -> int:
    stored = server.service.store.load(table_id)
    assert stored is not None
    return len(stored.actions)


def play(clients: list[Client], moves: int, tag: str = "m") -> None:
    """``moves`` accepted actions, each the first legal one of a seat that may act; every
    client reads on until it has seen each one."""
    for n in range(moves):
        mover = next(c for c in clients if c.view is not None and c.view["legal_actions"])
        assert mover.view is not None
        cid = f"{tag}{n}"
        mover.act(mover.view["legal_actions"][0], cid=cid)
        frame = mover.until(lambda f, cid=cid: f["type"] == "error" or f.get("ack") == cid)
        assert frame["type"] == "update", frame
        move = frame["view"]["header"]["move"]
        for other in clients:
            if other is not mover:
                other.until(
                    lambda f, move=move: (
                        f.get("view") is not None and f["view"]["header"]["move"] >= move
                    )
                )


def closed_by(client: Client) -> tuple[int | None, str | None]:
    """Read until the server closes the socket: its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv(10)
    received = closed.value.rcvd
    return (received.code, received.reason) if received is not None else (None, None)


# -- /healthz ------------------------------------------------------------------------------------


def test_healthz_answers_ok_with_the_tables_held(server: LiveServer) -> None:
    assert server.http.get("/healthz").json() == {"status": "ok", "tables": 0, "database": "ok"}
    server.create("why-first", ["human", "human"], TWO)
    res = server.http.get("/healthz")
    assert res.status_code == 200
    assert res.json() == {"status": "ok", "tables": 1, "database": "ok"}
    described = server.app.openapi()["paths"]["/healthz"]["get"]["responses"]
    assert set(described) == {"200", "500", "503"}


def test_healthz_is_503_when_the_database_does_not_answer(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = create_engine(f"sqlite:///{tmp_path / 'no-such-folder' / 'tables.sqlite'}")
    monkeypatch.setattr(server.service.store, "engine", gone)
    refused(server.http.get("/healthz"), 503, "database/unavailable")


def test_a_stopping_server_refuses_new_work_then_closes_its_sockets_with_1012(
    server: LiveServer,
) -> None:
    table_id, (ann, bob), watcher = seated(server, "why-first", ["human", "human"], TWO)
    play([ann, bob, watcher], 1)
    before = stored_actions(server, table_id)
    server.service.begin_stop()  # what SIGTERM's handler does

    refused(server.http.get("/healthz"), 503, "server/stopping")
    body = {"game": "why-first", "config": TWO, "seats": [{"kind": "human"}] * 2}
    refused(server.http.post("/api/tables", json=body), 503, "server/stopping")
    refused(server.http.post(f"/api/tables/{table_id}/join", json={}), 503, "server/stopping")
    late = server.socket(table_id)
    assert late.recv()["code"] == "server/stopping"
    assert closed_by(late) == (RESTART_CLOSE, RESTART_REASON)
    mover = ann if ann.view is not None and ann.view["legal_actions"] else bob
    assert mover.view is not None
    mover.act(mover.view["legal_actions"][0], cid="late")
    refusal = mover.until(lambda f: f["type"] == "error")
    assert (refusal["code"], refusal["id"]) == ("server/stopping", "late")
    assert stored_actions(server, table_id) == before

    asyncio.run_coroutine_threadsafe(server.service.stop(), server.loop).result(10)
    for client in (ann, bob, watcher):
        assert closed_by(client) == (RESTART_CLOSE, RESTART_REASON)
    assert all(not room.connections for room in server.service.rooms.values())


# -- /metrics ------------------------------------------------------------------------------------


def test_metrics_count_a_game_as_it_is_played(server: LiveServer) -> None:
    def value(samples: Samples, name: str, **labels: str) -> float:
        return samples.get((name, tuple(sorted(labels.items()))), 0.0)

    before = scrape(server.url, server.http)
    assert value(before, "racedeck_tables", status="playing") == 0
    table_id, (ann, bob), watcher = seated(server, "why-first", ["human", "human"], TWO)
    play([ann, bob, watcher], 3)
    mover = next(c for c in (ann, bob) if c.view is not None and c.view["legal_actions"])
    assert mover.view is not None
    mover.act(mover.view["legal_actions"][0], move=0, cid="old")  # answers the first view
    assert mover.until(lambda f: f["type"] == "error")["code"] == "action/stale"
    refused(server.http.get("/api/tables/nope"), 404, "table/not-found")

    after = scrape(server.url, server.http)
    actions = stored_actions(server, table_id)
    assert actions >= 3
    assert value(after, "racedeck_actions_accepted_total") == actions
    assert value(after, "racedeck_action_commit_seconds_count") == actions
    assert value(after, "racedeck_action_commit_seconds_sum") > 0
    # Every accepted action went to three sockets, the welcomes and the error besides.
    assert value(after, "racedeck_frames_sent_total") >= 3 * actions + 3 + 1
    assert value(after, "racedeck_errors_sent_total", code="action/stale", via="socket") == 1
    assert value(after, "racedeck_errors_sent_total", code="table/not-found", via="http") == 1
    assert value(after, "racedeck_tables", status="playing") == 1
    assert value(after, "racedeck_tables", status="open") == 0
    assert value(after, "racedeck_seats_connected") == 2
    assert value(after, "racedeck_spectators_connected") == 1


def test_each_app_counts_apart(tmp_path: Path) -> None:
    """Two applications in one process (the tests' servers) have a registry each."""
    first = create_app(tmp_path / "first.sqlite")
    second = create_app(tmp_path / "second.sqlite")
    try:
        first.state.service.metrics.actions.inc(5)
        text = second.state.service.metrics.exposition().decode()
        assert re.search(r"^racedeck_actions_accepted_total 0\.0$", text, re.M), text
        text = first.state.service.metrics.exposition().decode()
        assert re.search(r"^racedeck_actions_accepted_total 5\.0$", text, re.M), text
    finally:
        first.state.service.store.close()
        second.state.service.store.close()


# -- the log -------------------------------------------------------------------------------------


def test_a_log_line_about_a_table_names_it(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, (ann, bob), _watcher = seated(server, "why-first", ["human", "human"], TWO)
    store = server.service.store
    real = store.append_action

    def refuse(*args: Any, **kwargs: Any) -> None:
        store.append_action = real  # type: ignore[method-assign]
        raise RuntimeError("the disk is full")

    caplog.set_level(logging.ERROR, logger="racedeck.server")
    store.append_action = refuse  # type: ignore[method-assign]
    mover = ann if ann.view is not None and ann.view["legal_actions"] else bob
    assert mover.view is not None
    mover.act(mover.view["legal_actions"][0], cid="a1")
    assert mover.until(lambda f: f["type"] == "error")["code"] == "server/error"
    failed = [r for r in caplog.records if r.name == "racedeck.server" and r.exc_info]
    assert failed, caplog.records
    assert all(getattr(r, "table", None) == table_id for r in failed)
    assert all(r.getMessage().startswith(f"table {table_id}: ") for r in failed)


# -- SIGTERM -------------------------------------------------------------------------------------


def test_sigterm_closes_every_socket_with_1012_exits_0_and_loses_no_move(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    log = tmp_path / "serve.log"
    server = ServerProcess(db, extra=["--bot-delay", "0", "--bot-workers", "1"], log=log)
    server.start()
    try:
        http = plain_http(server.url)
        seats = [{"kind": "human"}, {"kind": "human"}]
        created = http.post(
            "/api/tables", json={"game": "why-first", "config": TWO, "seats": seats}
        ).json()
        table_id = created["table_id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={}).json()
        tokens = [created["token"], joined["token"]]
        ann, bob = (process_client(server.port, table_id, t) for t in tokens)
        watcher = process_client(server.port, table_id, None)
        clients = [ann, bob, watcher]
        play(clients, 3)

        # One more move on its way as the signal comes: stored and acknowledged, or refused
        # and not made; never stored unseen.
        mover = next(c for c in (ann, bob) if c.view is not None and c.view["legal_actions"])
        assert mover.view is not None
        mover.act(mover.view["legal_actions"][0], cid="last")
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        for client in clients:
            assert closed_by(client) == (RESTART_CLOSE, RESTART_REASON)
        assert server.proc.wait(timeout=15) == 0
        seen = {c.seat: c.view for c in clients}
        assert re.search(
            r"^\d{4}-\d\d-\d\d \S+ INFO racedeck\.server: stopping: 3 sockets told to reconnect$",
            log.read_text(),
            re.M,
        ), log.read_text()

        server.start()
        ann, bob = (process_client(server.port, table_id, t) for t in tokens)
        watcher = process_client(server.port, table_id, None)
        clients = [ann, bob, watcher]
        # Each gets back exactly the table it last saw: every move it was told of is there,
        # and none it was not told of.
        assert {c.seat: c.view for c in clients} == seen
        play(clients, 2, tag="after")
    finally:
        server.stop()
