"""The pictures of the rules pages: real positions, drawn in the page by each game's own renderer.

A rules page (``docs/rules``) asks for a picture with a paragraph that holds nothing but an
image whose address is ``picture:<name>``: ``![A rider in a slipstream](picture:slipstream-x2)``.
:mod:`racedeck.server.rules_page` turns it into a ``<figure>`` whose caption is the image's text
and which carries :func:`picture`'s JSON, and ``static/rules-pictures.js`` draws it with the
game's renderer, as a spectator's board.

Every picture is a :class:`Position`: a game, its options, a seed and the actions played from
the deal, each as its seat and the action's text form (what ``racedeck play`` reads), listed
by each game's ``web`` face (``PICTURES``) so that a picture is the same every time and a new
game's pictures touch no shared file. They are played on the real engine through
:class:`~racedeck.core.table.Table`, and the view and events are the ones the server sends a
spectator (:func:`~racedeck.server.live.view_json`, :func:`~racedeck.server.live.history_json`):
no hand, no secret. Each position also says what it shows (:attr:`Position.claim`) and checks
it (:attr:`Position.holds`), so a change of the rules that moves a picture fails when the page
is built instead of showing something its caption does not say.
"""

from __future__ import annotations

import json
import re
from functools import cache

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import available_games, get_spec, make
from racedeck.core.table import Table
from racedeck.plugins import plugin
from racedeck.server.live import history_json, view_json
from racedeck.server.positions import Position

__all__ = [
    "MARKER",
    "POSITIONS",
    "Position",
    "UnknownPicture",
    "picture",
    "picture_script",
    "play",
]

MARKER = re.compile(r"^picture:([a-z0-9]+(?:-[a-z0-9]+)*)$")
"""An image address that asks for a picture: ``picture:<name>``."""


class UnknownPicture(LookupError):
    """A page asks for a picture there is no position for (or whose position does not show
    what it claims); the message names the pictures there are."""


def _names(players: int) -> list[str]:
    """The seats as the server names seats nobody named (the client words them per language)."""
    return [f"Player {i + 1}" for i in range(players)]


def play(position: Position) -> tuple[Table, tuple[Event, ...]]:
    """Play ``position`` on the engine: its table and the last action's events. Raises
    :class:`ValueError` (an illegal or unreadable action names its place in the list)."""
    game = make(position.game, **position.config)
    table = Table(game, position.seed)
    events: tuple[Event, ...] = table.initial_events
    for i, move in enumerate(position.moves):
        seat_text, _, text = move.partition(":")
        try:
            seat = int(seat_text)
            action = game.parse_action(text, table.view(seat))
            events = table.submit(seat, action).events
        except ValueError as exc:
            raise ValueError(f"{position.game} move {i} ({move!r}) does not play: {exc}") from exc
    return table, events


# -- the positions: each game's own, in its web face ------------------------------------------


def _positions() -> dict[str, Position]:
    """Every game's pictures (``PICTURES`` of its ``web`` face), by name."""
    out: dict[str, Position] = {}
    for game_id in available_games():
        if "web" not in get_spec(game_id).plugins:
            continue
        for name, position in getattr(plugin(game_id, "web"), "PICTURES", {}).items():
            if name in out:
                raise ValueError(f"two games name a picture {name!r}")
            out[name] = position
    return out


POSITIONS: dict[str, Position] = _positions()
"""Every picture a rules page may ask for, by name."""


@cache
def picture(name: str) -> JSONObject:
    """The picture ``name`` as the page embeds it: ``game``, ``config``, ``seats`` (names), the
    spectators' ``view`` and their ``events`` since the deal, as the server sends them.
    Raises :class:`UnknownPicture` for a name without a position, or a position that no longer
    shows what it claims."""
    position = POSITIONS.get(name)
    if position is None:
        raise UnknownPicture(
            f"no picture {name!r}; there are pictures {', '.join(sorted(POSITIONS))}"
        )
    table, events = play(position)
    if not position.holds(table, events):
        raise UnknownPicture(f"picture {name!r} no longer shows what it claims: {position.claim}")
    names = _names(table.game.num_players)
    return {
        "name": name,
        "game": position.game,
        "config": table.game.config.to_json(),
        "seats": list(names),
        "view": view_json(table, None, names),
        "events": history_json(table, None, names),
    }


_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "`": "\\u0060"}


def picture_script(name: str) -> str:
    """:func:`picture` as JSON text safe inside ``<script type="application/json">``: no
    ``<``, ``>``, ``&`` (nothing can close the element) and no backquote."""
    text = json.dumps(picture(name), ensure_ascii=False, separators=(",", ":"))
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return re.sub(r"[<>&`]", lambda m: _UNSAFE[m.group(0)], text)
