"""Plain words for the events and actions of Setback."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from racedeck.core.events import Event
from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
    action_from_json,
)

__all__ = ["describe", "describe_action"]


def _n(names: Sequence[str], i: int) -> str:
    return names[i] if 0 <= i < len(names) else f"P{i + 1}"


def _where(pos: Any) -> str:
    if isinstance(pos, str):
        return pos
    row, lane = pos
    return "START" if row < 0 else f"row {row + 1} lane {lane + 1}"


def describe_action(action: SetbackAction, names: Sequence[str]) -> str:
    """The action in words, e.g. ``FOE-2 on Ben`` or ``CUT Ann in front of Ben``."""
    if isinstance(action, Play):
        card, kind = action.card.name, action.card.kind
        if kind == "CUT" and action.target >= 0:
            return f"{card}: {_n(names, action.target)} in front of {_n(names, action.other)}"
        if kind == "TRADE" and action.target >= 0:
            return f"{card}: {_n(names, action.target)} ⇄ {_n(names, action.other)}"
        if kind == "REVAMP" and action.mode:
            if action.mode == "remove":
                return f"{card}: remove lane {action.lane + 1}"
            return f"{card}: add a lane on the {action.mode[4:]}"
        text = card
        if action.target >= 0:
            text += f" on {_n(names, action.target)}"
        if action.lane >= 0:
            text += (
                f" → lane {action.lane + 1}"
                if kind == "SHIFT"
                else f" (enter lane {action.lane + 1})"
            )
        if action.target < 0 and action.lane < 0 and kind in ("SHIFT", "TRADE", "CUT", "REVAMP"):
            text += " (no effect)"
        return text
    if isinstance(action, Step):
        if action.lane < 0:
            return f"{_n(names, action.token)} (no lane to choose)"
        return f"{_n(names, action.token)} → lane {action.lane + 1}"
    if isinstance(action, EndHand):
        return "end the Hand Action"
    if isinstance(action, DiscardBlock):
        return "discard a BLOCK (only BLOCKs in hand)"
    if isinstance(action, Block):
        return "BLOCK it"
    if isinstance(action, Pass):
        return "let it stand"
    return str(action)


def describe(event: Event, names: Sequence[str]) -> str:
    """One line for ``event``."""
    d = event.data
    kind = event.kind
    if kind == "game_started":
        return f"{_n(names, d['first'])} goes first; the board has {d['lanes']} lanes."
    if kind == "hand_dealt":
        return f"{_n(names, d['player'])} is dealt {', '.join(d['cards'])}."
    if kind == "cards_received":
        return f"{_n(names, d['player'])} draws {', '.join(d['cards'])}."
    if kind == "window_asked":
        holders = d["holders"]
        return (
            "(for the record: "
            + ("nobody asked holds" if not holders else f"{holders} of those asked hold")
            + " a BLOCK)"
        )
    if kind == "window_answered":
        blocks = d["blocks"]
        if not blocks:
            return "(for the record: every answer was a pass)"
        if blocks == 1:
            return "(for the record: one player answered BLOCK)"
        return (
            f"(for the record: {blocks} players answered BLOCK; the first in seating order plays)"
        )
    if kind == "move_limit":
        return f"The game reaches its limit of {d['moves']} moves: it ends where it stands."
    if kind == "turn_started":
        return f"— {_n(names, d['player'])}'s turn —"
    if kind == "turn_skipped":
        why = "discards the SKIP in front of them" if d["why"] == "skip card" else "stands on SKIP"
        return f"{_n(names, d['player'])} {why} and loses the turn."
    if kind == "declared":
        play = action_from_json(d["play"])
        src = "Board Action" if d["source"] == "board" else "plays"
        text = describe_action(play, names)
        return f"{_n(names, d['player'])} {src}: {text}."
    if kind == "window_opened":
        return "A BLOCK may answer…" if not d["blocks"] else "A BLOCK may answer the BLOCK…"
    if kind == "block_played":
        return f"{_n(names, d['player'])} plays BLOCK!"
    if kind == "window_closed":
        if not d["blocks"]:
            return "Nobody BLOCKs."
        return (
            "The action is cancelled."
            if d["cancelled"]
            else "The BLOCK is blocked: the action stands."
        )
    if kind == "cancelled":
        return f"{_n(names, d['player'])}'s action is cancelled."
    if kind == "token_moved":
        why = {"bumped": " (bumped)"}.get(d["why"], f" ({d['why']})")
        return f"{_n(names, d['player'])}: {_where(d['from'])} → {_where(d['to'])}{why}."
    if kind == "finished":
        if d.get("wins", True):
            return f"{_n(names, d['player'])} reaches FINISH and wins!"
        return f"{_n(names, d['player'])} reaches FINISH as well, too late to win."
    if kind == "no_effect":
        return f"No effect on {_n(names, d['player'])} ({d['why']})."
    if kind == "traded":
        return f"{_n(names, d['a'])} and {_n(names, d['b'])} trade places."
    if kind == "skip_placed":
        return f"A SKIP lies in front of {_n(names, d['player'])}: they lose their next turn."
    if kind == "cards_drawn":
        return f"{_n(names, d['player'])} draws {d['count']}."
    if kind == "discards_reshuffled":
        return f"The discards ({d['cards']} cards) are shuffled into a new draw pile."
    if kind == "row_removed":
        return "Everyone has passed the first row: it is removed and START moves up."
    if kind == "lane_added":
        return f"{_n(names, d['player'])} adds a lane (now lane {d['lane'] + 1})."
    if kind == "lane_removed":
        return f"{_n(names, d['player'])} removes lane {d['lane'] + 1}."
    if kind == "token_placed":
        return f"{_n(names, d['player'])} is placed on {_where(d['to'])}."
    if kind == "block_discarded":
        return f"{_n(names, d['player'])} holds only BLOCKs and discards one."
    if kind == "game_over":
        winners = [_n(names, w) for w in d["winners"]]
        return f"Game over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}."
    return f"{kind}: {d}"
