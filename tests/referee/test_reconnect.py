"""A reconnect loses nothing a seat alone knows: its sealed window answer and its face-down
salts come back in its welcome (docs/protocol.md, "welcome")."""

from __future__ import annotations

from typing import Any

from racedeck.server.referee.messages import Act, Connect, Disconnect
from referee.sim import SPECTATOR, World


def _last_welcome(world: World, conn: int) -> Any:
    return next(r.frame for r in reversed(world.frames_of(conn)) if r.frame["type"] == "welcome")


def _until(world: World, found: Any, limit: float = 600.0) -> Any:
    end = world.now + limit
    while world.now < end and not world.over:
        world.run(until=world.now + 0.05)
        hit = found()
        if hit is not None:
            return hit
    raise AssertionError("never happened")


def test_a_sealed_window_answer_comes_back_in_the_welcome() -> None:
    """SB-9: an answer is sealed until the window closes, so only the welcome can tell a
    reconnecting page what it answered; a second answer is refused all the same."""
    world = World("setback", ["person", "person", "person"], seed=4, config={"window_seconds": 3})

    def answered() -> tuple[int, Any] | None:
        window = world.referee.window
        if window is None or window.complete or not window.answered:
            return None
        return min(window.answered), window

    seat, window = _until(world, answered)
    conn = world.people[seat].conn
    others = [s for s in window.asked if s != seat and s not in window.answered]
    world.disconnect(seat)
    world.reconnect(seat)
    welcome = _last_welcome(world, conn)
    assert welcome["answer"] == window.sealed[seat]
    for other in others:
        assert "answer" not in _last_welcome(world, world.people[other].conn)
    # The page shows the answer instead of asking again; a client that asks again is told.
    world.handle(Act(conn, window.move, welcome["answer"], "again"))
    error = world.frames_of(conn)[-1].frame
    assert error["type"] == "error" and error["code"] == "action/not-your-turn"
    assert error["id"] == "again"
    world.run()
    assert world.over


def test_own_face_down_salts_come_back_in_the_welcome() -> None:
    """A seat that reconnects before the reveal gets its own salts back (and nobody else's):
    it can still check that each commitment is to the card it chose."""
    world = World("why-first", ["person", "person", "person"], seed=6, fair=True)

    def unopened() -> tuple[int, list[Any]] | None:
        ledger = world.referee.ledger
        if ledger is None:
            return None
        waiting = ledger.entries[ledger.opened :]
        seats = {e.seat for e in waiting}
        return (min(seats), waiting) if seats and len(seats) < 3 else None

    seat, waiting = _until(world, unopened)
    world.disconnect(seat)
    world.reconnect(seat)
    commitments = _last_welcome(world, world.people[seat].conn)["table"]["fair"]["commitments"]
    by_move = {c["move"]: c for c in commitments}
    for entry in waiting:
        shown = by_move[entry.move]
        if entry.seat == seat:
            assert shown == entry.to_json()
        else:
            assert shown == entry.public_json()
    world.handle(Disconnect(SPECTATOR))
    world.handle(Connect(SPECTATOR, None))
    spectator = _last_welcome(world, SPECTATOR)["table"]["fair"]["commitments"]
    assert spectator == world.referee.ledger.public_json()
    assert [c for c in spectator if "salt" in c] == commitments[: world.referee.ledger.opened]
