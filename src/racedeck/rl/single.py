"""Gymnasium's single-agent face: one learning seat against bots, over the engine.

A :class:`RacedeckGym` plays one game of the engine through :class:`~racedeck.core.table.Table`
(every action checked by the rules and recorded) and :func:`~racedeck.core.table.run`, the
driver every face shares: the other seats are bots from :func:`racedeck.bots.registry.make_bot`
(``"heuristic"``, ``"random"``, ``"search@N"`` …), each given its own seat's view only, and the
environment hands control back whenever the game waits for the learner.

- **Observation**: the learner's view as the game's float32 vector
  (:mod:`racedeck.rl.observations`), a ``Box`` of the configuration's size.
- **Action mask**: ``info["action_mask"]`` (``int8``, one entry per action index, 1 where the
  action is legal now; all zeros once the episode is over) and the method
  :meth:`RacedeckGym.action_masks` (``bool``), which is where sb3-contrib's ``MaskablePPO``
  looks. The mask stays out of the observation so a policy network does not take it as input;
  the PettingZoo faces (:func:`racedeck.rl.env`) give ``{"observation", "action_mask"}`` dicts.
- **Action**: an index of the game's action encoding (``Discrete``). An index outside the mask
  ends the episode with reward -1 (``illegal="terminate"``) or raises
  :class:`~racedeck.core.errors.IllegalAction` (``illegal="raise"``).
- **Reward**: at the end only: the learner's share of the win (``1 / number of winners`` when it
  is among them, Leo counted, WF-9), else 0; every step before the last gives 0.
- **terminated**: the game ended by its rules (or by an illegal index). **truncated**: the game
  was still going when the learner was asked after ``max_actions`` accepted actions, all seats
  counted (default: the encoding's ``max_game_length``, which no game of the configuration
  exceeds, so it happens only with a smaller ``max_actions``).
- **Seeding**: ``reset(seed=s)`` seeds ``np_random``, from which each episode draws the engine's
  seed, the bots' seeds and (``learner_seat="random"``) the learner's seat; so a seed fixes a
  whole sequence of episodes, given the same actions.
- **Games the learner has no say in**: a game can end before the learner is asked anything
  (in Setback, bots may finish while every decision of the learner's seat was forced, such as
  the pass of a seat without a BLOCK, SB-9). Gymnasium's ``reset`` cannot return an ended
  episode, so it deals the next game instead (from the same ``np_random``); the episodes are
  the games in which the learner decides at least once.

``info`` holds ``move`` (accepted actions so far), ``learner_seat``, ``action_mask`` and, once
the game has ended by its rules, ``scores`` and ``winners``. ``render_mode`` ``"human"``,
``"ansi"`` or ``"rgb_array"`` draws the spectator's table, never the learner's hand
(:mod:`racedeck.rl.rendering`). An action that is no integer (``3.7``, ``None``) raises
:class:`TypeError`. The ids ``racedeck/<Title>-v0`` are registered with Gymnasium by
:mod:`racedeck.rl.registration`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from racedeck.bots.base import Bot
from racedeck.bots.policy import Policy, PolicyBot, is_policy
from racedeck.bots.registry import make_bot
from racedeck.core.table import run
from racedeck.rl.rendering import RENDER_FPS, RENDER_MODES
from racedeck.rl.session import Illegal, Session

__all__ = ["LearnerSeat", "Opponent", "RacedeckGym", "checked_seat"]

LearnerSeat = int | Literal["random"]
"""The learner's seat: a fixed seat number, or ``"random"`` (drawn anew for each episode)."""

Opponent = str | Policy
"""Who plays another seat: a bot's name (``"heuristic"``, ``"search@200"`` …) or a policy
(:mod:`racedeck.bots.policy`: ``policy(observations, masks) -> actions``)."""


def _opponent(opponent: Opponent, game: Any, seat: int, seed: int) -> Bot:
    """The bot of a seat: the named bot, or the policy playing as one."""
    if isinstance(opponent, str):
        return make_bot(opponent, game, seat, seed)
    return PolicyBot(game, seat, seed, opponent)


def checked_seat(learner_seat: object, players: int) -> LearnerSeat:
    """``learner_seat`` when it is a seat of ``players`` or ``"random"``; else a
    :class:`ValueError` saying what it may be."""
    if learner_seat == "random":
        return "random"
    if not isinstance(learner_seat, int) or isinstance(learner_seat, bool):
        learner_seat = None
    if learner_seat is None or not 0 <= learner_seat < players:
        raise ValueError(
            f"learner_seat must be a seat from 0 to {players - 1} or 'random', not {learner_seat!r}"
        )
    return learner_seat


_SEED_BOUND = 2**63
"""Engine and bot seeds are drawn below this bound."""

MAX_DEALS = 100
"""How many games :meth:`RacedeckGym.reset` deals, at most, to find one that asks the learner."""


class RacedeckGym(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One racedeck game as a Gymnasium environment: one learner, bots in the other seats.

    ``game_id`` and the keyword options of the game's configuration (``players=4``,
    ``variant="tactical"`` …) choose the game; ``opponents`` names the bot of every other seat
    or gives a policy for it (:mod:`racedeck.bots.policy`; one, or one per other seat in seat
    order); ``learner_seat`` is the learner's seat or
    ``"random"``. See the module's notes for observations, masks, rewards and seeding.
    """

    # Gymnasium's checker wants a frame rate for every render mode, text too (as its Taxi has).
    # Gymnasium declares ``metadata`` an instance variable with a class-level default.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        *,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        learner_seat: LearnerSeat = 0,
        render_mode: str | None = None,
        illegal: Illegal = "terminate",
        max_actions: int | None = None,
        **config: Any,
    ) -> None:
        self.session = Session(
            game_id, config, illegal=illegal, max_actions=max_actions, render_mode=render_mode
        )
        self.render_mode = self.session.render_mode
        game = self.session.game
        n = game.num_players
        self.learner_seat: LearnerSeat = checked_seat(learner_seat, n)
        names: list[Opponent] = (
            [opponents] * (n - 1)  # type: ignore[list-item]
            if isinstance(opponents, str) or is_policy(opponents)
            else list(opponents)  # type: ignore[arg-type]
        )
        if len(names) != n - 1:
            raise ValueError(
                f"{n} seats leave {n - 1} for bots: give one bot name or policy, or {n - 1}, "
                f"got {len(names)}"
            )
        for name in names:
            if isinstance(name, str):
                make_bot(name, game, 0, 0)  # an unknown name fails here, naming the known ones
            elif not is_policy(name):
                raise TypeError(f"an opponent is a bot's name or a policy, not {name!r}")
        self.opponents: tuple[Opponent, ...] = tuple(names)
        box = self.session.observation_space["observation"]
        assert isinstance(box, spaces.Box)
        self.observation_space = box
        self.action_space = self.session.action_space
        self.seat = learner_seat if isinstance(learner_seat, int) else 0
        """The learner's seat in the current episode."""
        self.bots: list[Bot | None] = []
        """The player of every seat in the current episode: a bot, or ``None`` for the learner."""

    # -- Gymnasium's API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play the bots until the learner is asked (see the module's
        notes on seeding and on games that end before the learner has a decision)."""
        super().reset(seed=seed)
        for _ in range(MAX_DEALS):
            self._deal()
            if not self.session.over:
                self.session.display()
                return self._outputs()
        raise RuntimeError(
            f"none of {MAX_DEALS} games dealt asked the learner anything before it ended "
            f"or reached max_actions={self.session.max_actions}"
        )

    def step(
        self, action: np.int64 | int
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Take the learner's ``action`` (an index of the encoding), then play the bots until
        the learner is asked again or the game is over."""
        session = self.session
        if not self.bots:
            raise RuntimeError("no game yet: call reset() first")
        if session.over:
            raise RuntimeError("the episode is over: call reset() to deal a new game")
        if session.act(self.seat, action) and not session.over:
            self._play_bots()
        reward = session.final_rewards()[self.seat] if session.terminated else 0.0
        observation, info = self._outputs()
        session.display()
        return observation, reward, session.terminated, session.truncated, info

    def action_masks(self) -> NDArray[np.bool_]:
        """Which action indices are legal for the learner now (sb3-contrib's mask protocol)."""
        return self.session.action_mask(self.seat).astype(bool)

    def render(self) -> str | NDArray[np.uint8] | None:
        """The spectator's table in the render mode (:mod:`racedeck.rl.rendering`)."""
        return self.session.render()

    # -- inside ------------------------------------------------------------------------------

    def _deal(self) -> None:
        """Start a game from ``np_random``: the learner's seat, the bots, the engine's deal;
        then play the bots until the learner is asked."""
        rng = self.np_random
        game = self.session.game
        n = game.num_players
        if self.learner_seat == "random":
            self.seat = int(rng.integers(n))
        engine_seed = int(rng.integers(_SEED_BOUND))
        bot_seeds = [int(s) for s in rng.integers(_SEED_BOUND, size=n)]
        names = iter(self.opponents)
        self.bots = [
            None if s == self.seat else _opponent(next(names), game, s, bot_seeds[s])
            for s in range(n)
        ]
        self.session.start(engine_seed)
        self._play_bots()

    def _play_bots(self) -> None:
        """Let the shared driver ask the bots (and take forced decisions) until the game waits
        for the learner or ends."""
        session = self.session
        if not session.over:
            run(session.table, self.bots)

    def _outputs(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """The learner's observation (from its view) and the info dict."""
        observed = self.session.observe(self.seat)
        info = self.session.info()
        info["learner_seat"] = self.seat
        info["action_mask"] = observed["action_mask"]
        return observed["observation"], info
