"""OpenSpiel's face: every racedeck game as a ``pyspiel`` Python game over the real engine.

>>> from racedeck.rl import openspiel
>>> game = openspiel.load("setback", players=2)    # or pyspiel.load_game("racedeck_setback")
>>> state = game.new_initial_state()

Importing this module registers, for every racedeck game, ``racedeck_<id>`` (dashes become
underscores): ``racedeck_why_first``, ``racedeck_six_day_race``, ``racedeck_setback``. A game
whose seats commit at once (*Why First?*, WF-4) is registered with
``Dynamics.SIMULTANEOUS``: where several seats are asked, the state's current player is
``PlayerId.SIMULTANEOUS`` and ``apply_actions`` takes one action per player (the entries of
players not asked are ignored); elsewhere (the tactical variant's moves, WF-10) one player acts.
Setback is such a game too: the players a BLOCK window asks answer at once, each answer hidden
until the last is in (SB-9 amended again), and a seat without a BLOCK has the single legal
action ``pass`` (SB-9 amended), so whom the game asks says nothing about the hands; outside a
window, and in a window that asks one player, one player acts.
Such a game is also registered turn by turn as ``racedeck_<id>_turns`` (``Dynamics.SEQUENTIAL``,
as OpenSpiel's ``convert_to_turn_based`` would make it): the seats commit (or answer) one after
another in the public order, each hidden from the others until the round is revealed (the
window closes), which is how the engine itself takes them — and what sequential algorithms
such as ``ISMCTSBot`` need. Six Day Race is ``Dynamics.SEQUENTIAL``.

What each part of OpenSpiel's API is here:

- Actions: the game's action encoding (:mod:`racedeck.core.encoding`, the ``encoding`` plugin of
  each game); ``num_distinct_actions`` and ``max_game_length`` are the encoding's, and an action's
  string is its canonical text (what ``parse_action`` reads). Applying an action that is not legal
  raises :class:`ValueError`.
- Chance: ``ChanceMode.SAMPLED_STOCHASTIC``. The engine deals and draws with the seeded RNG its
  states carry, so a state has no chance nodes and a clone plays on exactly as the original
  would. A game's ``seed`` parameter starts the sequence of engine seeds that its new initial
  states take, each when first looked at (``-1``: a fresh random sequence); OpenSpiel's C++
  side also makes initial states of its own (it sizes an observation tensor by observing one),
  so the sequence repeats for the same program, while :meth:`RacedeckGame.deal` names a deal
  outright. Explicit chance nodes would mean dealing outside the engine, card by card.
- Observations: the observation tensor is the seat's view encoded by
  :mod:`racedeck.rl.observations` (one flat float32 tensor named ``"observation"``), the
  observation string the view's JSON form. Both come from the view only, so they hold nothing
  the seat may not know. ``IIGObservationType(private_info=NONE)`` gives the spectator's view.
  Views are not perfect recall, so no information state is offered (algorithms that need one,
  such as CFR, are out of reach of games this long anyway); OpenSpiel's RL environment falls
  back to the observation tensor.
- Returns: at the end only, each winner's share of one win (``1 / number of winners``; Leo of
  the two-player *Why First?* counts among the winners, WF-9), 0 for the others — a
  constant-sum game (sum 1) unless Leo plays, then general-sum.
- Parameters: the game's scalar options (``players``, ``variant``, ``stages`` …, with the
  game's defaults) and ``seed``; list-valued options keep their defaults.
- Determinizations for search: :meth:`RacedeckState.resample` draws a state consistent with a
  player's view through the game's own sampler (``Game.sample_state``); pass
  :func:`resampler` to ``ISMCTSBot.set_resampler`` (with ``use_observation_string=True``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pyspiel
from numpy.typing import NDArray

from racedeck.core.game import Game
from racedeck.core.registry import available_games, get_spec, make
from racedeck.core.rng import Rng
from racedeck.core.spec import Dynamics
from racedeck.rl.faces import encoding_for, observer_for

__all__ = [
    "RacedeckGame",
    "RacedeckObserver",
    "RacedeckState",
    "game_class",
    "game_name",
    "is_simultaneous",
    "load",
    "register",
    "resampler",
]

PREFIX = "racedeck_"
"""What every registered name starts with."""
TURNS = "_turns"
"""What the turn-by-turn name of a simultaneous game ends with."""
RESAMPLE_TRIES = 10_000
"""Most draws :meth:`RacedeckState.resample` makes (one in ``2 ** (players - 1)`` succeeds in a
Setback BLOCK window at worst)."""
SEED = "seed"
"""The parameter that starts a game's sequence of engine seeds (-1: a random sequence)."""


def game_name(game_id: str, turn_based: bool = False) -> str:
    """OpenSpiel's name of ``game_id`` (``turn_based``: its turn-by-turn form)."""
    name = PREFIX + game_id.replace("-", "_")
    return name + TURNS if turn_based else name


def _scalar_options(game_id: str) -> dict[str, Any]:
    """The options OpenSpiel can carry as parameters (int, float, bool, str) and their
    defaults."""
    return {
        o.name: o.default
        for o in get_spec(game_id).options()
        if isinstance(o.default, int | float | bool | str)
    }


def is_simultaneous(game_id: str) -> bool:
    """True when seats of ``game_id`` commit at once (it has a turn-by-turn form too)."""
    return Dynamics.SIMULTANEOUS in get_spec(game_id).dynamics


def _game_type(game_id: str, turn_based: bool, constant_sum: bool) -> Any:
    spec = get_spec(game_id)
    params = dict(_scalar_options(game_id))
    params[SEED] = 0
    simultaneous = is_simultaneous(game_id) and not turn_based
    long_name = f"racedeck {spec.title}" + (" (turn by turn)" if turn_based else "")
    return pyspiel.GameType(
        short_name=game_name(game_id, turn_based),
        long_name=long_name,
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.CONSTANT_SUM
            if constant_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class _Shared:
    """What every state of one game shares; deep copies (OpenSpiel's clone) keep it shared."""

    __slots__ = ("encoding", "engine", "observer", "seeds", "simultaneous")

    def __init__(self, engine: Game[Any, Any, Any], seed: int) -> None:
        self.engine = engine
        self.encoding = encoding_for(engine)
        self.observer = observer_for(engine)
        self.simultaneous = False
        self.seeds = random.Random(seed) if seed >= 0 else random.Random()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Core:
    """The engine state of one OpenSpiel state, dealt when first needed (OpenSpiel makes a new
    initial state for every clone, which then takes the original's core)."""

    __slots__ = ("_state", "legal", "shared")

    def __init__(self, shared: _Shared, state: Any = None) -> None:
        self.shared = shared
        self._state = state
        self.legal: dict[int, tuple[list[int], tuple[Any, ...]]] = {}
        """Per seat: the sorted legal indices and the actions they name, for this state."""

    @property
    def state(self) -> Any:
        """The engine state (a fresh deal from the game's next seed on first use)."""
        if self._state is None:
            seed = self.shared.seeds.getrandbits(63)
            self._state = self.shared.engine.new_initial_state(seed)
        return self._state

    def legal_of(self, seat: int) -> tuple[list[int], tuple[Any, ...]]:
        """``seat``'s legal action indices (ascending) and the actions, by index order."""
        known = self.legal.get(seat)
        if known is None:
            encoding = self.shared.encoding
            actions = self.shared.engine.legal_actions(self.state, seat)
            pairs = sorted(zip(encoding.indices(actions), actions, strict=True))
            known = ([i for i, _ in pairs], tuple(a for _, a in pairs))
            self.legal[seat] = known
        return known

    def apply(self, seat: int, index: int) -> None:
        """Take action ``index`` for ``seat``; :class:`ValueError` when it is not legal."""
        indices, actions = self.legal_of(seat)
        try:
            action = actions[indices.index(index)]
        except ValueError:
            encoding = self.shared.encoding
            named = (
                str(encoding.action(index))
                if 0 <= index < encoding.num_distinct_actions
                else str(index)
            )
            raise ValueError(
                f"player {seat} may not play {named} (action {index}) now; "
                f"legal actions: {', '.join(map(str, indices)) or 'none'}"
            ) from None
        self.shared.engine.apply_unchecked(self.state, seat, action)
        self.legal = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.shared, self.state.clone())


# pyspiel ships no type information: its classes are Any to the type checker.
class RacedeckGame(pyspiel.Game):  # type: ignore[misc]
    """A racedeck game and configuration as an OpenSpiel game (see the module's notes).

    Each registered name has its own subclass (:func:`game_class`) that fixes the game and its
    form; OpenSpiel builds it from the parameters.
    """

    game_id: ClassVar[str]
    """The racedeck game."""
    turn_based: ClassVar[bool]
    """True for the turn-by-turn form of a game whose seats commit at once."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id, turn_based = self.game_id, self.turn_based
        params = dict(params or {})
        scalars = _scalar_options(game_id)
        unknown = sorted(set(params) - set(scalars) - {SEED})
        if unknown:
            raise ValueError(
                f"{game_name(game_id, turn_based)} has no parameter {', '.join(unknown)}; "
                f"parameters are {', '.join(sorted([*scalars, SEED]))}"
            )
        config = {k: v for k, v in params.items() if k != SEED}
        engine = make(game_id, **config)
        # Leo (WF-9) is a contestant who can win alone: the seats' shares then sum to 0.
        constant_sum = len(engine.contestant_names()) == engine.num_players
        encoding = encoding_for(engine)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=engine.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if constant_sum else None,
            max_game_length=encoding.max_game_length,
        )
        super().__init__(_game_type(game_id, turn_based, constant_sum), info, params)
        self.engine = engine
        """The racedeck game (rules and configuration)."""
        self.encoding = encoding
        """The action encoding: OpenSpiel's actions are its indices."""
        self._shared = _Shared(engine, int(params.get(SEED, 0)))
        self._shared.simultaneous = is_simultaneous(game_id) and not turn_based

    def new_initial_state(self) -> RacedeckState:
        """A new game, dealt from the next engine seed of this game's sequence."""
        return RacedeckState(self)

    def deal(self, seed: int) -> RacedeckState:
        """A new game dealt from engine seed ``seed`` (the deal the engine's own tables make)."""
        state = RacedeckState(self)
        state._core = _Core(self._shared, self.engine.new_initial_state(seed))
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RacedeckObserver:
        """The observer of a seat's view (the default), or of the spectator's view
        (``private_info=NONE``); racedeck offers no perfect-recall information state."""
        if params:
            raise ValueError(f"racedeck observers take no parameters, got {sorted(params)}")
        if iig_obs_type is None:
            return RacedeckObserver(self._shared, public_only=False)
        if iig_obs_type.perfect_recall:
            raise ValueError(
                "racedeck games offer no perfect-recall information state: "
                "use the observation (a seat's view)"
            )
        if not iig_obs_type.public_info:
            raise ValueError("racedeck observations always hold the public information")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return RacedeckObserver(self._shared, public_only=False)
        if private == pyspiel.PrivateInfoType.NONE:
            return RacedeckObserver(self._shared, public_only=True)
        raise ValueError("racedeck observations show one seat's secrets at most, never all")


class RacedeckState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`RacedeckGame`, over one engine state (see the module's notes)."""

    def __init__(self, game: RacedeckGame) -> None:
        super().__init__(game)
        self._shared: _Shared = game._shared
        self._core = _Core(game._shared)

    # -- racedeck's side ----------------------------------------------------------------------

    @property
    def engine_state(self) -> Any:
        """The engine state (read it only: OpenSpiel's history follows the actions applied)."""
        return self._core.state

    def view(self, seat: int | None) -> Any:
        """``seat``'s view of the position (``None``: the spectator's)."""
        return self._shared.engine.observe(self._core.state, seat)

    def resample(self, player: int, rng: Rng) -> RacedeckState:
        """A copy of this state with everything ``player``'s view hides drawn anew from ``rng``
        by the game's sampler (a determinization for search).

        OpenSpiel tells every player who is to act, so the draw is conditioned on that too: in
        a Setback BLOCK window the view does not say who has answered, but here the window asks
        its seats one after another in the public order of the turn (SB-9 amended), or all at
        once, so the seats still to answer are known; samples that disagree are drawn again.
        What the others answered stays hidden (SB-9 amended again) and is drawn anew. ``history()``
        of the copy is this state's: hidden actions of the others in it (face-down commits)
        need not match the new state.
        """
        engine = self._shared.engine
        view = self.view(player)
        pending = tuple(self._core.state.pending)
        for _ in range(RESAMPLE_TRIES):
            sampled = engine.sample_state(view, rng)
            if tuple(sampled.pending) == pending:
                copy: RacedeckState = self.clone()
                copy._core = _Core(self._shared, sampled)
                return copy
        raise RuntimeError(
            f"no determinization with the seats to act {pending} in {RESAMPLE_TRIES} draws"
        )

    # -- OpenSpiel's side ---------------------------------------------------------------------

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the player to act), as OpenSpiel's own
        method gives it. Computed here: for a Python game, OpenSpiel's C++ path makes and
        observes a throw-away initial state on every call, only to learn the tensor's size."""
        seat = self.current_player() if player is None else int(player)
        if not 0 <= seat < self._shared.engine.num_players:
            raise ValueError(
                f"no player {seat}: players are 0 to {self._shared.engine.num_players - 1}"
            )
        view = self._shared.engine.observe_without_header(self._core.state, seat)
        encoded: list[float] = self._shared.observer.encode(view).tolist()
        return encoded

    def current_player(self) -> int:
        """The seat to act, ``SIMULTANEOUS`` where several commit at once, or ``TERMINAL``."""
        state = self._core.state
        if state.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        pending = state.pending
        if self._shared.simultaneous and len(pending) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(pending[0])

    def _legal_actions(self, player: int) -> list[int]:
        """``player``'s legal action indices, ascending (none when not asked)."""
        return list(self._core.legal_of(player)[0])

    def _apply_action(self, action: int) -> None:
        """Apply the action of the one player to act."""
        self._core.apply(self.current_player(), int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        """Apply one action per player at a simultaneous node: each asked seat's, in the order
        the engine asks them (the others' entries are ignored)."""
        core = self._core
        pending = tuple(core.state.pending)
        if len(actions) != self._shared.engine.num_players:
            raise ValueError(
                f"one action per player is needed ({self._shared.engine.num_players}), "
                f"got {len(actions)}"
            )
        for seat in pending:  # check every action before any is applied
            if int(actions[seat]) not in core.legal_of(seat)[0]:
                core.apply(seat, int(actions[seat]))  # raises, naming the action
        for seat in pending:
            core.apply(seat, int(actions[seat]))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's canonical text."""
        return str(self._shared.encoding.action(int(action)))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self._core.state.is_terminal)

    def returns(self) -> list[float]:
        """Each seat's share of the win at the end (see the module's notes), else zeros."""
        engine = self._shared.engine
        n = engine.num_players
        outcome = engine.outcome(self._core.state)
        if outcome is None:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if s in outcome.winners else 0.0 for s in range(n)]

    def __str__(self) -> str:
        """The whole state, secrets and RNG included (JSON)."""
        return json.dumps(self._core.state.to_json(), sort_keys=True, separators=(",", ":"))


class RacedeckObserver:
    """OpenSpiel's Python observer over racedeck views: ``tensor`` is the encoded view of the
    seat (or the spectator's, ``public_only``), ``dict`` names it ``"observation"``."""

    def __init__(self, shared: _Shared, public_only: bool) -> None:
        self._shared = shared
        self.public_only = public_only
        self.tensor: NDArray[np.float32] = np.zeros(shared.observer.size, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {"observation": self.tensor}

    def _view(self, state: RacedeckState, player: int) -> Any:
        return state.view(None if self.public_only else player)

    def set_from(self, state: RacedeckState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        seat = None if self.public_only else player
        # The encoding reads the game's part of the view only: its header is not built.
        view = self._shared.engine.observe_without_header(state.engine_state, seat)
        self.tensor[:] = self._shared.observer.encode(view)

    def string_from(self, state: RacedeckState, player: int) -> str:
        """``player``'s view of ``state`` as compact JSON."""
        view = self._view(state, player)
        return json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))


def resampler(seed: int) -> Callable[[RacedeckState, int], RacedeckState]:
    """A determinization callback for OpenSpiel's ``ISMCTSBot.set_resampler``, drawing from a
    generator seeded with ``seed``."""
    rng = Rng(seed)

    def resample(state: RacedeckState, player: int) -> RacedeckState:
        return state.resample(player, rng)

    return resample


_CLASSES: dict[tuple[str, bool], type[RacedeckGame]] = {}


def game_class(game_id: str, turn_based: bool = False) -> type[RacedeckGame]:
    """The :class:`RacedeckGame` subclass registered for ``game_id`` (and form)."""
    key = (game_id, turn_based)
    cls = _CLASSES.get(key)
    if cls is None:
        # A class, not a closure, is what OpenSpiel keeps as the factory: a closure held by
        # its registry is released after the interpreter has shut down, which aborts it.
        title = "".join(part.title() for part in game_id.split("-"))
        cls = type(
            f"Racedeck{title}{'Turns' if turn_based else ''}Game",
            (RacedeckGame,),
            {"game_id": game_id, "turn_based": turn_based, "__module__": __name__},
        )
        _CLASSES[key] = cls
    return cls


def register() -> tuple[str, ...]:
    """Register every racedeck game with OpenSpiel (once); return the registered names."""
    names = []
    known = set(pyspiel.registered_names())
    for game_id in available_games():
        forms = (False, True) if is_simultaneous(game_id) else (False,)
        for turn_based in forms:
            name = game_name(game_id, turn_based)
            names.append(name)
            if name not in known:
                # The registered type is the default configuration's; each game's own type
                # (constant- or general-sum) is its configuration's.
                defaults = make(game_id)
                constant = len(defaults.contestant_names()) == defaults.num_players
                game_type = _game_type(game_id, turn_based, constant)
                pyspiel.register_game(game_type, game_class(game_id, turn_based))
    return tuple(names)


def load(game_id: str, *, turn_based: bool = False, seed: int = 0, **config: Any) -> RacedeckGame:
    """The OpenSpiel game of ``game_id`` under scalar ``config`` options (see the module's
    notes), through ``pyspiel.load_game``."""
    register()
    game: RacedeckGame = pyspiel.load_game(game_name(game_id, turn_based), {**config, SEED: seed})
    return game


register()
