"""racedeck's bots as OpenSpiel policies of a small configuration, and how far each is from
an equilibrium.

A bot plays from its seat's view only: :class:`BotPolicy` asks it for an action at each
information state it meets (a new bot from a fixed seed each time, so the same view always
gets the same answer; each seat its own seed, as the bots of a table have) and puts
probability 1 on that action; ``random`` is the uniform policy
over the legal actions, exactly.

The number measured is OpenSpiel's NashConv of the profile where every seat plays the bot:
the sum over seats of what that seat would gain, in expected win share, by switching alone
to a best response against the others' bot. It is 0 exactly at a Nash equilibrium.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import exploitability

from racedeck.bots.registry import make_bot
from racedeck.rl.solvable.game import SolvableGame, SolvableState

__all__ = ["BotPolicy", "Gap", "gap"]


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """Every seat plays racedeck bot ``name`` (seeded with ``seed``) from its view."""

    def __init__(self, game: SolvableGame, name: str, seed: int = 0) -> None:
        engine = game.engine
        super().__init__(game, list(range(engine.num_players)))
        self.name = name
        """The bot's registry name (``random``, ``heuristic``, ``search@200`` …)."""
        self.seed = seed
        """The seed of seat 0's bots; seat ``i``'s are made with ``seed + i``."""
        self._engine = engine
        self._encoding = game.encoding
        self._known: dict[tuple[int, str], dict[int, float]] = {}
        # Made now, so that a bot this configuration cannot have fails here, not mid-walk.
        make_bot(name, engine, 0, seed)

    def action_probabilities(
        self, state: SolvableState, player_id: int | None = None
    ) -> dict[int, float]:
        """The bot's action at ``state`` with probability 1 (``random``: uniform)."""
        seat = state.current_player() if player_id is None else int(player_id)
        key = (seat, state.information_state_string(seat))
        known = self._known.get(key)
        if known is None:
            legal = state.legal_actions(seat)
            if self.name == "random":
                known = {a: 1.0 / len(legal) for a in legal}
            else:
                bot = make_bot(self.name, self._engine, seat, self.seed + seat)
                chosen = self._encoding.index(bot.act(state.view(seat)))
                known = {a: float(a == chosen) for a in legal}
            self._known[key] = known
        return known


@dataclass(frozen=True)
class Gap:
    """How far a joint policy is from an equilibrium."""

    nash_conv: float
    """The sum over seats of what each gains by a best response alone."""
    improvements: tuple[float, ...]
    """Each seat's gain by a best response against the others."""


def gap(game: SolvableGame, joint: Any) -> Gap:
    """NashConv of ``joint`` (an OpenSpiel policy for every seat) on ``game``, exactly."""
    found = exploitability.nash_conv(game, joint, return_only_nash_conv=False)
    return Gap(float(found.nash_conv), tuple(float(x) for x in found.player_improvements))
