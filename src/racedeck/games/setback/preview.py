"""What a choice would do, worked out from a view alone: for clients and bots.

Clients must not re-derive rules. What they need to label a choice — where a token would land,
whether a token is protected by the BLOCK it stands on — is computed here once, from the view
(a pure function of it), with the rules engine's own conventions (SB-4, SB-5, SB-9).
"""

from __future__ import annotations

from dataclasses import dataclass

from racedeck.games.setback.view import SetbackView

__all__ = ["Landing", "landing", "protected"]


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a token would end up after moving: ``row`` (0-based) on the board, or ``where``
    ``"START"``/``"FINISH"``; ``moves`` is False when the move has no effect (a minus move on
    START, SB-4)."""

    where: str
    row: int = -1
    moves: bool = True


def protected(view: SetbackView, seat: int) -> bool:
    """True when ``seat``'s token stands on a BLOCK card: others cannot act on it (SB-9)."""
    return view.protected[seat]


def landing(view: SetbackView, seat: int, amount: int, entering: bool = False) -> Landing:
    """Where ``seat``'s token lands when moved by ``amount`` rows (SB-4): only the destination
    counts; past the last row is FINISH, below the first START; a plus move from START (or
    ``entering`` from it) lands on row ``amount``; a minus move on START does nothing."""
    row = view.tokens[seat][0]
    if row < 0 and amount <= 0:
        return Landing("START", moves=False)
    target = amount - 1 if row < 0 or entering else row + amount
    if target >= view.rows:
        return Landing("FINISH", view.rows)
    if target < 0:
        return Landing("START")
    return Landing(f"row {target + 1}", target)
