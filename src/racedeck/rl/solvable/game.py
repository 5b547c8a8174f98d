"""A small configuration as an OpenSpiel game with explicit chance and information states.

>>> from racedeck.rl.solvable import load
>>> game = load("why-first-duel-2")     # or pyspiel.load_game("racedeck_solvable", {...})
>>> state = game.new_initial_state()    # a chance node: the deals

The root is a chance node whose outcomes are the configuration's deals, with their exact
probabilities (``chance_outcomes``); everything after it is the racedeck engine, played from
the dealt state. Seats the engine asks at once (*Why First?*'s commits, WF-4) act one after
another, lowest seat first, as OpenSpiel's turn-based conversion would have them: the later
seat does not see the earlier's face-down choice, because its information state is made of its
own views only.

A player's information state string is perfect recall: its view after the deal and after every
action since (the engine's views hold what that seat may know and nothing else), with its own
actions between them. Two histories that differ only in another seat's secret give the same
string. All the chance is the root's: a history where the engine draws chance of its own (its
RNG moves: a reshuffle, a new stage's deal) raises :class:`RuntimeError`, so a configuration
that solves is one whose deals are all there is. Returns are each seat's share of the win, as
in :mod:`racedeck.rl.openspiel` (Leo of the two-player *Why First?* can win alone, WF-9: then
the game is general-sum).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from racedeck.core.game import Game
from racedeck.rl.faces import encoding_for
from racedeck.rl.openspiel import utility
from racedeck.rl.solvable.configs import CONFIGS, SolvableConfig, find_config
from racedeck.rl.solvable.deals import Deal

__all__ = ["SHORT_NAME", "SolvableGame", "SolvableState", "load"]

SHORT_NAME = "racedeck_solvable"
"""OpenSpiel's name of the small configurations; parameter ``config`` names one."""


def _game_type(constant_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="racedeck small solvable configurations",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility(constant_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"config": CONFIGS[0].name},
    )


def _view_text(engine: Game[Any, Any, Any], state: Any, seat: int) -> str:
    """``seat``'s view of ``state`` as compact JSON, without what the configuration alone
    decides (the header's copy of the configuration)."""
    view = engine.observe(state, seat).to_json()
    header = dict(view["header"])
    header.pop("config", None)
    view["header"] = header
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _rng_state(state: Any) -> Any:
    """Where the engine state's own RNG stands (``None`` for a state without one)."""
    rng = getattr(state, "rng", None)
    return None if rng is None else rng.state


# pyspiel ships no type information: its classes are Any to the type checker.
class SolvableGame(pyspiel.Game):  # type: ignore[misc]
    """One small configuration (:mod:`racedeck.rl.solvable.configs`) as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        unknown = sorted(set(params) - {"config"})
        if unknown:
            raise ValueError(f"{SHORT_NAME} has no parameter {', '.join(unknown)}")
        config = find_config(str(params.get("config", CONFIGS[0].name)))
        engine = config.engine()
        deals = config.deal(engine)
        # Leo (WF-9) is a contestant who can win alone: the seats' shares then sum to 0.
        constant_sum = len(engine.contestant_names()) == engine.num_players
        encoding = encoding_for(engine)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_distinct_actions,
            max_chance_outcomes=len(deals),
            num_players=engine.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if constant_sum else None,
            max_game_length=encoding.max_game_length,
        )
        super().__init__(_game_type(constant_sum), info, params)
        self.config: SolvableConfig = config
        """The small configuration."""
        self.engine = engine
        """The racedeck game under the configuration's options."""
        self.encoding = encoding
        """The action encoding: OpenSpiel's actions are its indices."""
        self.deals: tuple[Deal, ...] = tuple(deals)
        """The chance outcomes of the root, by outcome number."""
        self.chance: list[tuple[int, float]] = [
            (i, float(d.probability)) for i, d in enumerate(deals)
        ]
        """The root's ``chance_outcomes``."""
        self.root = _Node(self, None, tuple(() for _ in range(engine.num_players)))
        """The tree's root (the deal); the tree grows as it is walked."""

    def new_initial_state(self) -> SolvableState:
        """The root: a chance node over the deals."""
        return SolvableState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SolvableObserver:
        """The information state (``perfect_recall``) or a seat's view (the observation)."""
        if params:
            raise ValueError(f"observers take no parameters, got {sorted(params)}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SolvableObserver(perfect_recall)


class _Node:
    """One history of the game tree, made when first reached and kept by the game: a
    solver walks the same tree many times, and the engine and the views are asked once per
    history. Nodes are never changed once made but for their children, so states share
    them (OpenSpiel clones a Python state by deep-copying its attributes)."""

    __slots__ = ("actions", "children", "deal", "game", "legal", "player", "state", "trails")

    def __init__(self, game: SolvableGame, state: Any, trails: tuple[tuple[str, ...], ...]):
        self.game = game
        self.state = state
        self.trails = trails
        self.deal: Deal | None = None
        """The deal this history started with (``None`` at the root)."""
        self.children: dict[int, _Node] = {}
        self.legal: list[int] = []
        self.actions: tuple[Any, ...] = ()
        if state is None:
            self.player = int(pyspiel.PlayerId.CHANCE)
            self.legal = [i for i, _ in game.chance]
        elif state.is_terminal:
            self.player = int(pyspiel.PlayerId.TERMINAL)
        else:
            # Seats asked at once act lowest first, each unseen by the next (WF-4, SB-9).
            self.player = int(state.pending[0])
            found = game.engine.legal_actions(state, self.player)
            pairs = sorted(zip(game.encoding.indices(found), found, strict=True))
            self.legal = [i for i, _ in pairs]
            self.actions = tuple(a for _, a in pairs)

    def child(self, action: int) -> _Node:
        """The history after ``action`` (a deal's number at the root)."""
        known = self.children.get(action)
        if known is not None:
            return known
        game = self.game
        engine = game.engine
        if self.state is None:
            state = game.deals[action].state.clone()
            actor, done = None, None
        else:
            state = self.state.clone()
            actor, done = self.player, self.actions[self.legal.index(action)]
            engine.apply_unchecked(state, actor, done)
            if _rng_state(state) != _rng_state(self.state):
                # The engine drew chance of its own (a reshuffle, a new stage's deal): the
                # root's deals would no longer be all the chance there is.
                raise RuntimeError(
                    f"{game.config.name}: the engine drew chance after the deal "
                    f"(after {done} by seat {actor}); the configuration is not solvable here"
                )
        # Every seat's trail grows by its view of the new position, the actor's by its own
        # action first: what a seat saw, in order, is its information state.
        trails = tuple(
            (*trail, *((f"> {done}",) if seat == actor else ()), _view_text(engine, state, seat))
            for seat, trail in enumerate(self.trails)
        )
        node = _Node(game, state, trails)
        node.deal = game.deals[action] if self.state is None else self.deal
        self.children[action] = node
        return node

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self


class SolvableState(pyspiel.State):  # type: ignore[misc]
    """A history of a :class:`SolvableGame`: the deal, then the engine's play."""

    def __init__(self, game: SolvableGame) -> None:
        super().__init__(game)
        self._node: _Node = game.root

    @property
    def engine_state(self) -> Any:
        """The engine state (``None`` before the deal); read it only."""
        return self._node.state

    @property
    def deal(self) -> Deal | None:
        """The deal this history started with (``None`` before the deal)."""
        return self._node.deal

    def information_state_of(self, player: int) -> str:
        """``player``'s perfect-recall information state (see the module's notes)."""
        return "\n".join(self._node.trails[player])

    def view(self, seat: int) -> Any:
        """``seat``'s engine view of the position (after the deal)."""
        return self._node.game.engine.observe(self._node.state, seat)

    def current_player(self) -> int:
        """``CHANCE`` before the deal, then the lowest seat the engine asks, or ``TERMINAL``."""
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        """The acting seat's legal action indices, ascending (none for another seat)."""
        node = self._node
        return list(node.legal) if player == node.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals and their probabilities."""
        return list(self._node.game.chance)

    def _apply_action(self, action: int) -> None:
        self._node = self._node.child(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._node.game
        if player == pyspiel.PlayerId.CHANCE:
            return str(game.deals[action].label)
        return str(game.encoding.action(int(action)))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._node.player == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        """Each seat's share of the win at the end (Leo's share is nobody's), else zeros."""
        engine = self._node.game.engine
        n = engine.num_players
        outcome = None if self._node.state is None else engine.outcome(self._node.state)
        if outcome is None:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if s in outcome.winners else 0.0 for s in range(n)]

    def __str__(self) -> str:
        """The whole engine state (JSON), or ``chance`` before the deal."""
        if self._node.state is None:
            return "chance"
        return json.dumps(self._node.state.to_json(), sort_keys=True, separators=(",", ":"))


class SolvableObserver:
    """OpenSpiel's Python observer: strings only (the perfect-recall information state, or the
    seat's current view)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SolvableState, player: int) -> None:
        """No tensor: nothing to set."""

    def string_from(self, state: SolvableState, player: int) -> str:
        """``player``'s information state, or its current view."""
        if self.perfect_recall:
            return state.information_state_of(player)
        if state.engine_state is None:
            return ""
        return _view_text(state._node.game.engine, state.engine_state, player)


def register() -> None:
    """Register :data:`SHORT_NAME` with OpenSpiel (once)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(False), SolvableGame)


def load(name: str) -> SolvableGame:
    """The OpenSpiel game of the small configuration ``name``."""
    register()
    game: SolvableGame = pyspiel.load_game(SHORT_NAME, {"config": name})
    return game


register()
