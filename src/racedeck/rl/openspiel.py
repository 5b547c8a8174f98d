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
- Chance: ``ChanceMode.DETERMINISTIC``, as OpenSpiel means it: there are no chance nodes. The
  engine deals as a state is made and draws with the seeded RNG the state carries, so
  ``apply_action`` is a function of the state and a clone plays on exactly as the original
  would; what is random is which deal a new initial state gets. A game's ``seed`` parameter
  starts the sequence of engine seeds that its new initial states take, each when first looked
  at (``-1``: a fresh random sequence); OpenSpiel's C++ side also makes initial states of its own
  (it sizes an observation tensor by observing one), so the sequence repeats for the same
  program, while :meth:`RacedeckGame.deal` names a deal outright. Algorithms that walk the tree
  from one initial state see one deal. Explicit chance nodes would mean dealing outside the
  engine, card by card.
- Pickling and serialization: ``pickle`` takes a game (its parameters and where its sequence of
  seeds is) and a state (the game, OpenSpiel's history and the engine state as JSON, RNG
  included); ``state.serialize()``, ``game.deserialize_state`` and
  ``pyspiel.serialize_game_and_state`` carry states too, and a game there is its parameters
  alone (OpenSpiel asks a Python game for no RNG state unless it is ``SAMPLED_STOCHASTIC``, and
  cannot get one from it then), so a game read back starts its sequence of seeds anew.
  Unpickling imports this module, which registers the games.
- Observations: the observation tensor is the seat's view encoded by
  :mod:`racedeck.rl.observations` (one flat float32 tensor named ``"observation"``), the
  observation string the view's JSON form. Both come from the view only, so they hold nothing
  the seat may not know. ``IIGObservationType(private_info=NONE)`` gives the spectator's view.
- Information state (perfect recall, :mod:`racedeck.rl.recall`): a seat's view whenever it
  decided, the action it took each time, and its view now — perfect recall in Kuhn's sense (a
  seat forgets neither what it knew when it decided nor what it did); what it saw only between
  two of its decisions and no longer sees is not kept. Where seats act at once, each decided on
  the view before the round's actions. ``information_state_string`` is always offered: compact
  JSON ``{"decisions": [{"action": text, "view": view}, …], "seat": seat, "view": view}``, made
  of the seat's views and its own actions only, so it holds nothing the seat may not know.
  ``information_state_tensor`` is offered where a configuration bounds it small enough: the
  current observation (``O`` entries), then ``max_game_length`` rows (no seat decides more
  often than the game takes actions), each a decision's observation and its action one-hot
  (``O + num_distinct_actions`` entries), oldest first, zero after the last decision; in all
  ``O + max_game_length * (O + num_distinct_actions)`` entries, offered where that is at most
  :data:`racedeck.rl.recall.TENSOR_LIMIT` (2,048): the small configurations that tabular
  methods are for (*Why First?* of one stage and hands of three at two players: 418 entries;
  its tactical variant with hands of two: 1,148).
  The standard configurations offer none: their padded histories would be 3,600–23,000 entries
  against views of 60–150 (*Why First?* 9,360 at four players), which would make OpenSpiel's RL
  environment, preferring the information state, learn from inputs a hundred times larger.
  Setback never offers one (``max_moves`` bounds its games only loosely); their information
  state is the string alone.
  OpenSpiel's RL environment uses the information state tensor where there is one
  (``observation_type=OBSERVATION`` asks for the view, a tensor far smaller).
  ``perfect_recall=True`` observers give both; there is no public perfect-recall state.
  Applying an action only notes it (one small object); views are replayed from the deal when
  an information state is first asked for, and each step asked about keeps what it found, so
  asking every step replays one step each time. Tabular algorithms (``TabularPolicy``, CFR)
  enumerate the tree of one deal (see Chance), so they are for tiny configurations only.
- Returns: at the end only, each winner's share of one win (``1 / number of winners``; Leo of
  the two-player *Why First?* counts among the winners, WF-9), 0 for the others — a
  constant-sum game (sum 1) unless Leo plays, then general-sum.
- Parameters: the game's scalar options (``players``, ``variant``, ``stages`` …, with the
  game's defaults) and ``seed``; list-valued options keep their defaults.
- Determinizations for search: :meth:`RacedeckState.resample` draws a state consistent with a
  player's view through the game's own sampler (``Game.sample_state``). OpenSpiel's hook
  ``resample_from_infostate(player_id, probability_sampler)`` is that draw, seeded from the
  sampler (and the game's count of draws, see the method), so ``ISMCTSBot`` runs as it comes;
  :func:`resampler` gives ``ISMCTSBot.set_resampler`` a generator of one's own seed instead.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from racedeck.core.encoding import ActionEncoding
from racedeck.core.game import Game
from racedeck.core.registry import available_games, get_spec, make
from racedeck.core.rng import Rng, derive_seed
from racedeck.core.spec import Dynamics
from racedeck.extras import needs
from racedeck.rl import recall
from racedeck.rl.faces import encoding_for, observer_for
from racedeck.rl.observations.base import Observer

with needs("racedeck.rl.openspiel (OpenSpiel's face)"):
    import pyspiel

__all__ = [
    "RacedeckGame",
    "RacedeckObserver",
    "RacedeckRecallObserver",
    "RacedeckState",
    "game_class",
    "game_name",
    "is_simultaneous",
    "load",
    "register",
    "resampler",
    "utility",
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


def utility(constant_sum: bool) -> Any:
    """OpenSpiel's utility of a racedeck game: the winners share one win (constant sum), unless
    a contestant the engine plays can win (Leo of two-player *Why First?*, WF-9)."""
    if constant_sum:
        return pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType.Utility.GENERAL_SUM


def _game_type(game_id: str, turn_based: bool, constant_sum: bool, recall_tensor: bool) -> Any:
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
        # No chance nodes: the deal is drawn as a state is made and the engine's draws come
        # from the RNG the state carries, so apply_action is deterministic. SAMPLED_STOCHASTIC
        # would also make OpenSpiel serialize the game's RNG, which a Python game cannot give.
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility(constant_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=recall_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


Key = tuple[str, bool, tuple[tuple[str, Any], ...]]
"""A configuration: the game, its form (turn by turn or not) and its options, sorted."""


class _Shared:
    """What every state of one game shares; deep copies (OpenSpiel's clone) keep it shared.

    A pickle names only the configuration (:data:`Key`): it unpickles to the one :class:`_Shared`
    of that configuration this process keeps (:func:`_shared_for`), whose sequence of seeds is
    never used, since a pickled state is always dealt."""

    __slots__ = ("encoding", "engine", "key", "observer", "resamples", "seeds", "simultaneous")

    def __init__(self, key: Key, seed: int, like: _Shared | None = None) -> None:
        game_id, _, config = key
        # The rules and encodings never change: games of one configuration share them.
        self.engine: Game[Any, Any, Any] = like.engine if like else make(game_id, **dict(config))
        self.encoding: ActionEncoding[Any] = like.encoding if like else encoding_for(self.engine)
        self.observer: Observer[Any] = like.observer if like else observer_for(self.engine)
        self.key = key
        self.simultaneous = is_simultaneous(key[0]) and not key[1]
        self.seeds = random.Random(seed) if seed >= 0 else random.Random()
        self.resamples = itertools.count()
        """How many determinizations OpenSpiel's hook has drawn (see
        :meth:`RacedeckState.resample_from_infostate`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared_for, (self.key,))


@functools.lru_cache(maxsize=64)
def _shared_for(key: Key) -> _Shared:
    """The process's :class:`_Shared` of configuration ``key`` (what unpickled states hold, and
    where new games of the configuration take the rules and encodings from)."""
    return _Shared(key, -1)


class _Core:
    """The engine state of one OpenSpiel state, dealt when first needed (OpenSpiel makes a new
    initial state for every clone, which then takes the original's core), and its record for
    the information states (:mod:`racedeck.rl.recall`; a clone shares it, so copying the core
    is all a clone copies)."""

    __slots__ = ("_state", "last", "legal", "shared", "start")

    def __init__(
        self,
        shared: _Shared,
        state: Any = None,
        start: recall.Start | None = None,
        last: recall.Step | None = None,
    ) -> None:
        self.shared = shared
        self._state = state
        self.legal: dict[int, tuple[list[int], tuple[Any, ...]]] = {}
        """Per seat: the sorted legal indices and the actions they name, for this state."""
        self.start = start
        """Where the record begins (the deal, noted at the first action, or a determinization)."""
        self.last = last
        """The record's last step: the actions taken since :attr:`start`."""

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

    def take(self, actions: tuple[tuple[int, int], ...]) -> None:
        """Apply ``actions``, ``(seat, index)`` pairs taken at once, in order, and note them in
        the record: one small object, as views are rebuilt only when an information state is
        asked for. :class:`ValueError` (before anything is applied) when the first is not legal;
        the caller checks the others."""
        if self.start is None:  # the record begins at the deal
            self.start = recall.Start(self.shared, self.state.clone(), ())
        for seat, index in actions:
            self.apply(seat, index)
        self.last = recall.Step(self.last, actions)

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
        return _Core(self.shared, self.state.clone(), self.start, self.last)

    def __reduce__(self) -> tuple[Any, ...]:
        # The engine state's JSON form is the whole state, its RNG included.
        return (_core_from_json, (self.shared, self.state.to_json(), self.start, self.last))


def _core_from_json(
    shared: _Shared, obj: Any, start: recall.Start | None, last: recall.Step | None
) -> _Core:
    """The :class:`_Core` a pickle names (see :meth:`_Core.__reduce__`)."""
    return _Core(shared, shared.engine.state_from_json(obj), start, last)


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
        key = (game_id, turn_based, tuple(sorted(config.items())))
        shared = _Shared(key, int(params.get(SEED, 0)), like=_shared_for(key))
        engine = shared.engine
        # Leo (WF-9) is a contestant who can win alone: the seats' shares then sum to 0.
        constant_sum = len(engine.contestant_names()) == engine.num_players
        encoding = shared.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=engine.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if constant_sum else None,
            max_game_length=encoding.max_game_length,
        )
        tensor = recall.tensor_size(shared) > 0
        super().__init__(_game_type(game_id, turn_based, constant_sum, tensor), info, params)
        self.engine = engine
        """The racedeck game (rules and configuration)."""
        self.encoding = encoding
        """The action encoding: OpenSpiel's actions are its indices."""
        self._shared = shared

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the name, the parameters and where the sequence of seeds is (OpenSpiel's
        own pickle of a game asks for an RNG state a Python game cannot give)."""
        name = game_name(self.game_id, self.turn_based)
        return (_game_from, (name, self.get_parameters(), self._shared.seeds.getstate()))

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
    ) -> RacedeckObserver | RacedeckRecallObserver:
        """The observer of a seat's view (the default), of the spectator's view
        (``private_info=NONE``), or of a seat's perfect-recall information state
        (``perfect_recall=True``; see the module's notes)."""
        if params:
            raise ValueError(f"racedeck observers take no parameters, got {sorted(params)}")
        if iig_obs_type is None:
            return RacedeckObserver(self._shared, public_only=False)
        if not iig_obs_type.public_info:
            raise ValueError("racedeck observations always hold the public information")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("racedeck observations show one seat's secrets at most, never all")
        if iig_obs_type.perfect_recall:
            if private == pyspiel.PrivateInfoType.NONE:
                raise ValueError(
                    "racedeck's perfect-recall information state is a seat's, never the "
                    "spectator's: use the spectator's observation"
                )
            return RacedeckRecallObserver(self._shared)
        return RacedeckObserver(self._shared, public_only=private == pyspiel.PrivateInfoType.NONE)


def _game_from(name: str, params: dict[str, Any], seeds: Any) -> RacedeckGame:
    """The game a pickle names (see :meth:`RacedeckGame.__reduce__`)."""
    register()
    game: RacedeckGame = pyspiel.load_game(name, params)
    game._shared.seeds.setstate(seeds)
    return game


def _state_from(game: RacedeckGame, serialized: str) -> RacedeckState:
    """The state a pickle names (see :meth:`RacedeckState.__reduce__`)."""
    state: RacedeckState = game.deserialize_state(serialized)
    return state


class RacedeckState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`RacedeckGame`, over one engine state (see the module's notes)."""

    def __init__(self, game: RacedeckGame) -> None:
        super().__init__(game)
        self._shared: _Shared = game._shared
        self._core = _Core(game._shared)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the game and OpenSpiel's serialization of the state (its history, and the
        engine state as JSON, RNG included)."""
        return (_state_from, (self.get_game(), self.serialize()))

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
        need not match the new state. The copy's information state of ``player`` is this
        state's; the others' hold only what they decide from the copy on (their earlier
        decisions are among what was drawn anew).
        """
        engine = self._shared.engine
        view = self.view(player)
        pending = tuple(self._core.state.pending)
        for _ in range(RESAMPLE_TRIES):
            sampled = engine.sample_state(view, rng)
            if tuple(sampled.pending) == pending:
                copy: RacedeckState = self.clone()
                # The player's decisions are kept, by reference to this record; the others'
                # were drawn anew with their secrets, so the copy's record knows none of them.
                core = self._core
                known: list[recall.Kept] = [None] * engine.num_players
                if core.start is not None:
                    known[player] = recall.Record(core.start, core.last)
                start = recall.Start(self._shared, sampled.clone(), known)
                copy._core = _Core(self._shared, sampled, start)
                return copy
        raise RuntimeError(
            f"no determinization with the seats to act {pending} in {RESAMPLE_TRIES} draws"
        )

    # -- OpenSpiel's side ---------------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> RacedeckState:
        """OpenSpiel's determinization hook (what ``ISMCTSBot`` calls unless given a resampler):
        :meth:`resample` from a generator seeded by two draws of ``probability_sampler`` and
        the number of determinizations this game's states have drawn so far.

        The count is there because ``ISMCTSBot`` makes a new ``UniformProbabilitySampler`` for
        each draw, whose stream is always the same: seeded by the sampler alone, every draw
        at a position would be the same world. With it, draws are as reproducible as the
        sequence of deals: the same program draws the same worlds.
        """
        high, low = (int(float(probability_sampler()) * 2**53) for _ in range(2))
        seed = derive_seed(high, low, next(self._shared.resamples))
        return self.resample(int(player_id), Rng(seed))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the player to act), as OpenSpiel's own
        method gives it. Computed here: for a Python game, OpenSpiel's C++ path makes and
        observes a throw-away initial state on every call, only to learn the tensor's size."""
        seat = self._seat(player)
        # The encoder reads no header: the view is made without one.
        view = self._shared.engine.observe_without_header(self._core.state, seat)
        encoded: list[float] = self._shared.observer.encode(view).tolist()
        return encoded

    def decisions(self, seat: int) -> tuple[recall.Decision, ...]:
        """``seat``'s decisions so far, oldest first: its view as it decided and the action
        it took (what its information state holds besides its current view)."""
        core = self._core
        if core.start is None:
            return ()
        return recall.decisions(core.start, core.last, seat)

    def information_state_string(self, player: int | None = None) -> str:
        """``player``'s perfect-recall information state (default: the player to act): JSON
        of its decisions and its current view (see the module's notes)."""
        seat = self._seat(player)
        return recall.text(self._shared, seat, self.decisions(seat), self.view(seat))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information state tensor (default: the player to act), where the
        configuration offers one (see the module's notes)."""
        seat = self._seat(player)
        size = recall.tensor_size(self._shared)
        if not size:
            raise ValueError(
                f"{self.get_game().get_type().short_name} under this configuration offers no "
                "information state tensor: it would be longer than "
                f"{recall.TENSOR_LIMIT} entries (use the observation tensor)"
            )
        return recall.listed(self._shared, self.decisions(seat), self.view(seat))

    def _seat(self, player: int | None) -> int:
        seat = self.current_player() if player is None else int(player)
        if not 0 <= seat < self._shared.engine.num_players:
            raise ValueError(
                f"no player {seat}: players are 0 to {self._shared.engine.num_players - 1}"
            )
        return seat

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
        self._core.take(((self.current_player(), int(action)),))

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
        core.take(tuple((seat, int(actions[seat])) for seat in pending))

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


class RacedeckRecallObserver:
    """OpenSpiel's Python observer of a seat's perfect-recall information state: ``tensor`` (named
    ``"info_state"``; ``None`` where the configuration offers no tensor) and the string, as
    :meth:`RacedeckState.information_state_tensor` and ``information_state_string`` give them."""

    def __init__(self, shared: _Shared) -> None:
        self._shared = shared
        size = recall.tensor_size(shared)
        self.tensor: NDArray[np.float32] | None = np.zeros(size, np.float32) if size else None
        self.dict: dict[str, NDArray[np.float32]] = (
            {} if self.tensor is None else {"info_state": self.tensor}
        )

    def set_from(self, state: RacedeckState, player: int) -> None:
        """Write ``player``'s information state of ``state`` into :attr:`tensor` (if any)."""
        if self.tensor is not None:
            recall.encode(self._shared, state.decisions(player), state.view(player), self.tensor)

    def string_from(self, state: RacedeckState, player: int) -> str:
        """``player``'s information state of ``state`` as compact JSON."""
        return recall.text(self._shared, player, state.decisions(player), state.view(player))


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
                defaults = _shared_for((game_id, turn_based, ()))
                engine = defaults.engine
                constant = len(engine.contestant_names()) == engine.num_players
                tensor = recall.tensor_size(defaults) > 0
                game_type = _game_type(game_id, turn_based, constant, tensor)
                pyspiel.register_game(game_type, game_class(game_id, turn_based))
    return tuple(names)


def load(game_id: str, *, turn_based: bool = False, seed: int = 0, **config: Any) -> RacedeckGame:
    """The OpenSpiel game of ``game_id`` under scalar ``config`` options (see the module's
    notes), through ``pyspiel.load_game``."""
    register()
    game: RacedeckGame = pyspiel.load_game(game_name(game_id, turn_based), {**config, SEED: seed})
    return game


register()
