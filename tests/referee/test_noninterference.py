"""Noninterference: what an observer receives depends only on what it may know.

Two worlds differ only in a secret the observer may not know — here, whether another seat
holds a BLOCK in Setback (SB-9), or which card another seat placed face down in Why First?
(WF-4) — and their people and bots make the same visible decisions at the same (simulated)
times. The observer (another seat, and a spectator) must receive the same frames in both:
the same contents, in the same order, at the same times. Comparing contents alone missed a
real leak (a window's acknowledgements and move numbers told who held a BLOCK); this compares
everything a socket can see.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from budget import scaled

from racedeck.core.rng import Rng
from racedeck.server.clocks import ClockOptions
from referee.sim import SPECTATOR, Received, World, random_policy

MINIMUM = 3
"""Setback's ``window_seconds``: people and bots here answer a window within it."""
PAIRS = scaled(3, least=3)
"""Pairs of worlds compared per case (each case is one kind of window: silent, clicking, bot,
takeover), the 3 the cases require; ``RACEDECK_TEST_BUDGET`` scales it."""
BLITZ = ClockOptions(profile="custom", move=4.0, bank=6.0, grace=30.0, bot="random")


def _scripted(record: list[tuple[int, dict[str, Any]]], game: Any) -> Any:
    """A policy that takes, at each move, the visible decision ``record`` took there, and
    passes in every BLOCK window (nobody BLOCKs, in either world). A decision the other world
    never took (an answer that came too late) takes any legal action: it is refused there
    too."""

    def policy(seat: int, view: Any, rng: Rng) -> Any:
        if view.header.phase == "window":
            return next(a for a in view.legal_actions if a.to_json()["type"] == "pass")
        move = int(view.header.move)
        if move >= len(record) or record[move][0] != seat:
            return view.legal_actions[0]
        action = game.action_from_json(record[move][1])
        if action not in view.legal_actions:
            raise _Diverged
        return action

    return policy


class _Diverged(Exception):
    """The other world's decision is not legal here: the secret changed what a seat could
    do, so this pair of worlds tests nothing."""


def _passing(seat: int, view: Any, rng: Rng) -> Any:
    if view.header.phase == "window":
        return next(a for a in view.legal_actions if a.to_json()["type"] == "pass")
    return random_policy(seat, view, rng)


def _keeping(x: int, card: str) -> Any:
    """:func:`_passing`, but seat ``x`` never plays ``card`` while it can play another: the
    card it holds in one world and not in the other."""

    def policy(seat: int, view: Any, rng: Rng) -> Any:
        if seat == x and view.header.phase != "window":
            others = [a for a in view.legal_actions if a.to_json().get("card") != card]
            if others:
                return others[rng.below(len(others))]
        return _passing(seat, view, rng)

    return policy


def _swapped_card(seed_world: World, x: int) -> str:
    """The card :func:`_swap_block_into` takes from seat ``x``'s hand."""
    game = seed_world.referee.game
    state = game.start(seed_world.store.stored.seed).state
    kinds = [t.kind for t in game.types]
    ordinary = [c for c in state.hands[x] if kinds[c] != "BLOCK"]
    return str(game.types[ordinary[-1]].name) if ordinary else ""


def _swap_block_into(x: int) -> Any:
    """A game whose deal gives seat ``x`` a BLOCK from the bottom of the draw pile in place
    of its highest card that is no BLOCK (the card goes to the bottom instead)."""

    def hook(game: Any) -> Any:
        original = game.start
        kinds = [t.kind for t in game.types]

        def start(seed: int) -> Any:
            transition = original(seed)
            state = transition.state
            hand = state.hands[x]
            ordinary = [c for c in hand if kinds[c] != "BLOCK"]
            blocks = [i for i, c in enumerate(state.draw) if kinds[c] == "BLOCK"]
            if not ordinary or not blocks:
                raise _Diverged
            give, take = state.draw[blocks[0]], ordinary[-1]
            hand.remove(take)
            hand.append(give)
            hand.sort()
            state.draw[blocks[0]] = take
            return transition

        game.start = start
        return game

    return hook


def _seen(world: World, conn: int) -> list[tuple[float, Any]]:
    return [(round(r.at, 6), r.frame) for r in world.frames_of(conn)]


def _diff(a: list[tuple[float, Any]], b: list[tuple[float, Any]]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"frame {i}: {x!r:.300} != {y!r:.300}"
    return f"{len(a)} frames against {len(b)}"


SLOW = (0.5, 14.0)
"""People who run out of a blitz clock now and then: the stand-in bot plays for them."""


@pytest.mark.parametrize(
    ("seats", "silent", "think"),
    [
        (["person", "person", "person"], True, None),
        (["person", "person", "person"], False, None),
        (["person", "heuristic", "person"], True, None),
        (["person", "random", "person", "person"], False, None),
        (["person", "person", "person"], True, SLOW),
    ],
    ids=["silent-people", "clicking-people", "bot-holds-it", "four-clicking", "takeovers"],
)
def test_who_holds_a_block_shows_in_no_frame_content_order_or_time(
    seats: list[str], silent: bool, think: tuple[float, float] | None
) -> None:
    """SB-9 (amended again): seat 1 holds a BLOCK in one world and not in the other; seat 0
    and a spectator receive the same frames at the same times in both."""
    tested = takeovers = 0
    for seed in range(12):
        config = {"window_seconds": MINIMUM}
        extra: dict[str, Any] = {}
        if think is not None:
            extra = {"think": think, "clock": BLITZ}
        probe = World("setback", seats, seed=seed, config=config, spectator=False)
        card = _swapped_card(probe, 1)
        a = World(
            "setback",
            seats,
            seed=seed,
            config=config,
            silent=silent,
            policy=_keeping(1, card),
            **extra,
        )
        a.run(until=a.now + 300)
        record = list(a.store.stored.actions)
        try:
            b = World(
                "setback",
                seats,
                seed=seed,
                config=config,
                silent=silent,
                policy=_scripted(record, a.referee.game),
                game_hook=_swap_block_into(1),
                **extra,
            )
            b.run(until=a.now)
        except _Diverged:
            continue
        if len(b.store.stored.actions) != len(record):
            continue
        tested += 1
        takeovers += sum(1 for n in a.referee.clock.notes if n["kind"] == "timeout")
        for conn in (1, SPECTATOR):
            seen_a, seen_b = _seen(a, conn), _seen(b, conn)
            assert seen_a == seen_b, f"seed {seed}, socket {conn}: {_diff(seen_a, seen_b)}"
        if tested >= PAIRS and (think is None or takeovers):
            break
    assert tested >= 3, "too few pairs of worlds ran alike to test anything"
    assert think is None or takeovers, "no bot stood in for anyone"


def test_the_checker_catches_a_difference() -> None:
    """The comparison can fail: two deals the observer can tell apart give different
    frames."""
    a = World("setback", ["person", "person"], seed=1, policy=_passing)
    b = World("setback", ["person", "person"], seed=2, policy=_passing)
    a.run(until=a.now + 30)
    b.run(until=b.now + 30)
    assert _seen(a, 1) != _seen(b, 1)


def _received(world: World, conn: int) -> list[Received]:
    return world.frames_of(conn)


def _until_reveal(seen: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """The frames up to the first that turns the face-down cards up (WF-4): from there on
    the other world's card is public, and the worlds may differ."""
    out = []
    for at, frame in seen:
        kinds = {e.get("kind") for e in frame.get("events", [])}
        if "cards_revealed" in kinds:
            break
        out.append((at, frame))
    return out


@pytest.mark.parametrize(
    ("seats", "config"),
    [
        (["person", "person", "person"], {}),
        (["person", "random", "person", "person"], {}),
        (["person", "person", "heuristic"], {"variant": "tactical"}),
    ],
    ids=["three-people", "bot-places", "tactical"],
)
def test_a_face_down_card_shows_in_no_frame_before_it_is_turned_up(
    seats: list[str], config: dict[str, Any]
) -> None:
    """WF-4: seat 1 places another card face down in the other world, at the same moment;
    until the cards are turned up, seat 0 and a spectator receive the same frames at the
    same times. (The cards are then public and the worlds part.)"""
    tested = 0
    for seed in range(8):
        a = World("why-first", seats, seed=seed, config=config)
        a.run(until=a.now + 60)
        record = list(a.store.stored.actions)
        first = next((i for i, (s, _) in enumerate(record) if s == 1), None)
        if first is None:
            continue
        legal = a.referee.game.legal_actions(_replayed_state(a, first), 1)
        chosen = record[first][1]
        others = [x.to_json() for x in legal if x.to_json() != chosen]
        if not others:
            continue
        changed = list(record)
        changed[first] = (1, others[0])
        b = World("why-first", seats, seed=seed, config=config, policy=_replaying(changed, a))
        with contextlib.suppress(_Diverged):
            # After the reveal the worlds part: only the frames before it are compared.
            b.run(until=a.now)
        tested += 1
        for conn in (1, SPECTATOR):
            seen_a, seen_b = _until_reveal(_seen(a, conn)), _until_reveal(_seen(b, conn))
            assert seen_a, "nothing was seen before the reveal"
            assert seen_a == seen_b, f"seed {seed}, socket {conn}: {_diff(seen_a, seen_b)}"
        if tested >= PAIRS:
            break
    assert tested >= 3


def _replayed_state(world: World, moves: int) -> Any:
    from racedeck.core.table import Table

    table = Table(world.referee.game, world.store.stored.seed)
    for seat, action in world.store.stored.actions[:moves]:
        table.submit_json(seat, action)
    return table.state


def _replaying(record: list[tuple[int, dict[str, Any]]], world: World) -> Any:
    """Each seat takes, in order, the actions ``record`` gives it (people and bots alike)."""
    game = world.referee.game
    queues: dict[int, list[dict[str, Any]]] = {}
    for seat, action in record:
        queues.setdefault(seat, []).append(action)

    def policy(seat: int, view: Any, rng: Rng) -> Any:
        if not queues.get(seat):
            return view.legal_actions[0]  # past the other world's last move: not compared
        action = game.action_from_json(queues[seat].pop(0))
        if action not in view.legal_actions:
            raise _Diverged
        return action

    return policy


def test_another_hand_shows_in_no_frame_of_six_day_race() -> None:
    """Six Day Race: the grey deck is stacked otherwise in the other world, so the rider
    changed first holds another card (SD-6), one its player does not play here; seat 0 and
    a spectator receive the same frames at the same times."""
    tested = 0
    for seed in range(10):
        seats = ["person", "person", "random"]
        config = {"races": 1}
        a = World("six-day-race", seats, seed=seed, config=config)
        a.run(until=a.now + 150)
        record = list(a.store.stored.actions)
        if not any(
            f.frame.get("type") == "update"
            and any(e.get("kind") == "rider_change" for e in f.frame["events"])
            for f in a.frames_of(1)
        ):
            continue
        try:
            b = World(
                "six-day-race",
                seats,
                seed=seed,
                config=config,
                policy=_replaying(record, a),
                game_hook=_restacked,
            )
            b.run(until=a.now)
        except _Diverged:
            continue
        if len(b.store.stored.actions) != len(record):
            continue
        hands_a, hands_b = a.referee.table.state.hands, b.referee.table.state.hands
        if hands_a == hands_b:
            continue  # nobody drew the other card yet
        # Riders p and p + players are player p's (SD-12): observe a player who drew neither.
        players = len(seats)
        unaware = [
            p
            for p in a.people
            if all(hands_a[r] == hands_b[r] for r in range(p, len(hands_a), players))
        ]
        tested += 1
        for conn in [a.people[p].conn for p in unaware] + [SPECTATOR]:
            seen_a, seen_b = _seen(a, conn), _seen(b, conn)
            assert seen_a == seen_b, f"seed {seed}, socket {conn}: {_diff(seen_a, seen_b)}"
        if tested >= PAIRS:
            break
    assert tested >= 2


def _restacked(game: Any) -> Any:
    """A deal whose grey deck 1-3 has its top card and a card of another value from the
    bottom half swapped: the first rider change draws a different card."""
    original = game.start

    def start(seed: int) -> Any:
        transition = original(seed)
        deck = transition.state.deck_low
        top = deck[-1]
        other = next((i for i in range(len(deck) // 2) if deck[i] % 10 != top % 10), None)
        if other is None:
            raise _Diverged
        deck[-1], deck[other] = deck[other], top
        return transition

    game.start = start
    return game
