"""Properties of *Setback* over random configurations, seeds and legal games (Hypothesis).

Games are played to the end by a random legal policy through a :class:`racedeck.Session` (the
checked path), with 2 to 6 players and a few board, hand and rule options varied. They are short
(a few dozen to a few hundred steps); a guard fails a game that would not end.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import hypothesis
from budget import scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import (
    Played,
    assert_fast_path_agrees,
    assert_replay_reproduces,
    play_random,
    roundtrip,
)

import racedeck
from racedeck.core.events import feed
from racedeck.games.setback import Block, Pass, Setback, SetbackState
from racedeck.games.setback.state import START

FAST = settings(max_examples=scaled(10), deadline=None)
"""Ten whole random games per property in ``make test`` (``RACEDECK_TEST_BUDGET`` scales it:
2.5 gives the 25 this file once ran)."""
TWINS_PER_GAME = 40
"""Windows compared per game by the twin tests: enough to meet every kind of window, few
enough that a long game does not cost a minute."""
WINDOWS_PER_GAME = scaled(40)
"""Windows checked per game by the window-secrecy test, spread over the game: a long game has
hundreds, and each costs every seat's view five times."""
STEP_LIMIT = 5000
"""No random game of these setups comes near this many steps (they take 10 to 300)."""

seed_st = st.integers(min_value=0, max_value=2**64 - 1)
choices_st = st.integers(min_value=0, max_value=2**32)


@dataclass(frozen=True)
class Setup:
    players: int
    rows: int
    hand_size: int
    draw_count: int
    rows_removable: int
    self_block: str = "board"
    edge_bump: str = "backward"

    def options(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rows": self.rows,
            "hand_size": self.hand_size,
            "draw_count": self.draw_count,
            "rows_removable": self.rows_removable,
            "self_block": self.self_block,
            "edge_bump": self.edge_bump,
        }


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """Mostly the default options (SB-1, SB-3, SB-6, SB-8, SB-7, SB-9), sometimes others."""
    default = draw(st.booleans())
    return Setup(
        players=draw(st.integers(min_value=2, max_value=6)),
        rows=6 if default else draw(st.sampled_from([3, 4, 8])),
        hand_size=3 if default else draw(st.integers(min_value=1, max_value=4)),
        draw_count=2 if default else draw(st.integers(min_value=0, max_value=3)),
        rows_removable=2 if default else draw(st.integers(min_value=0, max_value=3)),
        self_block="board" if default else draw(st.sampled_from(["board", "all", "none"])),
        edge_bump="backward" if default else draw(st.sampled_from(["backward", "forward"])),
    )


@functools.cache
def make_game(setup: Setup) -> Setback:
    """The game of ``setup``, made once: making a Setback (its table of declarations) cost
    as much as playing the game, and a game serves any number of tables."""
    game = racedeck.make("setback", **setup.options())
    assert isinstance(game, Setback)
    return game


def play(setup: Setup, seed: int, choices: int) -> Played:
    """A random legal game: a random pending seat, then a random legal action of that seat."""
    return play_random(make_game(setup), seed, choices, STEP_LIMIT)


def card_places(s: SetbackState) -> list[int]:
    """Every card index where it is: board, draw pile, discards, hands, SKIPs in front of
    players, and the stack of a BLOCK window (a declared board card stays on the board)."""
    cards = [c for row in s.grid for c in row] + s.draw + s.discard
    cards += [c for h in s.hands for c in h] + [c for k in s.skip_cards for c in k]
    cards += [item["card"] for item in s.stack if item.get("source") != "board"]
    return cards


# -- cards -----------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_every_card_is_in_exactly_one_place(setup: Setup, seed: int, choices: int) -> None:
    """SB-2/SB-3/SB-9/SB-10: cards move between deck, board, hands, discards, the SKIPs in front
    of players and the stack, never appear twice and never vanish."""
    p = play(setup, seed, choices)
    everything = list(range(len(p.game.types)))
    for s in p.states():
        assert sorted(card_places(s)) == everything
        assert all(h == sorted(h) for h in s.hands)
        assert all(len(row) == s.lanes for row in s.grid)
        assert all(p.game.types[c].kind == "SKIP" for k in s.skip_cards for c in k)
        assert all(p.game.types[b["card"]].kind == "BLOCK" for b in s.stack[1:])


# -- tokens ----------------------------------------------------------------------------------


def _check_tokens(g: Setback, s: SetbackState) -> None:
    ctx = s.context
    transit = set(ctx.get("left", ())) if ctx.get("kind") == "all" else set()
    displaced = set(ctx.get("left", ())) if ctx.get("kind") == "place" else set()
    held: Counter[tuple[int, int]] = Counter()
    for q in range(g.n):
        row, lane = s.row[q], s.lane[q]
        if row == START:
            assert lane == START, f"P{q + 1} on START with lane {lane}"
        elif row == s.rows:
            assert s.is_terminal and lane == START, f"P{q + 1} on FINISH: {s!r}"
        elif q in displaced:
            assert 0 <= row < s.rows and lane == START  # lifted off a removed lane (REVAMP)
        else:
            assert 0 <= row < s.rows and 0 <= lane < s.lanes, f"P{q + 1} at {row}/{lane}"
            if q not in transit:
                held[(row, lane)] += 1
    shared = [card for card, k in held.items() if k > 1]
    assert not shared, f"tokens share {shared}: {s!r}"  # at the end of a game too (SB-5)
    if s.is_terminal:
        assert not transit and not displaced  # an ALL won midway still moves every token


@FAST
@given(setups(), seed_st, choices_st)
def test_tokens_are_on_the_board_start_or_finish_one_per_card(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-1/SB-4/SB-7: at most one token per card (START holds any number; tokens an ALL has
    not moved yet are in transit); every token on the board, on START or, once the game is
    over, the winner's on FINISH."""
    p = play(setup, seed, choices)
    g = p.game
    states = p.states()
    for s in states:
        _check_tokens(g, s)
        assert g.cfg.min_lanes <= s.lanes <= g.cfg.max_lanes
        assert s.rows == setup.rows - s.rows_removed
        assert 0 <= s.rows_removed <= setup.rows_removable
    final = states[-1]
    assert final.is_terminal and final.row[final.winner] == final.rows
    # Several tokens end on FINISH only when they reached it in the same (last) transition: the
    # winner first (SB-5: the first in the order of an ALL).
    last = p.events[-1]  # the events of the transition that ended the game
    finished = [e.data["player"] for e in last if e.kind == "finished"]
    on_finish = {q for q in range(g.n) if final.row[q] == final.rows}
    assert finished and finished[0] == final.winner and set(finished) == on_finish
    assert len(finished) == len(on_finish)
    if len(finished) > 1:
        assert any(e.kind == "token_moved" and e.data["why"] == "ALL" for e in last)


@FAST
@given(setups(), seed_st, choices_st)
def test_the_outcome_ranks_the_winner_first_and_the_others_by_progress(
    setup: Setup, seed: int, choices: int
) -> None:
    p = play(setup, seed, choices)
    g = p.game
    final = p.steps[-1][2]
    outcome = g.outcome(final)
    assert outcome is not None and outcome.winners == frozenset({final.winner})
    assert outcome.ranks[final.winner] == 1 and outcome.ranks.count(1) == 1
    assert all(g.outcome(s) is None for s in p.states()[:-1])
    progress = [final.row[q] + 1 for q in range(g.n)]
    assert list(outcome.scores) == progress and max(progress) == progress[final.winner]
    for q in range(g.n):
        if q != final.winner and final.row[q] == final.rows:
            assert outcome.ranks[q] == 2  # also on FINISH (same ALL): right after the winner
    for a in range(g.n):
        for b in range(g.n):
            if final.winner not in (a, b) and progress[a] > progress[b]:
                assert outcome.ranks[a] < outcome.ranks[b]
            if final.winner not in (a, b) and progress[a] == progress[b]:
                assert outcome.ranks[a] == outcome.ranks[b]


# -- SKIP and BLOCK windows ------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_a_board_skip_is_declared_and_then_stands_or_is_cancelled(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-10: a turn lost on a board SKIP always follows its declaration as a Board Action, and
    a declared board SKIP always ends in a lost turn or a cancellation (SB-9)."""
    p = play(setup, seed, choices)
    events = [e for batch in (p.session.initial_events, *p.events) for e in batch]
    board_skip = {"type": "play", "card": "SKIP"}
    open_skip = -1
    for e in events:
        if e.kind == "declared" and e.data["source"] == "board" and e.data["play"] == board_skip:
            assert open_skip < 0
            open_skip = e.data["player"]
            continue
        stood = e.kind == "turn_skipped" and e.data["why"] == "board skip"
        if stood or (e.kind == "cancelled" and e.data["play"] == board_skip):
            assert e.data["player"] == open_skip
            open_skip = -1
        else:
            assert e.kind != "declared" or open_skip < 0, "a board SKIP left unresolved"
        assert not (
            e.kind == "declared"
            and e.data["play"]["card"] == "SKIP"
            and "target" not in e.data["play"]
            and e.data["source"] == "hand"
        )
    assert open_skip < 0  # the game never ends while a board SKIP waits in a window


@FAST
@given(setups(), seed_st, choices_st)
def test_a_window_asks_who_may_answer_and_the_declarer_as_self_block_allows(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-9 amended: a window asks whoever may answer, BLOCK in hand or not (it used to ask
    only BLOCK holders); one without a BLOCK may only pass, and that pass is forced; never the
    player of the BLOCK on top; the declarer of a bare action only as ``self_block`` allows
    (its Board Action under "board")."""
    p = play(setup, seed, choices)
    g = p.game
    for s in p.states():
        if s.phase != "window":
            continue
        for q in s.asked:
            holds = any(g.types[c].kind == "BLOCK" for c in s.hands[q])
            assert g.legal_actions(s, q) == ((Block(), Pass()) if holds else (Pass(),))
            assert g.forced_action(s, q) == (None if holds else Pass())
        declared = s.stack[0]
        if len(s.stack) > 1:
            assert s.stack[-1]["by"] not in s.asked
        elif declared["by"] in s.asked:
            assert setup.self_block == "all" or (
                setup.self_block == "board" and declared["source"] == "board"
            )


# -- records, replay and JSON ----------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_replay_reproduces_every_state_and_event(setup: Setup, seed: int, choices: int) -> None:
    assert_replay_reproduces(play(setup, seed, choices))


@FAST
@given(setups(), seed_st, choices_st)
def test_json_round_trips(setup: Setup, seed: int, choices: int) -> None:
    """States, actions (JSON and text), views and outcomes survive ``json.dumps``/``loads``."""
    p = play(setup, seed, choices)
    g = p.game
    prev = p.initial
    for i, (seat, action, s) in enumerate(p.steps):
        assert g.action_from_json(roundtrip(action.to_json())) == action
        assert g.parse_action(str(action), g.observe(prev, seat)) == action
        obj = s.to_json()
        back = g.state_from_json(roundtrip(obj))
        assert back == s and back.to_json() == obj
        assert g.legal_actions(back, seat) == g.legal_actions(s, seat)
        # Views of every kind of moment, not of every step (windows come after every action).
        if i % 5 == 0 or s.is_terminal or (s.phase == "step" and i % 2 == 0):
            for who in [None, *range(setup.players)]:
                view = g.observe(s, who)
                vobj = view.to_json()
                vback = g.view_from_json(roundtrip(vobj))
                assert vback == view and vback.to_json() == vobj
        prev = s
    outcome = g.outcome(prev)
    assert outcome is not None
    assert racedeck.Outcome.from_json(roundtrip(outcome.to_json())) == outcome


# -- secrecy ---------------------------------------------------------------------------------


def _redeal(s: SetbackState, seat: int, rng: random.Random) -> SetbackState:
    """The same table with every secret ``seat`` must not know changed: the other hands are
    redealt from themselves and the draw pile (same sizes), the draw pile is reordered, and the
    RNG (future shuffles) differs."""
    t = s.clone()
    others = [q for q in range(t.players) if q != seat]
    pool = [c for q in others for c in t.hands[q]] + t.draw
    rng.shuffle(pool)
    for q in others:
        size = len(t.hands[q])
        t.hands[q] = sorted(pool[:size])
        del pool[:size]
    t.draw = pool
    t.rng.state ^= 0x5DEECE66D
    return t


@FAST
@given(setups(), seed_st, choices_st)
def test_no_view_holds_another_seats_hand(setup: Setup, seed: int, choices: int) -> None:
    """A seat sees its own hand only: redealing the other hands, the draw pile's order and the
    RNG leaves its view unchanged; the spectator sees no hand at all."""
    p = play(setup, seed, choices)
    g = p.game
    rng = random.Random(choices)
    states = p.states()
    for s in states[:: max(1, len(states) // 12)]:
        spectator = g.observe(s, None)
        assert spectator.hand == () and spectator.legal_actions == ()
        for seat in range(setup.players):
            view = g.observe(s, seat)
            assert view.hand == tuple(g.types[c].name for c in s.hands[seat])
            assert view.hand_sizes == tuple(len(h) for h in s.hands)
            assert not {"hands", "draw", "rng", "asked", "pending", "stack"} & set(view.to_json())
            for _ in range(2):
                t = _redeal(s, seat, rng)
                assert g.observe(t, seat) == view
                assert g.observe(t, None) == spectator


def test_the_redeal_changes_the_other_hands() -> None:
    """Guard for the secrecy property: the redeal really changes what the others hold."""
    g = racedeck.make("setback", players=4)
    s = g.new_initial_state(3)
    rng = random.Random(0)
    changed = 0
    for _ in range(10):
        t = _redeal(s, 0, rng)
        assert t.hands[0] == s.hands[0] and [len(h) for h in t.hands] == [len(h) for h in s.hands]
        changed += t.hands[1:] != s.hands[1:] and t.draw != s.draw
    assert changed == 10


@FAST
@given(setups(), seed_st, choices_st)
def test_no_view_reveals_who_is_asked_in_a_block_window(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-9: the public view shows only that a window is open. Changing who else is asked (who
    holds a BLOCK) changes no seat's view; a seat learns only whether it is asked itself."""
    p = play(setup, seed, choices)
    g = p.game
    rng = random.Random(choices)
    windows = [s for s in p.states() if s.phase == "window"]
    for s in windows[:: max(1, len(windows) // WINDOWS_PER_GAME)]:
        assert s.asked and s.pending == tuple(s.asked)
        for seat in [None, *range(setup.players)]:
            view = g.observe(s, seat)
            assert view.window_open and view.to_act is None
            asked = seat in s.asked
            assert bool(view.legal_actions) == asked
            for _ in range(2):
                t = s.clone()
                others = [q for q in range(setup.players) if q != seat and rng.random() < 0.5]
                t.asked = sorted(set(others) | ({seat} if asked and seat is not None else set()))
                t.pending = tuple(t.asked)
                assert g.observe(t, seat) == view


# -- fast path -------------------------------------------------------------------------------


@FAST
@given(setups(), seed_st, choices_st)
def test_checked_and_fast_paths_agree(setup: Setup, seed: int, choices: int) -> None:
    assert_fast_path_agrees(play(setup, seed, choices))


def _window_part(events: tuple[Any, ...]) -> list[Any]:
    """The events up to and including ``window_closed``."""
    out = []
    for e in events:
        out.append(e.to_json())
        if e.kind == "window_closed":
            break
    return out


def _give_block(g: Setback, s: SetbackState, q: int) -> SetbackState | None:
    """``s`` with one card of ``q``'s hand swapped for a BLOCK deep in the draw pile (None if
    there is none): the same table to everyone but ``q``, until the pile is drawn that deep
    (the top is the end of the list; a transition draws a dozen cards at most)."""
    t = s.clone()
    deep = range(max(0, len(t.draw) - 12))
    block = next((i for i in deep if g.types[t.draw[i]].kind == "BLOCK"), None)
    if block is None or not t.hands[q]:
        return None
    t.draw[block], t.hands[q][0] = t.hands[q][0], t.draw[block]
    t.hands[q].sort()
    return t


@FAST
@given(setups(), seed_st, choices_st)
def test_sb9_amended_a_forced_pass_looks_like_a_chosen_one(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-9 amended, along random games: in every window, a seat asked without a BLOCK passes
    (forced); give it a BLOCK instead and let it choose to pass — spectators and every other
    seat receive the same view and the same events, and the window asked it either way."""
    p = play(setup, seed, choices)
    g = p.game
    checked = 0
    for s in p.states():
        if s.phase != "window":
            continue
        if checked >= TWINS_PER_GAME:
            break
        for q in s.pending:
            if g.forced_action(s, q) is None:
                continue
            t = _give_block(g, s, q)
            if t is None:
                continue
            assert g.forced_action(t, q) is None and t.pending == s.pending
            forced, chosen = g.step(s, q, Pass()), g.step(t, q, Pass())
            # Whether this window closed (a new one may open at once after it, on the course
            # the hands give the action's resolution).
            still_open = not any(e.kind == "window_closed" for e in forced.events)
            assert still_open == (not any(e.kind == "window_closed" for e in chosen.events))
            for who in [None, *(o for o in range(setup.players) if o != q)]:
                assert g.observe(s, who) == g.observe(t, who)
                if still_open:
                    assert g.observe(forced.state, who) == g.observe(chosen.state, who)
                # The window's own events; what follows its close is the action resolving,
                # whose course may depend on what the players hold, as it always did.
                assert _window_part(feed(forced.events, who)) == _window_part(
                    feed(chosen.events, who)
                )
            checked += 1
    # A game may offer no twin (no BLOCK left deep in the pile to give): nothing to compare.
    hypothesis.target(float(checked))


@FAST
@given(setups(), seed_st, choices_st)
def test_sb9_amended_again_an_answer_before_the_last_shows_nothing(
    setup: Setup, seed: int, choices: int
) -> None:
    """SB-9 amended again, along random games: every answer in a window is concealed; one that
    leaves the window open makes no event at all and changes no other seat's view, nor the
    spectator's, but for the header's move number; a BLOCK answered stays in the hand."""
    p = play(setup, seed, choices)
    g = p.game
    prev = p.initial
    for (seat, action, s), events in zip(p.steps, p.events, strict=True):
        if prev.phase == "window":
            assert g.conceals(prev, seat, action)
            if len(prev.asked) > 1:  # not the window's last answer
                assert events == () and s.phase == "window" and s.stack == prev.stack
                assert s.hands == prev.hands and s.asked == [q for q in prev.asked if q != seat]
                blocked = [seat] if action == Block() else []
                assert s.blockers == sorted({*prev.blockers, *blocked})
                for who in [None, *(q for q in range(setup.players) if q != seat)]:
                    before, after = g.observe(prev, who), g.observe(s, who)
                    assert after.header.move == before.header.move + 1
                    assert dataclasses.replace(after, header=before.header) == before
        else:
            assert not g.conceals(prev, seat, action)
        prev = s
