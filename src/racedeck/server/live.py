"""A game in progress at a server table as the service sends it out.

:func:`views_json` (:func:`view_json` for one audience) and :func:`events_json` are the only
places a view or an event becomes JSON for the wire: every view's header names the seats as the
people chose, every event gets its words.
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
    "views_json",
]

log = logging.getLogger("racedeck.server")


def view_json(table: Table, seat: int | None, names: Sequence[str]) -> JSONObject:
    """``seat``'s view as sent: the game's JSON, its header naming the seats as people chose."""
    return views_json(table, (seat,), names)[seat]


def views_json(
    table: Table, audiences: Iterable[int | None], names: Sequence[str]
) -> dict[int | None, JSONObject]:
    """The views of several audiences as sent, :func:`view_json` of each: the game makes the
    public part once (:meth:`~racedeck.core.game.Game.views_json`), and it is named once.

    The views share every value under their headers and under themselves: they are only read
    after this (by the encoder, and by the frame observers of the tests).
    """
    views = table.game.views_json(table.state, audiences)
    named: JSONObject | None = None
    for view in views.values():
        header = view["header"]
        if named is None:
            named = _named(header, table.game.seat_names(), names)
        # Every header of one state is the same but for its seat (Game.views_json).
        view["header"] = {**named, "seat": header["seat"]}
    return views


def _named(header: JSONObject, defaults: Sequence[str], names: Sequence[str]) -> JSONObject:
    """A copy of ``header`` naming the seats ``names`` rather than the game's ``defaults``
    (what it holds is not changed: other views may hold it too)."""
    out = dict(header)
    out["waiting"] = _with_names(str(header.get("waiting", "")), defaults, names)
    out["seat_names"] = list(names)
    score_names = list(header.get("score_names", []))
    out["score_names"] = list(names) + score_names[len(names) :]
    outcome = header.get("outcome")
    if isinstance(outcome, dict):
        # The standings name the people too (contestants the engine plays, Leo, keep theirs).
        engine_names = list(outcome.get("names", []))
        outcome = {**outcome, "names": list(names) + engine_names[len(names) :]}
        out["outcome"] = outcome
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
