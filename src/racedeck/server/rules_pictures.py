"""The pictures of the rules pages: real positions, drawn in the page by each game's own renderer.

A rules page (``docs/rules``) asks for a picture with a paragraph that holds nothing but an
image whose address is ``picture:<name>``: ``![A rider in a slipstream](picture:slipstream-x2)``.
:mod:`racedeck.server.rules_page` turns it into a ``<figure>`` whose caption is the image's text
and which carries :func:`picture`'s JSON, and ``static/rules-pictures.js`` draws it with the
game's renderer, as a spectator's board.

Every picture is a :class:`Position`: a game, its options, a seed and the actions played from
the deal, each as its seat and the action's text form (what ``racedeck play`` reads), kept here
so that a picture is the same every time. They are played on the real engine through
:class:`~racedeck.core.table.Table`, and the view and events are the ones the server sends a
spectator (:func:`~racedeck.server.live.view_json`, :func:`~racedeck.server.live.history_json`):
no hand, no secret. Each position also says what it shows (:attr:`Position.claim`) and checks
it (:attr:`Position.holds`), so a change of the rules that moves a picture fails when the page
is built instead of showing something its caption does not say.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from racedeck.core.events import Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import make
from racedeck.core.table import Table
from racedeck.server.live import history_json, view_json

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


Check = Callable[[Table, Sequence[Event]], bool]
"""Whether a position shows what it claims: the table after the last action, and that last
action's events."""


@dataclass(frozen=True, slots=True)
class Position:
    """One picture's position: ``game`` with ``config`` dealt from ``seed``, then ``moves``
    played in order, each ``"<seat>:<action text>"`` (``"2:FOE-1 P1"``). ``claim`` says in
    words what the picture shows and ``holds`` checks it."""

    game: str
    seed: int
    moves: tuple[str, ...]
    claim: str
    holds: Check
    config: Mapping[str, Any] = field(default_factory=dict)


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


# -- what the pictures claim -----------------------------------------------------------------------


def _of(events: Sequence[Event], kind: str) -> list[Mapping[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def _slipstream(times: int) -> Check:
    def holds(table: Table, events: Sequence[Event]) -> bool:
        plays = _of(events, "card_played")
        return len(plays) == 1 and plays[0]["multiplier"] == times and not plays[0]["special"]

    return holds


def _laps_lost(table: Table, events: Sequence[Event]) -> bool:
    scored = _of(events, "race_scored")
    if not table.is_over or not scored:
        return False
    laps = [r["laps"] for r in scored[-1]["riders"]]
    return 1 in laps and 0 in laps


def _reveal(table: Table, events: Sequence[Event]) -> bool:
    revealed = _of(events, "cards_revealed")
    if len(revealed) != 1 or _of(events, "stage_scored"):
        return False
    targets = [c["target"] for c in revealed[0]["cards"]]
    return len(set(targets)) < len(targets)  # two cards went in front of one figure


def _second_scores(table: Table, events: Sequence[Event]) -> bool:
    scored = _of(events, "stage_scored")
    if not table.is_over or len(scored) != 1:
        return False
    s = scored[0]
    spaces = sorted(set(s["positions"]), reverse=True)
    first = [f for f, p in enumerate(s["positions"]) if p == spaces[0]]
    return (
        len(spaces) >= 2
        and s["space"] == spaces[1] > 0
        and all(s["positions"][f] == spaces[1] for f in s["scorers"])
        and all(s["points"][f] == 0 for f in first)
    )


def _bump(table: Table, events: Sequence[Event]) -> bool:
    return any(m["why"] == "bumped" for m in _of(events, "token_moved"))


def _block(table: Table, events: Sequence[Event]) -> bool:
    view = table.view(None)
    return bool(_of(events, "block_played")) and view.window_open and len(view.blocks) == 1


# -- the positions -------------------------------------------------------------------------------

_FOUR_RIDERS = {"players": 4, "riders": 1}


def _plays(text: str) -> tuple[str, ...]:
    """Moves whose texts hold no space (Six Day Race's ``"2:5"``), written one after another."""
    return tuple(text.split())


POSITIONS: dict[str, Position] = {
    "slipstream-x2": Position(
        game="six-day-race",
        config=_FOUR_RIDERS,
        seed=7,
        moves=_plays("3:3 0:2 1:4 2:7 3:1 0:1 1:5 2:1 3:3 0:5 1:1 2:5"),
        claim="Player 3's 5 reaches space 13, where one rider is: it moves 5 more, ×2, to 18",
        holds=_slipstream(2),
    ),
    "slipstream-x3": Position(
        game="six-day-race",
        config=_FOUR_RIDERS,
        seed=78,
        moves=_plays("0:2 1:1 2:3 3:7 0:7 1:3 2:7 3:4 0:1 1:7"),
        claim="Player 2's 7 reaches space 11, where two riders are: ×3, to 25",
        holds=_slipstream(3),
    ),
    "laps-lost": Position(
        game="six-day-race",
        config={**_FOUR_RIDERS, "races": 2},
        seed=45,
        moves=_plays(
            "2:5 3:5 0:5 1:5 2:5 3:5 0:5 1:5 2:7 3:4 0:7 1:7 2:2 3:4 0:3 1:2 2:2 3:7 0:6 "
            "1:2 2:2 3:6 0:6 1:2 2:2 3:6 0:5 1:3 2:4 3:6 0:1 1:3 2:3 3:1 0:5 1:3 2:4 3:4 "
            "0:3 1:4 2:3 3:3 0:3 1:4 2:3 3:1 0:3 1:4 2:4 3:3 1:5 3:5 2:5 0:5 1:5 3:5 2:5 "
            "0:5 1:7 3:4 2:7 0:7 1:2 3:4 2:3 0:2 1:2 3:7 2:6 0:2 1:2 3:6 2:6 0:2 1:2 3:6 "
            "2:5 0:3 1:4 3:5 2:5 0:3 1:3 3:4 2:3 0:3 1:3 3:3 2:3 0:4 1:1 3:3 2:3 0:1 1:1 "
            "3:2 2:3 0:4 1:3 3:2"
        ),
        claim="the last race of a series is over: one rider crossed, one stopped at 78 (no lap "
        "lost), one at 74 (1 lap lost), one at 71 (2 laps lost)",
        holds=_laps_lost,
    ),
    "reveal": Position(
        game="why-first",
        config={"players": 3},
        seed=1,
        moves=("0:-3>P3", "1:-3>P2", "2:-1>P2", "0:-1>P2", "1:+1>P1", "2:+3>P2"),
        claim="round 2's cards shown together: −1 and +3 in front of Player 2, +1 in front of "
        "Player 1",
        holds=_reveal,
    ),
    "second-scores": Position(
        game="why-first",
        config={"players": 3, "stages": 1},
        seed=3,
        moves=(
            "0:+1>P1",
            "1:+4>P1",
            "2:+1>P3",
            "0:-1>P3",
            "1:-3>P3",
            "2:+3>P2",
            "0:+2>P2",
            "1:+2>P2",
            "2:-2>P1",
            "0:+5>P1",
            "1:-4>P3",
            "2:-1>P3",
        ),
        claim="a stage scored: Player 1's figure is farthest, on 12, and scores nothing; "
        "Player 2's, on the second space, 9, scores 9",
        holds=_second_scores,
    ),
    "bump": Position(
        game="setback",
        config={"players": 3},
        seed=79,
        moves=(
            "2:ALL+1",
            "0:pass",
            "1:pass",
            "2:step P3 lane 2",
            "2:step P1 lane 3",
            "2:step P2 lane 3",
        ),
        claim="ALL+1 moves everyone a row: Player 2 enters lane 3, where Player 1 stands, and "
        "bumps Player 1 one card on, to row 2",
        holds=_bump,
    ),
    "block": Position(
        game="setback",
        config={"players": 3},
        seed=1,
        moves=("0:MOVE+1 lane 1", "1:block", "2:pass"),
        claim="Player 1 declares MOVE+1 and Player 2 answers with a BLOCK; the window is open "
        "for a BLOCK of that BLOCK",
        holds=_block,
    ),
}
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
