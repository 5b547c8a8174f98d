"""The table driver: what it accepts and refuses (with which code), its record and history, and
the loop that asks the seats."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from dash_game import SPEC as DASH
from dash_game import Pass

import racedeck
from racedeck.core import RECORD, GameRecord, Table, registry, run
from racedeck.core.errors import (
    GameOver,
    IllegalAction,
    InvalidMessage,
    InvalidRecord,
    NotYourTurn,
    StaleMove,
)


class RandomPlayer:
    """A player that picks a random legal action and remembers every view it was shown."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.views: list[Any] = []

    def act(self, view: Any) -> Any:
        self.views.append(view)
        return self.rng.choice(view.legal_actions)


@pytest.fixture
def dash(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(registry._REGISTRY, DASH.id, DASH)
    yield DASH.id


def _snapshot(table: Table) -> Any:
    return (table.move, table.state.to_json(), table.record, len(table.history))


def _play_some(table: Table, decisions: int, seed: int = 0) -> None:
    """Take up to ``decisions`` random legal actions (the first pending seat each time)."""
    rng = random.Random(seed)
    for _ in range(decisions):
        if table.is_over:
            return
        seat = table.pending[0]
        table.submit(seat, rng.choice(table.game.legal_actions(table.state, seat)))


def _first_legal(table: Table) -> tuple[int, Any]:
    seat = table.pending[0]
    return seat, table.game.legal_actions(table.state, seat)[0]


# -- refusals -------------------------------------------------------------------------------------


def test_an_action_answering_an_older_move_is_stale() -> None:
    table = Table(racedeck.make("six-day-race", players=3), 4)
    seat, action = _first_legal(table)
    table.submit(seat, action, move=0)
    assert table.move == 1
    before = _snapshot(table)
    seat, action = _first_legal(table)
    with pytest.raises(StaleMove) as stale:
        table.submit(seat, action, move=0)
    assert stale.value.code == "action/stale"
    assert (stale.value.given, stale.value.current) == (0, 1)
    assert "move 0" in str(stale.value) and "move 1" in str(stale.value)
    with pytest.raises(StaleMove):  # a move number from the future is no better
        table.submit_json(seat, action.to_json(), move=5)
    assert _snapshot(table) == before
    table.submit(seat, action, move=1)
    assert table.move == 2


@pytest.mark.parametrize("move", [True, "1", 1.0, [1]])
def test_a_move_number_must_be_an_integer(move: Any) -> None:
    table = Table(racedeck.make("six-day-race", players=3), 4)
    seat, action = _first_legal(table)
    table.submit(seat, action)
    before = _snapshot(table)
    seat, action = _first_legal(table)
    with pytest.raises(InvalidMessage) as bad:
        table.submit(seat, action, move=move)
    assert bad.value.code == "message/invalid"
    assert _snapshot(table) == before


@pytest.mark.parametrize("game_id", racedeck.available_games())
@pytest.mark.parametrize("seat", [None, "0", 0.0, True, False, -1, 99, 1.5])
def test_only_a_plain_int_in_range_is_a_seat(game_id: str, seat: Any) -> None:
    table = Table(racedeck.make(game_id), 1)
    _, action = _first_legal(table)
    before = _snapshot(table)
    with pytest.raises(IllegalAction) as refused:
        table.submit(seat, action)
    assert refused.value.code == "action/illegal"
    assert "no seat" in str(refused.value)
    with pytest.raises(IllegalAction):
        table.submit_json(seat, action.to_json())
    assert _snapshot(table) == before


def test_a_seat_not_on_turn_is_told_so() -> None:
    table = Table(racedeck.make("six-day-race", players=3), 2)
    _, action = _first_legal(table)
    other = next(s for s in range(3) if s not in table.pending)
    before = _snapshot(table)
    with pytest.raises(NotYourTurn) as refused:
        table.submit(other, action)
    assert refused.value.code == "action/not-your-turn"
    assert _snapshot(table) == before


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    game = racedeck.make("why-first", players=3, stages=1)
    table = Table(game, 3)
    run(table, [RandomPlayer(s) for s in range(3)])
    assert table.is_over and table.pending == ()
    before = _snapshot(table)
    action = game.legal_actions(game.new_initial_state(3), 0)[0]
    for seat in range(3):
        with pytest.raises(GameOver) as over:
            table.submit(seat, action, move=table.move)
        assert over.value.code == "action/game-over"
    assert _snapshot(table) == before


@pytest.mark.parametrize("game_id", racedeck.available_games())
@pytest.mark.parametrize(
    "obj",
    [
        None,
        "play",
        [1, 2],
        17,
        {},
        {"type": "no-such-action"},
        {"type": 5},
        {"type": "play", "card": None, "value": "x", "lane": "left", "target": "far"},
        {"type": "commit", "card": "seven"},
        {"type": "move", "target": None},
    ],
)
def test_malformed_action_json_is_an_invalid_message(game_id: str, obj: Any) -> None:
    table = Table(racedeck.make(game_id), 1)
    seat = table.pending[0]
    before = _snapshot(table)
    with pytest.raises(InvalidMessage) as bad:
        table.submit_json(seat, obj)
    assert bad.value.code == "message/invalid"
    assert _snapshot(table) == before


def test_well_formed_json_goes_through_the_checked_path() -> None:
    game = racedeck.make("six-day-race", players=3)
    table = Table(game, 1)
    seat, action = _first_legal(table)
    transition = table.submit_json(seat, json.loads(json.dumps(action.to_json())), move=0)
    assert transition.state is table.state and table.move == 1
    assert table.record.actions[-1].action == action.to_json()


# -- the loop ---------------------------------------------------------------------------------


class HandWatcher(RandomPlayer):
    """Refuses to be asked with an empty hand: that decision is the driver's."""

    def act(self, view: Any) -> Any:
        assert view.hand, "a seat with an empty hand was asked"
        return super().act(view)


def test_run_takes_the_forced_actions_itself() -> None:
    # A long goal: hands run out, and the seats without cards must pass.
    game = DASH.factory(DASH.make_config(players=3, goal=30, hand_size=2))
    table = Table(game, 7)
    players = [HandWatcher(s) for s in range(3)]
    decisions = run(table, players)
    assert table.is_over
    passes = [a for a in table.record.actions if a.action == Pass().to_json()]
    assert passes, "the game had forced passes"
    asked = sum(len(p.views) for p in players)
    assert decisions == len(table.record.actions) == asked + len(passes)


def test_run_leaves_seats_without_a_player_to_the_caller() -> None:
    game = racedeck.make("six-day-race", players=3)
    table = Table(game, 5)
    bots = [RandomPlayer(0), None, RandomPlayer(2)]
    seen: list[int] = []
    while not table.is_over:
        run(table, bots)
        if table.is_over:
            break
        assert table.pending == (1,)  # only the player-less seat is left
        view = table.view(1)
        seen.append(view.seat)
        table.submit(1, view.legal_actions[0], move=table.move)
    assert seen and set(seen) == {1}
    assert table.record.actions[-1] is not None


def test_run_asks_each_seat_with_its_own_view_and_reports_every_transition() -> None:
    game = racedeck.make("why-first", players=3, stages=1)
    table = Table(game, 9)
    players = [RandomPlayer(s) for s in range(3)]
    seen: list[Any] = []
    run(table, players, observer=lambda t, tr: seen.append(tr))
    assert seen[0] is None and None not in seen[1:]
    assert len(seen) == 1 + table.move
    for seat, player in enumerate(players):
        assert player.views and all(v.seat == seat for v in player.views)


def test_run_stops_a_game_that_does_not_end() -> None:
    table = Table(racedeck.make("why-first", players=3), 1)
    with pytest.raises(RuntimeError, match="did not end within 5 decisions"):
        run(table, [RandomPlayer(s) for s in range(3)], max_decisions=5)
    assert table.move == 5


def test_run_needs_one_player_or_none_per_seat() -> None:
    table = Table(racedeck.make("why-first", players=3), 1)
    with pytest.raises(ValueError, match="3 seats need 3 players"):
        run(table, [RandomPlayer(0)])


# -- record and history -------------------------------------------------------------------


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_a_record_rebuilds_the_same_table(game_id: str) -> None:
    game = racedeck.make(game_id)
    table = Table(game, 12, meta={"names": list(game.seat_names())})
    _play_some(table, 40)
    record = GameRecord.from_json(json.loads(json.dumps(table.record.to_json())))
    assert record == table.record and record.meta == {"names": list(game.seat_names())}
    rebuilt = Table.from_record(record)
    assert rebuilt.state.to_json() == table.state.to_json()
    assert rebuilt.move == table.move == len(record.actions)
    assert rebuilt.history == table.history
    assert rebuilt.record == record


def test_a_record_that_does_not_replay_is_refused() -> None:
    game = racedeck.make("six-day-race", players=3)
    table = Table(game, 12)
    _play_some(table, 6)
    obj = table.record.to_json()
    wrong_seat = json.loads(json.dumps(obj))
    wrong_seat["actions"][2]["seat"] = (wrong_seat["actions"][2]["seat"] + 1) % 3
    unknown = json.loads(json.dumps(obj))
    unknown["actions"][1]["action"] = {"type": "teleport"}
    far_seat = json.loads(json.dumps(obj))
    far_seat["actions"][0]["seat"] = 7
    for bad, where in ((wrong_seat, "action 2"), (unknown, "action 1"), (far_seat, "action 0")):
        with pytest.raises(InvalidRecord, match=f"record {where} does not replay") as refused:
            Table.from_record(GameRecord.from_json(bad))
        assert refused.value.code == "record/invalid"


def test_each_seat_feeds_on_its_share_of_the_history(dash: str) -> None:
    game = racedeck.make(dash, players=3)
    table = Table(game, 2)
    _play_some(table, 6)
    assert [move for move, _ in table.history] == list(range(7))
    everything = [e for _, events in table.history for e in events]
    deck = [e for e in everything if e.audience == RECORD]
    assert [e.kind for e in deck] == ["deck"]
    spectator = table.feed(None)
    assert all(e.is_public for e in spectator)
    assert not any(e.kind in {"dealt", "drew", "deck"} for e in spectator)
    for seat in range(3):
        mine = table.feed(seat)
        dealt = [e for e in mine if e.kind == "dealt"]
        assert len(dealt) == 1 and list(dealt[0].data["hand"]) == sorted(dealt[0].data["hand"])
        assert all(e.audience in ("all", seat) for e in mine)
        assert not any(e.kind == "deck" for e in mine)
    # After a reconnect, a seat asks for what happened since the move it saw.
    later = table.feed(0, after=3)
    assert later == tuple(
        e for move, events in table.history if move > 3 for e in events if e.visible_to(0)
    )
    assert table.feed(0, after=table.move) == ()
    # The whole history comes back from the record.
    assert Table.from_record(table.record).history == table.history
