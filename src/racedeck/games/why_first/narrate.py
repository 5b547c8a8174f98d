"""Plain words for the events and actions of *Why First?*."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard, WhyFirstAction

__all__ = ["describe", "describe_action"]


def _name(names: Sequence[str], i: int) -> str:
    return names[i] if 0 <= i < len(names) else f"figure {i}"


def describe(event: Event, names: Sequence[str]) -> str:
    """One line for ``event``; ``names`` holds every figure's name (Leo last when present)."""
    d = event.data
    kind = event.kind
    if kind == "stage_started":
        return f"Stage {d['stage']} begins: all figures on the start space, new hands dealt."
    if kind == "hand_dealt":
        cards = d.get("cards")
        if cards is not None:
            shown = " ".join(f"{v:+d}(#{c})" for c, v in zip(cards, d["values"], strict=True))
        else:
            shown = " ".join(f"{v:+d}" for v in d["values"])
        return f"{_name(names, d['seat'])}'s hand for stage {d['stage']}: {shown}."
    if kind == "card_committed":
        return f"{_name(names, d['seat'])} has chosen a card."
    if kind == "card_chosen":
        who = _name(names, d["seat"])
        if "card" in d:
            return f"{who}'s card, face down: #{d['card']} ({d['value']:+d})."
        return f"{who}'s card, face down: {d['value']:+d} in front of {_name(names, d['target'])}."
    if kind == "last_round_automatic":
        return f"Round {d['round']}: everyone's last card is played automatically."
    if kind == "cards_revealed":
        parts = []
        for c in d["cards"]:
            where = f" in front of {_name(names, c['target'])}" if c["target"] >= 0 else ""
            number = f" (#{c['card']})" if "card" in c else ""  # tactical only (WF-10)
            parts.append(f"{_name(names, c['by'])} {c['value']:+d}{number}{where}")
        return f"Round {d['round']} revealed: " + "; ".join(parts) + "."
    if kind == "figure_moved":
        who = _name(names, d["figure"])
        cards = " ".join(f"{v:+d}" for v in d["values"])
        by = f"{_name(names, d['by'])} moves {who}" if "by" in d else who
        clamp = " (stopped at the end of the track)" if d["clamped"] else ""
        return f"{by}: {cards} = {d['net']:+d}, {d['from']} → {d['to']}{clamp}."
    if kind == "stage_scored":
        if d["space"] is None:
            return f"Stage {d['stage']} scored: all figures share one space, nobody scores."
        who = ", ".join(_name(names, f) for f in d["scorers"])
        return (
            f"Stage {d['stage']} scored: second farthest space is {d['space']}; "
            f"{who} score{'s' if len(d['scorers']) == 1 else ''} {d['space']:+d}."
        )
    if kind == "game_over":
        won = ", ".join(_name(names, w) for w in d["winners"])
        totals = ", ".join(f"{_name(names, i)} {t:g}" for i, t in enumerate(d["scores"]))
        return f"Game over ({totals}). Second-highest total wins: {won}."
    return f"{kind}: {d}"


def describe_action(action: WhyFirstAction, names: Sequence[str], values: Sequence[int]) -> str:
    """The action in words, e.g. ``+3 in front of Ben``."""
    if isinstance(action, PlaceCard):
        return f"{action.value:+d} in front of {_name(names, action.target)}"
    if isinstance(action, CommitCard):
        return f"commit #{action.card} ({values[action.card - 1]:+d})"
    if isinstance(action, MoveFigure):
        return f"move {_name(names, action.target)}"
    return str(action)
