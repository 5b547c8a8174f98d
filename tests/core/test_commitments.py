"""Commitments to face-down actions: which actions get one (WF-4 commits, never SB-9's silent
passes), when they are opened, and :func:`verify` catching a face-down card changed after it
was committed — by hand and over random games of every title."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from budget import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

import racedeck
from racedeck.bots.registry import make_bot
from racedeck.core import Table
from racedeck.core.commitments import (
    Ledger,
    check,
    commitments_of,
    digest,
    is_committed,
    salt,
)
from racedeck.core.fairness import commitment, fair_meta, game_seed, result_of, verify
from racedeck.core.record import GameRecord, replay
from racedeck.core.table import run

SERVER_SEED = "ab" * 32
SEEDS = ["", "", ""]

TITLES: list[tuple[str, dict[str, Any]]] = [
    ("why-first", {"stages": 1}),
    ("why-first", {"stages": 1, "variant": "tactical"}),
    ("six-day-race", {"races": 2}),
    ("setback", {}),
]


def played(game_id: str, server_seed: str = SERVER_SEED, bots: int = 11, **options: Any) -> Any:
    """Random bots play a game dealt from ``server_seed``; returns the finished table."""
    game = racedeck.make(game_id, players=3, **options)
    table = Table(game, game_seed(server_seed, SEEDS))
    run(table, [make_bot("random", game, s, bots + s) for s in range(3)])
    return table


def fair_record(table: Any, server_seed: str = SERVER_SEED) -> GameRecord:
    """The record as a server gives it at the end, with its face-down commitments."""
    base = table.record
    opened = commitments_of(base, server_seed)
    meta = {"fair": fair_meta(server_seed, SEEDS, result_of(base, table.state), opened)}
    return GameRecord.from_json({**base.to_json(), "meta": meta})


def changed_face_down(record: GameRecord, which: int = 0) -> tuple[GameRecord, int]:
    """``record`` with the ``which``-th committed face-down action replaced by another legal
    choice of the same seat at the same point; returns it and the move changed."""
    game = record.make_game()
    entries = record.meta["fair"]["commitments"]
    move = entries[which]["move"]
    state = game.start(record.seed).state
    for step in replay(record):
        if step.index == move:
            break
        state = step.state
    seat = record.actions[move].seat
    ours = record.actions[move].action
    other = next(a.to_json() for a in game.legal_actions(state, seat) if a.to_json() != ours)
    obj = copy.deepcopy(record.to_json())
    obj["actions"][move]["action"] = other
    return GameRecord.from_json(obj), move


def test_the_commitment_is_the_sha256_of_the_canonical_json() -> None:
    action = {"type": "place", "value": 3, "target": 1}
    key = salt(SERVER_SEED, 4, 2)
    text = (
        '{"action":{"target":1,"type":"place","value":3},"game":"'
        + commitment(SERVER_SEED)
        + '","move":4,"salt":"'
        + key
        + '","seat":2}'
    )
    assert digest(commitment(SERVER_SEED), 4, 2, action, key) == (
        hashlib.sha256(text.encode()).hexdigest()
    )
    # Every part counts: the action, the move, the seat, the salt and the game.
    base = digest(commitment(SERVER_SEED), 4, 2, action, key)
    assert base != digest(commitment(SERVER_SEED), 4, 2, {**action, "target": 0}, key)
    assert base != digest(commitment(SERVER_SEED), 5, 2, action, key)
    assert base != digest(commitment(SERVER_SEED), 4, 1, action, key)
    assert base != digest(commitment(SERVER_SEED), 4, 2, action, salt(SERVER_SEED, 4, 1))
    assert base != digest(commitment("cd" * 32), 4, 2, action, key)


def test_each_salt_is_secret_and_its_own() -> None:
    key = salt(SERVER_SEED, 4, 2)
    assert len(key) == 64 and int(key, 16) >= 0
    assert key not in (salt(SERVER_SEED, 4, 1), salt(SERVER_SEED, 5, 2), salt("cd" * 32, 4, 2))
    assert SERVER_SEED not in key


def test_every_commit_of_why_first_is_committed_and_opened_at_the_reveal() -> None:
    # WF-4: cards are committed face down and turned up together when the last seat commits.
    for options in ({"stages": 1}, {"stages": 1, "variant": "tactical"}):
        record = played("why-first", **options).record
        game = record.make_game()
        ledger = Ledger(game, SERVER_SEED)
        state = game.start(record.seed).state
        commits = 0
        for step in replay(record):
            concealed = game.conceals(state, step.seat, step.action)
            commits += concealed
            new, opened = ledger.note(
                state, step.seat, record.actions[step.index].action, step.index, step.state,
                step.events,
            )  # fmt: skip
            assert (new is not None) == concealed
            revealed = any(e.kind == "cards_revealed" for e in step.events)
            assert bool(opened) == (revealed and new is not None)
            if opened:
                # The round's commits, the last one among them, all at once.
                assert [e.move for e in opened][-1] == step.index
                assert len(opened) == game.n
            state = step.state
        assert commits > 0 and len(ledger.entries) == commits
        assert ledger.opened == commits
        assert ledger.public_json() == [e.to_json() for e in ledger.entries]


def test_a_commitment_opens_to_the_action_for_the_seat_that_took_it() -> None:
    record = played("why-first", stages=1).record
    for entry in commitments_of(record, SERVER_SEED):
        action = record.actions[entry["move"]].action
        assert entry["seat"] == record.actions[entry["move"]].seat
        assert entry["salt"] == salt(SERVER_SEED, entry["move"], entry["seat"])
        # What the acting seat checks at once with its own salt.
        assert entry["hash"] == digest(
            commitment(SERVER_SEED), entry["move"], entry["seat"], action, entry["salt"]
        )


def test_before_the_reveal_only_hashes_are_public() -> None:
    record = played("why-first", stages=1).record
    game = record.make_game()
    ledger = Ledger(game, SERVER_SEED)
    state = game.start(record.seed).state
    step = next(iter(replay(record)))
    new, opened = ledger.note(
        state, step.seat, record.actions[0].action, 0, step.state, step.events
    )
    assert new is not None and opened == ()
    assert ledger.public_json() == [{"move": 0, "seat": step.seat, "hash": new.hash}]
    assert new.salt not in json.dumps(ledger.public_json())


def test_setback_silent_passes_are_never_committed() -> None:
    # SB-9: a window's pass is concealed and nobody publicly waits for anyone in a window, so
    # a commitment would say who was asked. None is made, even for the pass that closes it.
    record = played("setback").record
    game = record.make_game()
    state = game.start(record.seed).state
    passes = 0
    for step in replay(record):
        if game.conceals(state, step.seat, step.action):
            passes += 1
            assert not is_committed(game, state, step.seat, step.action, step.events)
        state = step.state
    assert passes > 0
    assert commitments_of(record, SERVER_SEED) == []


def test_an_honest_record_verifies_with_its_commitments() -> None:
    record = fair_record(played("why-first", stages=1))
    assert len(record.meta["fair"]["commitments"]) > 0
    assert verify(record) == []
    assert verify(GameRecord.from_json(record.to_json())) == []


def test_a_changed_face_down_card_is_refused_naming_its_move() -> None:
    record = fair_record(played("why-first", stages=1))
    bad, move = changed_face_down(record, which=1)
    problems = verify(bad)
    named = [p for p in problems if f"face-down action at move {move} " in p]
    assert len(named) == 1 and "is not the one committed" in named[0]
    # Nothing but the face-down check speaks of move ``move``'s commitment.
    assert check(record, SERVER_SEED, record.meta["fair"]["commitments"]) == []


def test_a_changed_hash_or_salt_is_refused() -> None:
    record = fair_record(played("why-first", stages=1))

    def change(key: str, value: str) -> list[str]:
        obj = copy.deepcopy(record.to_json())
        obj["meta"]["fair"]["commitments"][2][key] = value
        return verify(GameRecord.from_json(obj))

    move = record.meta["fair"]["commitments"][2]["move"]
    problems = change("hash", "0" * 64)
    assert len(problems) == 1 and f"move {move} " in problems[0]
    assert "not the one committed" in problems[0]
    problems = change("salt", "1" * 64)
    assert any("not the one derived from the server seed" in p for p in problems)
    assert any("not the one committed" in p for p in problems)
    problems = change("salt", "not hex")
    assert len(problems) == 2 and "face-down commitment 2 must be" in problems[0]
    assert f"moves without their commitment: move {move} " in problems[1]


def test_missing_and_extra_commitments_are_refused() -> None:
    record = fair_record(played("why-first", stages=1, variant="tactical"))
    entries = record.meta["fair"]["commitments"]
    dropped = entries[:1] + entries[2:]
    problems = check(record, SERVER_SEED, dropped)
    assert problems == [
        f"the face-down commitments do not match the game's: moves without their commitment: "
        f"move {entries[1]['move']} (seat {entries[1]['seat']})"
    ]
    # A figure moved with a revealed card (WF-10) is seen by all: a commitment to it is
    # refused too.
    seen = next(m for m in range(len(record.actions)) if m not in {e["move"] for e in entries})
    seat = record.actions[seen].seat
    key = salt(SERVER_SEED, seen, seat)
    extra = {
        "move": seen,
        "seat": seat,
        "hash": digest(commitment(SERVER_SEED), seen, seat, record.actions[seen].action, key),
        "salt": key,
    }
    problems = check(record, SERVER_SEED, sorted([*entries, extra], key=lambda e: e["move"]))
    assert problems == [
        "the face-down commitments do not match the game's: commitments to actions that were "
        f"not face down: move {seen} (seat {seat})"
    ]
    assert check(record, SERVER_SEED, list(reversed(entries)))[-1].endswith(
        "they are not in the order of the moves"
    )
    assert check(record, SERVER_SEED, "none") == [
        "the face-down commitments (meta.fair.commitments) must be a list"
    ]


def test_a_record_from_before_face_down_commitments_still_verifies() -> None:
    record = fair_record(played("why-first", stages=1))
    obj = copy.deepcopy(record.to_json())
    del obj["meta"]["fair"]["commitments"]
    assert verify(GameRecord.from_json(obj)) == []


@settings(max_examples=scaled(16), deadline=None)
@given(
    title=st.sampled_from(TITLES),
    server_seed=st.binary(min_size=32, max_size=32).map(bytes.hex),
    bots=st.integers(0, 10_000),
    which=st.integers(0, 1_000),
)
def test_random_games_verify_and_any_changed_face_down_card_is_caught(
    title: tuple[str, dict[str, Any]], server_seed: str, bots: int, which: int
) -> None:
    game_id, options = title
    table = played(game_id, server_seed, bots, **options)
    record = fair_record(table, server_seed)
    assert verify(record) == []
    entries = record.meta["fair"]["commitments"]
    game = record.make_game()
    # Exactly the concealed steps everyone is told of, by a seat publicly waited for.
    state = game.start(record.seed).state
    expected = []
    for step in replay(record):
        if (
            game.conceals(state, step.seat, step.action)
            and step.seat in game.public_acting(state)
            and any(e.is_public for e in step.events)
        ):
            expected.append((step.index, step.seat))
        state = step.state
    assert [(e["move"], e["seat"]) for e in entries] == expected
    if game_id != "why-first":
        assert entries == []
        return
    bad, move = changed_face_down(record, which % len(entries))
    assert any(f"face-down action at move {move} " in p for p in verify(bad))
