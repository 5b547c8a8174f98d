"""Errors raised on purpose, each with a stable machine-readable ``code``.

Codes are part of the public contract (clients switch on them; ``docs/protocol.md`` lists
them); messages are for people and may improve.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AuthError",
    "GameOver",
    "IllegalAction",
    "InvalidConfig",
    "InvalidMessage",
    "InvalidRecord",
    "NotYourTurn",
    "RacedeckError",
    "StaleMove",
]


class RacedeckError(Exception):
    """Base class of the errors racedeck raises on purpose; ``code`` is stable."""

    code: str = "error"


class IllegalAction(RacedeckError, ValueError):
    """An action that the rules do not allow in the current situation (``action/illegal``).

    The message names the action, what was wrong and the legal options, so a person or a
    client can correct the input without guessing. Subclasses narrow the code:
    :class:`NotYourTurn` and :class:`GameOver`.
    """

    code = "action/illegal"

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


class NotYourTurn(IllegalAction):
    """The seat is not among those the game waits for (``action/not-your-turn``)."""

    code = "action/not-your-turn"


class GameOver(IllegalAction):
    """The game has ended; nothing more can be played (``action/game-over``)."""

    code = "action/game-over"


class StaleMove(RacedeckError, ValueError):
    """A message answers an older move number than the table's (``action/stale``)."""

    code = "action/stale"

    def __init__(self, given: int, current: int) -> None:
        self.given = given
        self.current = current
        super().__init__(
            f"stale action: it answers move {given}, the table is at move {current}; "
            "look at the new view and choose again"
        )


class InvalidConfig(RacedeckError, ValueError):
    """A game configuration that cannot be played (``config/invalid``): names the option,
    the value and what is allowed."""

    code = "config/invalid"

    def __init__(self, message: str, option: str | None = None) -> None:
        self.option = option
        super().__init__(message)


class InvalidRecord(RacedeckError, ValueError):
    """A game record that is malformed or does not replay (``record/invalid``)."""

    code = "record/invalid"


class InvalidMessage(RacedeckError, ValueError):
    """A malformed message or action form from outside (``message/invalid``)."""

    code = "message/invalid"


class AuthError(RacedeckError):
    """A missing, unknown or foreign seat token (``auth/invalid``)."""

    code = "auth/invalid"
