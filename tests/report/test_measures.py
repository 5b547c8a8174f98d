"""Measures taken while a game is played agree with the game's record, replayed on its own."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

import pytest

from racedeck.core.events import Event
from racedeck.core.record import GameRecord, replay
from racedeck.core.registry import make
from racedeck.report.measures import GameMeasures, measure_game
from racedeck.report.measures.setback import SetbackCollector, sole_leader
from racedeck.sim.runner import GameJob, play_job


def _job(game_id: str, bots: str, seats: int, seed: int, **config: object) -> GameJob:
    return GameJob(0, game_id, dict(config), (bots,) * seats, seed)


def _replayed_events(record_json: dict[str, object]) -> list[Event]:
    record = GameRecord.from_json(record_json)
    game = record.make_game()
    events = list(game.start(record.seed).events)
    for step in replay(record):
        events.extend(step.events)
    return events


@pytest.mark.parametrize(
    ("game_id", "seats", "config"),
    [
        ("why-first", 4, {}),
        ("why-first", 2, {"players": 2}),
        ("why-first", 3, {"players": 3, "variant": "tactical"}),
        ("six-day-race", 4, {}),
        ("setback", 3, {}),
    ],
)
def test_measures_play_the_same_game_as_the_runner(
    game_id: str, seats: int, config: dict[str, object]
) -> None:
    job = _job(game_id, "heuristic", seats, 2024, **config)
    measured = measure_game(job)
    played = play_job(job)
    assert measured.scores == played.scores
    assert measured.ranks == played.ranks
    assert measured.winners == played.winners
    assert measured.decisions == played.decisions
    assert measured.bots == job.bots


def test_why_first_scoring_spaces_are_the_second_farthest_spaces() -> None:
    job = _job("why-first", "random", 4, 7)
    measured = measure_game(job)
    scored = [e for e in _replayed_events(play_job(job).record) if e.kind == "stage_scored"]
    assert len(measured.extra["spaces"]) == 5 == len(scored)
    for space, event in zip(measured.extra["spaces"], scored, strict=True):
        positions = event.data["positions"]
        below = sorted({p for p in positions if p < max(positions)})
        assert space == (below[-1] if below else None)
    assert measured.turns is None


def test_why_first_leo_is_a_contestant_in_the_two_player_game() -> None:
    measured = measure_game(_job("why-first", "heuristic", 2, 3, players=2))
    assert len(measured.scores) == 3
    assert sum(measured.credit()) == pytest.approx(1.0)


def test_six_day_race_counts_agree_with_the_replayed_events() -> None:
    job = _job("six-day-race", "heuristic", 4, 11)
    extra = measure_game(job).extra
    events = _replayed_events(play_job(job).record)
    played = [e for e in events if e.kind == "card_played"]
    assert extra["moves"] == len(played) == sum(extra["multipliers"].values())
    multiplied = [e for e in played if e.data["to"] != e.data["first"]]
    assert sum(extra["slip_by_seat"]) == len(multiplied)
    assert extra["slip_extra"] == sum(e.data["to"] - e.data["first"] for e in multiplied)
    assert sum(extra["rider_changes"]) == sum(1 for e in events if e.kind == "rider_change")
    assert sum(extra["crashes"]) == sum(1 for e in events if e.kind == "crash")
    over = next(e for e in events if e.kind == "game_over")
    assert extra["laps"] == list(over.data["laps"])  # event data is immutable: tuples
    first_race = next(e for e in events if e.kind == "race_started")
    assert extra["start_order"] == list(first_race.data["order"][:4])
    assert extra["races"] == 6
    # Per race: the rider changes and refused slipstreams add up to the series' counts.
    assert sum(extra["race_changes"]) == sum(extra["rider_changes"])
    assert sum(extra["race_refused"]) == extra["refused"]
    # Whole-field slipstreams: every other of the 8 riders (SD-12) on the first space.
    assert extra["riders"] == 8
    whole = [e for e in played if e.data["multiplier"] == 8]
    assert len(extra["field_at"]) == len(whole)
    assert extra["field_extra"] == sum(e.data["to"] - e.data["first"] for e in whole)


def test_six_day_race_openings_end_at_the_first_grey_card() -> None:
    # The heuristic bots play every race's opening alike: same green hands from space 0
    # (SD-2, SD-11); random bots do not.
    job = _job("six-day-race", "heuristic", 4, 11)
    extra = measure_game(job).extra
    assert len(extra["openings"]) == extra["races"] == 6
    assert len({tuple(o) for o in extra["openings"]}) == 1
    events = _replayed_events(play_job(job).record)
    race: list[Event] = []
    started = False
    for e in events:  # the first race, from its start to its scoring
        if e.kind == "race_started":
            if started:
                break
            started = True
        elif started:
            race.append(e)
    played = [e for e in race if e.kind == "card_played"]
    grey = next(i for i, e in enumerate(played) if e.data["card"] >= 10)
    _, moves, changes, refused = extra["openings"][0]
    assert moves == grey
    opening = race[: race.index(played[grey])]  # every event before the first grey card
    assert changes == sum(1 for e in opening if e.kind == "rider_change") > 0
    assert refused == sum(1 for e in played[:grey] if e.data["riders_there"] and e.data["special"])
    assert max(extra["field_at"]) <= moves
    randoms = measure_game(_job("six-day-race", "random", 4, 11)).extra["openings"]
    assert len({tuple(o) for o in randoms}) > 1


def test_setback_counts_agree_with_the_replayed_events() -> None:
    # Random bots BLOCK freely, so this game has windows, BLOCKs and cancellations to count.
    job = _job("setback", "random", 4, 5, players=4)
    measured = measure_game(job)
    extra = measured.extra
    events = _replayed_events(play_job(job).record)
    assert extra["first"] == events[0].data["first"]
    assert measured.turns == sum(1 for e in events if e.kind == "turn_started")
    assert sum(extra["blocks"]) == sum(1 for e in events if e.kind == "block_played") > 0
    closed = [e for e in events if e.kind == "window_closed"]
    assert extra["cancelled"] == sum(1 for e in closed if e.data["cancelled"])
    assert extra["declared"] == sum(1 for e in events if e.kind == "declared")
    # SB-9 amended: a window after every declaration; the record says who could BLOCK it.
    could = sum(
        1
        for a, b in pairwise(events)
        if a.kind == "window_opened" and a.data["blocks"] == 0 and b.data["holders"] > 0
    )
    assert extra["windows"] == could > 0
    # SB-9 amended again: of several BLOCKs answered at once one is played, the others kept.
    answered = [e.data["blocks"] for e in events if e.kind == "window_answered"]
    assert extra["kept_blocks"] == sum(max(0, b - 1) for b in answered)
    assert sum(1 for b in answered if b) == sum(extra["blocks"])


def test_sole_leader() -> None:
    assert sole_leader([-1, -1, -1]) == -1
    assert sole_leader([0, -1, 2]) == 2
    assert sole_leader([3, 3, 1]) == -1


def test_lead_changes_count_a_new_sole_leader_only() -> None:
    collector = SetbackCollector(3)
    rows = [
        (-1, -1, -1),  # all on START: nobody leads
        (0, -1, -1),  # P1 takes the lead: not a change
        (0, 1, -1),  # P2: change 1
        (1, 1, -1),  # shared: no change
        (2, 1, -1),  # P1 again, out of a tie it was part of: change 2
        (2, 1, 2),  # shared
        (2, 1, 4),  # P3: change 3
        (2, 1, 4),  # unchanged
    ]
    for r in rows:
        collector.observe([], SimpleNamespace(row=list(r)))
    assert collector.lead_changes == 3


def test_measures_round_trip_through_json() -> None:
    m = GameMeasures(("a", "b"), (1.0, 2.0), (2, 1), (0, 1), 17, 9, {"x": [1, None]})
    assert GameMeasures.from_json(m.to_json()) == m
    assert m.credit() == [0.5, 0.5]


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="no bot"):
        measure_game(_job("setback", "nobody", 3, 1))
    assert make("setback").num_players == 3
