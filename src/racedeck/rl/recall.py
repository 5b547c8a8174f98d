"""A seat's recall of a game: what it saw whenever it decided, and what it did — the perfect-recall
information state OpenSpiel's face offers (:mod:`racedeck.rl.openspiel`).

A state keeps no views as it is played, only the actions taken: a chain of :class:`Step` records
(one per decision of the game, shared by every copy of the state) after a :class:`Start` (the
engine state the record begins at). A seat's :class:`Decision` list is rebuilt on demand by
replaying the steps from the start and observing the seat before each of its own; each step
asked about keeps the engine state after it and the decisions found, so asking again later in
the same game replays only what was played since. Applying an action costs one small object.

A determinization (a state drawn anew from a seat's view) starts a new record whose
:class:`Start` keeps that seat's decisions, by reference to the record they come from: the
other seats' earlier decisions are among what was drawn anew, so none of theirs is kept.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from racedeck.core.encoding import ActionEncoding
from racedeck.core.game import Game
from racedeck.rl.observations.base import Observer

__all__ = [
    "TENSOR_LIMIT",
    "Decision",
    "Kept",
    "Record",
    "Rules",
    "Start",
    "Step",
    "decisions",
    "encode",
    "listed",
    "tensor_size",
    "text",
]

TENSOR_LIMIT = 1 << 11
"""Most entries of an information state tensor: configurations whose tensor would be larger
(every standard configuration: *Why First?* at four players would need 9,360 entries for a
view of 80; every Setback) offer none, and their information state is the string alone. Small
configurations, the ones tabular methods are for, offer it."""


class Rules(Protocol):
    """What a record needs of its game: the rules, the action encoding and the observation
    encoding of one configuration (OpenSpiel's face passes what its states share)."""

    @property
    def engine(self) -> Game[Any, Any, Any]:
        """The racedeck game."""

    @property
    def encoding(self) -> ActionEncoding[Any]:
        """The action encoding."""

    @property
    def observer(self) -> Observer[Any]:
        """The observation encoding."""


class Decision:
    """One decision of a seat: its view as it decided and the index of the action it took.

    Its JSON text and encoded row are made when first asked for, then kept: the same decision
    serves every later information state of the seat."""

    __slots__ = ("_listed", "_row", "_text", "action", "view")

    def __init__(self, view: Any, action: int) -> None:
        self.view = view
        self.action = action
        self._text: str | None = None
        self._row: NDArray[np.float32] | None = None
        self._listed: list[float] | None = None

    def text(self, rules: Rules) -> str:
        """The decision as compact JSON: the view and the action's canonical text."""
        if self._text is None:
            obj = {"action": str(rules.encoding.action(self.action)), "view": self.view.to_json()}
            self._text = json.dumps(obj, sort_keys=True, separators=(",", ":"))
        return self._text

    def row(self, rules: Rules) -> NDArray[np.float32]:
        """The view encoded by the observation encoding."""
        if self._row is None:
            self._row = rules.observer.encode(self.view)
        return self._row

    def listed(self, rules: Rules) -> list[float]:
        """:meth:`row` as a list (what OpenSpiel's Python methods return)."""
        if self._listed is None:
            self._listed = self.row(rules).tolist()
        return self._listed


class Step:
    """One decision of the game — the actions taken at once, as ``(seat, action index)``
    pairs (one seat's, or each asked seat's at a simultaneous node) — after ``before``.

    Never changed once made, so copies of a state share it; what it caches (the engine state
    after it and seats' decisions through it) follows from the record alone."""

    __slots__ = ("actions", "after", "before", "memo")

    def __init__(self, before: Step | None, actions: tuple[tuple[int, int], ...]) -> None:
        self.before = before
        self.actions = actions
        self.after: Any = None
        """The engine state after this step, once asked about (never played on)."""
        self.memo: dict[int, tuple[Decision, ...]] | None = None
        """Per seat: its decisions through this step, once asked about (with :attr:`after`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Step:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat, oldest first: a chain pickled link by link would recurse once per step.
        steps: list[tuple[tuple[int, int], ...]] = []
        node: Step | None = self
        while node is not None:
            steps.append(node.actions)
            node = node.before
        steps.reverse()
        return (_chain, (steps,))


def _chain(steps: Sequence[tuple[tuple[int, int], ...]]) -> Step | None:
    """The chain of steps a pickle names (see :meth:`Step.__reduce__`)."""
    last: Step | None = None
    for actions in steps:
        last = Step(last, tuple((int(s), int(a)) for s, a in actions))
    return last


class Record(NamedTuple):
    """A record: where it begins and its last step (``None`` before any)."""

    start: Start
    last: Step | None


Kept = Record | tuple[Decision, ...] | None
"""Where a seat's decisions before a :class:`Start` are: a record to replay, the decisions
themselves (read back from a pickle), or ``None`` (none, or unknown)."""


class Start:
    """Where a record begins: the engine state then (never played on), and per seat what it
    had decided before (:data:`Kept`; a determinization keeps one seat's)."""

    __slots__ = ("known", "rules", "state")

    def __init__(self, rules: Rules, state: Any, known: Sequence[Kept]) -> None:
        self.rules = rules
        self.state = state
        self.known = tuple(known)

    def __deepcopy__(self, memo: dict[int, Any]) -> Start:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Kept decisions are pickled as what the seat saw (views as JSON), not as the record
        # they come from, which holds what the others saw too.
        known = [
            None if kept is None else [(d.view.to_json(), d.action) for d in _kept(kept, seat)]
            for seat, kept in enumerate(self.known)
        ]
        return (_start_from_json, (self.rules, self.state.to_json(), known))


def _start_from_json(rules: Rules, state: Any, known: list[Any]) -> Start:
    """The start a pickle names (see :meth:`Start.__reduce__`)."""
    engine = rules.engine
    return Start(
        rules,
        engine.state_from_json(state),
        [
            None
            if kept is None
            else tuple(Decision(engine.view_from_json(v), int(a)) for v, a in kept)
            for kept in known
        ],
    )


def _kept(kept: Kept, seat: int) -> tuple[Decision, ...]:
    if kept is None:
        return ()
    if isinstance(kept, Record):
        return decisions(kept.start, kept.last, seat)
    return kept


def decisions(start: Start, last: Step | None, seat: int) -> tuple[Decision, ...]:
    """``seat``'s decisions in the record ``start`` … ``last``, oldest first (its kept ones
    first), replaying only the steps since the latest one asked about."""
    path: list[Step] = []
    node = last
    while node is not None and (node.memo is None or seat not in node.memo):
        path.append(node)
        node = node.before
    if node is None or node.memo is None:
        found = _kept(start.known[seat], seat) if start.known else ()
        state = start.state
    else:
        found, state = node.memo[seat], node.after
    if not path:
        return found
    engine, encoding = start.rules.engine, start.rules.encoding
    played = list(found)
    state = state.clone()
    for step in reversed(path):
        for s, index in step.actions:
            if s == seat:  # every seat of a step decided on the view before it
                played.append(Decision(engine.observe(state, seat), index))
        for s, index in step.actions:
            engine.apply_unchecked(state, s, encoding.action(index))
    result = tuple(played)
    head = path[0]
    if head.memo is None:
        head.after, head.memo = state, {}
    head.memo[seat] = result
    return result


def tensor_size(rules: Rules) -> int:
    """Entries of an information state tensor (see :func:`encode`), or 0 when that would be
    more than :data:`TENSOR_LIMIT`: the current observation, then one row per decision the
    seat can make at most — the game's ``max_game_length``, as no seat makes more decisions
    than the game takes actions — each an observation and a one-hot action."""
    observed, actions = rules.observer.size, rules.encoding.num_distinct_actions
    size = observed + rules.encoding.max_game_length * (observed + actions)
    return size if size <= TENSOR_LIMIT else 0


def encode(rules: Rules, found: Sequence[Decision], view: Any, out: NDArray[np.float32]) -> None:
    """Write the information state tensor into ``out`` (:func:`tensor_size` entries): ``view``
    encoded, then each decision of ``found`` (its view encoded, its action one-hot), oldest
    first, then zeros."""
    observed = rules.observer.size
    width = observed + rules.encoding.num_distinct_actions
    out[:] = 0.0
    out[:observed] = rules.observer.encode(view)
    for k, decision in enumerate(found):
        at = observed + k * width
        out[at : at + observed] = decision.row(rules)
        out[at + observed + decision.action] = 1.0


def listed(rules: Rules, found: Sequence[Decision], view: Any) -> list[float]:
    """The information state tensor of :func:`encode` as a list, built as one: most of it is
    padding, and a list of one shared zero is far quicker to make than converting an array."""
    observed = rules.observer.size
    width = observed + rules.encoding.num_distinct_actions
    values = [0.0] * tensor_size(rules)
    values[:observed] = rules.observer.encode(view).tolist()
    for k, decision in enumerate(found):
        at = observed + k * width
        values[at : at + observed] = decision.listed(rules)
        values[at + observed + decision.action] = 1.0
    return values


def text(rules: Rules, seat: int, found: Sequence[Decision], view: Any) -> str:
    """The information state string: compact JSON of the seat, its decisions (``{"action":
    text, "view": view}``, oldest first) and its current view."""
    current = json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
    past = ",".join(d.text(rules) for d in found)
    return f'{{"decisions":[{past}],"seat":{seat},"view":{current}}}'
