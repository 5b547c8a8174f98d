"""Determinizations of *Why First?*: ``sample_state`` deals what a seat cannot see, and only that.

The samples keep every card exactly once, keep the seat's own hand and commit, vary where the
view is silent, deal the unseen cards uniformly, depend on nothing but the view, and show the
seat exactly the view they came from.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import play_random

import racedeck
from racedeck.core.rng import Rng
from racedeck.games.why_first import WhyFirst, WhyFirstState, WhyFirstView
from racedeck.games.why_first.state import COMMIT, MOVE

FAST = settings(max_examples=40, deadline=None)


def make(players: int = 4, variant: str = "base") -> WhyFirst:
    game = racedeck.make("why-first", players=players, variant=variant)
    assert isinstance(game, WhyFirst)
    return game


def states(game: WhyFirst, seed: int, choices: int = 1) -> list[WhyFirstState]:
    """Every non-final state of a random legal game."""
    return [s for s in play_random(game, seed, choices).states() if not s.is_terminal]


def first(game: WhyFirst, seed: int, want: Any) -> WhyFirstState:
    """The first state of a random game for which ``want(state)`` holds."""
    for s in states(game, seed):
        if want(s):
            return s
    raise AssertionError("no such state in this game")


def unseen_cards(game: WhyFirst, view: WhyFirstView) -> set[int]:
    """Tactical variant: the white numbers the seat has not seen this stage."""
    return set(range(1, len(game.values) + 1)) - set(view.hand) - set(view.revealed)


def unseen_values(game: WhyFirst, view: WhyFirstView) -> Counter[int]:
    """The values of the cards the seat has not seen this stage (all a base-game view tells,
    WF-2: white numbers mean nothing there and no view shows them)."""
    left = Counter(game.values)
    left.subtract(view.hand_values)
    left.subtract(view.revealed_values)
    return +left


def assert_consistent(game: WhyFirst, view: WhyFirstView, s: WhyFirstState) -> None:
    """Cards conserved, the seat's own cards kept, hidden commits taken from the right hand."""
    placed = [c for h in s.hands for c in h] + s.leo_cards + s.revealed
    assert len(placed) == len(set(placed)), "a card is in two places"
    assert set(placed) <= set(range(1, len(game.values) + 1))
    assert [len(h) for h in s.hands] == list(view.hand_sizes)
    assert len(s.leo_cards) == view.leo_cards_left
    values = game.values
    assert [values[c - 1] for c in s.revealed] == list(view.revealed_values)
    if game.tactical:
        assert s.revealed == list(view.revealed)
    if view.seat is not None:
        own = s.hands[view.seat]
        commit = s.commits[view.seat]
        if game.tactical:
            assert own == list(view.hand)
            assert commit == view.my_commit
        else:
            assert sorted(values[c - 1] for c in own) == list(view.hand_values)
            mine = None if commit is None else (values[commit[0] - 1], commit[1])
            assert mine == view.my_commit
    for p, commit in enumerate(s.commits):
        assert (commit is not None) == (p in view.committed)
        if commit is None or s.phase != COMMIT:
            continue
        card = commit if game.tactical else commit[0]
        assert card in s.hands[p], "a commit not taken from its seat's hand"
        if not game.tactical:
            assert 0 <= commit[1] < game.figures


# -- the public fact the sampler needs ------------------------------------------------------------


@FAST
@given(st.integers(2, 6), st.sampled_from(["base", "tactical"]), st.integers(0, 2**32))
def test_revealed_lists_every_card_revealed_this_stage(
    players: int, variant: str, seed: int
) -> None:
    game = make(players, variant)
    played = play_random(game, seed, seed + 1)
    shown: list[int] = []
    for s, events in zip(
        played.states(), (played.table.initial_events, *played.events), strict=True
    ):
        for e in events:
            if e.kind == "stage_started":
                shown = []
            elif e.kind == "cards_revealed":
                # White numbers in the tactical variant; the base game shows values (WF-2).
                shown.extend(c["card"] if game.tactical else c["value"] for c in e.data["cards"])
        assert (s.revealed if game.tactical else [game.values[c - 1] for c in s.revealed]) == shown
        assert not set(s.revealed) & {c for h in s.hands for c in h} and not set(s.revealed) & set(
            s.leo_cards
        )


# -- what samples keep and what they draw ---------------------------------------------------------


def test_base_game_commit_round_keeps_own_cards_and_hides_the_others() -> None:
    """WF-4: a commit is secret until every seat has committed; the sample re-draws it."""
    game = make(4)
    # Round 2 of the first stage, seats 1 and 3 have committed, seat 0 not yet.
    state = first(game, 5, lambda s: s.round == 1 and s.phase == COMMIT and len(s.pending) == 2)
    seat = state.pending[0]
    view = game.observe(state, seat)
    assert view.revealed_values and len(view.committed) == 2
    samples = [game.sample_state(view, Rng(k)) for k in range(40)]
    for s in samples:
        assert_consistent(game, view, s)
    # Nothing hidden is copied: hands, commits and the RNG differ between samples.
    others = [p for p in range(4) if p != seat]
    assert len({tuple(tuple(s.hands[p]) for p in others) for s in samples}) == 40
    assert len({tuple(s.commits[p] for p in view.committed) for s in samples}) > 30
    assert len({s.rng.state for s in samples} | {state.rng.state}) == 41


def test_own_commit_is_kept_when_the_seat_has_committed() -> None:
    game = make(3, "tactical")
    state = first(game, 8, lambda s: s.phase == COMMIT and len(s.pending) == 1)
    seat = next(p for p in range(3) if p not in state.pending)
    view = game.observe(state, seat)
    assert view.my_commit is not None
    for k in range(20):
        s = game.sample_state(view, Rng(k))
        assert_consistent(game, view, s)
        assert s.commits[seat] == state.commits[seat]


def test_tactical_move_phase_takes_commits_from_the_revealed_cards() -> None:
    """WF-10: in the move phase the committed cards are face up."""
    game = make(4, "tactical")
    state = first(game, 3, lambda s: s.phase == MOVE and s.round == 2)
    view = game.observe(state, state.pending[0])
    for k in range(20):
        s = game.sample_state(view, Rng(k))
        assert_consistent(game, view, s)
        assert s.commits == state.commits  # revealed: public
        assert s.move_queue == state.move_queue


def test_two_players_draws_leos_face_down_cards() -> None:
    """WF-9: Leo's face-down cards are hidden from both players."""
    game = make(2)
    state = first(game, 4, lambda s: s.round == 2 and s.phase == COMMIT)
    view = game.observe(state, 0)
    assert view.leo_cards_left == 2
    samples = [game.sample_state(view, Rng(k)) for k in range(30)]
    for s in samples:
        assert_consistent(game, view, s)
    assert len({tuple(s.leo_cards) for s in samples}) > 25


def test_spectator_samples_every_hand() -> None:
    game = make(5)
    state = first(game, 2, lambda s: s.round == 3)
    view = game.observe(state, None)
    samples = [game.sample_state(view, Rng(k)) for k in range(20)]
    for s in samples:
        assert_consistent(game, view, s)
        assert game.observe(s, None).to_json() == view.to_json()
    assert all(len({tuple(s.hands[p]) for s in samples}) > 15 for p in range(5))


# -- uniformity ------------------------------------------------------------------------------------


def test_unseen_cards_land_in_a_hand_at_the_expected_rate() -> None:
    game = make(4)
    state = first(game, 9, lambda s: s.round == 1 and len(s.pending) == 4)
    view = game.observe(state, 0)
    unseen = unseen_values(game, view)
    # 32 cards - 4 in hand - 4 revealed: 24 unseen, of which seat 2 holds 4.
    assert unseen.total() == 24 and view.hand_sizes[2] == 4
    n = 4000
    counts: Counter[int] = Counter()
    for k in range(n):
        counts.update(game.values[c - 1] for c in game.sample_state(view, Rng(k)).hands[2])
    # Base game: a card is its value (WF-2), so the rate is per card of each value.
    expected = n * 4 / 24  # about 667 per card, standard deviation about 24
    assert set(counts) == set(unseen)
    assert all(abs(counts[v] / unseen[v] - expected) < 120 for v in unseen), counts
    # The seat's true hand is not favoured.
    true_values = [game.values[c - 1] for c in state.hands[2]]
    true_rate = sum(counts[v] / unseen[v] for v in true_values) / (4 * n)
    assert abs(true_rate - 4 / 24) < 0.02


def test_hidden_commits_are_uniform_over_the_legal_actions() -> None:
    """Base game: a uniform value in hand and a uniform target, placing the card the engine
    would place for that value (the lowest-numbered one)."""
    game = make(2)
    state = first(game, 6, lambda s: s.round == 0 and s.pending == (0,))
    view = game.observe(state, 0)
    n = 3000
    targets: Counter[int] = Counter()
    leo_top: Counter[int] = Counter()
    excess = variance = 0.0
    for k in range(n):
        s = game.sample_state(view, Rng(k))
        card, target = s.commits[1]
        targets[target] += 1
        value = game.values[card - 1]
        assert card == min(c for c in s.hands[1] if game.values[c - 1] == value)
        # Each distinct value in hand is equally likely, however many cards share it: the
        # chosen value's number of cards averages over the values, not over the cards.
        counts = Counter(game.values[c - 1] for c in s.hands[1])
        mean = sum(counts.values()) / len(counts)
        excess += counts[value] - mean
        variance += sum(m * m for m in counts.values()) / len(counts) - mean * mean
        leo_top[game.values[s.leo_cards[-1] - 1]] += 1
    assert all(abs(targets[t] - n / 3) < 150 for t in range(3)), targets
    assert abs(excess) < 5 * variance**0.5, (excess, variance)
    unseen = unseen_values(game, view)
    assert set(leo_top) == set(unseen)
    per_card = n / unseen.total()
    assert all(abs(leo_top[v] / unseen[v] - per_card) < 60 for v in unseen), leo_top


# -- only the view counts --------------------------------------------------------------------------


def test_states_with_the_same_view_give_the_same_samples() -> None:
    """Swapping cards between the other hands and reseeding the state changes nothing seat 0
    sees, and so nothing it samples: the sampler reads no secret."""
    game = make(4)
    state = first(game, 12, lambda s: s.round == 2 and len(s.pending) == 4)
    other = state.clone()
    other.hands[1][0], other.hands[3][0] = other.hands[3][0], other.hands[1][0]
    other.hands[1].sort()
    other.hands[3].sort()
    other.rng = Rng(999)
    assert other.hands != state.hands
    view = game.observe(state, 0)
    assert game.observe(other, 0).to_json() == view.to_json()
    for k in range(5):
        a = game.sample_state(view, Rng(k))
        b = game.sample_state(game.observe(other, 0), Rng(k))
        assert a.to_json() == b.to_json()


@FAST
@given(
    st.integers(2, 6),
    st.sampled_from(["base", "tactical"]),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)
def test_samples_show_the_seat_exactly_its_view(
    players: int, variant: str, seed: int, pick: int, sample_seed: int
) -> None:
    game = make(players, variant)
    candidates = states(game, seed, pick)
    rnd = random.Random(pick)
    state = rnd.choice(candidates)
    seat = rnd.choice([None, *range(players)])
    view = game.observe(state, seat)
    sample = game.sample_state(view, Rng(sample_seed))
    assert game.observe(sample, seat).to_json() == view.to_json()
    assert_consistent(game, view, sample)
    # The sample is a real position: the checked path accepts a few more legal moves from it.
    for _ in range(6):
        if sample.is_terminal:
            break
        who = rnd.choice(sample.pending)
        sample = game.apply(sample, who, rnd.choice(game.legal_actions(sample, who)))
