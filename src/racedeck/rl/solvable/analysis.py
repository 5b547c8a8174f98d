"""What a joint policy does on a small configuration, weighted by how likely each history is:
the chance of the deal times every seat's probability of its actions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from racedeck.rl.solvable.game import SolvableGame, SolvableState

__all__ = ["Decision", "Terminal", "TreeSize", "mixing", "tree_size", "walk"]

Decision = Callable[[SolvableState, int, dict[int, float], float], None]
"""Called at each decision: the state, the seat, its action probabilities, the reach."""
Terminal = Callable[[SolvableState, float], None]
"""Called at each end: the state and the probability of reaching it."""


def walk(game: SolvableGame, joint: Any, decision: Decision, terminal: Terminal) -> None:
    """Visit every history ``joint`` (an OpenSpiel policy for every seat) reaches with a
    positive probability, calling ``decision`` and ``terminal`` with that probability."""

    def visit(state: SolvableState, reach: float) -> None:
        if state.is_terminal():
            terminal(state, reach)
            return
        if state.is_chance_node():
            for action, p in state.chance_outcomes():
                visit(state.child(action), reach * p)
            return
        seat = state.current_player()
        probs = joint.action_probabilities(state, seat)
        decision(state, seat, probs, reach)
        for action, p in probs.items():
            if p > 0:
                visit(state.child(action), reach * p)

    visit(game.new_initial_state(), 1.0)


@dataclass(frozen=True)
class TreeSize:
    """How large a configuration's game tree is."""

    histories: int
    """Every history, the root (the deal) and the ends included."""
    terminals: int
    """The histories where the game is over."""
    info_states: tuple[int, ...]
    """Each seat's information states where it acts."""


def tree_size(game: SolvableGame) -> TreeSize:
    """Count ``game``'s histories and information states (walking the whole tree)."""
    histories = [0, 0]
    infos: list[set[str]] = [set() for _ in range(game.num_players())]

    def visit(state: SolvableState) -> None:
        histories[0] += 1
        if state.is_terminal():
            histories[1] += 1
            return
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            seat = state.current_player()
            infos[seat].add(state.information_state_string(seat))
            actions = state.legal_actions()
        for action in actions:
            visit(state.child(action))

    visit(game.new_initial_state())
    return TreeSize(histories[0], histories[1], tuple(len(s) for s in infos))


def mixing(game: SolvableGame, joint: Any, top: float = 0.9) -> float:
    """How often a seat's decision under ``joint`` is mixed: the probability, over the
    decisions play reaches (each weighted by its reach), that no action has ``top`` or more
    of the seat's probability. Decisions with one legal action are no choice and are left
    out."""
    mixed = [0.0, 0.0]

    def decision(state: SolvableState, seat: int, probs: dict[int, float], reach: float) -> None:
        if len(probs) < 2:
            return
        mixed[1] += reach
        if max(probs.values()) < top:
            mixed[0] += reach

    walk(game, joint, decision, lambda state, reach: None)
    return mixed[0] / mixed[1] if mixed[1] else 0.0
