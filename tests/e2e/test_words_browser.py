"""The client's words as a browser makes them: plurals by the language's own rules
(``Intl.PluralRules``: French counts 0 as one) and message patterns that follow the language's
grammar (French elides "de" before a vowel, and puts a space before a colon)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

WORDS = """async ([code, calls]) => {
  const i18n = await import("/static/i18n.js");
  i18n.setLang(code);
  return calls.map(([fn, key, arg, vars]) =>
    fn === "tn" ? i18n.tn(key, arg, vars || {}) : i18n.t(key, arg || {}));
}"""


def in_page(lobby: Page, script: str, arg: Any) -> Any:
    """What ``script`` (a function of ``arg``, run in the lobby page) returns."""
    return lobby.evaluate(script, arg)


def words(lobby: Page, code: str, calls: list[list[Any]]) -> list[str]:
    return list(in_page(lobby, WORDS, [code, calls]))


COUNTS = [["tn", "table.watchers", n] for n in (0, 1, 2)] + [["tn", "sbr.do.draw", 1]]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", ["0 watching", "1 watching", "2 watching", "draw 1 card"]),
        ("nl", ["0 kijkers", "1 kijker", "2 kijkers", "trek 1 kaart"]),
        ("fr", ["0 spectateur", "1 spectateur", "2 spectateurs", "piocher 1 carte"]),
        ("de", ["0 schauen zu", "1 schaut zu", "2 schauen zu", "1 Karte ziehen"]),
    ],
)
def test_counts_follow_each_languages_plural_rules(
    lobby: Page, code: str, expected: list[str]
) -> None:
    assert words(lobby, code, COUNTS) == expected


def test_french_elides_and_spaces_its_colons(lobby: Page) -> None:
    chosen = {"value": "+2", "target": "Bram"}
    calls = [
        ["t", "wf.ev.cardChosen", {**chosen, "name": "Anna"}],
        ["t", "wf.ev.cardChosen", {**chosen, "name": "Bram"}],
        ["t", "sbr.status.turn.other", {"name": "Émile"}],
        ["t", "link.label", {"label": "Lien spectateur"}],
    ]
    assert words(lobby, "fr", calls) == [
        "Carte d’Anna, face cachée\u00a0: +2 devant Bram.",
        "Carte de Bram, face cachée\u00a0: +2 devant Bram.",
        "Au tour d’Émile",
        "Lien spectateur\u00a0: ",
    ]
    # Other languages take a value as it is.
    english = words(lobby, "en", [calls[0], calls[3]])
    assert english[0] == "Anna's card, face down: +2 in front of Bram."
    assert english[1] == "Lien spectateur: "


RACE_SCORED = """async ([code, reason]) => {
  const i18n = await import("/static/i18n.js");
  const words = await import("/static/games/six-day-race/words.js");
  i18n.setLang(code);
  const rider = (i, place) => ({ rider: i, place, sprints: [0, 0], finish: "0", laps: 0 });
  const e = { kind: "race_scored", race: 1, reason, positions: [40, 38],
    riders: [rider(0, 1), rider(1, 2)] };
  return words.describeEvent(e, { seats: ["Ann", "Bram"], names: ["Ann", "Bram"], config: {} });
}"""


@pytest.mark.parametrize(
    ("code", "reason", "why"),
    [
        ("en", "no rider has cards left", "Race over: every hand is empty and nobody crossed"),
        ("en", "final turns played", "Race over: every rider behind the line has had a last"),
        ("fr", "no rider has cards left", "Course terminée\u00a0: toutes les mains sont vides"),
        ("de", "no rider has cards left", "Rennen vorbei: Alle Hände sind leer"),
    ],
)
def test_a_six_day_race_says_why_it_ended(lobby: Page, code: str, reason: str, why: str) -> None:
    """SD-9: a race ends after the last turns behind the line, or when every hand is empty;
    its result says which, first."""
    text = in_page(lobby, RACE_SCORED, [code, reason])
    assert text.startswith(why), text
