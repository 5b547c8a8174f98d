"""PettingZoo's simultaneous face (``ParallelEnv``) over the engine, for every game.

Each ``step`` takes one action from every agent; the actions of the seats the game waits for
are applied, in the order of ``state.pending``, and the others ignored (their masks are all
zeros). In *Why First?* every seat commits at once (WF-4); in a Setback BLOCK window every
seat asked answers at once (SB-9 amended again: BLOCK or pass, a seat without a BLOCK may only
pass, and the first BLOCKer in seating order after the player answered plays its BLOCK once all
answers are in). When an action changes what the game waits for other than by crossing its
seat off — the last commit resolves the round, the last answer closes the window or plays a
BLOCK that opens the next — the remaining actions of that step are not applied: they answered
a situation that no longer holds, and those agents are asked again. ``step`` takes a dict
from agent to action index; the actions of the agents the game waits for are checked for their
type (:class:`TypeError`) before any is applied.

Observations, action masks, rewards, truncation and illegal actions: see
:mod:`racedeck.rl.session`; an action that is no integer raises :class:`TypeError`
(:mod:`racedeck.rl.checks`). ``render_mode`` ``"human"``, ``"ansi"`` or ``"rgb_array"`` draws the
spectator's table (:mod:`racedeck.rl.rendering`). ``metadata["name"]`` is the game's
(``racedeck_setback_v0`` …, shared by both faces: :func:`racedeck.rl.faces.env_name`);
``state()`` and ``state_space`` give every seat's observation at once, for centralised critics
(:mod:`racedeck.rl.global_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from racedeck.rl.checks import action_index
from racedeck.rl.faces import env_name
from racedeck.rl.global_state import GlobalState
from racedeck.rl.rendering import RENDER_FPS, RENDER_MODES
from racedeck.rl.session import Illegal, Observation, Session

__all__ = ["RacedeckParallel"]

_Step = tuple[
    dict[str, Observation],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


# PettingZoo ships no type information: its base class is Any to the type checker.
class RacedeckParallel(ParallelEnv):  # type: ignore[misc]
    """One racedeck game as a PettingZoo ``ParallelEnv`` (see the module's notes)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance variable with a class default)
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
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

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new game (``seed`` is the engine's seed); every agent's first observation."""
        session = self.session
        session.start(seed)
        self.agents = self.possible_agents[:]
        info = session.info()
        session.display()
        return self._observations(), {a: dict(info) for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> _Step:
        """Apply the actions of the agents the game waits for (see the module's notes)."""
        session = self.session
        if not isinstance(actions, Mapping):
            raise TypeError(
                "actions must be a dict from agent to action index, "
                f"not {type(actions).__name__} {actions!r}"
            )
        if not self.agents:
            raise ValueError("the game is over: call reset() to deal a new one")
        for seat in session.pending:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"no action for {agent}, whom the game waits for")
            action_index(actions[agent], agent)  # every type checked before any is applied
        asked = session.pending
        for seat in asked:
            before = session.pending
            if not session.act(seat, actions[self.possible_agents[seat]]) or session.over:
                break
            if session.pending != tuple(s for s in before if s != seat):
                break
        rewards = dict.fromkeys(self.agents, 0.0)
        if session.terminated:
            for seat, reward in enumerate(session.final_rewards()):
                rewards[self.possible_agents[seat]] = reward
        terminations = dict.fromkeys(self.agents, session.terminated)
        truncations = dict.fromkeys(self.agents, session.truncated)
        info = session.info()
        infos = {a: dict(info) for a in self.agents}
        observations = self._observations()
        if session.over:
            self.agents = []
        session.display()
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Observation]:
        return {a: self.session.observe(self.session.seat_of[a]) for a in self.agents}

    def render(self) -> str | NDArray[np.uint8] | None:
        """The spectator's table in the render mode (:mod:`racedeck.rl.rendering`)."""
        return self.session.render()

    def close(self) -> None:
        """Nothing to release."""
