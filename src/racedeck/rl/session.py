"""One game at a time behind an RL environment: the table, the encodings and the spaces.

Both PettingZoo faces (:mod:`racedeck.rl.aec`, :mod:`racedeck.rl.parallel`) hold a
:class:`Session`. It drives the engine through :class:`~racedeck.core.table.Table` (the checked
path: every action is the rules' own, recorded), turns a seat's view into the observation dict
``{"observation": float32 vector, "action_mask": int8 vector}`` and gives the final rewards.

Agents are named ``player_0`` … ``player_{n-1}`` after the seats; a contestant the engine plays
itself (Leo in two-player *Why First?*, WF-9) is no agent.

Rewards come at the end only: each agent among the winners gets its share of the win
(``1 / number of winners``, Leo counted among them), every other agent 0. An action index that
is not legal for the agent (mask 0) ends the game at once, with reward -1 for that agent and 0
for the others (``illegal="terminate"``, as PettingZoo's classic games do), or raises
:class:`~racedeck.core.errors.IllegalAction` (``illegal="raise"``). An action that is no integer
at all (``3.7``, ``None``) is a mistake in the caller's code, not a move: it raises
:class:`TypeError` (:mod:`racedeck.rl.checks`). A game still going after
``max_actions`` accepted actions (default: the encoding's ``max_game_length``, which no game of the
configuration exceeds) is truncated, with rewards 0.
"""

from __future__ import annotations

import operator
import random
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from racedeck.core.registry import make
from racedeck.core.table import Table
from racedeck.rl.checks import action_index
from racedeck.rl.faces import encoding_for, observer_for
from racedeck.rl.observations.base import HIGH, LOW
from racedeck.rl.rendering import Renderer, checked_render_mode

__all__ = ["ILLEGAL_REWARD", "Illegal", "Observation", "Session"]

ILLEGAL_REWARD = -1.0
"""The reward of an agent whose action index is not legal (``illegal="terminate"``)."""

Illegal = Literal["terminate", "raise"]
"""What an illegal action index does: end the game (``-1`` for its agent) or raise."""

Observation = dict[str, NDArray[Any]]
"""An agent's observation: ``{"observation": float32 vector, "action_mask": int8 vector}``."""


class Session:
    """A game of ``game_id`` under ``config``, played one accepted action at a time."""

    def __init__(
        self,
        game_id: str,
        config: dict[str, Any],
        *,
        illegal: Illegal = "terminate",
        max_actions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = checked_render_mode(render_mode)
        """How :meth:`render` draws the game (:mod:`racedeck.rl.rendering`); ``None``: not."""
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        self.game = make(game_id, **config)
        self._renderer = Renderer(self.game, render_mode) if render_mode is not None else None
        self.encoding = encoding_for(self.game)
        self.observer = observer_for(self.game)
        self.illegal: Illegal = illegal
        self.max_actions = max_actions if max_actions is not None else self.encoding.max_game_length
        if self.max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, got {self.max_actions}")
        n = self.game.num_players
        self.agents: tuple[str, ...] = tuple(f"player_{i}" for i in range(n))
        self.seat_of = {agent: i for i, agent in enumerate(self.agents)}
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, shape=(self.observer.size,), dtype=np.float32),
                "action_mask": spaces.Box(
                    0, 1, shape=(self.encoding.num_distinct_actions,), dtype=np.int8
                ),
            }
        )
        self.action_space = spaces.Discrete(self.encoding.num_distinct_actions)
        self._seeds: random.Random | None = None
        self._table: Table | None = None
        self.illegal_by: int | None = None
        """The seat whose illegal action ended the game, if one did."""

    # -- the game ---------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The table of the game in progress (after :meth:`start`)."""
        if self._table is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._table

    def start(self, seed: int | None) -> None:
        """Deal a new game: ``seed`` is the engine's seed; without one, the next seed of the
        sequence the last given seed started (or of a fresh random sequence)."""
        if seed is not None:
            engine_seed = operator.index(seed)
            self._seeds = random.Random(engine_seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            engine_seed = self._seeds.getrandbits(63)
        self._table = Table(self.game, engine_seed)
        self.illegal_by = None

    @property
    def pending(self) -> tuple[int, ...]:
        """Seats the game waits for (none once it has ended, however)."""
        return () if self.over else self.table.pending

    @property
    def terminated(self) -> bool:
        """True once the game has ended by its rules or by an illegal action."""
        return self.table.is_over or self.illegal_by is not None

    @property
    def truncated(self) -> bool:
        """True when the game was cut at ``max_actions`` before its end."""
        return not self.terminated and self.table.move >= self.max_actions

    @property
    def over(self) -> bool:
        """True when no more actions are taken."""
        # terminated or truncated, each read once: every observation asks.
        table = self.table
        return table.is_over or self.illegal_by is not None or table.move >= self.max_actions

    def observe(self, seat: int) -> Observation:
        """``seat``'s observation dict, from its view alone (the mask all zeros once no more
        actions are taken, also after an illegal action or a truncation)."""
        # The encoding reads the game's part of the view only: its header is not built.
        view = self.game.observe_without_header(self.table.state, seat)
        mask = np.zeros(self.encoding.num_distinct_actions, dtype=np.int8)
        if not self.over:
            mask[self.encoding.indices(view.legal_actions)] = 1
        return {"observation": self.observer.encode(view), "action_mask": mask}

    def action_mask(self, seat: int) -> NDArray[np.int8]:
        """``seat``'s action mask (as in :meth:`observe`), from its legal actions alone."""
        mask = np.zeros(self.encoding.num_distinct_actions, dtype=np.int8)
        if not self.over:
            legal = self.game.legal_actions(self.table.state, seat)
            mask[self.encoding.indices(legal)] = 1
        return mask

    def act(self, seat: int, index: Any) -> bool:
        """Take action ``index`` for ``seat``; False (and the game over) when it is illegal
        under ``illegal="terminate"``; :class:`TypeError` when it is not an integer at all
        (:func:`~racedeck.rl.checks.action_index`)."""
        number = action_index(index, self.agents[seat])
        try:
            action = self.encoding.action(number)
        except ValueError:  # an integer that numbers no action: illegal, like a masked one
            action = None
        legal = self.game.legal_actions(self.table.state, seat)
        if action is None or action not in legal:
            if self.illegal == "raise":
                shown = action if action is not None else index
                raise self.game.illegal(self.table.state, seat, shown)
            self.illegal_by = seat
            return False
        self.table.submit(seat, action)
        return True

    def final_rewards(self) -> list[float]:
        """Each seat's reward for the game just ended (see the module's notes)."""
        n = self.game.num_players
        if self.illegal_by is not None:
            return [ILLEGAL_REWARD if s == self.illegal_by else 0.0 for s in range(n)]
        outcome = self.game.outcome(self.table.state)
        if outcome is None:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if s in outcome.winners else 0.0 for s in range(n)]

    def info(self) -> dict[str, Any]:
        """What every agent's info holds: the move number, and at the end how it ended."""
        out: dict[str, Any] = {"move": self.table.move}
        if self.illegal_by is not None:
            out["illegal_action"] = self.agents[self.illegal_by]
        elif self.table.is_over:
            outcome = self.game.outcome(self.table.state)
            assert outcome is not None
            out["scores"] = outcome.scores
            out["winners"] = tuple(sorted(outcome.winners))
        return out

    def render(self) -> str | NDArray[np.uint8] | None:
        """The spectator's table in the render mode (:mod:`racedeck.rl.rendering`): text for
        ``"ansi"``, an image for ``"rgb_array"``; printed, and ``None``, for ``"human"``;
        ``None`` without a render mode."""
        if self._renderer is None:
            return None
        return self._renderer.render(self.table)

    def display(self) -> None:
        """Print the table in ``"human"`` mode, else nothing: the faces call it after every
        reset and step, since Gymnasium's and PettingZoo's human mode shows the game as it
        goes without ``render()`` being called."""
        if self.render_mode == "human":
            self.render()
