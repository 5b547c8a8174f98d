"""A game in progress at a server table as the service sends it out.

:func:`view_json` and :func:`events_json` are the only places a view or an event becomes
JSON for the wire: every view's header names the seats as the people chose, every event gets
its words.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from typing import Any

from racedeck.core.events import Event, feed
from racedeck.core.jsontypes import JSONObject
from racedeck.core.table import Table

__all__ = [
    "events_json",
    "history_json",
    "public_summary",
    "view_json",
]

log = logging.getLogger("racedeck.server")


def view_json(table: Table, seat: int | None, names: Sequence[str]) -> JSONObject:
    """``seat``'s view as sent: the game's JSON, its header naming the seats as people chose."""
    out: JSONObject = table.view(seat).to_json()
    header = out["header"]
    header["waiting"] = _with_names(str(header.get("waiting", "")), table.game.seat_names(), names)
    header["seat_names"] = list(names)
    score_names = list(header.get("score_names", []))
    header["score_names"] = list(names) + score_names[len(names) :]
    outcome = header.get("outcome")
    if isinstance(outcome, dict):
        # The standings name the people too (contestants the engine plays, Leo, keep theirs).
        engine_names = list(outcome.get("names", []))
        outcome["names"] = list(names) + engine_names[len(names) :]
    out["header"] = header
    return out


def _with_names(text: str, defaults: Sequence[str], names: Sequence[str]) -> str:
    """``text`` with the game's default seat names (``P1`` …) replaced by the people's."""
    if not text:
        return text
    renamer = _renamer(tuple(defaults), tuple(names))
    return renamer(text) if renamer is not None else text


@lru_cache(maxsize=1024)
def _renamer(defaults: tuple[str, ...], names: tuple[str, ...]) -> Callable[[str], str] | None:
    # One pattern per table's names, not one per view: every seat's view is renamed per move.
    table = {d: n for d, n in zip(defaults, names, strict=False) if d != n}
    if not table:
        return None
    pattern = re.compile(r"\b(" + "|".join(re.escape(d) for d in table) + r")\b")
    return partial(pattern.sub, lambda m: table[m.group(1)])


def events_json(
    table: Table, events: Iterable[Event], seat: int | None, names: Sequence[str]
) -> list[JSONObject]:
    """The events ``seat`` may see (``None``: spectators), each with the game's own words."""
    game = table.game
    out = []
    for event in feed(events, seat):
        obj = event.to_json()
        try:
            obj["text"] = game.describe_event(event, list(names))
        except Exception:
            # Words are a courtesy; a game that cannot word an event must not stop the table.
            log.exception("%s cannot describe event %r", game.spec.id, event)
            obj["text"] = event.kind.replace("_", " ")
        out.append(obj)
    return out


def history_json(table: Table, seat: int | None, names: Sequence[str]) -> list[JSONObject]:
    """Everything ``seat`` may have seen of the current game so far (for a welcome)."""
    out: list[JSONObject] = []
    for _move, events in table.history:
        out.extend(events_json(table, events, seat, names))
    return out


def public_summary(config: JSONObject, defaults: dict[str, Any]) -> str:
    """The options that differ from the defaults, in a few words (for the lobby)."""
    parts = [
        f"{k}={v}"
        for k, v in config.items()
        if k != "players" and k in defaults and defaults[k] != v
    ]
    return ", ".join(parts)
