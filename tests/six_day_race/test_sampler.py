"""Determinizations of *Six Day Race*: ``sample_state`` deals what a player cannot see, and only
that.

Green hands are public (every rider starts a race with the same one, SD-2, and plays face up), so
samples keep them; the grey cards a rider drew at its rider change (SD-6) and the order of both
grey decks (SD-3) are drawn anew, uniformly, with every card kept exactly once.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import play_random

import racedeck
from racedeck.core.rng import Rng
from racedeck.games.six_day_race import SixDayRace, SixDayRaceState, SixDayRaceView
from racedeck.games.six_day_race.cards import GREEN, HIGH, LOW, card_code, card_pile

FAST = settings(max_examples=40, deadline=None)
SHORT_TRACK = {"line": 45, "sprints": (15, 30), "rider_change": 17, "crash": 27}
SMALL_DECKS = {"grey_low": (3, 3, 2), "grey_high": (2, 1, 2)}


def make(players: int = 4, **options: Any) -> SixDayRace:
    game = racedeck.make("six-day-race", players=players, **options)
    assert isinstance(game, SixDayRace)
    return game


def first(game: SixDayRace, want: Any, seeds: range = range(200)) -> SixDayRaceState:
    """The first state of a random game (over ``seeds``) for which ``want(state)`` holds."""
    for seed in seeds:
        states: list[SixDayRaceState] = play_random(game, seed, seed).states()
        for s in states:
            if not s.is_terminal and want(s):
                return s
    raise AssertionError("no such state in these games")


def grey_opponent(game: SixDayRace, seat: int) -> Any:
    """A state test: another seat's rider has changed and still holds grey cards."""

    def want(s: SixDayRaceState) -> bool:
        return any(
            s.drawn[r] is not None and s.hands[r] and game.owner(r) != seat
            for r in range(game.riders)
        )

    return want


def full_deck(game: SixDayRace) -> tuple[Counter[int], Counter[int]]:
    cfg = game.cfg
    low = Counter({card_code(LOW, v): k for v, k in enumerate(cfg.grey_low, 1) if k})
    high = Counter({card_code(HIGH, v): k for v, k in enumerate(cfg.grey_high, 4) if k})
    return low, high


def assert_consistent(
    game: SixDayRace, view: SixDayRaceView, s: SixDayRaceState, truth: SixDayRaceState
) -> None:
    """Every grey card exactly once; the player's hands, every green hand and all public piles
    as in the true state; grey hands of the right make-up; decks of the right size."""
    low, high = full_deck(game)
    held = [c for h in s.hands for c in h]
    held_low = Counter(c for c in held if card_pile(c) == LOW)
    held_high = Counter(c for c in held if card_pile(c) == HIGH)
    assert Counter(s.deck_low) + Counter(s.discard_low) + held_low == low
    assert Counter(s.deck_high) + Counter(s.discard_high) + held_high == high
    assert (len(s.deck_low), len(s.deck_high)) == view.deck_sizes
    assert [len(h) for h in s.hands] == list(view.hand_sizes)
    if truth.final_queue is None:
        assert s.turn == truth.turn  # the next regular turn follows the rider to move (SD-4)
    for rider, cards in view.my_hands:
        assert s.hands[rider] == list(cards)
    for r in range(game.riders):
        hand, real = s.hands[r], truth.hands[r]
        assert hand == sorted(hand)
        if not real or card_pile(real[0]) == GREEN:
            assert hand == real, "a green hand is public"
        else:
            assert Counter(card_pile(c) for c in hand) == Counter(card_pile(c) for c in real)


# -- the public facts the sampler needs -----------------------------------------------------------


@FAST
@given(
    st.integers(2, 8),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_played_and_drawn_follow_the_events(
    players: int, short: bool, small: bool, seed: int
) -> None:
    options: dict[str, Any] = {"races": 2}
    if short:
        options.update(SHORT_TRACK, **(SMALL_DECKS if small else {}))
    game = make(players, **options)
    played: list[list[int]] = []
    drawn: list[Any] = []
    p = play_random(game, seed, seed + 1)
    for s, events in zip(p.states(), (game.start(seed).events, *p.events), strict=True):
        for e in events:
            if e.kind == "race_started":
                played = [[] for _ in range(game.riders)]
                drawn = [None] * game.riders
            elif e.kind == "card_played":
                played[e.data["rider"]].append(e.data["card"])
            elif e.kind == "rider_change":
                drawn[e.data["rider"]] = tuple(e.data["drawn"])
        assert [list(p) for p in s.played] == played
        assert s.drawn == drawn


# -- what samples keep and what they draw ---------------------------------------------------------


def test_grey_hands_and_decks_are_drawn_anew() -> None:
    game = make(4)  # eight riders, two each
    state = first(game, grey_opponent(game, 0))
    view = game.observe(state, 0)
    samples = [game.sample_state(view, Rng(k)) for k in range(40)]
    for s in samples:
        assert_consistent(game, view, s, state)
    changed = [r for r in range(game.riders) if state.drawn[r] is not None and r % 4 != 0]
    assert len({tuple(tuple(s.hands[r]) for r in changed) for s in samples}) > 20
    assert len({tuple(s.deck_low) for s in samples}) == 40
    assert len({tuple(s.deck_high) for s in samples}) == 40
    assert len({s.rng.state for s in samples} | {state.rng.state}) == 41


def test_spectator_and_one_rider_games() -> None:
    game = make(6)  # one rider each, the larger field (SD-2, SD-6)
    state = first(game, grey_opponent(game, 0))
    for seat in (None, 0, 3):
        view = game.observe(state, seat)
        for k in range(10):
            s = game.sample_state(view, Rng(k))
            assert_consistent(game, view, s, state)
            assert game.observe(s, seat).to_json() == view.to_json()


def test_later_races_and_the_final_turns() -> None:
    game = make(3, races=3, **SHORT_TRACK)
    state = first(game, lambda s: s.race == 2 and s.final_queue)
    view = game.observe(state, state.pending[0])
    s = game.sample_state(view, Rng(1))
    assert_consistent(game, view, s, state)
    assert s.results == state.results and s.laps == state.laps and s.points == state.points
    assert s.final_queue == state.final_queue


# -- uniformity ------------------------------------------------------------------------------------


def test_unseen_grey_cards_land_in_a_grey_hand_at_the_expected_rate() -> None:
    game = make(4)
    state = first(game, grey_opponent(game, 0))
    view = game.observe(state, 0)
    rider = next(r for r in range(game.riders) if state.drawn[r] is not None and r % 4 != 0)
    size = sum(1 for c in state.hands[rider] if card_pile(c) == LOW)
    low, _ = full_deck(game)
    unseen = low - Counter(view.discard_low)
    for _, cards in view.my_hands:
        unseen -= Counter(cards)
    total = sum(unseen.values())
    n = 3000
    in_hand: Counter[int] = Counter()
    on_top: Counter[int] = Counter()
    for k in range(n):
        s = game.sample_state(view, Rng(k))
        in_hand.update(c for c in s.hands[rider] if card_pile(c) == LOW)
        on_top[s.deck_low[-1]] += 1
    for code, k in unseen.items():
        share = k / total
        # Hypergeometric: `size` cards out of `total`, `k` of them this code.
        mean = size * share
        sd = math.sqrt(n * mean * (1 - share) * (total - size) / (total - 1))
        assert abs(in_hand[code] - n * mean) < 5 * sd + 1, (code, in_hand, n * mean)
        sd_top = math.sqrt(n * share * (1 - share))
        assert abs(on_top[code] - n * share) < 5 * sd_top + 1, (code, on_top, n * share)


# -- only the view counts --------------------------------------------------------------------------


def test_states_with_the_same_view_give_the_same_samples() -> None:
    """Swapping a grey card between another rider's hand and the deck, reshuffling the decks and
    reseeding the state changes nothing seat 0 sees, and so nothing it samples."""
    game = make(4)
    state = first(game, grey_opponent(game, 0))
    rider = next(
        r
        for r in range(game.riders)
        if state.drawn[r] is not None and r % 4 != 0 and any(c < 20 for c in state.hands[r])
    )
    other = state.clone()
    hand = other.hands[rider]
    i = next(i for i, c in enumerate(hand) if c < 20)
    j = next(j for j, c in enumerate(other.deck_low) if c != hand[i])
    hand[i], other.deck_low[j] = other.deck_low[j], hand[i]
    hand.sort()
    random.Random(1).shuffle(other.deck_low)
    random.Random(2).shuffle(other.deck_high)
    other.rng = Rng(12345)
    view = game.observe(state, 0)
    assert other.hands != state.hands
    assert game.observe(other, 0).to_json() == view.to_json()
    for k in range(5):
        a = game.sample_state(view, Rng(k))
        b = game.sample_state(game.observe(other, 0), Rng(k))
        assert a.to_json() == b.to_json()


@st.composite
def configurations(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 8))
    riders = draw(
        st.sampled_from([0, 2] if players == 2 else [0, 1, 2] if players <= 4 else [0, 1])
    )
    options: dict[str, Any] = {"players": players, "riders": riders, "races": 2}
    if draw(st.booleans()):
        options.update(SHORT_TRACK)
        if draw(st.booleans()):
            options.update(SMALL_DECKS)  # decks run out and are refilled (SD-3)
    return options


@FAST
@given(configurations(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_samples_show_the_player_exactly_its_view(
    options: dict[str, Any], seed: int, sample_seed: int
) -> None:
    game = make(**options)
    candidates = [s for s in play_random(game, seed, seed).states() if not s.is_terminal]
    rnd = random.Random(sample_seed)
    state = rnd.choice(candidates)
    seat = rnd.choice([None, *range(game.num_players)])
    view = game.observe(state, seat)
    sample = game.sample_state(view, Rng(sample_seed))
    assert game.observe(sample, seat).to_json() == view.to_json()
    assert_consistent(game, view, sample, state)
    # The sample is a real position: the checked path accepts more legal moves from it.
    for _ in range(10):
        if sample.is_terminal:
            break
        who = sample.pending[0]
        sample = game.apply(sample, who, rnd.choice(game.legal_actions(sample, who)))
