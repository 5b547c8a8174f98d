"""Simulation: many seeded tables driven through disconnects, timeouts, returns, restarts
and play again, on simulated time, checking the invariants after every step (see
:mod:`referee.sim`). A failure names its seed; ``scripts/soak.py`` runs the same worlds for as
long as one likes."""

from __future__ import annotations

import pytest
from budget import scaled

from racedeck.core.jsontypes import JSONObject
from racedeck.core.rng import Rng, derive_seed
from racedeck.server.clocks import ClockOptions
from racedeck.server.referee.messages import Back, PlayAgain
from referee.sim import World

CLOCKS = {
    "blitz": ClockOptions(profile="custom", move=2.0, bank=3.0, grace=2.0, bot="random"),
    "normal": ClockOptions(profile="custom", move=20.0, bank=60.0, grace=30.0, bot="random"),
    "unlimited": ClockOptions(profile="unlimited", move=None, bank=0.0, grace=5.0, bot="random"),
}
"""Clock profiles: a person often runs out of time on ``blitz``, seldom on ``normal``."""

SHORT_RACE: JSONObject = {
    "races": 1,
    "line": 40,
    "sprints": [13, 26],
    "rider_change": 15,
    "crash": 25,
}
"""One race on a short track: a race with sprints, a rider change and a crash space."""

TABLES: list[tuple[str, list[str], JSONObject]] = [
    ("why-first", ["person", "person", "random"], {"stages": 2}),
    ("why-first", ["person", "person"], {"stages": 2}),
    (
        "why-first",
        ["person", "random", "person", "heuristic"],
        {"variant": "tactical", "stages": 1},
    ),
    ("six-day-race", ["person", "random", "person"], SHORT_RACE),
    ("six-day-race", ["person", "person"], {**SHORT_RACE, "riders": 2}),
    ("setback", ["person", "person", "random"], {"window_seconds": 2, "rows": 3}),
    ("setback", ["person", "person"], {"window_seconds": 1, "self_block": "all", "rows": 3}),
    ("setback", ["person", "random", "person", "person"], {"window_seconds": 2, "rows": 3}),
]
"""Short games (fewer stages, races and rows than the defaults): many tables, each one with
everything that can befall it."""

SEEDS_PER_CASE = scaled(28, least=2)
"""Seeds per table and clock in ``make test``, each a game and a play-again: even seeds with
silent people, odd ones with clicking people. 8 tables times 3 clocks times 28 seeds times 2
games: 1,344 simulated games, about 40 seconds of one core (some 90,000 referee commands, the
invariants checked after each). ``RACEDECK_TEST_BUDGET`` scales it; the soak script runs as
many as one likes."""
BLOCKS = 4
"""Each table and clock's seeds run in this many tests, so that the test processes share
them evenly."""
TWO_PROCESS_GAMES = scaled(4, least=2)
"""Seeds per table served by two processes (silent people, then clicking ones)."""


def seed_block(block: int) -> range:
    """The seeds of one of a case's :data:`BLOCKS`."""
    size = -(-SEEDS_PER_CASE // BLOCKS)
    return range(block * size, min(SEEDS_PER_CASE, (block + 1) * size))


def chaos(world: World, seed: int) -> None:
    """Schedule what befalls a table: people who leave and come back, say "I'm back", and a
    process that dies and restarts from its store."""
    rng = Rng(derive_seed(seed, 7))
    people = sorted(world.people)
    t = world.now
    for _ in range(6):
        t += 1 + rng.below(40)
        kind = rng.below(4)
        if kind == 0 and people:
            seat = people[rng.below(len(people))]
            back = t + 1 + rng.below(50)
            world.at(t, "call", lambda s=seat: world.people[s].connected and world.disconnect(s))
            world.at(back, "call", lambda s=seat: world.people[s].connected or world.reconnect(s))
        elif kind == 1 and people:
            seat = people[rng.below(len(people))]
            conn = world.people[seat].conn
            world.at(
                t,
                "call",
                lambda s=seat, c=conn: world.people[s].connected and world.handle(Back(c)),
            )
        else:
            proc = rng.below(len(world.procs))
            world.at(t, "call", lambda p=proc: world.restart(p))


def play(
    game: str, seats: list[str], config: JSONObject, clock: str, seed: int, processes: int = 1
) -> World:
    silent = seed % 2 == 0
    world = World(
        game,
        seats,
        seed=seed,
        config=config,
        clock=CLOCKS[clock],
        silent=silent,
        processes=processes,
    )
    if clock == "blitz":
        for person in world.people.values():
            person.think = (0.5, 6.0)  # past the per-move time now and then
    chaos(world, seed)
    world.run(max_steps=50_000)
    assert world.over, f"seed {seed}: the game did not end"
    return world


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("clock", sorted(CLOCKS))
@pytest.mark.parametrize(
    ("game", "seats", "config"), TABLES, ids=[f"{g}-{len(s)}" for g, s, _ in TABLES]
)
def test_tables_keep_every_invariant(
    game: str, seats: list[str], config: JSONObject, clock: str, block: int
) -> None:
    for seed in seed_block(block):
        world = play(game, seats, config, clock, seed)
        # Play again: the next game at the same table, the seats kept.
        first = next(iter(world.people))
        world.handle(PlayAgain(first, "fresh"))
        assert world.referee.game_no == 2 and not world.over
        world.run(max_steps=50_000)
        assert world.over


def test_a_person_out_of_time_is_played_for_and_noted() -> None:
    """On a blitz clock people who think too long are taken over; the notes say so."""
    kinds: set[str] = set()
    for seed in range(8):
        world = play("why-first", ["person", "person"], {}, "blitz", seed)
        kinds |= {str(n["kind"]) for n in world.referee.clock.notes}
        if "timeout" in kinds:
            break  # what the test looks for: the seeds after it would show nothing new
    assert "timeout" in kinds


@pytest.mark.parametrize(
    ("game", "seats", "config"), TABLES, ids=[f"{g}-{len(s)}" for g, s, _ in TABLES]
)
def test_two_processes_on_one_store_agree(game: str, seats: list[str], config: JSONObject) -> None:
    """Two processes serve the table (people alternate between them; the first plays the
    bots, forced moves, windows and clocks): each catches up with the store before it writes
    and on every notice, so no move is stored twice or against another, and both show every
    seat the same game."""
    for seed in range(TWO_PROCESS_GAMES):
        world = play(game, seats, config, "normal", seed, processes=2)
        other = world.procs[1]
        world._catch_up(1)
        assert other.table is not None and world.referee.table is not None
        assert other.table.state.to_json() == world.referee.table.state.to_json()
