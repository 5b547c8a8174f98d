"""Information-set Monte Carlo tree search: a strong bot that sees only its own view.

Each iteration draws a *determinization* — a full state consistent with the bot's view, every
hidden card re-dealt by the game's sampler (:meth:`Game.sample_state`) — and walks one shared
tree with it (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012). Statistics are kept
per node, per seat and per action, with *availability* counts, because which actions are legal
below the root depends on the determinization (an opponent's hand).

Decisions that others cannot see when they are taken — face-down commits in *Why First?*, the
answers of a Setback BLOCK window (BLOCK or pass, simultaneous and concealed, SB-9), as the
game declares with :meth:`Game.conceals` — are searched as what they are, simultaneous moves:
every seat of such a group chooses from the same node with its own statistics (decoupled UCT),
so no seat's choice is conditioned on a choice it could not have seen. The group's joint choice
then leads to the child node.

Below the tree a playout (the fast path) goes on to the end of the game, or — where the game
has a :class:`~racedeck.bots.playouts.Playout` — until that says stop (the stage or race ends,
or a number of decisions is reached); the position is then valued by an estimate of each seat's
chance to win. Playout actions are uniformly random unless the game's playout chooses them.
A seat's reward for a finished game is its share of the win, with a small bonus for its
finishing rank so that the search also prefers second place to last when it cannot win.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from racedeck.bots.base import Bot
from racedeck.bots.playouts import FALLBACK_ITERATIONS, Playout, playout_for, search_iterations
from racedeck.core.game import Game
from racedeck.core.outcome import Outcome
from racedeck.core.rng import Rng, derive_seed

__all__ = ["SearchBot", "SearchBudget", "rewards"]

RANK_WEIGHT = 0.2
"""Part of a reward that comes from the finishing rank rather than the win (see :func:`rewards`)."""


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a search may spend per move: ``iterations``, or ``millis`` of wall time.

    An iteration budget is reproducible for a seed on any machine; a time budget is not.
    """

    iterations: int = FALLBACK_ITERATIONS
    millis: float | None = None

    @classmethod
    def default_for(cls, game_id: str) -> SearchBudget:
        """The default budget in ``game_id``: the iterations its playout names
        (:func:`~racedeck.bots.playouts.search_iterations`)."""
        return cls(iterations=search_iterations(game_id))

    @classmethod
    def parse(cls, text: str) -> SearchBudget:
        """``"200"`` → 200 iterations; ``"150ms"`` → 150 milliseconds; ``"1s"`` → one second."""
        t = text.strip().lower()
        try:
            if t.endswith("ms"):
                millis = float(t[:-2])
            elif t.endswith("s"):
                millis = 1000.0 * float(t[:-1])
            else:
                iterations = int(t)
                if iterations < 1:
                    raise ValueError
                return cls(iterations=iterations)
        except ValueError:
            raise ValueError(
                f"bad search budget {text!r}: use iterations (search@500) "
                "or time per move (search@200ms, search@1s)"
            ) from None
        if not millis > 0:
            raise ValueError(f"bad search budget {text!r}: the time must be positive")
        return cls(iterations=0, millis=millis)

    def __str__(self) -> str:
        return f"{self.millis:g}ms" if self.millis is not None else str(self.iterations)


def rewards(outcome: Outcome, seats: int) -> list[float]:
    """What a finished game is worth to each seat, in ``[0, 1]``.

    A win shared by ``k`` is worth ``1/k``; the finishing rank adds up to :data:`RANK_WEIGHT`
    (first rank all of it, last rank none). Contestants that are not seats (Leo) get nothing.
    """
    winners = outcome.winners
    contestants = len(outcome.ranks)
    spread = max(1, contestants - 1)
    share = (1.0 - RANK_WEIGHT) / len(winners) if winners else 0.0
    out = []
    for seat in range(seats):
        r = RANK_WEIGHT * (contestants - outcome.ranks[seat]) / spread
        if seat in winners:
            r += share
        out.append(r)
    return out


class _Node:
    """One node of the shared tree: per seat, per action ``[visits, reward sum, availability]``;
    children by the joint choice of the group of seats that decided here."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[int, dict[Any, list[float]]] = {}
        self.children: dict[tuple[Any, ...], _Node] = {}


class SearchBot(Bot):
    """Single-observer information-set MCTS over determinizations of the bot's view.

    ``budget`` bounds each move (iterations or milliseconds); ``exploration`` is the UCB
    constant. ``cut_playouts`` stops playouts where the game's :class:`Playout` says (the
    default; ``False`` plays every playout to the end). Forced moves (one legal action) cost
    nothing. With an iteration budget the bot is reproducible: the same seed and views give
    the same moves.
    """

    name = "search"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        seed: int,
        budget: SearchBudget | None = None,
        exploration: float = 0.7,
        cut_playouts: bool = True,
    ) -> None:
        super().__init__(game, seat, seed)
        self.budget = budget or SearchBudget.default_for(game.spec.id)
        self.exploration = exploration
        self.playout: Playout | None = playout_for(game) if cut_playouts else None
        self._moves = 0
        self.last_iterations = 0
        """How many iterations the latest decision ran (for measurements)."""

    def act(self, view: Any) -> Any:
        """Search from determinizations of ``view`` and return the most visited action."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        self._moves += 1
        move_seed = derive_seed(self.seed, self._moves)
        sampler = Rng(move_seed)
        policy = random.Random(move_seed)
        root = _Node()
        game = self.game
        budget = self.budget
        if budget.millis is None:
            for _ in range(budget.iterations):
                self._iterate(root, game.sample_state(view, sampler), policy)
            done = budget.iterations
        else:
            deadline = time.perf_counter() + budget.millis / 1000.0
            done = 0
            while True:
                self._iterate(root, game.sample_state(view, sampler), policy)
                done += 1
                if time.perf_counter() >= deadline:
                    break
        self.last_iterations = done
        stats = root.stats.get(self.seat, {})
        # The most visited of the legal actions; ties go to the earlier action in the view.
        best = max(range(len(legal)), key=lambda i: (stats.get(legal[i], (0.0,))[0], -i))
        return legal[best]

    # -- one iteration ----------------------------------------------------------------------------

    def _iterate(self, root: _Node, state: Any, policy: random.Random) -> None:
        game = self.game
        legal_actions = game.legal_actions
        apply = game.apply_unchecked
        conceals = game.conceals
        forced_action = game.forced_action
        c = self.exploration
        cut = self.playout
        horizon = cut.horizon(state) if cut is not None else None
        path: list[tuple[list[float], int]] = []  # (statistics entry, seat) of every choice
        node = root
        expanded = False
        # Selection and expansion: descend while the tree has the node, add one new node.
        while not state.is_terminal and not expanded:
            group = state.pending
            joint: list[Any] = []
            for seat in group:
                if seat not in state.pending:
                    break
                # A forced decision (SB-9: a pass without a BLOCK, decided by the sampled
                # world's hand) is taken without a node: it is no choice, and a driver takes it.
                forced = forced_action(state, seat)
                if forced is not None:
                    secret = conceals(state, seat, forced)
                    apply(state, seat, forced)
                    if not secret:
                        break
                    continue
                legal = legal_actions(state, seat)
                action = legal[0]
                if len(legal) > 1:
                    table = node.stats.get(seat)
                    if table is None:
                        table = node.stats[seat] = {}
                    entry, action = _select(table, legal, c, policy)
                    path.append((entry, seat))
                secret = conceals(state, seat, action)
                apply(state, seat, action)
                joint.append(action)
                if not secret:
                    break  # the others see this choice: they decide in the next node
            if not joint:
                continue  # only forced decisions: the same node decides next
            key = tuple(joint)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = True
            node = child
        # Playout: the game's playout policy, else uniformly random actions, to the end of the
        # game or until the playout says stop.
        randrange = policy.randrange
        guide = cut.policy if cut is not None else None
        depth = cut.depth if cut is not None else None
        steps = 0
        while not state.is_terminal:
            if cut is not None and (cut.horizon(state) != horizon or steps == depth):
                break
            chose = False
            for seat in state.pending:
                if seat not in state.pending:
                    continue
                forced = forced_action(state, seat)
                if forced is not None:
                    apply(state, seat, forced)  # forced decisions do not count toward depth
                    continue
                chose = True
                legal = legal_actions(state, seat)
                if len(legal) == 1:
                    action = legal[0]
                else:
                    action = guide(state, seat, legal) if guide is not None else None
                    if action is None:
                        action = legal[randrange(len(legal))]
                apply(state, seat, action)
            steps += chose
        if state.is_terminal:
            outcome = game.outcome(state)
            assert outcome is not None
            values = rewards(outcome, game.num_players)
        else:
            assert cut is not None
            values = cut.estimate(state)
        for entry, seat in path:
            entry[0] += 1.0
            entry[1] += values[seat]


def _select(
    table: dict[Any, list[float]], legal: Any, c: float, policy: random.Random
) -> tuple[list[float], Any]:
    """UCB1 over the available actions; untried actions first, in random order.

    Every legal action's availability count grows by one (ISMCTS: an arm is judged against the
    times it could have been chosen, not against the node's visits).
    """
    untried = []
    for a in legal:
        entry = table.get(a)
        if entry is None:
            table[a] = [0.0, 0.0, 1.0]
            untried.append(a)
        else:
            entry[2] += 1.0
            if entry[0] == 0.0:
                untried.append(a)
    if untried:
        a = untried[policy.randrange(len(untried))] if len(untried) > 1 else untried[0]
        return table[a], a
    best_value = -1.0
    best: Any = None
    for a in legal:
        n, w, avail = table[a]
        value = w / n + c * math.sqrt(math.log(avail) / n)
        if value > best_value:
            best_value = value
            best = a
    return table[best], best
