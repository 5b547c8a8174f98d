"""The clock rules of ``docs/protocol.md`` ("Clocks"), pinned on simulated time."""

from __future__ import annotations

from typing import Any

from racedeck.server.clocks import ClockOptions
from racedeck.server.referee.messages import Back, BotAnswer
from referee.sim import World

BLITZ = ClockOptions(profile="blitz", move=8.0, bank=45.0, grace=60.0, bot="random")


def _clock(world: World) -> Any:
    return world.referee.clock_json(world.now)


def test_every_seat_asked_in_a_new_round_gets_its_move_time_afresh() -> None:
    """Why First? (WF-4): whoever places the last card of a round starts the next round with
    the whole per-move time, like everyone else; nobody's bank runs at once."""
    # Every move uses some bank.
    world = World("why-first", ["person", "person"], seed=3, clock=BLITZ, think=(9.0, 12.0))
    world.run(until=world.now + 200)
    rounds = 0
    for r in world.frames_of(1):
        seats = r.frame.get("clock", {}).get("seats", [])
        if r.frame["type"] == "update" and seats and all(s["running"] for s in seats):
            rounds += 1  # a round starts: everyone is asked at once
            assert [s["move_left"] for s in seats] == [8.0, 8.0], r.frame["clock"]
    assert rounds >= 5
    banks = [s.bank for s in world.referee.clock.seats]
    assert all(b < 45.0 for b in banks), banks


def test_a_restart_keeps_a_running_bank() -> None:
    """A crash gives no time back: the running move is charged from its stored start."""
    world = World(
        "six-day-race",
        ["person", "person"],
        seed=1,
        clock=BLITZ,
        config={"races": 1},
        think=(1000.0, 1000.0),  # nobody moves
    )
    world.run(until=world.now + 20.0)  # 8 s of move time, then 12 s of bank
    before = _clock(world)
    world.restart()
    after = _clock(world)
    assert after["seats"] == before["seats"]
    running = [s for s in after["seats"] if s["running"]]
    assert running and running[0]["bank"] == 33.0


def test_the_stand_in_plays_nothing_once_its_person_is_back() -> None:
    """A person out of time is played by the bot until they are back; a decision the bot was
    still making then is dropped, and the clock says plainly what time the person has."""
    world = World(
        "setback",
        ["person", "person"],
        seed=5,
        clock=BLITZ,
        bot_think=(30.0, 30.0),
        think=(1000.0, 1000.0),
    )
    world.run(until=world.now + 60.0)  # 8 s + 45 s of bank: someone ran out
    clock = _clock(world)
    taken = [i for i, s in enumerate(clock["seats"]) if s["bot"]]
    assert taken, clock
    seat = taken[0]
    assert clock["seats"][seat]["reason"] == "timeout" and clock["seats"][seat]["bank"] == 0.0
    asks = [a for a, (s, *_rest) in world.referee.asks.items() if s == seat]
    assert asks, "the stand-in was asked"
    moves = world.referee.table.move
    world.handle(Back(world.people[seat].conn))
    assert not world.referee.clock.seats[seat].bot
    # The bot's answer arrives after the person is back: it is not taken.
    world.handle(BotAnswer(asks[0], {"type": "pass"}))
    assert world.referee.table.move == moves
    notes = [n["kind"] for n in world.referee.clock.notes if n["seat"] == seat]
    assert notes[-2:] == ["timeout", "back"]
    frames = [r.frame for r in world.frames_of(world.people[seat].conn)]
    last_table = next(f for f in reversed(frames) if f["type"] == "table")
    mine = last_table["table"]["clock"]["seats"][seat]
    assert mine["bot"] is False and mine["bank"] == 0.0


def test_no_clock_runs_in_a_window_and_it_lasts_its_minimum() -> None:
    """SB-9: a BLOCK window asks nobody in public, so no seat's clock runs in it; it closes at
    its minimum when every answer is in, whoever answered when."""
    world = World(
        "setback", ["person", "person", "person"], seed=2, clock=BLITZ, config={"window_seconds": 3}
    )
    opened: list[float] = []
    closed: list[float] = []
    world.run(until=world.now + 120)
    for r in world.frames_of(1):
        if r.frame.get("type") != "update":
            continue
        kinds = [e["kind"] for e in r.frame["events"]]
        if "window_opened" in kinds:
            opened.append(r.at)
            assert not any(s["running"] for s in r.frame["clock"]["seats"])
        if "window_closed" in kinds or "block_played" in kinds:
            closed.append(r.at)
    assert opened and closed
    for start, end in zip(opened, closed, strict=False):
        assert end - start >= 3.0 - 1e-9
