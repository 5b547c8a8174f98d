"""Limits that keep seated people playing when strangers abuse the service
(:mod:`racedeck.server.limits`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck.server.limits import CreationBudget, Limits
from racedeck.server.timekeeper import SimulatedClock
from server.live import FrameChecker, LiveServer, eventually, serving


def test_an_address_creates_its_budget_then_waits_for_the_oldest_to_age() -> None:
    budget = CreationBudget(per_window=3, window=60.0)
    assert [budget.take("a", t) for t in (0.0, 1.0, 2.0)] == [None, None, None]
    assert budget.take("a", 10.0) == pytest.approx(50.0)  # the first ages out at 60
    assert budget.take("b", 10.0) is None  # another address has its own budget
    assert budget.take("a", 60.0) is None
    assert budget.take("a", 60.5) == pytest.approx(0.5)


def test_a_refused_creation_is_not_counted() -> None:
    budget = CreationBudget(per_window=1, window=10.0)
    assert budget.take("a", 0.0) is None
    for t in range(1, 10):
        assert budget.take("a", float(t)) is not None
    assert budget.take("a", 10.0) is None


def test_addresses_that_stopped_creating_are_forgotten() -> None:
    budget = CreationBudget(per_window=1, window=10.0)
    for i in range(5_000):
        budget.take(f"10.0.{i // 256}.{i % 256}", float(i) * 0.001)
    budget.take("late", 100.0)
    assert len(budget) == 1


def test_limits_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="spectators"):
        Limits(spectators=-1)
    with pytest.raises(ValueError, match="open_expiry"):
        Limits(open_expiry=0)


# -- at a server ---------------------------------------------------------------------------------


@contextlib.contextmanager
def limited(tmp_path: Path, **limits: Any) -> Iterator[LiveServer]:
    """A server on simulated time with the given limits (the rest: the defaults)."""
    with serving(
        tmp_path / "tables.sqlite", FrameChecker(), clock=SimulatedClock(), limits=Limits(**limits)
    ) as live:
        yield live


def refused(live: LiveServer, table_id: str, token: str | None) -> dict[str, Any]:
    """The error a socket's hello gets (the server closes it after)."""
    c = live.socket(table_id)
    c.send({"type": "hello", "token": token} if token else {"type": "hello", "spectator": True})
    frame = c.recv()
    assert frame["type"] == "error", frame
    c.close()
    return frame


def test_spectators_cannot_keep_the_seats_from_playing(tmp_path: Path) -> None:
    """A flood of spectators fills the table's spectator places, never the seats': both
    people connect, and play."""
    with limited(tmp_path, spectators_per_table=3) as live:
        created = live.create("why-first", ["human", "human"], {"stages": 1})
        tid = created["table_id"]
        joined = live.join(tid)
        watchers = [live.socket(tid) for _ in range(3)]
        for w in watchers:
            w.hello(None)
        assert refused(live, tid, None)["code"] == "table/busy"
        ann, bob = live.socket(tid), live.socket(tid)
        assert ann.hello(created["token"])["seat"] == 0
        assert bob.hello(joined["token"])["seat"] == 1
        assert live.http.get(f"/api/tables/{tid}").json()["spectators"] == 3
        # A place freed is a place taken again.
        watchers[0].close()
        eventually(lambda: live.http.get(f"/api/tables/{tid}").json()["spectators"] == 2, "left")
        live.socket(tid).hello(None)


def test_the_server_counts_its_spectators_and_a_seat_its_sockets(tmp_path: Path) -> None:
    with limited(tmp_path, spectators=2, sockets_per_seat=2) as live:
        first = live.create("why-first", ["human", "random"])
        second = live.create("why-first", ["human", "random"])
        live.socket(first["table_id"]).hello(None)
        live.socket(second["table_id"]).hello(None)
        assert refused(live, second["table_id"], None)["code"] == "server/busy"
        for _ in range(2):
            live.socket(first["table_id"]).hello(first["token"])
        frame = refused(live, first["table_id"], first["token"])
        assert frame["code"] == "seat/busy"


def test_an_address_creates_tables_at_a_human_pace(tmp_path: Path) -> None:
    """``table/rate-limited`` (429) says when to try again; forks count too; the window
    passes on the server's clock."""
    with limited(tmp_path, creations=2, creation_window=60.0) as live:
        body = {"game": "why-first", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        assert live.http.post("/api/tables", json=body).status_code == 201
        live.advance(10.0)
        assert live.http.post("/api/tables", json=body).status_code == 201
        res = live.http.post("/api/tables", json=body)
        assert res.status_code == 429
        error = res.json()["error"]
        assert error["code"] == "table/rate-limited"
        assert "try again in 50 s" in error["message"]
        fork = live.http.post(
            "/api/forks", json={"record": _finished_record(), "step": 1, "seat": 0, "bot": "random"}
        )
        assert fork.status_code == 429, fork.text
        live.advance(50.0)
        assert live.http.post("/api/tables", json=body).status_code == 201


def test_a_full_server_says_so(tmp_path: Path) -> None:
    with limited(tmp_path, tables=2) as live:
        body = {"game": "why-first", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        for _ in range(2):
            assert live.http.post("/api/tables", json=body).status_code == 201
        res = live.http.post("/api/tables", json=body)
        assert res.status_code == 503 and res.json()["error"]["code"] == "server/full"


def test_an_open_table_nobody_is_at_expires(tmp_path: Path) -> None:
    """An open table whose creator left and that nobody joined expires after
    ``open_expiry``; one its creator waits at stays; a table in play stays."""
    with limited(tmp_path, open_expiry=600.0) as live:
        left = live.create("why-first", ["human", "human"])
        waiting = live.create("why-first", ["human", "human"])
        playing = live.create("why-first", ["human", "random"])
        ann = live.socket(waiting["table_id"])
        ann.hello(waiting["token"])
        live.advance(300.0)
        assert live.http.get(f"/api/tables/{left['table_id']}").status_code == 200
        live.advance(400.0)
        eventually(
            lambda: live.http.get(f"/api/tables/{left['table_id']}").status_code == 404,
            "the table expires",
        )
        res = live.http.post(f"/api/tables/{left['table_id']}/join", json={"name": "Bob"})
        assert res.status_code == 404
        assert live.http.get(f"/api/tables/{waiting['table_id']}").status_code == 200
        assert live.http.get(f"/api/tables/{playing['table_id']}").status_code == 200
        assert live.service.store.load(left["table_id"]).status == "expired"  # type: ignore[union-attr]
        assert left["table_id"] not in {t.id for t in live.service.store.load_all()}


def test_the_lobby_lists_tables_with_a_person_and_recent_activity(tmp_path: Path) -> None:
    with limited(tmp_path, lobby_idle=120.0) as live:
        bots = live.create("why-first", ["random", "random"])
        quiet = live.create("why-first", ["human", "human"])
        there = live.create("why-first", ["human", "human"])
        ann = live.socket(there["table_id"])
        ann.hello(there["token"])

        def listed() -> set[str]:
            return {t["id"] for t in live.http.get("/api/tables").json()}

        assert listed() == {quiet["table_id"], there["table_id"]}
        live.advance(200.0)
        assert listed() == {there["table_id"]}  # someone is at it
        assert bots["table_id"] not in listed()


def _finished_record() -> dict[str, Any]:
    import racedeck
    from racedeck.core.table import Table

    game = racedeck.make("why-first", players=2)
    table = Table(game, 5)
    while not table.is_over:
        seat = table.state.pending[0]
        table.submit(seat, game.legal_actions(table.state, seat)[0])
    return table.record.to_json()
