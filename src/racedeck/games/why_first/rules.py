"""The rules engine of *Why First?*: base game, two-player game with Leo, tactical variant.

Rulings: WF-1 track, WF-2 deck, WF-3 stage setup, WF-4 card round, WF-5 automatic fifth round,
WF-6 stage scoring, WF-7 game end, WF-8 outcome, WF-9 Leo, WF-10 tactical variant, WF-11 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from racedeck.core.events import Event
from racedeck.core.game import Game
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
from racedeck.games.why_first.view import WhyFirstView

__all__ = ["WhyFirst"]

_Events = list[Event] | None


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
        # Base game: the legal actions depend only on the *set of values* in hand, kept as a
        # bit mask over the distinct values, so the options are built once per set.
        distinct = sorted(set(self.values))
        self._value_bit = [0] + [1 << distinct.index(v) for v in self.values]
        self._place_cache: dict[int, tuple[WhyFirstAction, ...]] = {}
        self._without: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self._sampler = WhyFirstSampler(config)

    # -- names -------------------------------------------------------------------------------

    def figure_names(self) -> tuple[str, ...]:
        """Names of all figures: the seats' names, then ``Leo`` in the two-player game."""
        return tuple(figure_name(i, self.n) for i in range(self.figures))

    # -- life cycle ------------------------------------------------------------------------------

    def new_initial_state(self, seed: int) -> WhyFirstState:
        """Deal the first stage (WF-3) from a deck shuffled by ``seed``."""
        s = WhyFirstState()
        s.players = self.n
        s.rng = Rng(seed)
        s.totals = [0] * self.figures
        ev: list[Event] = []
        self._start_stage(s, ev)
        s.events = tuple(ev)
        return s

    def legal_actions(self, state: WhyFirstState, seat: int) -> tuple[WhyFirstAction, ...]:
        """Legal actions of ``seat``: distinct card values × targets (base game), cards to
        commit or figures to move (tactical); empty when the seat is not pending."""
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
        options = self._place_cache.get(mask)
        if options is None:
            values = sorted({self.values[c - 1] for c in hand})
            options = tuple(PlaceCard(v, t) for v in values for t in range(self.figures))
            self._place_cache[mask] = options
        return options

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

    def apply(self, state: WhyFirstState, seat: int, action: WhyFirstAction) -> WhyFirstState:
        """Check and apply; the new state's ``events`` explain the resolution."""
        if not self._is_legal(state, seat, action):
            raise self.illegal(state, seat, action)
        if state.phase == COMMIT and len(state.pending) > 1:
            # Only `commits` and `pending` change until the last seat commits: share the rest.
            s = state.copy_for_commit()
        else:
            s = state.clone()
        ev: list[Event] = []
        if s.phase == COMMIT:
            ev.append(Event("card_committed", {"seat": seat}))
        self._step(s, seat, action, ev)
        s.events = tuple(ev)
        return s

    def apply_unchecked(self, state: WhyFirstState, seat: int, action: WhyFirstAction) -> None:
        """Fast path: apply a legal action in place, without checks or events."""
        if state.shared:
            state.unshare()
        state.events = ()
        self._step(state, seat, action, None)

    def _step(self, s: WhyFirstState, seat: int, action: WhyFirstAction, ev: _Events) -> None:
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
            key = (s.pending, seat)
            rest = self._without.get(key)
            if rest is None:
                rest = self._without[key] = tuple(p for p in s.pending if p != seat)
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
            ev.append(Event("stage_started", {"stage": s.stage + 1}))
        self._start_round(s, ev)

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
                ev.append(Event("last_round_automatic", {"round": s.round + 1}))
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
            ev.append(
                Event(
                    "cards_revealed",
                    {
                        "stage": s.stage + 1,
                        "round": s.round + 1,
                        "cards": [
                            {"by": by, "card": c, "value": self.values[c - 1], "target": t}
                            for by, c, t in reveal
                        ],
                    },
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
                    Event(
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
                Event(
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
                Event(
                    "stage_scored",
                    {
                        "stage": s.stage + 1,
                        "positions": s.positions[:],
                        "space": space,
                        "scorers": [f for f, p in enumerate(s.positions) if p == space],
                        "points": points,
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
                ev.append(Event("game_over", outcome.to_json()))
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
        """``seat``'s view (its hand and commit only) or the spectator view (``None``)."""
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat}: seats are 0..{self.n - 1}, None for a spectator")
        own = seat is not None
        hand: tuple[int, ...] = tuple(state.hands[seat]) if own and seat is not None else ()
        my_commit = state.commits[seat] if own and seat is not None else None
        return WhyFirstView(
            seat=seat,
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
            pending=state.pending,
            last_reveal=tuple(state.last_reveal),
            revealed=tuple(state.revealed),
            move_queue=tuple(state.move_queue),
            hand=hand,
            hand_values=tuple(self.values[c - 1] for c in hand),
            my_commit=my_commit,
            legal_actions=self.legal_actions(state, seat) if own and seat is not None else (),
            events=state.events,
            card_values=self.values,
            track=(self.low, self.high),
            stages=self.cfg.stages,
            hand_size=self.cfg.hand_size,
        )

    def sample_state(self, view: WhyFirstView, rng: Rng) -> WhyFirstState:
        """A state consistent with ``view``: hidden hands, commits, Leo's cards and the RNG drawn
        uniformly from ``rng`` (see :mod:`racedeck.games.why_first.sampler`)."""
        return self._sampler(view, rng)

    def conceals(self, state: WhyFirstState, seat: int, action: WhyFirstAction) -> bool:
        """A commit is face down until every seat has committed (WF-4); tactical moves are seen."""
        return state.phase == COMMIT

    # -- forms ------------------------------------------------------------------------------------

    def action_from_json(self, obj: JSONObject) -> WhyFirstAction:
        """Parse ``{"type": "place"|"commit"|"move", ...}``."""
        return action_from_json(obj)

    def parse_action(self, text: str, state: WhyFirstState, seat: int) -> WhyFirstAction:
        """Parse ``+3>P2`` / ``+3 leo`` (base), ``#27`` or ``27`` (tactical commit), ``@P2`` or
        ``P2`` (tactical move); raise :class:`IllegalAction` unless it names a legal action."""
        action = parse_text(text, self.n)
        if action is None:
            t = text.strip().lower()
            if state.phase == MOVE:
                action = parse_text("@" + t, self.n)
            elif self.tactical and t.isdigit():
                action = CommitCard(int(t))
        if action is None:
            raise self.illegal(state, seat, None, f"cannot read {text!r} as an action")
        if not self._is_legal(state, seat, action):
            raise self.illegal(state, seat, action)
        return action

    def state_from_json(self, obj: JSONObject) -> WhyFirstState:
        """Rebuild a state from its JSON form."""
        return WhyFirstState.from_json(obj)

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
        if s.phase == OVER:
            return "the game is over"
        phase = "placing cards" if s.phase == COMMIT else "moving figures"
        return f"stage {s.stage + 1}, round {s.round + 1}, {phase}"

    def why_illegal(self, s: WhyFirstState, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words."""
        if s.phase == OVER:
            return "the game is over"
        if not 0 <= seat < self.n:
            return f"there is no seat {seat} (seats are 0..{self.n - 1})"
        if seat not in s.pending:
            if s.phase == COMMIT:
                return "this seat has already committed its card this round"
            return "it is another seat's turn to move a figure"
        expected = MoveFigure if s.phase == MOVE else CommitCard if self.tactical else PlaceCard
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
        hand = s.hands[seat]
        if isinstance(action, PlaceCard):
            held = ", ".join(f"{self.values[c - 1]:+d}" for c in hand)
            return f"you hold no {action.value:+d} card (your hand: {held})"
        if isinstance(action, CommitCard):
            held = ", ".join(f"#{c} ({self.values[c - 1]:+d})" for c in hand)
            return f"card #{action.card} is not in your hand (your hand: {held})"
        return "not a legal action here"
