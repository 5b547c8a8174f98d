"""Provably fair deals: the commitment, the derived seed, and :func:`verify` refusing every
kind of tampering (the server seed, the game seed, the commitment, an action, the result)."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.core import Table
from racedeck.core.commitments import commitments_of
from racedeck.core.fairness import commitment, fair_meta, game_seed, result_of, verify
from racedeck.core.record import GameRecord, replay
from racedeck.core.table import run

SERVER_SEED = "ab" * 32
CLIENT_SEEDS = ["ann-1f3e", "", "bob-77"]


def fair_record(
    game_id: str = "why-first", server_seed: str = SERVER_SEED, **options: Any
) -> GameRecord:
    """Bots play a game dealt from ``server_seed`` and :data:`CLIENT_SEEDS`; the record holds
    the fairness facts as a server gives them at the end (its face-down commitments too)."""
    game = racedeck.make(game_id, players=3, **options)
    seed = game_seed(server_seed, CLIENT_SEEDS)
    table = Table(game, seed)
    run(table, [make_bot("random", game, s, 11 + s) for s in range(3)])
    base = table.record
    result = result_of(base, table.state)
    opened = commitments_of(base, server_seed)
    meta = {"fair": fair_meta(server_seed, CLIENT_SEEDS, result, opened)}
    return GameRecord.from_json({**base.to_json(), "meta": meta})


def tampered(record: GameRecord, change: Any) -> GameRecord:
    obj = copy.deepcopy(record.to_json())
    change(obj)
    return GameRecord.from_json(obj)


def test_the_commitment_is_the_sha256_of_the_server_seed() -> None:
    assert commitment(SERVER_SEED) == hashlib.sha256(SERVER_SEED.encode()).hexdigest()
    assert len(commitment(SERVER_SEED)) == 64


def test_the_game_seed_depends_on_every_part_and_on_seat_order() -> None:
    seed = game_seed(SERVER_SEED, CLIENT_SEEDS)
    assert 0 <= seed < 2**63
    assert seed == game_seed(SERVER_SEED, list(CLIENT_SEEDS))
    assert seed != game_seed("cd" * 32, CLIENT_SEEDS)
    assert seed != game_seed(SERVER_SEED, ["ann-1f3e", "", "bob-78"])
    assert seed != game_seed(SERVER_SEED, ["", "ann-1f3e", "bob-77"])
    # The separator keeps seeds from running together: "ab" + "c" is not "a" + "bc".
    assert game_seed(SERVER_SEED, ["ab", "c"]) != game_seed(SERVER_SEED, ["a", "bc"])
    expected = hashlib.sha256(f"{SERVER_SEED}\nann-1f3e\n\nbob-77\n".encode()).digest()
    assert seed == int.from_bytes(expected[:8], "big") >> 1


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("why-first", {"stages": 1}), ("six-day-race", {}), ("setback", {})],
)
def test_an_honest_record_verifies(game_id: str, options: dict[str, Any]) -> None:
    record = fair_record(game_id, **options)
    assert verify(record) == []
    assert verify(GameRecord.from_json(record.to_json())) == []


def test_a_record_without_fairness_facts_is_refused() -> None:
    record = tampered(fair_record(stages=1), lambda o: o.update(meta={}))
    assert ["no fairness facts" in p for p in verify(record)] == [True]


def test_a_changed_server_seed_is_refused() -> None:
    record = tampered(
        fair_record(stages=1), lambda o: o["meta"]["fair"].update(server_seed="cd" * 32)
    )
    problems = verify(record)
    assert any("does not match the commitment" in p for p in problems)
    assert any("not the one derived" in p for p in problems)


def test_a_changed_commitment_is_refused() -> None:
    record = tampered(
        fair_record(stages=1), lambda o: o["meta"]["fair"].update(commitment=commitment("ef" * 32))
    )
    assert ["does not match the commitment" in p for p in verify(record)] == [True]


def test_a_changed_game_seed_is_refused() -> None:
    record = tampered(fair_record(stages=1), lambda o: o.update(seed=o["seed"] ^ 1))
    problems = verify(record)
    assert any("not the one derived" in p for p in problems)


def test_a_changed_client_seed_is_refused() -> None:
    def change(o: dict[str, Any]) -> None:
        o["meta"]["fair"]["client_seeds"][1] = "eve"

    assert any("not the one derived" in p for p in verify(tampered(fair_record(stages=1), change)))


def test_an_illegal_changed_action_is_refused() -> None:
    def change(o: dict[str, Any]) -> None:
        o["actions"][0]["seat"] = (o["actions"][0]["seat"] + 5) % 9

    problems = verify(tampered(fair_record(stages=1), change))
    assert ["does not replay" in p for p in problems] == [False, True]
    # It was a card placed face down (WF-4): its commitment names another seat.
    assert problems[0].startswith("the face-down action at move 0 (seat ")
    assert "the record's action 0 is seat" in problems[0]


def test_a_legal_changed_action_that_changes_the_result_is_refused() -> None:
    # Another legal choice for the last decision, one that ends the game differently: the
    # record still replays, to another result than the one it states. The last decision is
    # a card placed face down (WF-4): it no longer opens its commitment either.
    record = fair_record(stages=1)
    game = record.make_game()
    state = game.start(record.seed).state
    steps = list(replay(record))
    if len(steps) > 1:
        state = steps[-2].state
    last = record.actions[-1]
    stated = record.meta["fair"]["result"]
    changed = []
    for alternative in game.legal_actions(state, last.seat):
        obj = record.to_json()
        obj["actions"][-1]["action"] = alternative.to_json()
        bad = GameRecord.from_json(obj)
        after = game.step(state, last.seat, alternative).state
        if game.outcome(after) is not None and result_of(bad, after) != stated:
            changed.append(verify(bad))
    assert changed, "every other last choice gives the same result"
    move = len(record.actions) - 1
    for problems in changed:
        assert len(problems) == 2
        assert f"face-down action at move {move} " in problems[0]
        assert "states the result" in problems[1]


def test_a_cut_record_is_refused() -> None:
    record = tampered(fair_record(stages=1), lambda o: o.update(actions=o["actions"][:-1]))
    assert any("do not finish the game" in p for p in verify(record))


def test_a_changed_result_is_refused() -> None:
    def change(o: dict[str, Any]) -> None:
        result = o["meta"]["fair"]["result"]
        result["winners"] = [w for w in range(3) if w not in result["winners"]][:1]

    problems = verify(tampered(fair_record(stages=1), change))
    assert len(problems) == 1 and "states the result" in problems[0]


def test_a_malformed_server_seed_is_named() -> None:
    record = tampered(fair_record(stages=1), lambda o: o["meta"]["fair"].update(server_seed=5))
    assert any("not 64 hex digits" in p for p in verify(record))
