"""The PettingZoo faces' global state, for centralised critics (MAPPO, QMIX …).

``env.state()`` is every seat's observation vector (:mod:`racedeck.rl.observations`),
concatenated in seat order: ``num_players × observation size`` float32 entries between -1 and 1,
``env.state_space`` their ``Box``. It therefore holds every seat's private information — every
hand, every concealed commit (WF-4) and BLOCK answer (SB-9) — but nothing hidden from all seats
(the order of a draw pile, the cards of Leo, WF-9, that no seat sees): a critic conditions on
what the players know between them, not on the future of the deal.

It is for training only. No agent's ``observe()`` ever includes it, and a policy that acts
from it would be reading the others' hands.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from racedeck.rl.observations.base import HIGH, LOW
from racedeck.rl.session import Session

__all__ = ["GlobalState"]


class GlobalState:
    """Encodes the global state of a :class:`~racedeck.rl.session.Session`'s game."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seats = session.game.num_players
        size = self.seats * session.observer.size
        self.space = spaces.Box(LOW, HIGH, shape=(size,), dtype=np.float32)
        """The ``Box`` of every state: ``num_players × observation size`` entries."""

    def encode(self) -> NDArray[np.float32]:
        """The state of the game now: each seat's view encoded, in seat order."""
        table = self.session.table
        encode = self.session.observer.encode
        return np.concatenate([encode(table.view(seat)) for seat in range(self.seats)]).astype(
            np.float32, copy=False
        )
