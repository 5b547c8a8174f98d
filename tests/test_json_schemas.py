"""The JSON Schemas in ``docs/schemas`` describe the JSON the engine really writes.

Seeded random games are played through a :class:`racedeck.Table` — *Why First?* with 2, 4
and 6 players, base and tactical; *Six Day Race* with 2 to 8 players, one or two riders each,
one or two races, on the default and on a short track (where riders cross the line) and with
small grey decks (which run out and are refilled); *Setback* with 2 to 6 players, on the
default board and on a two-lane board with a deck full of BLOCKs, with each ``self_block`` and
``edge_bump`` option; every state, several views per
step (spectator, the seat that acted, a pending seat — every seat asked in a BLOCK window; every
seat at the start and the end), every event, every offered and taken action, the outcome and the
record are validated. Negative
cases show that each schema rejects malformed objects, so these tests can fail. The JSON
examples of ``docs/json.md`` are validated too.

The games are validated with ``jsonschema_rs`` when it is installed (``schemathesis`` brings
it), a hundred times faster than ``jsonschema``: the same Draft 2020-12 schemas, and whatever it
rejects is explained by ``jsonschema``'s best match. The two must agree on every malformed
object below and on every sample, so a validator that resolved no ``$ref`` would fail here.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import racedeck
from racedeck.core import Event, Rng, derive_seed
from racedeck.games.setback.cards import DEFAULT_DECK as SB_DEFAULT_DECK

jsonschema_rs: Any
try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - schemathesis (a dev dependency) installs it
    jsonschema_rs = None

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_DIR = ROOT / "docs" / "schemas"
JSON_DOC = ROOT / "docs" / "json.md"

SCHEMA_NAMES = (
    "record",
    "event",
    "outcome",
    "header",
    "why-first.action",
    "why-first.state",
    "why-first.view",
    "six-day-race.action",
    "six-day-race.state",
    "six-day-race.view",
    "setback.action",
    "setback.state",
    "setback.view",
)


# -- schemas ---------------------------------------------------------------------------------


def _file(name: str) -> str:
    return f"{name}.schema.json"


@cache
def _schemas() -> dict[str, Any]:
    return {
        _file(name): json.loads((SCHEMA_DIR / _file(name)).read_text(encoding="utf-8"))
        for name in SCHEMA_NAMES
    }


@cache
def _registry() -> Registry[Any]:
    # The schemas refer to each other by file name ("why-first.action.schema.json").
    resources = [(uri, DRAFT202012.create_resource(s)) for uri, s in _schemas().items()]
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    """Validator for ``docs/schemas/<name>.schema.json``, or a ``$ref`` such as
    ``why-first.state.schema.json#/$defs/event``."""
    if name.endswith(".json") or "#" in name:
        return Draft202012Validator({"$ref": name}, registry=_registry())
    return Draft202012Validator(_schemas()[_file(name)], registry=_registry())


BASE = "https://racedeck.invalid/schemas/"
"""Where the fast validator's registry places the schemas (it resolves absolute URIs)."""


@cache
def fast_check(name: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of ``jsonschema_rs`` for the schema :func:`validator` names (None without
    it). Formats are annotations only, as ``jsonschema`` treats them by default."""
    if jsonschema_rs is None:
        return None
    registry = jsonschema_rs.Registry([(BASE + uri, s) for uri, s in _schemas().items()])
    if name.endswith(".json") or "#" in name:
        schema, base = {"$ref": name}, BASE
    else:
        schema, base = _schemas()[_file(name)], BASE + _file(name)
    checker = jsonschema_rs.Draft202012Validator(
        schema, registry=registry, base_uri=base, validate_formats=False
    )
    check: Callable[[Any], bool] = checker.is_valid
    return check


def assert_valid(name: str, instance: Any, where: str = "") -> None:
    """Fail with the most relevant error and the offending JSON."""
    fast = fast_check(name)
    if fast is not None and fast(instance):
        return
    error = best_match(validator(name).iter_errors(instance))
    if error is None and fast is not None:
        pytest.fail(f"{where}: jsonschema_rs rejects what jsonschema accepts against {name}")
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        shown = json.dumps(instance, sort_keys=True)
        if len(shown) > 2000:
            shown = shown[:2000] + " …"
        pytest.fail(
            f"{where}: not valid against {name} at /{path}: {error.message}\n"
            f"schema path: {'/'.join(str(p) for p in error.absolute_schema_path)}\n"
            f"instance: {shown}"
        )


def is_valid(name: str, instance: Any) -> bool:
    """Whether ``instance`` is valid, by ``jsonschema``; the fast validator must agree."""
    valid = bool(validator(name).is_valid(instance))
    fast = fast_check(name)
    assert fast is None or fast(instance) == valid, f"the validators disagree on {name}"
    return valid


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = _schemas()[_file(name)]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_reference_resolves() -> None:
    # Walk every "$ref" and resolve it, so a typo in a rarely taken branch is caught too.
    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref" and isinstance(value, str):
                    yield value
                else:
                    yield from refs(value)
        elif isinstance(node, list):
            for item in node:
                yield from refs(item)

    for uri, schema in _schemas().items():
        resolver = _registry().resolver(base_uri=uri)
        for ref in refs(schema):
            assert resolver.lookup(ref).contents is not None, f"{uri}: {ref}"


# -- real games ------------------------------------------------------------------------------

CASES = [
    pytest.param(players, variant, id=f"p{players}-{variant}")
    for players in (2, 4, 6)
    for variant in ("base", "tactical")
]


def _play_and_validate(players: int, variant: str, seed: int) -> dict[str, int]:
    """Play one seeded random game, validating everything; return counts of what was checked."""
    game = racedeck.make("why-first", players=players, variant=variant)
    table = racedeck.Table(game, seed, meta={"test": "schemas"})
    policy = Rng(derive_seed(seed, 7))
    counts = {"states": 0, "views": 0, "events": 0, "actions": 0}
    kinds: set[str] = set()
    actions_seen: set[Any] = set()

    def check_state(where: str, acted: int | None, events: tuple[Event, ...]) -> None:
        state = table.state
        assert_valid("why-first.state", state.to_json(), where)
        counts["states"] += 1
        # Spectator, the seat that acted and the first pending seat every step; every seat at
        # the start and at the end.
        seats: list[int | None] = [None, acted, *state.pending[:1]]
        if acted is None or not state.pending:
            seats.extend(range(players))
        for seat in dict.fromkeys(seats):
            view = game.observe(state, seat).to_json()
            assert_valid("why-first.view", view, f"{where}, view of seat {seat}")
            counts["views"] += 1
        for event in events:  # the transition's events, every audience
            assert_valid(WF_EVENT, event.to_json(), f"{where}, event {event.kind}")
            assert_valid("event", event.to_json(), f"{where}, event {event.kind}")
            kinds.add(event.kind)
            counts["events"] += 1

    check_state(f"seed {seed} initial state", None, table.history[0][1])
    step = 0
    while table.state.pending:
        step += 1
        pending = table.state.pending
        seat = pending[policy.below(len(pending))]
        legal = game.legal_actions(table.state, seat)
        for action in legal:
            if action not in actions_seen:  # actions are small frozen values: check each once
                actions_seen.add(action)
                assert_valid("why-first.action", action.to_json(), f"step {step}, {action}")
                counts["actions"] += 1
        action = legal[policy.below(len(legal))]
        events = table.submit(seat, action).events
        check_state(f"seed {seed} step {step} ({action} by seat {seat})", seat, events)

    outcome = game.outcome(table.state)
    assert outcome is not None
    assert_valid("outcome", outcome.to_json(), "outcome")
    record = table.record.to_json()
    assert_valid("record", record, "record")
    assert_valid("record", json.loads(json.dumps(record)), "record after a JSON round trip")
    expected = {
        "stage_started",
        "hand_dealt",
        "card_committed",
        "card_chosen",
        "last_round_automatic",
        "cards_revealed",
        "figure_moved",
        "stage_scored",
        "game_over",
    }
    assert kinds == expected, f"event kinds seen: {sorted(kinds)}"
    return counts


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_random_games_match_the_schemas(players: int, variant: str) -> None:
    counts = _play_and_validate(players, variant, seed=10 * players + len(variant))
    assert counts["states"] > 20 and counts["views"] > counts["states"]
    assert counts["events"] > counts["states"] and counts["actions"] > 0


def test_views_of_every_seat_on_a_mid_game_state() -> None:
    # Every seat plus the spectator on a state where several seats wait and one has committed.
    for players in (2, 6):
        game = racedeck.make("why-first", players=players)
        state = game.new_initial_state(5)
        state = game.apply(state, 1, game.legal_actions(state, 1)[0])
        for seat in (None, *range(players)):
            assert_valid("why-first.view", game.observe(state, seat).to_json(), f"seat {seat}")
        assert game.observe(state, 1).to_json()["my_commit"] is not None


SDR_KINDS = {
    "race_started",
    "hands_dealt",
    "card_played",
    "sprint",
    "crossed_line",
    "final_turns",
    "rider_change",
    "cards_drawn",
    "crash",
    "turn_lost",
    "passed",
    "deck_refilled",
    "race_scored",
    "game_over",
}
SHORT_TRACK = {"line": 45, "sprints": [15, 30], "rider_change": 17, "crash": 27}
SMALL_DECKS = {"grey_low": [3, 3, 2], "grey_high": [2, 1, 2]}

SDR_CASES = [
    pytest.param({"players": 2, "races": 1}, 2, id="p2-two-riders"),
    pytest.param(
        {"players": 3, "riders": 1, "races": 2, **SHORT_TRACK, **SMALL_DECKS},
        5,
        id="p3-one-rider-short-small-decks",
    ),
    pytest.param({"players": 4, "races": 1, **SHORT_TRACK}, 1, id="p4-two-riders-short"),
    pytest.param({"players": 5, "riders": 1, "races": 1}, 1, id="p5-one-rider"),
    pytest.param({"players": 8, "races": 1}, 8, id="p8-one-rider"),
]


def _play_and_validate_game(
    game_id: str, options: dict[str, Any], seed: int, allowed: set[str]
) -> set[str]:
    """Play one seeded game, validating everything against the schemas; return the event kinds."""
    game = racedeck.make(game_id, **options)
    table = racedeck.Table(game, seed, meta={"test": "schemas"})
    policy = Rng(derive_seed(seed, 7))
    players = game.num_players
    kinds: set[str] = set()
    actions_seen: set[Any] = set()

    def check_state(where: str, acted: int | None, events: tuple[Event, ...]) -> None:
        state = table.state
        for event in events:
            assert_valid("event", event.to_json(), f"{where}, event {event.kind}")
        kinds.update(e.kind for e in events)
        assert_valid(f"{game_id}.state", state.to_json(), where)
        # In a BLOCK window every asked seat has its own legal actions: view them all.
        seats: list[int | None] = [None, acted, *state.pending]
        if acted is None or not state.pending:
            seats.extend(range(players))
        for seat in dict.fromkeys(seats):
            view = game.observe(state, seat).to_json()
            assert_valid(f"{game_id}.view", view, f"{where}, view of seat {seat}")

    step = 0
    check_state(f"seed {seed} initial state", None, table.history[0][1])
    while table.state.pending:
        step += 1
        seat = table.state.pending[policy.below(len(table.state.pending))]
        legal = game.legal_actions(table.state, seat)
        for action in legal:
            if action not in actions_seen:
                actions_seen.add(action)
                assert_valid(f"{game_id}.action", action.to_json(), f"step {step}, {action}")
        action = legal[policy.below(len(legal))]
        events = table.submit(seat, action).events
        check_state(f"seed {seed} step {step} ({action} by seat {seat})", seat, events)

    outcome = game.outcome(table.state)
    assert outcome is not None
    assert_valid("outcome", outcome.to_json(), "outcome")
    record = table.record.to_json()
    assert_valid("record", record, "record")
    assert_valid("record", json.loads(json.dumps(record)), "record after a JSON round trip")
    assert kinds <= allowed, f"unexpected event kinds: {sorted(kinds - allowed)}"
    return kinds


def _play_and_validate_sdr(options: dict[str, Any], seed: int) -> set[str]:
    return _play_and_validate_game("six-day-race", options, seed, SDR_KINDS)


def _event_kinds(game_id: str, cases: list[Any]) -> set[str]:
    """Every event kind the seeded random games of ``cases`` produce."""
    seen: set[str] = set()
    for case in cases:
        options, seed = case.values
        assert isinstance(options, dict) and isinstance(seed, int)
        game = racedeck.make(game_id, **options)
        start = game.start(seed)
        state = start.state
        policy = Rng(derive_seed(seed, 7))
        seen.update(e.kind for e in start.events)
        while state.pending:
            seat = state.pending[policy.below(len(state.pending))]
            legal = game.legal_actions(state, seat)
            step = game.step(state, seat, legal[policy.below(len(legal))])
            state = step.state
            seen.update(e.kind for e in step.events)
    return seen


@pytest.mark.parametrize(("options", "seed"), SDR_CASES)
def test_random_six_day_race_games_match_the_schemas(options: dict[str, Any], seed: int) -> None:
    kinds = _play_and_validate_sdr(options, seed)
    assert {"race_started", "card_played", "sprint", "race_scored", "game_over"} <= kinds


def test_six_day_race_cases_produce_every_event_kind() -> None:
    """The cases above together show every event kind, so every branch of the schema is used."""
    assert _event_kinds("six-day-race", SDR_CASES) == SDR_KINDS


def test_six_day_race_views_of_every_seat_with_two_riders_and_shared_points() -> None:
    """Every seat and the spectator, mid-race with two riders each; a result with 20/3 points."""
    game = racedeck.make("six-day-race", players=3, races=2)
    state = game.new_initial_state(5)
    for _ in range(7):
        state = game.apply(state, state.pending[0], game.legal_actions(state, state.pending[0])[0])
    for seat in (None, 0, 1, 2):
        view = game.observe(state, seat).to_json()
        assert_valid("six-day-race.view", view, f"seat {seat}")
        assert len(view["my_hands"]) == (0 if seat is None else 2)
    # Riders 0, 1 and 2 share places 1-3 when the race runs out of cards.
    state.positions = [70, 70, 70, 60, 50, 40]
    state.hands = [[], [], [], [], [], [1]]
    state.crashed = [False] * 6
    state.final_queue = None
    state.current, state.pending = 5, (2,)
    state = game.apply(state, 2, game.legal_actions(state, 2)[0])
    assert state.results[0][0].finish == "20/3"
    assert_valid("six-day-race.state", state.to_json(), "state after a three-way tie")
    for seat in (None, 0):
        assert_valid("six-day-race.view", game.observe(state, seat).to_json(), f"seat {seat}")


SB_KINDS = {
    "game_started",
    "turn_started",
    "turn_skipped",
    "declared",
    "window_opened",
    "block_played",
    "window_closed",
    "cancelled",
    "token_moved",
    "finished",
    "no_effect",
    "traded",
    "skip_placed",
    "cards_drawn",
    "discards_reshuffled",
    "row_removed",
    "lane_added",
    "lane_removed",
    "token_placed",
    "block_discarded",
    "game_over",
    # SB-9 amended and the transition contract: private cards, a record-only count.
    "hand_dealt",
    "cards_received",
    "window_asked",
    # SB-9 amended again: the record-only count of BLOCKs answered once every answer is in.
    "window_answered",
}
SB_MANY_BLOCKS = {
    "deck": [[name, 24 if name == "BLOCK" else count] for name, count in SB_DEFAULT_DECK],
    "rows": 5,
    "lanes": 2,
    "hand_size": 2,
    "rows_removable": 3,
}

SB_CASES = [
    pytest.param({"players": 2}, 28, id="p2"),
    pytest.param({"players": 3}, 1, id="p3"),
    pytest.param({"players": 5}, 1, id="p5-four-lanes"),
    pytest.param({"players": 6}, 10, id="p6-short"),
    pytest.param({"players": 3, "self_block": "none"}, 16, id="p3-no-self-block"),
    pytest.param(
        {"players": 4, **SB_MANY_BLOCKS, "self_block": "all", "edge_bump": "forward"},
        27,
        id="p4-two-lanes-many-blocks-all-forward",
    ),
]


def _play_and_validate_sb(options: dict[str, Any], seed: int) -> set[str]:
    return _play_and_validate_game("setback", options, seed, SB_KINDS)


@pytest.mark.parametrize(("options", "seed"), SB_CASES)
def test_random_setback_games_match_the_schemas(options: dict[str, Any], seed: int) -> None:
    kinds = _play_and_validate_sb(options, seed)
    assert {"declared", "token_moved", "window_opened", "finished", "game_over"} <= kinds


def test_setback_cases_produce_every_event_kind() -> None:
    """The cases above together show every event kind, so every branch of the schema is used."""
    assert _event_kinds("setback", SB_CASES) == SB_KINDS


# -- the schemas reject malformed objects ----------------------------------------------------


@cache
def _samples() -> dict[str, Any]:
    """Valid JSON of every form, taken from real games (a base and a tactical one)."""
    base = racedeck.make("why-first", players=2, variant="base")
    table = racedeck.Table(base, 3)
    seat = table.state.pending[0]
    table.submit(seat, base.legal_actions(table.state, seat)[0])
    state = table.state
    tactical = racedeck.make("why-first", players=3, variant="tactical")
    t_state = tactical.new_initial_state(4)
    t_events: tuple[Event, ...] = ()
    while t_state.phase != "move":
        seat = t_state.pending[0]
        t_step = tactical.step(t_state, seat, tactical.legal_actions(t_state, seat)[-1])
        t_state, t_events = t_step.state, t_step.events
    final = t_state
    final_events: tuple[Event, ...] = ()
    while final.pending:  # the last step of a tactical game is a move: figure_moved (by, card)
        seat = final.pending[0]
        f_step = tactical.step(final, seat, tactical.legal_actions(final, seat)[0])
        final, final_events = f_step.state, f_step.events
    events = {e.kind: e.to_json() for e in final_events}
    base_events = {e.kind: e.to_json() for e in base.start(3).events}
    outcome = tactical.outcome(final)
    assert outcome is not None
    return {
        "record": table.record.to_json(),
        "state": state.to_json(),
        "view": base.observe(state, 0).to_json(),
        "spectator": base.observe(state, None).to_json(),
        "t_view": tactical.observe(t_state, t_state.pending[0]).to_json(),
        "place": base.legal_actions(state, 1)[0].to_json(),
        "commit": {"type": "commit", "card": 7},
        "move": {"type": "move", "target": 2},
        "outcome": outcome.to_json(),
        "game_over": events["game_over"],
        "stage_scored": events["stage_scored"],
        "figure_moved": events["figure_moved"],
        "cards_revealed": next(e.to_json() for e in t_events if e.kind == "cards_revealed"),
        "hand_dealt": base_events["hand_dealt"],
        **_sdr_samples(),
        **_sb_samples(),
    }


def _sdr_samples() -> dict[str, Any]:
    """Valid six-day-race JSON of every form, from a seeded game on a short track with small
    grey decks (two races, one rider each): the state is taken during the final turns of the
    second race, so that it has results, finishers and a final queue."""
    options = {"players": 3, "riders": 1, "races": 2, **SHORT_TRACK, **SMALL_DECKS}
    game = racedeck.make("six-day-race", **options)
    table = racedeck.Table(game, 5)
    policy = Rng(derive_seed(5, 7))
    events: dict[str, Any] = {}
    mid: Any = None
    while table.state.pending:
        state = table.state
        if mid is None and state.race == 1 and state.final_queue:
            mid = state
        seat = state.pending[policy.below(len(state.pending))]
        legal = game.legal_actions(state, seat)
        for event in table.submit(seat, legal[policy.below(len(legal))]).events:
            events.setdefault(event.kind, event.to_json())
    assert mid is not None and set(events) >= {"deck_refilled", "final_turns", "rider_change"}
    outcome = game.outcome(table.state)
    assert outcome is not None
    return {
        "sdr_record": table.record.to_json(),
        "sdr_state": mid.to_json(),
        "sdr_over": table.state.to_json(),
        "sdr_view": game.observe(mid, mid.pending[0]).to_json(),
        "sdr_spectator": game.observe(mid, None).to_json(),
        "sdr_play": game.legal_actions(mid, mid.pending[0])[0].to_json(),
        "sdr_outcome": outcome.to_json(),
        **{f"sdr_{kind}": event for kind, event in events.items()},
    }


def _sb_samples() -> dict[str, Any]:
    """Valid setback JSON of every form, from a seeded 3-player game (seed 33): the first
    BLOCK window, the first ALL step, the first REVAMP placement, the end; the first legal play
    of each kind of card; the first event of each kind."""
    game = racedeck.make("setback", players=3)
    table = racedeck.Table(game, 33)
    policy = Rng(derive_seed(33, 7))
    found: dict[str, Any] = {}
    events: dict[str, Any] = {}
    plays: dict[str, Any] = {}
    while table.state.pending:
        state = table.state
        phase = state.phase if state.phase != "step" else state.context["kind"]
        found.setdefault(phase, state)
        seat = state.pending[policy.below(len(state.pending))]
        legal = game.legal_actions(state, seat)
        for action in legal:
            key = action.to_json()["type"]
            if key == "play":
                key = action.card.kind + ("-lane" if action.lane >= 0 else "")
            plays.setdefault(key, action.to_json())
        for event in table.submit(seat, legal[policy.below(len(legal))]).events:
            events.setdefault(event.kind, event.to_json())
            if event.kind == "declared" and event.data["play"] == {"type": "play", "card": "SKIP"}:
                events.setdefault("board_skip", event.to_json())  # SB-10: no target
    assert {"window", "all", "place"} <= set(found)
    assert events["board_skip"]["source"] == "board"
    assert {"FOE-lane", "CUT", "REVAMP-lane", "step", "pass"} <= set(plays)
    window, step = found["window"], found["all"]
    asked = window.pending[0]
    return {
        "sb_record": table.record.to_json(),
        "sb_window": window.to_json(),
        "sb_step": step.to_json(),
        "sb_place": found["place"].to_json(),
        "sb_over": table.state.to_json(),
        "sb_view": game.observe(window, asked).to_json(),
        "sb_spectator": game.observe(window, None).to_json(),
        "sb_step_view": game.observe(step, step.pending[0]).to_json(),
        "sb_foe": plays["FOE-lane"],
        "sb_cut": plays["CUT"],
        "sb_revamp": plays["REVAMP-lane"],
        "sb_step_action": plays["step"],
        "sb_pass": plays["pass"],
        **{f"sb_{kind}": event for kind, event in events.items()},
    }


Mutation = Callable[[dict[str, Any]], None]
WF_EVENT = "why-first.state.schema.json#/$defs/event"
SDR_EVENT = "six-day-race.state.schema.json#/$defs/event"
SDR_STATE = "six-day-race.state"
SDR_VIEW = "six-day-race.view"
SB_EVENT = "setback.state.schema.json#/$defs/event"
SB_STATE = "setback.state"
SB_VIEW = "setback.view"
SB_ACTION = "setback.action"

NEGATIVE: list[tuple[str, str, str, Mutation]] = [
    # (sample, schema, what is wrong, mutation)
    ("record", "record", "missing seed", lambda o: o.pop("seed")),
    ("record", "record", "seed as a string", lambda o: o.update(seed="1")),
    ("record", "record", "unknown format", lambda o: o.update(format=2)),
    ("record", "record", "extra key", lambda o: o.update(comment="x")),
    ("record", "record", "rules_version as a number", lambda o: o.update(rules_version=1)),
    ("record", "record", "action without type", lambda o: o["actions"][0]["action"].pop("type")),
    ("record", "record", "negative seat", lambda o: o["actions"][0].update(seat=-1)),
    (
        "record",
        "record",
        "why-first action malformed",
        lambda o: o["actions"][0].update(action={"type": "place", "value": "+1", "target": 0}),
    ),
    ("record", "record", "why-first unknown option", lambda o: o["config"].update(speed=2)),
    ("record", "record", "why-first 7 players", lambda o: o["config"].update(players=7)),
    ("state", "why-first.state", "missing rng", lambda o: o.pop("rng")),
    ("state", "why-first.state", "rng above 64 bits", lambda o: o.update(rng=2**64)),
    ("state", "why-first.state", "unknown phase", lambda o: o.update(phase="bidding")),
    ("state", "why-first.state", "card number 0 in a hand", lambda o: o["hands"][0].append(0)),
    ("state", "why-first.state", "stage as a float", lambda o: o.update(stage=0.5)),
    ("state", "why-first.state", "extra key", lambda o: o.update(variant="base")),
    ("state", "why-first.state", "Leo's figure missing", lambda o: o["positions"].pop()),
    ("state", "why-first.state", "commit as a string", lambda o: o["commits"].__setitem__(0, "#7")),
    ("state", "why-first.state", "over but pending", lambda o: o.update(phase="over")),
    ("state", "why-first.state", "events in a state", lambda o: o.update(events=[])),
    ("state", "why-first.state", "move as a float", lambda o: o.update(move=0.5)),
    ("hand_dealt", WF_EVENT, "event without kind", lambda o: o.pop("kind")),
    ("hand_dealt", WF_EVENT, "event of unknown kind", lambda o: o.update(kind="sprint")),
    ("hand_dealt", WF_EVENT, "a hand without audience", lambda o: o.pop("audience")),
    ("view", "why-first.view", "missing header", lambda o: o.pop("header")),
    ("view", "why-first.view", "events in a view", lambda o: o.update(events=[])),
    ("view", "why-first.view", "white numbers in a base-game hand", lambda o: o["hand"].append(4)),
    ("view", "why-first.view", "missing hand", lambda o: o.pop("hand")),
    ("view", "why-first.view", "missing revealed", lambda o: o.pop("revealed")),
    ("view", "why-first.view", "a card revealed twice", lambda o: o["revealed"].extend([7, 7])),
    ("view", "why-first.view", "seat as a string", lambda o: o.update(seat="0")),
    ("view", "why-first.view", "unknown variant", lambda o: o.update(variant="expert")),
    (
        "view",
        "why-first.view",
        "commit action in a base game",
        lambda o: o["legal_actions"].append({"type": "commit", "card": 3}),
    ),
    ("view", "why-first.view", "card value 0", lambda o: o["card_values"].__setitem__(0, 0)),
    ("view", "why-first.view", "track of three numbers", lambda o: o["track"].append(0)),
    ("spectator", "why-first.view", "spectator with a hand", lambda o: o["hand"].append(4)),
    (
        "spectator",
        "why-first.view",
        "spectator with legal actions",
        lambda o: o["legal_actions"].append({"type": "place", "value": 1, "target": 0}),
    ),
    ("t_view", "why-first.view", "tactical commit as a pair", lambda o: o.update(my_commit=[5, 0])),
    ("place", "why-first.action", "missing target", lambda o: o.pop("target")),
    ("place", "why-first.action", "value 0", lambda o: o.update(value=0)),
    ("place", "why-first.action", "value as a string", lambda o: o.update(value="+3")),
    ("place", "why-first.action", "extra key", lambda o: o.update(card=3)),
    ("place", "why-first.action", "unknown type", lambda o: o.update(type="pass")),
    ("commit", "why-first.action", "card number 0", lambda o: o.update(card=0)),
    ("commit", "why-first.action", "card as a float", lambda o: o.update(card=7.5)),
    ("move", "why-first.action", "negative target", lambda o: o.update(target=-1)),
    ("move", "why-first.action", "missing type", lambda o: o.pop("type")),
    ("outcome", "outcome", "missing winners", lambda o: o.pop("winners")),
    ("outcome", "outcome", "rank 0", lambda o: o["ranks"].__setitem__(0, 0)),
    ("outcome", "outcome", "score as a string", lambda o: o["scores"].__setitem__(0, "3")),
    ("outcome", "outcome", "duplicate winner", lambda o: o["winners"].extend(o["winners"])),
    ("outcome", "outcome", "extra key", lambda o: o.update(kind="game_over")),
    ("game_over", "event", "kind as a number", lambda o: o.update(kind=7)),
    ("game_over", "event", "missing kind", lambda o: o.pop("kind")),
    ("game_over", WF_EVENT, "missing scores", lambda o: o.pop("scores")),
    ("game_over", WF_EVENT, "extra key", lambda o: o.update(stage=5)),
    ("stage_scored", WF_EVENT, "stage 0 (events are 1-based)", lambda o: o.update(stage=0)),
    ("stage_scored", WF_EVENT, "space as a string", lambda o: o.update(space="3")),
    ("figure_moved", WF_EVENT, "missing to", lambda o: o.pop("to")),
    ("figure_moved", WF_EVENT, "by without card", lambda o: o.pop("card")),
    ("figure_moved", WF_EVENT, "clamped as 0", lambda o: o.update(clamped=0)),
    ("cards_revealed", WF_EVENT, "card without value", lambda o: o["cards"][0].pop("value")),
    ("cards_revealed", WF_EVENT, "round 0", lambda o: o.update(round=0)),
    # six-day-race
    (
        "sdr_record",
        "record",
        "six-day-race value 0",
        lambda o: o["actions"][0]["action"].update(value=0),
    ),
    (
        "sdr_record",
        "record",
        "six-day-race value as a string",
        lambda o: o["actions"][0]["action"].update(value="3"),
    ),
    ("sdr_record", "record", "six-day-race seat 8", lambda o: o["actions"][0].update(seat=8)),
    ("sdr_record", "record", "six-day-race 9 players", lambda o: o["config"].update(players=9)),
    (
        "sdr_record",
        "record",
        "six-day-race two riders for 5",
        lambda o: o["config"].update(players=5, riders=2),
    ),
    (
        "sdr_record",
        "record",
        "six-day-race one rider for 2",
        lambda o: o["config"].update(players=2, riders=1),
    ),
    ("sdr_record", "record", "six-day-race unknown option", lambda o: o["config"].update(speed=2)),
    ("sdr_record", "record", "six-day-race missing races", lambda o: o["config"].pop("races")),
    ("sdr_record", "record", "six-day-race 21 races", lambda o: o["config"].update(races=21)),
    ("sdr_record", "record", "six-day-race races 2.5", lambda o: o["config"].update(races=2.5)),
    (
        "sdr_record",
        "record",
        "six-day-race a huge grey deck",
        lambda o: o["config"].update(grey_high=[11, 11, 30_000_000]),
    ),
    (
        "sdr_record",
        "record",
        "six-day-race a negative green count",
        lambda o: o["config"].update(green_small=[4, 4, 3, 3, 2, 0, -1]),
    ),
    (
        "sdr_record",
        "record",
        "six-day-race unknown order rule",
        lambda o: o["config"].update(two_rider_order="worst"),
    ),
    (
        "sdr_record",
        "record",
        "six-day-race green counts for 6 values",
        lambda o: o["config"]["green_small"].pop(),
    ),
    ("sdr_state", SDR_STATE, "missing laps", lambda o: o.pop("laps")),
    ("sdr_state", SDR_STATE, "points as a number", lambda o: o["points"].__setitem__(0, 3)),
    ("sdr_state", SDR_STATE, "points as a decimal", lambda o: o["points"].__setitem__(0, "6.5")),
    ("sdr_state", SDR_STATE, "points over 1", lambda o: o["points"].__setitem__(0, "6/1")),
    ("sdr_state", SDR_STATE, "a player's points missing", lambda o: o["points"].pop()),
    ("sdr_state", SDR_STATE, "a rider's position missing", lambda o: o["positions"].pop()),
    ("sdr_state", SDR_STATE, "unknown phase", lambda o: o.update(phase="racing")),
    ("sdr_state", SDR_STATE, "card code 8 in a hand", lambda o: o["hands"][0].append(8)),
    ("sdr_state", SDR_STATE, "green and grey in one hand", lambda o: o["hands"][0].extend([1, 11])),
    ("sdr_state", SDR_STATE, "a 4-6 card in deck 1-3", lambda o: o["deck_low"].append(24)),
    (
        "sdr_state",
        SDR_STATE,
        "a grey card in the green discards",
        lambda o: o["discard_green"].append(13),
    ),
    ("sdr_state", SDR_STATE, "two pending seats", lambda o: o["pending"].append(1)),
    ("sdr_state", SDR_STATE, "racing with nobody pending", lambda o: o.update(pending=[])),
    (
        "sdr_state",
        SDR_STATE,
        "rider twice in the final queue",
        lambda o: o["final_queue"].append(o["final_queue"][0]),
    ),
    ("sdr_state", SDR_STATE, "result without laps", lambda o: o["results"][0][0].pop("laps")),
    (
        "sdr_state",
        SDR_STATE,
        "finish points as a number",
        lambda o: o["results"][0][0].update(finish=10),
    ),
    ("sdr_state", SDR_STATE, "result place 0", lambda o: o["results"][0][0].update(place=0)),
    ("sdr_state", SDR_STATE, "extra key", lambda o: o.update(riders=1)),
    ("sdr_state", SDR_STATE, "rng above 64 bits", lambda o: o.update(rng=2**64)),
    ("sdr_state", SDR_STATE, "a rider's plays missing", lambda o: o["played"].pop()),
    ("sdr_state", SDR_STATE, "card code 8 played", lambda o: o["played"][0].append(8)),
    ("sdr_state", SDR_STATE, "drawn from one deck", lambda o: o["drawn"].__setitem__(0, [7])),
    ("sdr_over", SDR_STATE, "over but pending", lambda o: o.update(pending=[0])),
    ("sdr_over", SDR_STATE, "over with a rider to move", lambda o: o.update(current=0)),
    ("sdr_view", SDR_VIEW, "another rider's hand", lambda o: o["my_hands"].append([1, [1, 2]])),
    ("sdr_view", SDR_VIEW, "hands of every rider", lambda o: o.update(hands=[[1], [2], [3]])),
    ("sdr_view", SDR_VIEW, "two riders each with 5 players", lambda o: o.update(players=5)),
    ("sdr_view", SDR_VIEW, "two riders each is 2 for 2 players", lambda o: o.update(players=2)),
    (
        "sdr_view",
        SDR_VIEW,
        "legal value 0",
        lambda o: o["legal_actions"].append({"type": "play", "value": 0}),
    ),
    ("sdr_view", SDR_VIEW, "deck sizes of three decks", lambda o: o["deck_sizes"].append(0)),
    ("sdr_view", SDR_VIEW, "missing drawn", lambda o: o.pop("drawn")),
    ("sdr_view", SDR_VIEW, "drawn a negative count", lambda o: o["drawn"].__setitem__(0, [-1, 4])),
    ("sdr_view", SDR_VIEW, "seat as a string", lambda o: o.update(seat="0")),
    (
        "sdr_view",
        SDR_VIEW,
        "results finish as a number",
        lambda o: o["results"][0][0].update(finish=0),
    ),
    ("sdr_spectator", SDR_VIEW, "spectator with a hand", lambda o: o["my_hands"].append([0, [1]])),
    (
        "sdr_spectator",
        SDR_VIEW,
        "spectator with legal actions",
        lambda o: o["legal_actions"].append({"type": "play", "value": 1}),
    ),
    ("sdr_play", "six-day-race.action", "value 0", lambda o: o.update(value=0)),
    ("sdr_play", "six-day-race.action", "value 8", lambda o: o.update(value=8)),
    ("sdr_play", "six-day-race.action", "value as a string", lambda o: o.update(value="3")),
    ("sdr_play", "six-day-race.action", "missing type", lambda o: o.pop("type")),
    ("sdr_play", "six-day-race.action", "unknown type", lambda o: o.update(type="pass")),
    ("sdr_play", "six-day-race.action", "extra key", lambda o: o.update(rider=0)),
    (
        "sdr_outcome",
        "outcome",
        "score as a fraction string",
        lambda o: o["scores"].__setitem__(0, "20/3"),
    ),
    ("sdr_card_played", SDR_EVENT, "missing to", lambda o: o.pop("to")),
    ("sdr_card_played", SDR_EVENT, "multiplier 0", lambda o: o.update(multiplier=0)),
    ("sdr_card_played", SDR_EVENT, "special as 0", lambda o: o.update(special=0)),
    ("sdr_sprint", SDR_EVENT, "sprint 0 (events are 1-based)", lambda o: o.update(sprint=0)),
    ("sdr_crossed_line", SDR_EVENT, "extra key", lambda o: o.update(points=10)),
    ("sdr_final_turns", SDR_EVENT, "nobody owed a turn", lambda o: o.update(riders=[])),
    ("sdr_rider_change", SDR_EVENT, "three draws", lambda o: o["drawn"].append(1)),
    ("sdr_deck_refilled", SDR_EVENT, "unknown deck", lambda o: o.update(deck="7-9")),
    ("sdr_race_scored", SDR_EVENT, "unknown reason", lambda o: o.update(reason="rain")),
    ("sdr_race_scored", SDR_EVENT, "result without rider", lambda o: o["riders"][0].pop("rider")),
    ("sdr_race_scored", SDR_EVENT, "race 0", lambda o: o.update(race=0)),
    ("sdr_game_over", SDR_EVENT, "missing laps", lambda o: o.pop("laps")),
    ("sdr_game_over", SDR_EVENT, "extra key", lambda o: o.update(race=2)),
    ("sdr_turn_lost", SDR_EVENT, "rider as a string", lambda o: o.update(rider="P1")),
    # setback
    ("sb_record", "record", "setback 7 players", lambda o: o["config"].update(players=7)),
    ("sb_record", "record", "setback unknown option", lambda o: o["config"].update(speed=2)),
    ("sb_record", "record", "setback missing rows", lambda o: o["config"].pop("rows")),
    ("sb_record", "record", "setback edge bump", lambda o: o["config"].update(edge_bump="wrap")),
    (
        "sb_record",
        "record",
        "setback edge bump stay (gone)",
        lambda o: o["config"].update(edge_bump="stay"),
    ),
    ("sb_record", "record", "setback self block", lambda o: o["config"].update(self_block="yes")),
    ("sb_record", "record", "setback missing self block", lambda o: o["config"].pop("self_block")),
    (
        "sb_record",
        "record",
        "setback unknown card",
        lambda o: o["config"]["deck"][0].__setitem__(0, "JUMP"),
    ),
    ("sb_record", "record", "setback seat 6", lambda o: o["actions"][0].update(seat=6)),
    (
        "sb_record",
        "record",
        "setback action of another game",
        lambda o: o["actions"][0].update(action={"type": "place", "value": 1, "target": 0}),
    ),
    ("sb_window", SB_STATE, "window without a stack", lambda o: o.update(stack=[])),
    ("sb_window", SB_STATE, "window with nobody asked", lambda o: o.update(asked=[])),
    ("sb_window", SB_STATE, "unknown phase", lambda o: o.update(phase="react")),
    ("sb_window", SB_STATE, "a token's row missing", lambda o: o["row"].pop()),
    ("sb_window", SB_STATE, "card index -1 in a hand", lambda o: o["hands"][0].append(-1)),
    (
        "sb_window",
        SB_STATE,
        "a card twice in the draw pile",
        lambda o: o["draw"].append(o["draw"][0]),
    ),
    (
        "sb_window",
        SB_STATE,
        "a second declaration on the stack",
        lambda o: o["stack"].append(dict(o["stack"][0])),
    ),
    ("sb_window", SB_STATE, "declaration without its play", lambda o: o["stack"][0].pop("play")),
    ("sb_window", SB_STATE, "unknown source", lambda o: o.update(source="deck")),
    ("sb_window", SB_STATE, "rng above 64 bits", lambda o: o.update(rng=2**64)),
    ("sb_window", SB_STATE, "extra key", lambda o: o.update(lanes=3)),
    ("sb_step", SB_STATE, "step without a context", lambda o: o.update(context={})),
    ("sb_step", SB_STATE, "ALL amount 3", lambda o: o["context"].update(amount=3)),
    ("sb_step", SB_STATE, "two players asked in a step", lambda o: o.update(pending=[0, 1])),
    (
        "sb_step",
        SB_STATE,
        "a stack outside a window",
        lambda o: o.update(stack=[{"by": 0, "card": 1}]),
    ),
    ("sb_place", SB_STATE, "unknown context kind", lambda o: o["context"].update(kind="move")),
    # SB-9 amended / max_moves: an ended game may have no winner (ranked by progress).
    ("sb_over", SB_STATE, "over with a seat still asked", lambda o: o.update(asked=[0])),
    ("sb_over", SB_STATE, "over but pending", lambda o: o.update(pending=[0])),
    # SB-9 amended again: BLOCKs answered are noted only while a window is open.
    ("sb_over", SB_STATE, "over with a BLOCK answered", lambda o: o.update(blockers=[0])),
    ("sb_window", SB_STATE, "BLOCKs answered by a seat twice", lambda o: o.update(blockers=[1, 1])),
    ("sb_window", SB_STATE, "no record of BLOCKs answered", lambda o: o.pop("blockers")),
    ("sb_view", SB_VIEW, "the other hands", lambda o: o.update(hands=[[1], [2], [3]])),
    ("sb_view", SB_VIEW, "who is asked", lambda o: o.update(asked=[1])),
    ("sb_view", SB_VIEW, "who answered BLOCK", lambda o: o.update(blockers=[1])),
    ("sb_view", SB_VIEW, "an answer of another kind", lambda o: o.update(answer="maybe")),
    ("sb_view", SB_VIEW, "window naming who acts", lambda o: o.update(to_act=0)),
    ("sb_view", SB_VIEW, "window not open", lambda o: o.update(window_open=False)),
    ("sb_view", SB_VIEW, "window without the declared action", lambda o: o.update(declared=None)),
    ("sb_view", SB_VIEW, "a card index in the grid", lambda o: o["grid"][0].__setitem__(0, 5)),
    ("sb_view", SB_VIEW, "unknown card name", lambda o: o["hand"].append("JUMP")),
    ("sb_view", SB_VIEW, "a token of three numbers", lambda o: o["tokens"][0].append(0)),
    (
        "sb_view",
        SB_VIEW,
        "a play offered in a window",
        lambda o: o["legal_actions"].append({"type": "play", "card": "MOVE+1"}),
    ),
    ("sb_spectator", SB_VIEW, "spectator with a hand", lambda o: o["hand"].append("CUT")),
    ("sb_spectator", SB_VIEW, "spectator with an answer", lambda o: o.update(answer="pass")),
    (
        "sb_spectator",
        SB_VIEW,
        "spectator with legal actions",
        lambda o: o["legal_actions"].append({"type": "pass"}),
    ),
    ("sb_step_view", SB_VIEW, "step without a context", lambda o: o.update(context={})),
    ("sb_step_view", SB_VIEW, "step nobody acts in", lambda o: o.update(to_act=None)),
    ("sb_step_view", SB_VIEW, "an answer outside a window", lambda o: o.update(answer="block")),
    (
        "sb_step_view",
        SB_VIEW,
        "a block offered in a step",
        lambda o: o["legal_actions"].append({"type": "block"}),
    ),
    ("sb_foe", SB_ACTION, "FOE without target", lambda o: o.pop("target")),
    ("sb_foe", SB_ACTION, "FOE with other", lambda o: o.update(other=0)),
    ("sb_foe", SB_ACTION, "lane -1 written", lambda o: o.update(lane=-1)),
    ("sb_foe", SB_ACTION, "lower-case card", lambda o: o.update(card=o["card"].lower())),
    ("sb_foe", SB_ACTION, "BLOCK as a play", lambda o: o.update(card="BLOCK")),
    ("sb_foe", SB_ACTION, "target 6", lambda o: o.update(target=6)),
    ("sb_cut", SB_ACTION, "CUT without other", lambda o: o.pop("other")),
    ("sb_cut", SB_ACTION, "CUT with a mode", lambda o: o.update(mode="remove")),
    ("sb_revamp", SB_ACTION, "remove without a lane", lambda o: o.pop("lane")),
    ("sb_revamp", SB_ACTION, "unknown mode", lambda o: o.update(mode="add-top")),
    ("sb_step_action", SB_ACTION, "step without lane", lambda o: o.pop("lane")),
    ("sb_step_action", SB_ACTION, "lane -2", lambda o: o.update(lane=-2)),
    ("sb_pass", SB_ACTION, "pass with a card", lambda o: o.update(card="BLOCK")),
    ("sb_pass", SB_ACTION, "unknown type", lambda o: o.update(type="skip")),
    ("sb_token_moved", SB_EVENT, "to nowhere", lambda o: o.update(to="HOME")),
    ("sb_token_moved", SB_EVENT, "unknown reason", lambda o: o.update(why="wind")),
    ("sb_token_moved", SB_EVENT, "from as a string", lambda o: o.update(**{"from": "START"})),
    ("sb_declared", SB_EVENT, "declared from the deck", lambda o: o.update(source="deck")),
    ("sb_declared", SB_EVENT, "declared without play", lambda o: o.pop("play")),
    ("sb_board_skip", SB_EVENT, "board SKIP with a lane", lambda o: o["play"].update(lane=0)),
    ("sb_board_skip", SB_EVENT, "board SKIP with other", lambda o: o["play"].update(other=1)),
    ("sb_window_opened", SB_EVENT, "naming who is asked", lambda o: o.update(asked=[1])),
    (
        "sb_window_answered",
        SB_EVENT,
        "BLOCKs answered told to the table",
        lambda o: o.pop("audience"),
    ),
    # SB-9 amended: every window closes with an event, BLOCKed or not (blocks 0).
    ("sb_window_closed", SB_EVENT, "closed after -1 BLOCKs", lambda o: o.update(blocks=-1)),
    ("sb_turn_skipped", SB_EVENT, "unknown reason", lambda o: o.update(why="tired")),
    ("sb_no_effect", SB_EVENT, "unknown reason", lambda o: o.update(why="on SKIP")),
    ("sb_cards_drawn", SB_EVENT, "zero cards drawn", lambda o: o.update(count=0)),
    ("sb_lane_removed", SB_EVENT, "lane -1", lambda o: o.update(lane=-1)),
    ("sb_token_placed", SB_EVENT, "placed on START", lambda o: o.update(to=[-1, -1])),
    ("sb_row_removed", SB_EVENT, "row 0 removed", lambda o: o.update(removed=0)),
    ("sb_game_over", SB_EVENT, "missing ranks", lambda o: o.pop("ranks")),
    ("sb_game_over", SB_EVENT, "extra key", lambda o: o.update(winner=0)),
]


@pytest.mark.parametrize("sample", sorted({n[0] for n in NEGATIVE}))
def test_samples_are_valid(sample: str) -> None:
    schemas = {n[1] for n in NEGATIVE if n[0] == sample}
    for schema in schemas:
        assert_valid(schema, _samples()[sample], f"sample {sample}")


@cache
def _sample_is_valid(sample: str, schema: str) -> bool:
    """:func:`is_valid` of an unmodified sample, found once per sample and schema (by both
    validators): a sample has a dozen malformed variants, and the samples are never changed
    (each test changes a copy)."""
    return is_valid(schema, _samples()[sample])


@pytest.mark.parametrize(
    ("sample", "schema", "mutate"),
    [pytest.param(s, n, m, id=f"{n.split('#')[0]}: {what}") for s, n, what, m in NEGATIVE],
)
def test_schemas_reject_malformed_objects(sample: str, schema: str, mutate: Mutation) -> None:
    assert _sample_is_valid(sample, schema), "the unmodified sample must be valid"
    obj = copy.deepcopy(_samples()[sample])
    mutate(obj)
    assert not is_valid(schema, obj), f"{schema} accepted a malformed object: {obj}"


# -- the examples in docs/json.md ------------------------------------------------------------

_EXAMPLE = re.compile(r"<!-- schema: (?P<schema>\S+) -->\s*```json\n(?P<body>.*?)```", re.S)


def test_documented_examples_are_valid() -> None:
    text = JSON_DOC.read_text(encoding="utf-8")
    examples = list(_EXAMPLE.finditer(text))
    named = {m.group("schema").split("#")[0] for m in examples}
    assert {_file(n) for n in SCHEMA_NAMES} <= named, "every schema needs an example"
    for m in examples:
        line = text.count("\n", 0, m.start()) + 1
        assert_valid(m.group("schema"), json.loads(m.group("body")), f"docs/json.md:{line}")
    for link in re.findall(r"\]\((schemas/[^)#]+)", text):
        assert (ROOT / "docs" / link).is_file(), f"docs/json.md links to missing {link}"
