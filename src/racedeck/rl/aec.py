"""PettingZoo's turn-by-turn face (``AECEnv``) over the engine, for every game.

``agent_selection`` is always the first seat the game waits for (``state.pending``): the one
on turn, the next seat still to commit in *Why First?* (commits stay hidden until all are in,
WF-4), or the next seat asked in a Setback BLOCK window. A window asks everyone who could
answer, BLOCK in hand or not, in the public order of the turn (SB-9 amended); a seat without a
BLOCK still gets its turn, with a mask that allows only ``pass``, so the order in which agents
are selected is the same whoever holds a BLOCK and tells nothing about the hands. The answers
are simultaneous and concealed like commits (SB-9 amended again): a BLOCK answered is played
only once every agent asked has answered, so no agent's observation says how those selected
before it answered.

Observations, action masks, rewards, truncation and illegal actions: see
:mod:`racedeck.rl.session`; an action that is no integer raises :class:`TypeError`
(:mod:`racedeck.rl.checks`). ``render_mode`` ``"human"``, ``"ansi"`` or ``"rgb_array"`` draws the
spectator's table (:mod:`racedeck.rl.rendering`). ``metadata["name"]`` is the game's
(``racedeck_setback_v0`` …, shared by both faces: :func:`racedeck.rl.faces.env_name`);
``state()`` and ``state_space`` give every seat's observation at once, for centralised critics
(:mod:`racedeck.rl.global_state`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from racedeck.rl.faces import env_name
from racedeck.rl.global_state import GlobalState
from racedeck.rl.rendering import RENDER_FPS, RENDER_MODES
from racedeck.rl.session import Illegal, Observation, Session

__all__ = ["RacedeckAEC"]


# PettingZoo ships no type information: its base class is Any to the type checker.
class RacedeckAEC(AECEnv):  # type: ignore[misc]
    """One racedeck game as a PettingZoo ``AECEnv`` (see the module's notes)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance variable with a class default)
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }
    """What every game's environment shares; each instance's own copy adds ``"name"``, one per
    game (:func:`~racedeck.rl.faces.env_name`)."""

    def __init__(
        self,
        game_id: str,
        *,
        render_mode: str | None = None,
        illegal: Illegal = "terminate",
        max_actions: int | None = None,
        **config: Any,
    ) -> None:
        super().__init__()
        self.session = Session(
            game_id, config, illegal=illegal, max_actions=max_actions, render_mode=render_mode
        )
        self.render_mode = self.session.render_mode
        self.metadata = {**self.metadata, "name": env_name(game_id)}
        self._state = GlobalState(self.session)
        self.state_space: spaces.Box = self._state.space
        """The ``Box`` of :meth:`state` (:mod:`racedeck.rl.global_state`)."""
        self.possible_agents: list[str] = list(self.session.agents)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same for every agent: a float32 vector and an int8 action mask."""
        return self.session.observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """The same for every agent: the game's action encoding."""
        return self.session.action_space

    def state(self) -> NDArray[np.float32]:
        """The global state for a centralised critic: every seat's observation vector, in
        seat order (:mod:`racedeck.rl.global_state`); never part of an agent's observation."""
        return self._state.encode()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` is the engine's seed."""
        session = self.session
        session.start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: session.info() for agent in self.agents}
        self._select()
        session.display()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation, from its seat's view."""
        return self.session.observe(self.session.seat_of[agent])

    def step(self, action: Any) -> None:
        """Take ``action`` (an index of the encoding) for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        session.act(session.seat_of[agent], action)
        if session.over:
            if session.terminated:
                for seat, reward in enumerate(session.final_rewards()):
                    self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, session.terminated)
            self.truncations = dict.fromkeys(self.agents, session.truncated)
        info = session.info()
        self.infos = {a: dict(info) for a in self.agents}
        self._select()
        self._accumulate_rewards()
        session.display()

    def _select(self) -> None:
        pending = self.session.pending
        self.agent_selection = self.possible_agents[pending[0]] if pending else self.agents[0]

    def render(self) -> str | NDArray[np.uint8] | None:
        """The spectator's table in the render mode (:mod:`racedeck.rl.rendering`)."""
        return self.session.render()

    def close(self) -> None:
        """Nothing to release."""
