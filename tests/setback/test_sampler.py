"""*Setback*'s sampler: ``game.sample_state(view, rng)`` rebuilds a full state from one seat's
view, drawing what the view hides (other hands, the draw pile's order, who is still asked in a
BLOCK window and what the others already answered, the state's RNG) and copying everything
public (SB-9: BLOCKs and played cards are face up, hands and answers are secret).

Seats: P1 = 0, P2 = 1 … Window situations are dealt by hand: each seat gets named cards, the
rest of the deck stays in the draw pile, and P1 declares a MOVE+1 from its hand.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import play_random, roundtrip

import racedeck
from racedeck.core.rng import Rng
from racedeck.games.setback import (
    Block,
    Pass,
    Play,
    Setback,
    SetbackState,
    SetbackView,
    parse_card_type,
)

P1, P2, P3, P4 = 0, 1, 2, 3

# A deck with a name in two places (its indices are not contiguous), FREE SKIPs and two kinds
# of BLOCK: cards of one kind but different names must still land where the view shows them.
ODD_DECK = (
    ("MOVE+1", 8),
    ("BLOCK", 6),
    ("SKIP*", 4),
    ("MOVE+2", 8),
    ("SKIP", 4),
    ("BLOCK*", 4),
    ("MOVE+1", 6),
    ("FOE-1", 8),
    ("DRAW", 4),
    ("MOVE-1", 6),
    ("TRADE", 4),
)


def make(players: int, **options: Any) -> Setback:
    game = racedeck.make("setback", players=players, **options)
    assert isinstance(game, Setback)
    return game


@functools.cache
def _made(players: int, self_block: str) -> Setback:
    """:func:`make`, once per setup for the many examples of a property (making a Setback
    costs as much as playing a game)."""
    return make(players, self_block=self_block)


def public(view: SetbackView) -> dict[str, Any]:
    """The view's JSON (views hold no events: they belong to the transition)."""
    return view.to_json()


def card_places(s: SetbackState) -> list[int]:
    """Every card where it lies: board, hands, draw pile, discards, SKIPs, the window's stack
    (a declared board card stays on the board)."""
    cards = [c for row in s.grid for c in row] + s.draw + s.discard
    cards += [c for h in s.hands for c in h] + [c for k in s.skip_cards for c in k]
    cards += [item["card"] for item in s.stack if item.get("source") != "board"]
    return cards


def public_facts(g: Setback, s: SetbackState) -> dict[str, Any]:
    """What the whole table knows of a state, cards by name (which index is which is no fact)."""

    def name(c: int) -> str:
        return g.types[c].name

    return {
        "grid": [[name(c) for c in row] for row in s.grid],
        "discard": [name(c) for c in s.discard],
        "skip_cards": [[name(c) for c in k] for k in s.skip_cards],
        "stack": [{**item, "card": name(item["card"])} for item in s.stack],
        "hand_sizes": [len(h) for h in s.hands],
        "draw_size": len(s.draw),
        **{
            key: getattr(s, key)
            for key in (
                "players",
                "rows_removed",
                "row",
                "lane",
                "skip_spent",
                "current",
                "phase",
                "source",
                "hand_played",
                "nonfree_played",
                "context",
                "winner",
            )
        },
    }


def eligible(g: Setback, s: SetbackState) -> list[int]:
    """Who may answer the window of ``s`` per SB-9 amended, BLOCK in hand or not, in turn
    order."""
    if s.stack[1:]:
        exclude = s.stack[-1]["by"]
    else:
        own = g.cfg.self_block
        may = own == "all" or (own == "board" and s.stack[0]["source"] == "board")
        exclude = -1 if may else s.stack[0]["by"]
    order = [(s.current + i) % g.n for i in range(g.n)]
    return [q for q in order if q != exclude]


def holds_block(g: Setback, s: SetbackState, q: int) -> bool:
    return any(g.types[c].kind == "BLOCK" for c in s.hands[q])


def check_sample(g: Setback, state: SetbackState, seat: int | None, seed: int) -> SetbackState:
    """Sample ``seat``'s view of ``state`` and check everything a sample promises."""
    before = state.to_json()
    view = g.observe(state, seat)
    sample = g.sample_state(view, Rng(seed))
    assert public(g.observe(sample, seat)) == public(view)
    assert public_facts(g, sample) == public_facts(g, state)
    assert sorted(card_places(sample)) == list(range(len(g.types)))
    assert all(h == sorted(h) for h in sample.hands)
    if seat is not None:
        assert sample.hands[seat] == sorted(sample.hands[seat])
        assert [g.types[c].name for c in sample.hands[seat]] == list(view.hand)
        assert g.legal_actions(sample, seat) == view.legal_actions
    if sample.phase == "window":
        assert sample.pending and list(sample.pending) == sample.asked
        assert set(sample.pending) <= set(eligible(g, sample))
        assert [q for q in eligible(g, sample) if q in sample.pending] == list(sample.pending)
        # SB-9 amended again: BLOCKs answered by seats that answered and hold one.
        assert sample.blockers == sorted(sample.blockers)
        assert set(sample.blockers) <= set(eligible(g, sample)) - set(sample.pending)
        assert all(holds_block(g, sample, q) for q in sample.blockers)
        if seat is not None:
            assert (seat in sample.blockers) == (view.answer == "block")
    else:
        assert sample.blockers == []
    again = g.sample_state(g.view_from_json(roundtrip(view.to_json())), Rng(seed))
    assert again.to_json() == sample.to_json()
    assert state.to_json() == before
    return sample


# -- dealt windows ---------------------------------------------------------------------------


def deal(g: Setback, hands: Mapping[int, Sequence[str]], seed: int = 1) -> SetbackState:
    """A fresh game in which each seat holds the named cards and P1 starts its Hand Action."""
    s = g.new_initial_state(seed)
    pool = sorted([c for h in s.hands for c in h] + s.draw)
    for p in range(g.n):
        chosen = []
        for name in hands.get(p, ()):
            c = next(i for i in pool if g.types[i].name == name)
            pool.remove(c)
            chosen.append(c)
        s.hands[p] = sorted(chosen)
    s.draw = pool
    s.current, s.phase, s.pending, s.source = P1, "hand", (P1,), ""
    s.hand_played, s.nonfree_played = 0, False
    assert sorted(card_places(s)) == list(range(len(g.types)))
    return s


MOVE1 = Play(parse_card_type("MOVE+1"), lane=0)


def test_the_observer_asked_others_still_to_answer_with_even_odds() -> None:
    """SB-9 amended: P2, P3 and P4 are asked about P1's MOVE+1, BLOCK in hand or not. P2 sees
    only that it is asked: who holds a BLOCK is dealt independently of the window, and whether
    each other seat has already answered is a fair coin (nothing shows it)."""
    g = make(4)
    s = g.apply(
        deal(
            g,
            {
                P1: ["MOVE+1", "MOVE+2", "SHIFT"],
                P2: ["BLOCK", "MOVE+1", "FOE+1"],
                P3: ["MOVE+1", "MOVE-1", "CUT"],
                P4: ["BLOCK", "BLOCK", "TRADE"],
            },
        ),
        P1,
        MOVE1,
    )
    assert s.phase == "window" and s.pending == (P2, P3, P4)
    holders, still = Counter[int](), Counter[int]()
    for k in range(600):
        sample = check_sample(g, s, P2, k)
        assert P2 in sample.pending and P1 not in sample.pending  # P1's own Hand Action
        assert eligible(g, sample) == [P2, P3, P4]
        for q in (P3, P4):
            holders[q] += holds_block(g, sample, q)
            still[q] += q in sample.pending
    for q in (P3, P4):  # each holds a BLOCK sometimes, and is still asked about half the time
        assert 60 < holders[q] < 540
        assert 0.4 < still[q] / 600 < 0.6, (q, still[q])


def test_a_seat_that_passed_is_not_asked_and_someone_else_is() -> None:
    """P2 passes; the window stays open for P3 and P4 (SB-9 amended). P2's view: P2 is not
    asked (it has answered), so some other seat must be, in every sample — never P1 (its Hand
    Action)."""
    g = make(4)
    s = g.apply(
        deal(
            g,
            {
                P1: ["MOVE+1", "MOVE+2", "SHIFT"],
                P2: ["BLOCK", "MOVE+1", "FOE+1"],
                P3: ["MOVE+1", "MOVE-1", "CUT"],
                P4: ["BLOCK", "TRADE", "CUT"],
            },
        ),
        P1,
        MOVE1,
    )
    s = g.apply(s, P2, Pass())
    assert s.phase == "window" and s.pending == (P3, P4)
    for seat in (P1, P2, P3, None):
        for k in range(150):
            sample = check_sample(g, s, seat, k)
            assert sample.pending and P1 not in sample.pending
            if seat is not None:  # a seat knows whether it still has to answer, no more
                assert (seat in sample.pending) == (seat == P3)


def test_two_players_the_window_tells_nothing_about_blocks() -> None:
    """SB-9 amended: with two players, P1 is not asked about its own Hand Action and P2 is,
    whatever it holds; P2 blocks and P1 is asked in turn (the player of the BLOCK on top never
    is). An open window used to tell P1 that P2 held a BLOCK; now P1's samples give P2 one only
    as the deal does, and P2's samples give P1 one or not."""
    g = make(2)
    s = g.apply(
        deal(g, {P1: ["MOVE+1", "BLOCK", "SHIFT"], P2: ["BLOCK", "MOVE+1", "CUT"]}), P1, MOVE1
    )
    assert s.pending == (P2,)
    p2_holds = 0
    for k in range(100):
        sample = check_sample(g, s, P1, k)
        assert sample.pending == (P2,) and P2 in eligible(g, sample)
        p2_holds += holds_block(g, sample, P2)
    assert 0 < p2_holds < 100
    s = g.apply(s, P2, g.legal_actions(s, P2)[0])  # block
    assert s.pending == (P1,) and g.observe(s, P2).blocks == (P2,)
    p1_holds = 0
    for k in range(100):
        sample = check_sample(g, s, P2, k)
        assert sample.pending == (P1,) and P1 in eligible(g, sample)
        p1_holds += holds_block(g, sample, P1)
    assert 0 < p1_holds < 100


def test_sb9_answers_already_given_are_drawn_as_the_hands_allow() -> None:
    """SB-9 amended again: P2 answered BLOCK, P3 passed, P4 is still asked, all unseen. P4's
    samples take each other seat to be still asked or to have answered with even odds, and
    one that answered to have answered BLOCK with even odds if its dealt hand holds one —
    never without one. P2 and P3 know their own answers."""
    g = make(4)
    s = g.apply(
        deal(
            g,
            {
                P1: ["MOVE+1", "MOVE+2", "SHIFT"],
                P2: ["BLOCK", "MOVE+1", "FOE+1"],
                P3: ["BLOCK", "MOVE-1", "CUT"],
                P4: ["BLOCK", "TRADE", "CUT"],
            },
        ),
        P1,
        MOVE1,
    )
    s = g.apply(g.apply(s, P2, Block()), P3, Pass())
    assert s.pending == (P4,) and s.blockers == [P2]
    answered, blocked, holding = Counter[int](), Counter[int](), Counter[int]()
    for k in range(800):
        sample = check_sample(g, s, P4, k)
        assert P4 in sample.pending and P4 not in sample.blockers
        for q in (P2, P3):
            if q not in sample.pending:
                answered[q] += 1
                holding[q] += holds_block(g, sample, q)
                blocked[q] += q in sample.blockers
    for q in (P2, P3):
        assert 0.4 < answered[q] / 800 < 0.6, (q, answered[q])
        assert 0.35 < blocked[q] / holding[q] < 0.65, (q, blocked[q], holding[q])
    for k in range(100):
        own = check_sample(g, s, P2, k)
        assert P2 in own.blockers and P2 not in own.pending
        passed = check_sample(g, s, P3, k)
        assert P3 not in passed.blockers and P3 not in passed.pending
        spectator = check_sample(g, s, None, k)
        assert spectator.pending


def test_sb9_a_view_whose_answer_no_state_can_show_is_refused() -> None:
    g = make(3)
    s = g.apply(deal(g, {P1: ["MOVE+1", "SHIFT"], P2: ["BLOCK", "CUT"], P3: ["CUT"]}), P1, MOVE1)
    view = g.observe(g.apply(s, P3, Pass()), P3)
    assert view.answer == "pass"
    g.sample_state(view, Rng(0))
    bluff = SetbackView.from_json({**view.to_json(), "answer": "block"})
    with pytest.raises(ValueError, match="without holding one"):
        g.sample_state(bluff, Rng(0))
    asked = g.observe(s, P3)
    both = SetbackView.from_json({**asked.to_json(), "answer": "pass"})
    with pytest.raises(ValueError, match="either asked or have answered"):
        g.sample_state(both, Rng(0))
    outside = g.observe(g.new_initial_state(2), P1)
    with pytest.raises(ValueError, match="not one of a window"):
        g.sample_state(SetbackView.from_json({**outside.to_json(), "answer": "pass"}), Rng(0))


def test_a_view_no_state_can_show_is_refused() -> None:
    g = make(3)
    view = g.observe(g.new_initial_state(4), P1)
    with pytest.raises(ValueError, match="players"):
        make(4).sample_state(view, Rng(0))
    wrong = SetbackView.from_json({**view.to_json(), "hand": ["BLOCK"] * 9})
    with pytest.raises(ValueError):
        g.sample_state(wrong, Rng(0))
    short = SetbackView.from_json({**view.to_json(), "draw_size": view.draw_size - 1})
    with pytest.raises(ValueError, match="add up"):
        g.sample_state(short, Rng(0))


# -- the deal --------------------------------------------------------------------------------


def mid_game(g: Setback, seed: int, phase: str = "hand") -> SetbackState:
    """A state halfway through a random game, in ``phase``."""
    states = play_random(g, seed, seed + 1).states()
    state = next(s for s in states[len(states) // 2 :] if s.phase == phase)
    assert isinstance(state, SetbackState)
    return state


def test_hidden_parts_vary_with_the_seed_and_repeat_for_the_same_seed() -> None:
    g = make(4)
    s = mid_game(g, 3)
    view = g.observe(s, s.current)
    samples = [g.sample_state(view, Rng(k)) for k in range(40)]
    others = [q for q in range(4) if q != s.current]
    assert len({tuple(tuple(x.hands[q]) for q in others) for x in samples}) == 40
    assert len({tuple(x.draw) for x in samples}) == 40
    assert len({x.rng.state for x in samples}) == 40
    assert all(x.hands[s.current] == samples[0].hands[s.current] for x in samples)
    assert g.sample_state(view, Rng(7)).to_json() == samples[7].to_json()


def test_an_unseen_card_lands_in_each_place_at_the_expected_rate() -> None:
    """Uniform deal: a given unseen card is in opponent ``q``'s hand with probability
    size(q) / unseen, and on top of the draw pile with probability 1 / unseen."""
    g = make(4)
    s = mid_game(g, 5)
    seat = s.current
    view = g.observe(s, seat)
    first = g.sample_state(view, Rng(0))
    unseen = sorted(c for q in range(4) if q != seat for c in first.hands[q]) + first.draw
    card = min(unseen)
    n, trials = len(unseen), 4000
    in_hand, on_top = Counter[int](), 0
    for k in range(trials):
        sample = g.sample_state(view, Rng(k))
        on_top += sample.draw[-1] == card
        for q in range(4):
            in_hand[q] += card in sample.hands[q]
    assert in_hand[seat] == 0
    for q in range(4):
        if q != seat:
            p = view.hand_sizes[q] / n
            sd = (trials * p * (1 - p)) ** 0.5
            assert abs(in_hand[q] - trials * p) < 4 * sd, (q, in_hand[q], trials * p)
    p = 1 / n
    assert abs(on_top - trials * p) < 4 * (trials * p * (1 - p)) ** 0.5


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "deck": ODD_DECK, "rows": 4},
        {"players": 4, "self_block": "all"},
        {"players": 5, "self_block": "none"},
    ],
    ids=["odd-deck", "self-block-all", "self-block-none"],
)
def test_every_state_of_a_game_samples_for_every_seat(options: dict[str, Any]) -> None:
    g = make(**options)
    states = play_random(g, 21, 22).states()
    assert any(s.phase == "window" for s in states)
    for i, s in enumerate(states):
        for seat in (*range(g.n), None):
            check_sample(g, s, seat, i)


# -- random games ----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    self_block=st.sampled_from(["board", "all", "none"]),
    seed=st.integers(min_value=0, max_value=2**32),
    choices=st.integers(min_value=0, max_value=2**32),
    where=st.floats(min_value=0, max_value=1),
    sample_seed=st.integers(min_value=0, max_value=2**64 - 1),
)
def test_a_sample_shows_each_seat_its_view_mid_game(
    players: int, self_block: str, seed: int, choices: int, where: float, sample_seed: int
) -> None:
    """Any state of a random game: the sample shows the observer exactly its view, keeps every
    public fact and every card, and plays on to a legal end."""
    g = _made(players, self_block)
    states = play_random(g, seed, choices).states()
    state = states[min(int(where * len(states)), len(states) - 1)]
    for seat in (*range(players), None):
        sample = check_sample(g, state, seat, sample_seed)
    if state.is_terminal:
        return
    sample = g.sample_state(g.observe(state, state.pending[0]), Rng(sample_seed))
    policy = Rng(seed)
    for _ in range(5000):
        if sample.is_terminal:
            break
        seat = sample.pending[policy.below(len(sample.pending))]
        legal = g.legal_actions(sample, seat)
        g.apply_unchecked(sample, seat, legal[policy.below(len(legal))])
    assert sample.is_terminal and g.outcome(sample) is not None
