"""Plain words for the events of *Six Day Race*."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.events import Event
from racedeck.games.six_day_race.config import SixDayRaceConfig

__all__ = ["FINAL_TURNS_PLAYED", "HANDS_EMPTY", "describe", "ordinal"]

FINAL_TURNS_PLAYED = "final turns played"
"""A ``race_scored`` event's ``reason`` when the riders behind the line had their last turns
after the first crossed it (SD-9)."""
HANDS_EMPTY = "no rider has cards left"
"""A ``race_scored`` event's ``reason`` when every hand is empty and nobody crossed (SD-9)."""

# Why a race ended, said before its result.
_RACE_ENDED = {
    FINAL_TURNS_PLAYED: "Race over: every rider behind the line has had a last turn. ",
    HANDS_EMPTY: "Race over: every hand is empty and nobody crossed the line. ",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th …"""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _name(names: Sequence[str], i: int) -> str:
    return names[i] if 0 <= i < len(names) else f"rider {i}"


def describe(
    event: Event, riders: Sequence[str], seats: Sequence[str], cfg: SixDayRaceConfig
) -> str:
    """One line for ``event``; ``riders`` names every rider, ``seats`` every player.

    A line about a rider has one verb, right after its name, so that it reads right in the
    second person about a player called "You" ("You cross sprint 1 1st") and in the third
    about that player's riders ("You-1 crosses sprint 1 1st")."""
    d = event.data
    kind = event.kind
    if kind == "race_started":
        order = ", ".join(_name(riders, r) for r in d["order"])
        return f"Race {d['race']} of {cfg.races} starts. Order: {order}."
    if kind == "hands_dealt":
        hands = "; ".join(
            f"{_name(riders, r)}: {' '.join(str(c % 10) for c in cards)}" for r, cards in d["hands"]
        )
        return f"Hand{'s' if len(d['hands']) > 1 else ''} dealt for race {d['race']}: {hands}."
    if kind == "cards_drawn":
        cards = " ".join(str(c % 10) for c in d["cards"])
        return f"{_name(riders, d['rider'])} draws {cards}."
    if kind == "card_played":
        who = _name(riders, d["rider"])
        text = f"{who} plays {d['value']} → lands on {d['first']}"
        if d["riders_there"]:
            k = d["riders_there"]
            text += f" with {k} rider{'s' if k > 1 else ''}"
            if d["special"]:
                place = "FAHRERWECHSEL" if d["first"] == cfg.rider_change else "STURZ"
                text += f" (no slipstream on {place})"
            else:
                text += f" → slipstream ×{d['multiplier']} → {d['to']}"
        return text
    if kind == "sprint":
        return (
            f"{_name(riders, d['rider'])} crosses sprint {d['sprint']} {ordinal(d['place'])}: "
            f"+{d['points']}"
        )
    if kind == "crossed_line":
        if d["place"] == 1:
            return f"{_name(riders, d['rider'])} crosses the line first, winning the race!"
        return f"{_name(riders, d['rider'])} crosses the line {ordinal(d['place'])}."
    if kind == "final_turns":
        return "Every other rider gets exactly one more turn."
    if kind == "rider_change":
        low, high = d["drawn"]
        return (
            f"{_name(riders, d['rider'])} changes riders on FAHRERWECHSEL: "
            f"{d['discarded']} cards discarded, {low} drawn from deck 1-3 and {high} from deck 4-6."
        )
    if kind == "crash":
        return f"{_name(riders, d['rider'])} crashes on STURZ (next turn lost)."
    if kind == "turn_lost":
        return f"{_name(riders, d['rider'])} sits out this turn after the crash."
    if kind == "passed":
        return f"{_name(riders, d['rider'])} passes: no cards left."
    if kind == "deck_refilled":
        return f"Deck {d['deck']} ran out and is reshuffled from its discards."
    if kind == "race_scored":
        parts = []
        for r in sorted(d["riders"], key=lambda r: r["place"]):
            points = sum(r["sprints"])
            finish = r["finish"]
            laps = r["laps"]
            extra = f", {laps} lap{'' if laps == 1 else 's'} lost" if laps else ""
            parts.append(
                f"{r['place']}. {_name(riders, r['rider'])} "
                f"(finish {finish}, sprints {points}{extra})"
            )
        why = _RACE_ENDED.get(str(d.get("reason")), "")
        return f"{why}Race {d['race']} result: " + "; ".join(parts) + "."
    if kind == "game_over":
        won = ", ".join(_name(seats, w) for w in d["winners"])
        standing = ", ".join(
            f"{_name(seats, i)} {lap} lap{'' if lap == 1 else 's'} lost/{score:g} pts"
            for i, (lap, score) in enumerate(zip(d["laps"], d["scores"], strict=True))
        )
        return f"Series over ({standing}). Winner: {won}."
    return f"{kind}: {d}"
