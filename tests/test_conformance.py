"""Conformance: every registered game honours the core contract (``racedeck.core``).

Only the generic contract is used here (``Game``, states, views, actions, events, ``Outcome``,
``Table``, ``replay``), so every game added to the registry is checked for free.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import racedeck
from racedeck.core import PUBLIC, RECORD, Event, Game, GameRecord, Table, feed

MAX_STEPS = 20_000
SEEDS = (0, 1)

# Extra configurations worth checking for particular games (variants and the like).
EXTRA_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "why-first": [{"players": 2, "variant": "tactical"}, {"players": 5, "variant": "tactical"}],
}


# The smallest and the largest table play a shorter game (two stages, two races, four rows):
# the same rules and contract, which a longer game only repeats (every step is checked, so
# the largest tables cost the most); the middle table plays the game at its default length.
SHORTER: dict[str, dict[str, Any]] = {
    "why-first": {"stages": 2},
    "six-day-race": {"races": 2},
    "setback": {"rows": 4},
}


def _cases() -> list[Any]:
    cases = []
    for game_id in racedeck.available_games():
        spec = racedeck.get_spec(game_id)
        lo, hi = spec.min_players, spec.max_players
        mid = (lo + hi) // 2
        short = SHORTER.get(game_id, {})
        configs = [{"players": n} | ({} if n == mid else short) for n in sorted({lo, mid, hi})]
        configs += EXTRA_CONFIGS.get(game_id, [])
        for config in configs:
            label = "-".join(f"{k}={v}" for k, v in config.items())
            cases.append(pytest.param(game_id, config, id=f"{game_id}-{label}"))
    return cases


CASES = _cases()


def roundtrip(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


def check_state(game: Game[Any, Any, Any], state: Any, step: int | None = None) -> None:
    """Every invariant of one state that the contract promises.

    Every seat's view is checked; the JSON round trip of views (the costly part: a game's
    worth of every seat's views took most of this test's minute) takes the spectator's and,
    at ``step``, one seat's in turn, so a game goes through every seat many times; with
    ``step`` None (the first and the last state), every seat's.
    """
    n = game.num_players
    obj = state.to_json()
    pending = tuple(state.pending)
    assert len(set(pending)) == len(pending)
    assert set(pending) <= set(range(n)), f"pending {pending} names a seat outside 0..{n - 1}"
    assert state.is_terminal == (pending == ()), "a game waits on nobody exactly when it is over"

    # Legal actions: non-empty for pending seats, empty for the others.
    for seat in range(n):
        legal = tuple(game.legal_actions(state, seat))
        if seat in pending:
            assert legal, f"pending seat {seat} has no legal action"
            assert len(set(map(str, legal))) == len(legal), "duplicate legal actions"
        else:
            assert legal == (), f"seat {seat} is not pending but has legal actions"

    # JSON forms and clones.
    assert game.state_from_json(roundtrip(obj)).to_json() == obj
    clone = state.clone()
    assert clone is not state
    assert clone.to_json() == obj

    # Views of every seat and of a spectator.
    round_trip = {None, *(range(n) if step is None else [step % n])}
    as_json: dict[int | None, Any] = {}
    for seat in [None, *range(n)]:
        view = game.observe(state, seat)
        assert view.seat == seat
        expected = tuple(game.legal_actions(state, seat)) if seat is not None else ()
        assert tuple(view.legal_actions) == expected
        if seat in round_trip:
            vobj = as_json[seat] = view.to_json()
            back = roundtrip(vobj)
            assert back == vobj, "a view's JSON form is plain JSON"
            assert game.view_from_json(back).to_json() == vobj
    # Several audiences' views at once are each what observe gives it.
    assert game.views_json(state, as_json) == as_json

    # Outcome.
    outcome = game.outcome(state)
    if not state.is_terminal:
        assert outcome is None
    else:
        assert outcome is not None
        contestants = len(outcome.scores)
        assert contestants >= n
        assert len(outcome.ranks) == contestants
        assert outcome.winners, "a finished game has at least one winner"
        assert outcome.winners <= set(range(contestants))
        assert all(r >= 1 for r in outcome.ranks)
        assert {i for i, r in enumerate(outcome.ranks) if r == 1} == set(outcome.winners)
        if outcome.names:
            assert len(outcome.names) == contestants
        assert racedeck.Outcome.from_json(roundtrip(outcome.to_json())) == outcome

    assert state.to_json() == obj, "inspecting a state changed it"


def check_actions(game: Game[Any, Any, Any], state: Any) -> None:
    """Every legal action of every pending seat applies on the checked path and the fast path."""
    before = state.to_json()
    for seat in state.pending:
        for action in game.legal_actions(state, seat):
            assert game.action_from_json(roundtrip(action.to_json())) == action
            assert "type" in action.to_json()
            assert _parse(game, str(action), state, seat) == action
            transition = game.step(state, seat, action)
            after = transition.state
            assert after is not state
            check_events(game, transition.events)
            fast = state.clone()
            game.apply_unchecked(fast, seat, action)
            assert _without_events(fast.to_json()) == _without_events(after.to_json())
            move = _move(state)
            if move is not None:  # one more accepted action on either path
                assert (_move(after), _move(fast)) == (move + 1, move + 1)
            _drive_in_place(game, after)  # must not reach back into `state` (shared data)
    assert state.to_json() == before, "step or apply_unchecked on a clone changed the original"
    waiting = [s for s in range(game.num_players) if s not in state.pending]
    if waiting and state.pending:
        action = game.legal_actions(state, state.pending[0])[0]
        with pytest.raises(racedeck.IllegalAction) as refused:
            game.step(state, waiting[0], action)
        assert refused.value.code == "action/not-your-turn"
        assert state.to_json() == before


def check_events(game: Game[Any, Any, Any], events: tuple[Event, ...]) -> None:
    """A transition's events: valid audiences, JSON round trips, and every seat's and the
    spectators' feed holds exactly the events addressed to them."""
    n = game.num_players
    for event in events:
        assert isinstance(event, Event)
        assert event.audience in (PUBLIC, RECORD) or (
            type(event.audience) is int and 0 <= event.audience < n
        ), f"{event.kind}: audience {event.audience!r} is no seat of {n}"
        assert Event.from_json(roundtrip(event.to_json())) == event
    assert feed(events, None) == tuple(e for e in events if e.audience == PUBLIC)
    for seat in range(n):
        mine = feed(events, seat)
        assert mine == tuple(e for e in events if e.audience in (PUBLIC, seat))
        assert all(e.audience != RECORD for e in mine), "record-only events reach no seat"


def _parse(game: Game[Any, Any, Any], text: str, state: Any, seat: int) -> Any:
    """``game.parse_action`` from the seat's view."""
    return game.parse_action(text, game.observe(state, seat))


def _move(state: Any) -> int:
    """The state's move number."""
    return int(state.move)


def _drive_in_place(game: Game[Any, Any, Any], state: Any, steps: int = 3) -> None:
    """Apply a few legal actions to ``state`` in place (the fast path), every seat in turn."""
    for _ in range(steps):
        if state.is_terminal:
            return
        for seat in tuple(state.pending):
            legal = game.legal_actions(state, seat)
            if legal:
                game.apply_unchecked(state, seat, legal[-1])


def _without_events(obj: dict[str, Any]) -> dict[str, Any]:
    assert "events" not in obj, "states hold no events"
    return obj


@pytest.mark.parametrize(("game_id", "config"), CASES)
def test_random_games_follow_the_contract(game_id: str, config: dict[str, Any]) -> None:
    game = racedeck.make(game_id, **config)
    assert game.spec.id == game_id
    # The largest tables play the longest games: one seed covers them.
    for seed in SEEDS if game.num_players < 5 else SEEDS[:1]:
        follow_the_contract(game, seed)


def follow_the_contract(game: Game[Any, Any, Any], seed: int) -> None:
    """Play one random game of ``game`` on a table, checking the contract at every step."""
    rng = random.Random(seed)
    table = Table(game, seed)
    assert table.state.to_json() == game.new_initial_state(seed).to_json()  # deterministic
    check_events(game, table.history[0][1])
    steps = 0
    while True:
        state = table.state
        check_state(game, state, None if steps == 0 or state.is_terminal else steps)
        if _move(state) is not None:
            assert _move(state) == table.move == steps
        if state.is_terminal:
            break
        check_actions(game, state)
        seat = rng.choice(tuple(state.pending))
        transition = table.submit(seat, rng.choice(tuple(game.legal_actions(state, seat))))
        check_events(game, transition.events)
        steps += 1
        assert table.move == steps, "the move number counts the accepted actions"
        assert steps <= MAX_STEPS, f"{game.spec.id} did not end within {MAX_STEPS} steps"
    with pytest.raises(racedeck.IllegalAction) as over:
        table.submit(0, _any_action(game, seed))
    assert over.value.code == "action/game-over"
    for seat in [None, *range(game.num_players)]:  # a seat's feed is its share of the history
        assert table.feed(seat) == tuple(
            e for _, events in table.history for e in feed(events, seat)
        )
    record = GameRecord.from_json(roundtrip(table.record.to_json()))
    final = None
    for step in racedeck.replay(record):
        final = step.state
    assert final is not None
    assert final.to_json() == table.state.to_json()
    assert Table.from_record(record).history == table.history


def _any_action(game: Game[Any, Any, Any], seed: int) -> Any:
    state = game.new_initial_state(seed)
    return game.legal_actions(state, state.pending[0])[0]


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_spec_is_consistent(game_id: str) -> None:
    spec = racedeck.get_spec(game_id)
    assert spec.id == game_id
    assert 1 <= spec.min_players <= spec.max_players
    assert spec.rules_version
    assert spec.dynamics
    for option in spec.options():
        assert option.help, f"{game_id} option {option.name} has no help text"
    for players in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError):
            racedeck.make(game_id, players=players)
    with pytest.raises(ValueError, match="unknown option"):
        racedeck.make(game_id, no_such_option=1)
    game = racedeck.make(game_id, players=spec.min_players)
    assert game.num_players == spec.min_players
    assert racedeck.make(game_id, **game.config.to_json()).config == game.config
