"""The JSON Schemas in ``docs/schemas`` describe the JSON the engine really writes.

Seeded random games (2, 4 and 6 players, base and tactical) are played through a
:class:`racedeck.Session`; every state, several views per step (spectator, the seat that acted,
a pending seat; every seat at the start and the end), every event, every offered and taken
action, the outcome and the record are validated. Negative cases show that each schema rejects
malformed objects, so these tests can fail. The JSON examples of ``docs/json.md`` are validated
too.
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
from racedeck.core import Rng, derive_seed

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_DIR = ROOT / "docs" / "schemas"
JSON_DOC = ROOT / "docs" / "json.md"

SCHEMA_NAMES = (
    "record",
    "event",
    "outcome",
    "why-first.action",
    "why-first.state",
    "why-first.view",
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


def assert_valid(name: str, instance: Any, where: str = "") -> None:
    """Fail with the most relevant error and the offending JSON."""
    error = best_match(validator(name).iter_errors(instance))
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
    return bool(validator(name).is_valid(instance))


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
    session = racedeck.Session(game, seed, meta={"test": "schemas"})
    policy = Rng(derive_seed(seed, 7))
    counts = {"states": 0, "views": 0, "events": 0, "actions": 0}
    kinds: set[str] = set()
    actions_seen: set[Any] = set()

    def check_state(where: str, acted: int | None) -> None:
        state = session.state
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
        for event in state.events:
            # The exact why-first forms were checked with the state; here the generic form.
            assert_valid("event", event.to_json(), f"{where}, event {event.kind}")
            kinds.add(event.kind)
            counts["events"] += 1

    check_state(f"seed {seed} initial state", None)
    step = 0
    while session.state.pending:
        step += 1
        pending = session.state.pending
        seat = pending[policy.below(len(pending))]
        legal = game.legal_actions(session.state, seat)
        for action in legal:
            if action not in actions_seen:  # actions are small frozen values: check each once
                actions_seen.add(action)
                assert_valid("why-first.action", action.to_json(), f"step {step}, {action}")
                counts["actions"] += 1
        action = legal[policy.below(len(legal))]
        session.apply(seat, action)
        check_state(f"seed {seed} step {step} ({action} by seat {seat})", seat)

    outcome = game.outcome(session.state)
    assert outcome is not None
    assert_valid("outcome", outcome.to_json(), "outcome")
    record = session.record.to_json()
    assert_valid("record", record, "record")
    assert_valid("record", json.loads(json.dumps(record)), "record after a JSON round trip")
    expected = {
        "stage_started",
        "card_committed",
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


# -- the schemas reject malformed objects ----------------------------------------------------


@cache
def _samples() -> dict[str, Any]:
    """Valid JSON of every form, taken from real games (a base and a tactical one)."""
    base = racedeck.make("why-first", players=2, variant="base")
    session = racedeck.Session(base, 3)
    seat = session.state.pending[0]
    session.apply(seat, base.legal_actions(session.state, seat)[0])
    state = session.state
    tactical = racedeck.make("why-first", players=3, variant="tactical")
    t_state = tactical.new_initial_state(4)
    while t_state.phase != "move":
        seat = t_state.pending[0]
        t_state = tactical.apply(t_state, seat, tactical.legal_actions(t_state, seat)[-1])
    final = t_state
    while final.pending:  # the last step of a tactical game is a move: figure_moved (by, card)
        seat = final.pending[0]
        final = tactical.apply(final, seat, tactical.legal_actions(final, seat)[0])
    events = {e.kind: e.to_json() for e in final.events}
    outcome = tactical.outcome(final)
    assert outcome is not None
    return {
        "record": session.record.to_json(),
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
        "cards_revealed": next(e.to_json() for e in t_state.events if e.kind == "cards_revealed"),
    }


Mutation = Callable[[dict[str, Any]], None]
WF_EVENT = "why-first.state.schema.json#/$defs/event"

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
    ("state", "why-first.state", "event without kind", lambda o: o["events"][0].pop("kind")),
    (
        "state",
        "why-first.state",
        "event of unknown kind",
        lambda o: o["events"].append({"kind": "sprint"}),
    ),
    ("view", "why-first.view", "missing hand", lambda o: o.pop("hand")),
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
]


@pytest.mark.parametrize("sample", sorted({n[0] for n in NEGATIVE}))
def test_samples_are_valid(sample: str) -> None:
    schemas = {n[1] for n in NEGATIVE if n[0] == sample}
    for schema in schemas:
        assert_valid(schema, _samples()[sample], f"sample {sample}")


@pytest.mark.parametrize(
    ("sample", "schema", "mutate"),
    [pytest.param(s, n, m, id=f"{n.split('#')[0]}: {what}") for s, n, what, m in NEGATIVE],
)
def test_schemas_reject_malformed_objects(sample: str, schema: str, mutate: Mutation) -> None:
    obj = copy.deepcopy(_samples()[sample])
    assert is_valid(schema, obj), "the unmodified sample must be valid"
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
