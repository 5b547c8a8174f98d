"""The contract every game implements.

A game is a :class:`Game` object (rules plus a fixed configuration) operating on state values.
The checked path, :meth:`Game.step`, validates and returns a :class:`Transition`: the new state
and the events that explain it, each with its audience; the old state is untouched and states
hold no events, so the checked and the fast path give equal states. The fast path,
:meth:`Game.apply_unchecked`, mutates the state in place, skips validation and emits no
events — for bots and batch simulation that only feed it actions taken from
:meth:`Game.legal_actions`. Every state carries a move number (``state.move``) that grows by
one with each accepted action, on either path.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from racedeck.core import jsontext
from racedeck.core.errors import GameOver, IllegalAction, NotYourTurn
from racedeck.core.events import Event
from racedeck.core.header import ViewHeader
from racedeck.core.jsontypes import JSONObject
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng
from racedeck.core.spec import GameConfig, GameSpec

__all__ = ["Action", "Game", "GameState", "Transition", "View"]


class Action(Protocol):
    """A player's decision: a small frozen value with a stable text and JSON form."""

    def to_json(self) -> JSONObject:
        """Return the JSON form (an object with a ``"type"`` key)."""
        ...

    def __str__(self) -> str:
        """Return the canonical text form, which the game's ``parse_action`` accepts."""
        ...


class GameState(Protocol):
    """What every state offers, whatever the game."""

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats whose decision the game waits for: one, several (simultaneous), none (over)."""
        ...

    @property
    def move(self) -> int:
        """How many actions have been accepted so far (the move number)."""
        ...

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        ...

    def clone(self) -> Any:
        """Return an independent copy (fast: used by search)."""
        ...

    def to_json(self) -> JSONObject:
        """Return the full JSON form, secrets and RNG included."""
        ...


class View(Protocol):
    """What one seat (or a spectator, seat ``None``) may know about a state.

    A view alone lets a client draw the whole table: :attr:`header` is common to every game,
    the rest is the game's own part. Views are immutable values that share nothing with the
    state they were made from.
    """

    @property
    def seat(self) -> int | None:
        """The observing seat, ``None`` for a spectator."""
        ...

    @property
    def header(self) -> ViewHeader:
        """Game, config, seat names, move number, phase, who acts, scores, terminal, outcome."""
        ...

    @property
    def legal_actions(self) -> tuple[Any, ...]:
        """The observing seat's legal actions now (empty for spectators and waiting seats)."""
        ...

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")
V = TypeVar("V", bound=View)


@dataclass(frozen=True, slots=True, init=False)
class Transition(Generic[S]):
    """The result of a checked transition: the new state and the events that explain it.

    Each event says who may see it; :func:`racedeck.core.events.feed` filters them for a
    seat or for spectators.
    """

    state: S
    events: tuple[Event, ...]

    def __init__(self, state: S, events: tuple[Event, ...]) -> None:
        # The slots' own setters: a frozen dataclass's own __init__ sets each field through
        # object.__setattr__, which looks the name up first, and every checked step makes one.
        _set_state(self, state)
        _set_events(self, events)


_set_state = vars(Transition)["state"].__set__
_set_events = vars(Transition)["events"].__set__


@lru_cache(maxsize=64)
def _default_seat_names(players: int) -> tuple[str, ...]:
    # Asked several times for every view the server sends.
    return tuple(f"P{i + 1}" for i in range(players))


class Game(ABC, Generic[S, A, V]):
    """Rules of one game under one configuration. Stateless: all game data lives in states.

    A game object is shared (by a server's tables, by bots, by worker threads): it may cache
    what the configuration alone determines, never anything derived from a state's secrets.
    """

    spec: ClassVar[GameSpec]

    def __init__(self, config: GameConfig) -> None:
        self._config = config
        # Every view's header carries the configuration as JSON, a copy of its own: made
        # once as text, each copy is read back from it by orjson (a fifth of json.loads).
        self._config_text = json.dumps(config.to_json())

    @property
    def config(self) -> GameConfig:
        """The configuration this game was made with."""
        return self._config

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._config.players

    def seat_names(self) -> tuple[str, ...]:
        """Default display names of the seats (``P1``, ``P2`` …)."""
        return _default_seat_names(self.num_players)

    # -- life cycle -------------------------------------------------------------------------

    @abstractmethod
    def start(self, seed: int) -> Transition[S]:
        """Return the state at the start of a game whose chance is driven by ``seed``, with
        the events of the deal (move number 0)."""

    def new_initial_state(self, seed: int) -> S:
        """The state at the start of a game (:meth:`start` without its events)."""
        return self.start(seed).state

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Return the legal actions of ``seat`` (empty when the seat is not pending)."""

    @abstractmethod
    def step(self, state: S, seat: int, action: A) -> Transition[S]:
        """Check and apply ``action`` by ``seat``; return the new state and its events.

        Raises :class:`~racedeck.core.errors.IllegalAction` (``action/illegal``,
        ``action/not-your-turn`` or ``action/game-over``) naming the action, the reason and
        the legal options. The given state is not modified.
        """

    def apply(self, state: S, seat: int, action: A) -> S:
        """Check and apply ``action`` by ``seat``; return the new state (:meth:`step` without
        its events)."""
        return self.step(state, seat, action).state

    @abstractmethod
    def apply_unchecked(self, state: S, seat: int, action: A) -> None:
        """Apply a legal ``action`` in place, without checks or events (the fast path).

        Feeding it an action not in :meth:`legal_actions` leaves the state undefined.
        """

    @abstractmethod
    def observe(self, state: S, seat: int | None) -> V:
        """Return ``seat``'s view, or the spectator view for ``None``."""

    def observe_without_header(self, state: S, seat: int | None) -> V:
        """``seat``'s view as :meth:`observe` gives it, but for its ``header``, which nothing
        may read: :data:`~racedeck.core.header.NO_HEADER` where the game spares building it,
        the real one otherwise (the default).

        For readers of the game's own part only, such as an observation encoding at every step
        of an RL environment: the header, the same for every game, is among the costliest parts
        of a view (a copy of the configuration, the scores, the words of who is waited for).
        """
        return self.observe(state, seat)

    def views_json(self, state: S, audiences: Iterable[int | None]) -> dict[int | None, JSONObject]:
        """The JSON views of several audiences of ``state`` at once (a seat, ``None``: the
        spectators), each equal to ``observe(state, audience).to_json()``, in the order given.

        A server sends every seat a view of the same state, and nearly all of a view is public.
        Where the game says which keys are a seat's own (:meth:`seat_view_json`), the
        spectators' view is made once and each seat's is that view with its own keys laid over
        it and its seat in the header. Each returned view's object and its ``"header"`` object
        are its own, to change or replace; every value inside them may be the same object in
        several views, so nothing may change it. The headers are all the same but for
        ``"seat"``.

        The equality with :meth:`observe` is a property test of every game
        (``tests/core/test_views.py``); so a seat's view here never holds another seat's
        secret whenever :meth:`observe`'s does not.
        """
        wanted = list(dict.fromkeys(audiences))
        if len(wanted) < 2:
            # Nothing to share: the spectators' view would be made for nothing.
            return {a: self.observe(state, a).to_json() for a in wanted}
        public: JSONObject | None = None
        out: dict[int | None, JSONObject] = {}
        for audience in wanted:
            own = None if audience is None else self.seat_view_json(state, audience)
            if audience is not None and own is None:
                out[audience] = self.observe(state, audience).to_json()
                continue
            if public is None:
                public = self.observe(state, None).to_json()
            # The seat's keys are the spectators' too, so laid over them they keep their
            # places: the object is the one observe would give, key order included.
            view = {**public, **own} if own else dict(public)
            view["header"] = {**public["header"], "seat": audience}
            out[audience] = view
        return out

    def seat_view_json(self, state: S, seat: int) -> JSONObject | None:
        """The keys of ``seat``'s JSON view that differ from the spectators', with its values
        (the header aside), or ``None``: the game does not say (the default), and
        :meth:`views_json` makes the whole view.

        A game that implements it makes :meth:`views_json` cheaper: every other key of the
        seat's view must be the spectators' exactly, and every key returned must be one of
        theirs (``"seat"``, the seat's cards, its ``"legal_actions"`` …). Raises
        :class:`~racedeck.core.errors.IllegalAction` for a seat the game does not have, as
        :meth:`observe` does.
        """
        return None

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Return the outcome of a finished game, ``None`` while it goes on."""

    def forced_action(self, state: S, seat: int) -> A | None:
        """The action a driver may take for ``seat`` without asking it, or ``None``.

        Only where the seat has a single legal action *and* answering it for the seat reveals
        nothing (SB-9: a seat holding no BLOCK can only pass, and nothing anyone sees may
        differ between that and a chosen pass). The default asks every decision.
        """
        return None

    def window_minimum(self, state: S) -> float:
        """Seconds a reaction window open in ``state`` must stay open at a table with people,
        counted from when it opened, however fast the answers come.

        SB-9: forced passes are answered at once, so a window that closed at once would tell
        that nobody held a BLOCK; a face with clocks (the server's referee) keeps every answer
        sealed until this much time has passed. ``0`` (the default): nothing to wait for.
        """
        return 0.0

    def timeout_action(self, state: S, seat: int) -> A | None:
        """The action taken for ``seat`` when a silent reaction window open in ``state`` runs
        out of time before it answers, or ``None`` (no such window: the default).

        SB-9: an unanswered window closes by itself when its clock runs out; a seat still asked
        then lets the action stand (a pass), which the others cannot tell from a chosen pass.
        """
        return None

    # -- the view header --------------------------------------------------------------------

    def header(self, state: S, seat: int | None) -> ViewHeader:
        """The part of every view that is common to all games (see :class:`ViewHeader`).

        Everything in it but ``seat`` is public, the same for every seat (which
        :meth:`views_json` relies on to build it once for all of them).
        """
        outcome = self.outcome(state)
        return ViewHeader(
            game=self.spec.id,
            title=self.spec.title,
            rules_version=self.spec.rules_version,
            config=jsontext.loads(self._config_text),
            seat=seat,
            seat_names=self.seat_names(),
            move=state.move,
            phase=self.phase_name(state),
            acting=self.public_acting(state),
            waiting=self.describe_waiting(state),
            score_names=self.contestant_names(),
            scores=self.scores(state),
            terminal=state.is_terminal,
            outcome=outcome.to_json() if outcome is not None else None,
        )

    def phase_name(self, state: S) -> str:
        """A stable name of the phase the game is in (``"commit"``, ``"turn"`` …)."""
        phase = getattr(state, "phase", None)
        return str(phase) if phase is not None else ("over" if state.is_terminal else "play")

    def public_acting(self, state: S) -> tuple[int, ...]:
        """The seats everyone may know the game waits for (a reaction window names none)."""
        return tuple(state.pending)

    def describe_waiting(self, state: S) -> str:
        """Who or what the game waits for, in public words."""
        if state.is_terminal:
            return "the game is over"
        names = self.seat_names()
        acting = self.public_acting(state)
        return "waiting for " + ", ".join(names[s] for s in acting) if acting else ""

    def contestant_names(self) -> tuple[str, ...]:
        """Names of everyone who scores: the seats, then any the engine plays (Leo)."""
        return self.seat_names()

    @abstractmethod
    def scores(self, state: S) -> tuple[float, ...]:
        """Scores so far, one per contestant (see :meth:`contestant_names`)."""

    # -- search ----------------------------------------------------------------------------

    @abstractmethod
    def sample_state(self, view: V, rng: Rng) -> S:
        """Return a full state consistent with everything ``view`` shows (a determinization).

        What the view hides — other hands, deck order, cards committed face down, the state's
        own RNG — is drawn from ``rng``, uniformly among the assignments the view allows, so a
        search that starts from the result cannot learn a secret. The result satisfies
        ``observe(result, view.seat)`` equal to ``view``.
        """

    def conceals(self, state: S, seat: int, action: A) -> bool:
        """True when the other seats do not see ``action`` as ``seat`` takes it in ``state``.

        A face-down commit, or an answer in a reaction window: the seats still pending
        decide without knowing it, so a search must treat their choices as simultaneous.
        The default, ``False``, suits games where every decision is seen when it is taken.
        """
        return False

    def reveals_concealed(self, state: S) -> bool:
        """True when every action this game concealed (:meth:`conceals`) on the way to
        ``state`` is public in it: face-down cards turned up. A server opens its commitments to
        them then (:mod:`racedeck.core.commitments`). The default waits for the end."""
        return state.is_terminal

    # -- forms -----------------------------------------------------------------------------

    @abstractmethod
    def action_from_json(self, obj: JSONObject) -> A:
        """Parse an action's JSON form; raise :class:`~racedeck.core.errors.InvalidMessage`
        (a :class:`ValueError`) naming what is wrong when it is malformed."""

    @abstractmethod
    def parse_action(self, text: str, view: V) -> A:
        """Parse an action's text form for the seat of ``view``.

        Works from the view alone (a client has nothing else). Raises
        :class:`~racedeck.core.errors.IllegalAction` listing the legal options when the text
        does not name a legal action.
        """

    @abstractmethod
    def state_from_json(self, obj: JSONObject) -> S:
        """Rebuild a state from :meth:`GameState.to_json`."""

    @abstractmethod
    def view_from_json(self, obj: JSONObject) -> V:
        """Rebuild a view from its JSON form."""

    @abstractmethod
    def describe_event(self, event: Event, names: Sequence[str] | None = None) -> str:
        """Return one line of plain words for ``event``."""

    def describe_action(self, action: A, names: Sequence[str] | None = None) -> str:
        """Return the action in words for people (defaults to its text form)."""
        return str(action)

    # -- explanations ----------------------------------------------------------------------

    def check_seat(self, seat: object) -> int:
        """Return ``seat`` if it is a seat of this game; raise :class:`IllegalAction` otherwise.

        Only a plain ``int`` is a seat: ``True``, ``0.0`` or ``"0"`` would be written into
        records that then fail to replay.
        """
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise IllegalAction(
                f"there is no seat {seat!r} (seats are the integers 0..{self.num_players - 1})"
            )
        return seat

    def illegal(self, state: S, seat: int, action: object, reason: str = "") -> IllegalAction:
        """The :class:`IllegalAction` for ``action``: its reason (``why_illegal`` unless given),
        the situation and the seat's legal options, with the narrowest error code."""
        kind: type[IllegalAction] = IllegalAction
        if state.is_terminal:
            kind = GameOver
        elif seat not in state.pending:
            kind = NotYourTurn
        return kind(
            reason or self.why_illegal(state, seat, action),
            action=action,
            seat=seat,
            legal=self.legal_actions(state, seat),
            situation=self.describe_situation(state),
        )

    def refuse(
        self, view: V, action: object, reason: str, situation: str | None = None
    ) -> IllegalAction:
        """The error for input that names none of ``view``'s legal actions (``parse_action``),
        with the narrowest code the view allows: :class:`GameOver` once the game is over,
        :class:`NotYourTurn` when the seat is asked nothing, else :class:`IllegalAction`.
        ``situation`` defaults to the header's public words."""
        kind: type[IllegalAction] = IllegalAction
        if view.header.terminal:
            kind = GameOver
        elif not view.legal_actions:
            kind = NotYourTurn
        return kind(
            reason,
            action=action,
            seat=view.seat,
            legal=view.legal_actions,
            situation=view.header.waiting if situation is None else situation,
        )

    def why_illegal(self, state: S, seat: int, action: object) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words (games say more)."""
        return "not a legal action here"

    def describe_situation(self, state: S) -> str:
        """Where the game stands, in a few words, for error messages."""
        return ""
