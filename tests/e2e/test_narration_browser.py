"""The client's own words for every event: run in the browser over whole games played by bots,
the English catalogue says exactly what the server's ``text`` says, and Dutch, French and
German word every event with no placeholder left and no English (docs/protocol.md: the client
words events from their fields)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from racedeck.bots.registry import make_bot
from racedeck.core.registry import make
from racedeck.core.table import Table, run
from racedeck.server.live import events_json, view_json

NAMES = ["Ann", "Bob", "Cleo", "Dirk", "Eva"]
# Words that give an English sentence away; none of them is a word of the other languages.
ENGLISH = re.compile(
    r"\b(?:the|begins|has chosen|revealed|moves|scored|wins|starts|plays|draws|crosses|"
    r"turn|lanes|dealt|Nobody|cancelled|reaches|and|with|from)\b"
)

GAMES = [
    ("why-first", {"players": 2}),
    ("why-first", {"players": 4, "variant": "tactical", "stages": 2}),
    ("six-day-race", {"players": 2, "races": 2}),
    ("six-day-race", {"players": 5, "races": 1}),
    ("setback", {"players": 3}),
    ("setback", {"players": 2, "rows": 3}),
]


def played(game_id: str, config: dict[str, Any], seed: int = 5) -> tuple[Any, list[Any]]:
    """Seat 0's view at the end and every event it saw, with the server's words."""
    game = make(game_id, **config)
    table = Table(game, seed)
    bots = [make_bot("random", game, seat, seed + seat) for seat in range(game.num_players)]
    run(table, bots)
    names = NAMES[: game.num_players]
    return view_json(table, 0, names), [
        e for _move, events in table.history for e in events_json(table, events, 0, names)
    ]


WORD = """async ([game, lang, view, events]) => {
  const i18n = await import("/static/i18n.js");
  i18n.setLang(lang);
  const words = await import(`/static/games/${game}/words.js`);
  const h = view.header;
  const ctx = { view, names: h.score_names, seats: h.seat_names, config: h.config };
  return events.map((e) => words.describeEvent(e, ctx));
}"""


@pytest.mark.parametrize(("game_id", "config"), GAMES, ids=lambda v: str(v))
def test_the_client_words_every_event(lobby: Page, game_id: str, config: dict[str, Any]) -> None:
    page = lobby
    view, events = played(game_id, config)
    assert {e["kind"] for e in events} >= {"game_over"}
    english = page.evaluate(WORD, [game_id, "en", view, events])
    wrong = [
        (e["text"], mine) for e, mine in zip(events, english, strict=True) if e["text"] != mine
    ]
    assert wrong == []
    for lang in ("nl", "fr", "de"):
        lines = page.evaluate(WORD, [game_id, lang, view, events])
        assert None not in lines, [
            e["kind"] for e, w in zip(events, lines, strict=True) if w is None
        ]
        assert [w for w in lines if "{" in w] == []
        assert [w for w in lines if ENGLISH.search(w)] == [], lang
