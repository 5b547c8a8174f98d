"""The rules engine of *Why First?*: base game, two-player game with Leo, tactical variant.

Rulings: WF-1 track, WF-2 deck, WF-3 stage setup, WF-4 card round, WF-5 automatic fifth round,
WF-6 stage scoring, WF-7 game end, WF-8 outcome, WF-9 Leo, WF-10 tactical variant, WF-11 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import ClassVar

from racedeck.core.errors import IllegalAction
from racedeck.core.events import Event
from racedeck.core.game import Game, Transition
from racedeck.core.header import NO_HEADER
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng
from racedeck.core.spec import GameSpec
from racedeck.games.why_first import narrate
from racedeck.games.why_first.actions import (
    CommitCard,
    MoveFigure,
    PlaceCard,
    WhyFirstAction,
    action_from_json,
    figure_name,
    parse_text,
)
from racedeck.games.why_first.config import WhyFirstConfig
from racedeck.games.why_first.sampler import WhyFirstSampler
from racedeck.games.why_first.scoring import (
    clamp,
    final_ranks,
    scoring_space,
    stage_points,
    winners,
)
from racedeck.games.why_first.state import COMMIT, MOVE, OVER, WhyFirstState
from racedeck.games.why_first.view import Own, WhyFirstView, own_json

__all__ = ["WhyFirst"]

_Events = list[Event] | None

_MOST_PLACE_SETS = 4096
"""Most value sets whose base-game options a game builds up front (the WF-2 deck has 381)."""


@lru_cache(maxsize=64)
def _place_options(
    distinct: tuple[int, ...], hand_size: int, figures: int
) -> dict[int, tuple[WhyFirstAction, ...]] | None:
    """Base game: the legal actions of every set of distinct values a hand can hold, by bit
    mask; ``None`` when there are too many sets to build (a large custom deck). Made once per
    deck, hand size and number of figures, and shared (read only) by every game made so: a
    server makes a game object per table and per game played."""
    most = min(hand_size, len(distinct))
    if sum(comb(len(distinct), k) for k in range(1, most + 1)) > _MOST_PLACE_SETS:
        return None
    place = {(v, t): PlaceCard(v, t) for v in distinct for t in range(figures)}
    options: dict[int, tuple[WhyFirstAction, ...]] = {}
    for k in range(1, most + 1):
        for chosen in combinations(range(len(distinct)), k):
            mask = sum(1 << i for i in chosen)
            options[mask] = tuple(place[distinct[i], t] for i in chosen for t in range(figures))
    return options


@lru_cache(maxsize=64)
def _commit_events(
    players: int, values: tuple[int, ...], figures: int, tactical: bool
) -> tuple[tuple[Event, ...], dict[tuple[int, ...], Event]]:
    """The events of a commit (WF-4) a configuration can make: ``card_committed`` by seat, and
    ``card_chosen`` by ``(seat, value, target)`` in the base game, ``(seat, card)`` in the
    tactical variant. Events are values: made once per configuration and shared (read only)
    by every game and every step made so, as the options above are."""
    committed = tuple(Event("card_committed", {"seat": seat}) for seat in range(players))
    chosen: dict[tuple[int, ...], Event] = {}
    for seat in range(players):
        if tactical:
            for card, value in enumerate(values, 1):
                data = {"seat": seat, "card": card, "value": value}
                chosen[seat, card] = Event("card_chosen", data, seat)
        else:
            for value in sorted(set(values)):
                for target in range(figures):
                    data = {"seat": seat, "value": value, "target": target}
                    chosen[seat, value, target] = Event("card_chosen", data, seat)
    return committed, chosen


class WhyFirst(Game[WhyFirstState, WhyFirstAction, WhyFirstView]):
    """*Why First?* under one configuration (see :class:`WhyFirstConfig`)."""

    spec: ClassVar[GameSpec]

    def __init__(self, config: WhyFirstConfig) -> None:
        super().__init__(config)
        self.cfg = config
        self.values = config.card_values
        self.n = config.players
        self.leo = config.has_leo
        self.figures = self.n + (1 if self.leo else 0)
        self.tactical = config.variant == "tactical"
        self.low = config.track_min
        self.high = config.track_max
        self._seats = tuple(range(self.n))
        self._move_actions = tuple(MoveFigure(t) for t in range(self.figures))
        self._commit_action = {c: CommitCard(c) for c in range(1, len(self.values) + 1)}
        # A shared game object keeps nothing a state's secrets decide (not even which hands it
        # has seen, as a lazily filled cache would): everything below follows from the config.
        # Base game: the legal actions depend only on the *set of values* in hand, kept as a
        # bit mask over the distinct values; the options of every set a hand can hold are built
        # here when there are few enough of them, else on each call.
        distinct = sorted(set(self.values))
        self._value_bit = [0] + [1 << distinct.index(v) for v in self.values]
        self._place_options = (
            {} if self.tactical else _place_options(tuple(distinct), config.hand_size, self.figures)
        )
        # The two events of nearly every checked step, made once (see _commit_events).
        self._committed, self._chosen = _commit_events(
            self.n, self.values, self.figures, self.tactical
        )
        # Commits leave the pending seats in ascending order, so every pending tuple is an
        # ascending subset of the seats: what remains when one of them commits, for all.
        self._sampler = WhyFirstSampler(config)  # config-derived tables only
        self._without = {
            (subset, seat): tuple(p for p in subset if p != seat)
            for size in range(1, self.n + 1)
            for subset in combinations(self._seats, size)
            for seat in subset
        }

    # -- names -------------------------------------------------------------------------------

    def figure_names(self) -> tuple[str, ...]:
        """Names of all figures: the seats' names, then ``Leo`` in the two-player game."""
        return tuple(figure_name(i, self.n) for i in range(self.figures))

    def contestant_names(self) -> tuple[str, ...]:
        """The seats' names, then ``Leo`` in the two-player game (WF-9)."""
        return self.seat_names() + (("Leo",) if self.leo else ())

    # -- life cycle ------------------------------------------------------------------------------

    def start(self, seed: int) -> Transition[WhyFirstState]:
        """Deal the first stage (WF-3) from a deck shuffled by ``seed``; each seat's hand goes to
        that seat alone (``hand_dealt``)."""
        ev: list[Event] = []
        return Transition(self._deal(seed, ev), tuple(ev))

    def new_initial_state(self, seed: int) -> WhyFirstState:
        """The state of :meth:`start` without building its events: bots, simulations and
        searches start many games and read none of them."""
        return self._deal(seed, None)

    def _deal(self, seed: int, ev: _Events) -> WhyFirstState:
        s = WhyFirstState()
        s.players = self.n
        s.rng = Rng(seed)
        s.totals = [0] * self.figures
        self._start_stage(s, ev)
        return s

    def legal_actions(self, state: WhyFirstState, seat: int) -> tuple[WhyFirstAction, ...]:
        """Legal actions of ``seat``: distinct card values × targets (base game), cards to
        commit or figures to move (tactical); empty when the seat is not pending.

        On the fast path ``seat`` is trusted to be a plain ``int``; :meth:`step` and
        :meth:`observe`, the doors a stranger's seat comes through, check it first.
        """
        if seat not in state.pending:
            return ()
        if state.phase == MOVE:
            return self._move_actions
        hand = state.hands[seat]
        if self.tactical:
            commit = self._commit_action
            return tuple([commit[c] for c in hand])
        bit = self._value_bit
        mask = 0
        for c in hand:
            mask |= bit[c]
        table = self._place_options
        if table is not None:
            options = table.get(mask)
            if options is not None:
                return options
        # A hand no deal of this configuration makes (built by hand), or a very large deck.
        values = sorted({self.values[c - 1] for c in hand})
        return tuple(PlaceCard(v, t) for v in values for t in range(self.figures))

    def _is_legal(self, s: WhyFirstState, seat: int, action: object) -> bool:
        if seat not in s.pending:
            return False
        # `type(...) is int` also refuses bools and floats, which records could not replay.
        if s.phase == MOVE:
            return (
                type(action) is MoveFigure
                and type(action.target) is int
                and 0 <= action.target < self.figures
            )
        if self.tactical:
            return (
                type(action) is CommitCard
                and type(action.card) is int
                and action.card in s.hands[seat]
            )
        if (
            type(action) is not PlaceCard
            or type(action.target) is not int
            or type(action.value) is not int
            or not 0 <= action.target < self.figures
        ):
            return False
        values = self.values
        value = action.value
        for c in s.hands[seat]:  # noqa: SIM110 - a plain loop is faster than any(genexpr) here
            if values[c - 1] == value:
                return True
        return False

    def step(
        self, state: WhyFirstState, seat: int, action: WhyFirstAction
    ) -> Transition[WhyFirstState]:
        """Check and apply; the events explain the resolution, each to its audience.

        Everyone learns that ``seat`` has committed (``card_committed``), only ``seat`` what
        (``card_chosen``); reveals, moves, scoring and the end are public; a new stage's hands
        go each to its seat (``hand_dealt``).
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            try:
                self.check_seat(seat)
            except IllegalAction as exc:
                real = seat if type(seat) is int else None
                raise IllegalAction(exc.reason, action=action, seat=real) from None
        if not self._is_legal(state, seat, action):
            raise self.illegal(state, seat, action)
        if state.phase == COMMIT and len(state.pending) > 1:
            # Only `commits`, `pending` and `move` change until the last seat commits: share
            # the rest.
            s = state.copy_for_commit()
        else:
            s = state.clone()
        ev: list[Event]
        if s.phase == COMMIT:
            # What `seat` committed goes to `seat` alone, in the words of its own view (values
            # only in the base game); the events come made (see _commit_events).
            if type(action) is PlaceCard:
                chosen = self._chosen[seat, action.value, action.target]
            else:
                assert type(action) is CommitCard
                chosen = self._chosen[seat, action.card]
            ev = [self._committed[seat], chosen]
        else:
            ev = []
        self._step(s, seat, action, ev)
        return Transition(s, tuple(ev))

    def apply_unchecked(self, state: WhyFirstState, seat: int, action: WhyFirstAction) -> None:
        """Fast path: apply a legal action in place, without checks or events."""
        if state.shared:
            state.unshare()
        self._step(state, seat, action, None)

    def _step(self, s: WhyFirstState, seat: int, action: WhyFirstAction, ev: _Events) -> None:
        s.move += 1
        if s.phase == COMMIT:
            if type(action) is PlaceCard:
                value = action.value
                values = self.values
                for card in s.hands[seat]:
                    if values[card - 1] == value:
                        break
                s.commits[seat] = (card, action.target)
            else:
                assert type(action) is CommitCard
                s.commits[seat] = action.card
            rest = self._without[s.pending, seat]
            s.pending = rest
            if not rest:
                self._reveal(s, ev)
        else:
            assert type(action) is MoveFigure
            card, owner = s.move_queue.pop(0)
            self._tactical_move(s, owner, card, action.target, ev)
            self._advance_moves(s, ev)

    # -- flow ------------------------------------------------------------------------------------

    def _start_stage(self, s: WhyFirstState, ev: _Events) -> None:
        # WF-3: figures back to 0, the whole deck shuffled, five cards each, four for Leo.
        h = self.cfg.hand_size
        s.positions = [0] * self.figures
        deck = list(range(1, len(self.values) + 1))
        s.rng.shuffle(deck)
        s.hands = [sorted(deck[i * h : (i + 1) * h]) for i in range(self.n)]
        s.leo_cards = deck[self.n * h : self.n * h + h - 1] if self.leo else []
        s.round = 0
        s.commits = [None] * self.n
        s.move_queue = []
        s.last_reveal = []
        s.revealed = []
        if ev is not None:
            ev.append(Event.fresh("stage_started", {"stage": s.stage + 1}))
            for seat in self._seats:
                ev.append(Event.fresh("hand_dealt", self._dealt(s, seat), audience=seat))
        self._start_round(s, ev)

    def _dealt(self, s: WhyFirstState, seat: int) -> dict[str, object]:
        """A seat's new hand as its view shows it: values only in the base game (WF-2)."""
        hand = s.hands[seat]
        if self.tactical:
            return {
                "seat": seat,
                "stage": s.stage + 1,
                "cards": hand[:],
                "values": [self.values[c - 1] for c in hand],
            }
        return {
            "seat": seat,
            "stage": s.stage + 1,
            "values": sorted(self.values[c - 1] for c in hand),
        }

    def _start_round(self, s: WhyFirstState, ev: _Events) -> None:
        if s.round == self.cfg.hand_size - 1:
            # WF-5: one card left and (base game) one legal target: no decision, played for all.
            if self.tactical:
                for seat in self._seats:
                    s.commits[seat] = s.hands[seat][0]
            else:
                for seat in self._seats:
                    s.commits[seat] = (s.hands[seat][0], seat)
            if ev is not None:
                ev.append(Event.fresh("last_round_automatic", {"round": s.round + 1}))
            self._reveal(s, ev)
        else:
            s.phase = COMMIT
            s.pending = self._seats

    def _reveal(self, s: WhyFirstState, ev: _Events) -> None:
        leo_plays = self.leo and s.round < self.cfg.hand_size - 1  # WF-9: not in round 5
        if self.tactical:
            reveal = [(seat, s.commits[seat], -1) for seat in self._seats]
        else:
            reveal = [(seat, card, target) for seat, (card, target) in enumerate(s.commits)]
        revealed = s.revealed
        for seat, card, _ in reveal:
            s.hands[seat].remove(card)
            revealed.append(card)
        if leo_plays:
            # WF-9: Leo flips his top face-down card onto himself.
            leo_card = s.leo_cards.pop()
            reveal.append((self.n, leo_card, self.n))
            revealed.append(leo_card)
        s.last_reveal = reveal
        if ev is not None:
            values = self.values
            if self.tactical:
                cards = [
                    {"by": by, "card": c, "value": values[c - 1], "target": t}
                    for by, c, t in reveal
                ]
            else:
                # The base game shows values only: the white number of a placed card would
                # tell which equal cards stayed in the hand (WF-2: they mean nothing here).
                cards = [{"by": by, "value": values[c - 1], "target": t} for by, c, t in reveal]
            ev.append(
                Event.fresh(
                    "cards_revealed",
                    {"stage": s.stage + 1, "round": s.round + 1, "cards": cards},
                )
            )
        if self.tactical:
            # WF-10: highest white number acts first; Leo's card moves Leo in its slot.
            s.move_queue = sorted(((c, by) for by, c, _ in reveal), reverse=True)
            s.phase = MOVE
            self._advance_moves(s, ev)
        else:
            self._resolve_placements(s, reveal, ev)
            self._end_round(s, ev)

    def _resolve_placements(
        self, s: WhyFirstState, reveal: list[tuple[int, int, int]], ev: _Events
    ) -> None:
        # WF-4: a figure moves by the *sum* of its cards, clamped once.
        values = self.values
        net = [0] * self.figures
        if ev is None:
            for _, card, target in reveal:
                net[target] += values[card - 1]
            positions = s.positions
            low, high = self.low, self.high
            for fig, delta in enumerate(net):
                if delta:
                    p = positions[fig] + delta
                    positions[fig] = low if p < low else high if p > high else p
            return
        placed: list[list[int]] = [[] for _ in net]
        for _, card, target in reveal:
            value = values[card - 1]
            net[target] += value
            placed[target].append(value)
        positions = s.positions
        for fig in range(self.figures):
            if not placed[fig]:
                continue
            before = positions[fig]
            raw = before + net[fig]
            after = clamp(raw, self.low, self.high)
            positions[fig] = after
            if ev is not None:
                ev.append(
                    Event.fresh(
                        "figure_moved",
                        {
                            "figure": fig,
                            "from": before,
                            "to": after,
                            "net": net[fig],
                            "values": placed[fig],
                            "clamped": raw != after,
                        },
                    )
                )

    def _advance_moves(self, s: WhyFirstState, ev: _Events) -> None:
        queue = s.move_queue
        while queue and queue[0][1] == self.n:
            card, owner = queue.pop(0)
            self._tactical_move(s, owner, card, owner, ev)
        if queue:
            s.pending = (queue[0][1],)
        else:
            self._end_round(s, ev)

    def _tactical_move(
        self, s: WhyFirstState, owner: int, card: int, figure: int, ev: _Events
    ) -> None:
        # WF-10: each card moves one chosen figure, clamped at once.
        value = self.values[card - 1]
        before = s.positions[figure]
        after = clamp(before + value, self.low, self.high)
        s.positions[figure] = after
        s.last_reveal = [(by, c, figure if c == card else t) for by, c, t in s.last_reveal]
        if ev is not None:
            ev.append(
                Event.fresh(
                    "figure_moved",
                    {
                        "figure": figure,
                        "from": before,
                        "to": after,
                        "net": value,
                        "values": [value],
                        "clamped": before + value != after,
                        "by": owner,
                        "card": card,
                    },
                )
            )

    def _end_round(self, s: WhyFirstState, ev: _Events) -> None:
        s.round += 1
        s.commits = [None] * self.n
        if s.round == self.cfg.hand_size:
            self._score_stage(s, ev)
        else:
            self._start_round(s, ev)

    def _score_stage(self, s: WhyFirstState, ev: _Events) -> None:
        points = stage_points(s.positions)  # WF-6
        for fig, p in enumerate(points):
            s.totals[fig] += p
        s.stage_history.append(points)
        if ev is not None:
            space = scoring_space(s.positions)
            ev.append(
                Event.fresh(
                    "stage_scored",
                    {
                        "stage": s.stage + 1,
                        "positions": s.positions[:],
                        "space": space,
                        "scorers": [f for f, p in enumerate(s.positions) if p == space],
                        "points": points[:],  # the list itself joins stage_history
                        "totals": s.totals[:],
                    },
                )
            )
        s.stage += 1
        if s.stage == self.cfg.stages:
            s.phase = OVER
            s.pending = ()
            s.move_queue = []
            if ev is not None:
                outcome = self.outcome(s)
                assert outcome is not None
                ev.append(Event.fresh("game_over", outcome.to_json()))
        else:
            self._start_stage(s, ev)

    # -- outcome and views ---------------------------------------------------------------------

    def outcome(self, state: WhyFirstState) -> Outcome | None:
        """WF-7/WF-8: totals, ranks ("second wins") and winners (Leo included)."""
        if state.phase != OVER:
            return None
        totals = state.totals
        return Outcome(
            scores=tuple(float(t) for t in totals),
            ranks=final_ranks(totals),
            winners=winners(totals),
            names=self.figure_names(),
        )

    def observe(self, state: WhyFirstState, seat: int | None) -> WhyFirstView:
        """``seat``'s view (its hand and commit only) or the spectator view (``None``).

        In the base game the view shows card values only, never white numbers (WF-2).
        """
        return self._view(state, seat, with_header=True)

    def observe_without_header(self, state: WhyFirstState, seat: int | None) -> WhyFirstView:
        """:meth:`observe` with :data:`~racedeck.core.header.NO_HEADER` for a header, which it
        does not build (see :meth:`Game.observe_without_header`)."""
        return self._view(state, seat, with_header=False)

    def _view(self, state: WhyFirstState, seat: int | None, with_header: bool) -> WhyFirstView:
        values = self.values
        tactical = self.tactical
        own = Own((), (), None, ())
        if seat is not None:
            seat = self.check_seat(seat)
            own = self._own(state, seat)
        return WhyFirstView(
            seat=seat,
            header=self.header(state, seat) if with_header else NO_HEADER,
            players=self.n,
            variant=self.cfg.variant,
            stage=state.stage,
            round=state.round,
            phase=state.phase,
            positions=tuple(state.positions),
            totals=tuple(state.totals),
            stage_history=tuple(tuple(r) for r in state.stage_history),
            hand_sizes=tuple(len(h) for h in state.hands),
            leo_cards_left=len(state.leo_cards),
            committed=tuple(i for i, c in enumerate(state.commits) if c is not None),
            last_reveal=tuple(
                (by, c if tactical else None, values[c - 1], t) for by, c, t in state.last_reveal
            ),
            revealed=tuple(state.revealed) if tactical else (),
            revealed_values=tuple(values[c - 1] for c in state.revealed),
            move_queue=tuple(state.move_queue),
            hand=own.hand,
            hand_values=own.hand_values,
            my_commit=own.my_commit,
            legal_actions=own.legal_actions,
            card_values=values,
            track=(self.low, self.high),
            stages=self.cfg.stages,
            hand_size=self.cfg.hand_size,
        )

    def seat_view_json(self, state: WhyFirstState, seat: int) -> JSONObject:
        """The keys of ``seat``'s JSON view that are its own (see :meth:`Game.views_json`):
        ``seat``, ``hand``, ``hand_values``, ``my_commit`` and ``legal_actions``."""
        seat = self.check_seat(seat)
        return own_json(seat, self._own(state, seat))

    def _own(self, state: WhyFirstState, seat: int) -> Own:
        """What only ``seat`` sees of ``state``: white numbers only in the tactical variant,
        values sorted in the base game so that equal cards cannot be told apart (WF-2)."""
        values = self.values
        cards = state.hands[seat]
        commit = state.commits[seat]
        if self.tactical:
            return Own(
                tuple(cards),
                tuple(values[c - 1] for c in cards),
                commit,
                self.legal_actions(state, seat),
            )
        return Own(
            (),
            tuple(sorted(values[c - 1] for c in cards)),
            None if commit is None else (values[commit[0] - 1], commit[1]),
            self.legal_actions(state, seat),
        )

    # -- the view header ---------------------------------------------------------------------

    def scores(self, state: WhyFirstState) -> tuple[float, ...]:
        """Every figure's total so far, Leo's last (WF-6, WF-9)."""
        return tuple(float(t) for t in state.totals)

    def describe_waiting(self, state: WhyFirstState) -> str:
        """Who is still to commit (public, WF-4), or who moves which revealed card (WF-10)."""
        if state.phase == OVER:
            return "the game is over"
        names = self.seat_names()
        who = ", ".join(names[p] for p in state.pending)
        if state.phase == MOVE:
            card = state.move_queue[0][0]
            return f"waiting for {who} to move a figure with #{card} ({self.values[card - 1]:+d})"
        what = "commit a card" if self.tactical else "place a card"
        return f"waiting for {who} to {what}"

    # -- search ------------------------------------------------------------------------------

    def sample_state(self, view: WhyFirstView, rng: Rng) -> WhyFirstState:
        """A state consistent with ``view``: hidden hands, commits, Leo's cards and the RNG drawn
        uniformly from ``rng`` (see :mod:`racedeck.games.why_first.sampler`)."""
        return self._sampler(view, rng)

    def conceals(self, state: WhyFirstState, seat: int, action: WhyFirstAction) -> bool:
        """A commit is face down until every seat has committed (WF-4); tactical moves are seen."""
        return state.phase == COMMIT

    def reveals_concealed(self, state: WhyFirstState) -> bool:
        """Every committed card is face up unless a round's commits are part way in (WF-4)."""
        return state.phase != COMMIT or len(state.pending) == self.n

    # -- forms ------------------------------------------------------------------------------------

    def action_from_json(self, obj: JSONObject) -> WhyFirstAction:
        """Parse ``{"type": "place"|"commit"|"move", ...}``; raise
        :class:`~racedeck.core.errors.InvalidMessage` when it is malformed."""
        return action_from_json(obj)

    def parse_action(self, text: str, view: WhyFirstView) -> WhyFirstAction:
        """Parse ``+3>P2`` / ``+3 leo`` (base), ``#27`` or ``27`` (tactical commit), ``@P2`` or
        ``P2`` (tactical move) for the seat of ``view``; raise :class:`IllegalAction` unless it
        names one of the view's legal actions."""
        action = parse_text(text, self.n)
        if action is None:
            t = text.strip().lower()
            if view.phase == MOVE:
                action = parse_text("@" + t, self.n)
            elif self.tactical and t.isdigit():
                action = CommitCard(int(t))
        if action is None:
            raise self._refuse(view, None, f"cannot read {text!r} as an action")
        if action not in view.legal_actions:
            if self.tactical:
                hand = tuple(zip(view.hand, view.hand_values, strict=True))
            else:
                hand = tuple((0, v) for v in view.hand_values)  # values only (WF-2)
            acting = view.seat is not None and view.seat in view.header.acting
            raise self._refuse(view, action, self._why_not(view.phase, acting, hand, action))
        return action

    def _refuse(self, view: WhyFirstView, action: object, reason: str) -> IllegalAction:
        """:meth:`refuse`, with the stage, round and phase as the situation."""
        return self.refuse(view, action, reason, _situation(view.phase, view.stage, view.round))

    def state_from_json(self, obj: JSONObject) -> WhyFirstState:
        """Rebuild a state from its JSON form; raise :class:`ValueError` naming what is wrong
        when it is not a state of this game's configuration."""
        s = WhyFirstState.from_json(obj)
        if s.players != self.n:
            raise ValueError(f"not a state of this game: {s.players} players, not {self.n}")
        if len(s.positions) != self.figures or len(s.totals) != self.figures:
            raise ValueError(f"not a state of this game: positions and totals need {self.figures}")
        if len(s.hands) != self.n or len(s.commits) != self.n:
            raise ValueError(f"not a state of this game: hands and commits need {self.n}")
        if any(not 0 <= p < self.n for p in s.pending):
            raise ValueError(f"not a state of this game: pending seats must be 0..{self.n - 1}")
        cards = [c for h in s.hands for c in h] + s.leo_cards + s.revealed
        if len(set(cards)) != len(cards) or any(not 1 <= c <= len(self.values) for c in cards):
            raise ValueError("not a state of this game: every card must be in one place only")
        return s

    def view_from_json(self, obj: JSONObject) -> WhyFirstView:
        """Rebuild a view from its JSON form."""
        return WhyFirstView.from_json(obj)

    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """One line of plain words for ``event``."""
        return narrate.describe(event, self._names(names))

    def describe_action(self, action: WhyFirstAction, names: Sequence[str] | None = None) -> str:
        """The action in words, with figure names."""
        return narrate.describe_action(action, self._names(names), self.values)

    def _names(self, names: Sequence[str] | None) -> tuple[str, ...]:
        base = tuple(names) if names is not None else self.seat_names()
        base = base[: self.n]
        return base + (("Leo",) if self.leo else ())

    # -- explanations ---------------------------------------------------------------------------

    def describe_situation(self, s: WhyFirstState) -> str:
        """Where the game stands, for error messages."""
        return _situation(s.phase, s.stage, s.round)

    def why_illegal(self, s: WhyFirstState, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words."""
        if not 0 <= seat < self.n:
            return f"there is no seat {seat} (seats are 0..{self.n - 1})"
        hand = tuple((c, self.values[c - 1]) for c in s.hands[seat])
        return self._why_not(s.phase, seat in s.pending, hand, action)

    def _why_not(
        self, phase: str, acting: bool, hand: tuple[tuple[int, int], ...], action: object
    ) -> str:
        """Why ``action`` is not legal, from public facts and the seat's own ``(card, value)``
        pairs (the state's or, for :meth:`parse_action`, the view's)."""
        if phase == OVER:
            return "the game is over"
        if not acting:
            if phase == COMMIT:
                return "this seat has already committed its card this round"
            return "it is another seat's turn to move a figure"
        expected = MoveFigure if phase == MOVE else CommitCard if self.tactical else PlaceCard
        if not isinstance(action, expected):
            what = {
                PlaceCard: "place a card in front of a figure (e.g. +3>P2)",
                CommitCard: "commit one card face down by its white number (e.g. #27)",
                MoveFigure: "choose the figure your revealed card moves (e.g. @P2)",
            }[expected]
            return f"now you must {what}"
        fields = [
            getattr(action, name) for name in ("value", "target", "card") if hasattr(action, name)
        ]
        if any(type(v) is not int for v in fields):
            return "card values, card numbers and targets must be integers"
        target = getattr(action, "target", 0)
        if not 0 <= target < self.figures:
            return f"there is no figure {target} (figures are {', '.join(self.figure_names())})"
        if isinstance(action, PlaceCard):
            held = ", ".join(f"{v:+d}" for v in sorted(v for _, v in hand))
            return f"you hold no {action.value:+d} card (your hand: {held})"
        if isinstance(action, CommitCard):
            held = ", ".join(f"#{c} ({v:+d})" for c, v in hand)
            return f"card #{action.card} is not in your hand (your hand: {held})"
        return "not a legal action here"


def _situation(phase: str, stage: int, round_: int) -> str:
    """Where a game stands, in a few public words."""
    if phase == OVER:
        return "the game is over"
    doing = "placing cards" if phase == COMMIT else "moving figures"
    return f"stage {stage + 1}, round {round_ + 1}, {doing}"
