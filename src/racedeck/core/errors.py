"""Errors raised by the rules engines."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["IllegalAction", "RacedeckError"]


class RacedeckError(Exception):
    """Base class of the errors racedeck raises on purpose."""


class IllegalAction(RacedeckError, ValueError):
    """An action that the rules do not allow in the current situation.

    The message names the action, what was wrong and the legal options, so a person or a
    client can correct the input without guessing.
    """

    def __init__(
        self,
        reason: str,
        *,
        action: object = None,
        seat: int | None = None,
        legal: Sequence[object] = (),
        situation: str = "",
    ) -> None:
        self.reason = reason
        self.action = action
        self.seat = seat
        self.legal = tuple(legal)
        self.situation = situation
        parts = []
        who = f"seat {seat}" if seat is not None else "a player"
        if action is not None:
            parts.append(f"illegal action {action!s} by {who}: {reason}")
        else:
            parts.append(f"illegal input from {who}: {reason}")
        if situation:
            parts.append(f"({situation})")
        if self.legal:
            shown = ", ".join(str(a) for a in self.legal[:40])
            more = f" … and {len(self.legal) - 40} more" if len(self.legal) > 40 else ""
            parts.append(f"legal: {shown}{more}")
        else:
            parts.append("no action is legal for this seat now")
        super().__init__(" ".join(parts))
