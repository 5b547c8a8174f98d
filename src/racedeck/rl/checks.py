"""What the faces check of the actions they are given before the rules see them: the type.

An action is an index of the game's action encoding: a Python ``int`` or a NumPy integer (a
0-d integer array too, as Gymnasium's ``Discrete`` accepts). Anything else — ``3.7``,
``None``, ``True``, a string — is a mistake in the caller's code rather than a move, so it
raises :class:`TypeError` instead of counting as an illegal action; an integer that is not a
legal index keeps the face's documented illegal-action behaviour.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["action_index"]

EXPECTED = "an action index (an int or a NumPy integer)"


def action_index(value: Any, agent: str | None = None) -> int:
    """``value`` as a Python ``int``; :class:`TypeError` naming what was given (and, with
    ``agent``, whose action it was) when it is not an integer."""
    if type(value) is int:  # the common case first: no NumPy call on the hot path
        return value
    if isinstance(value, np.integer) or (
        isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu"
    ):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):  # an int subclass (IntEnum …)
        return int(value)
    whose = f" for {agent}" if agent is not None else ""
    raise TypeError(f"the action{whose} must be {EXPECTED}, not {type(value).__name__} {value!r}")
