"""The web client's languages: every catalogue has exactly English's keys with the same
placeholders, every key the client names exists, and no text a person reads is left in the
JavaScript outside the catalogues."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import pytest

STATIC = Path(str(files("racedeck.server") / "static"))
LANGS = ("nl", "fr", "de")
PLACEHOLDER = re.compile(r"\{(\w+)(?:\|\w+)?\}")  # {name}, or {name|filter}


def catalogue(code: str) -> dict[str, str]:
    """The messages of ``static/i18n/<code>.js`` (an ``export default {...}`` of string pairs)."""
    text = (STATIC / "i18n" / f"{code}.js").read_text(encoding="utf-8")
    body = text[text.index("export default {") + len("export default ") :].rstrip().rstrip(";")
    body = re.sub(r"^\s*//.*$", "", body, flags=re.M)  # comments between the groups
    body = re.sub(r",(\s*)\}\s*$", r"\1}", body)  # the trailing comma JSON does not allow
    pairs = json.loads(body, object_pairs_hook=list)
    keys = [k for k, _ in pairs]
    duplicated = sorted({k for k in keys if keys.count(k) > 1})
    assert not duplicated, f"{code}.js names these keys twice: {duplicated}"
    return dict(pairs)


def scripts() -> list[Path]:
    """Every JavaScript file of the client except the catalogues."""
    return sorted(p for p in STATIC.rglob("*.js") if p.parent.name != "i18n")


def test_english_is_read() -> None:
    en = catalogue("en")
    assert len(en) > 300
    assert all(isinstance(v, str) and v for v in en.values())


@pytest.mark.parametrize("code", LANGS)
def test_every_language_has_every_english_key_and_no_other(code: str) -> None:
    en, other = catalogue("en"), catalogue(code)
    assert sorted(set(en) - set(other)) == [], f"{code}.js lacks these keys"
    assert sorted(set(other) - set(en)) == [], f"{code}.js has keys English does not"


@pytest.mark.parametrize("code", LANGS)
def test_placeholders_match_english(code: str) -> None:
    en, other = catalogue("en"), catalogue(code)
    wrong = {
        k: (v, en[k])
        for k, v in other.items()
        if sorted(set(PLACEHOLDER.findall(v))) != sorted(set(PLACEHOLDER.findall(en[k])))
    }
    assert wrong == {}


@pytest.mark.parametrize("code", LANGS)
def test_translations_are_not_english_left_over(code: str) -> None:
    """A message that reads word for word as English is a missed translation, unless it is
    a name printed on the cards, a number pattern or a word the languages share."""
    en, other = catalogue("en"), catalogue(code)
    words = lambda v: re.findall(r"[a-z]{3,}", PLACEHOLDER.sub("", v))  # noqa: E731
    same = [k for k, v in other.items() if v == en[k] and len(words(v)) >= 3]
    assert same == []


# -- no hard-coded texts ---------------------------------------------------------------------------

_STRING = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""", re.S
)
# Two or more words of letters in a row: a sentence or a phrase ("Your turn", "laps lost").
_WORDS = re.compile(r"(?<![\w./#$-])[A-Za-z][a-z']*(?: +[A-Za-z][a-z']*)+(?![\w/-])")
# One word set as a node's text or label ("Scores", "Cancel").
_LABELLED = re.compile(
    r"""(?:\btext|\btitle|\bplaceholder|"aria-label"|textContent\s*=)\s*:?\s*$"""
)
# A word next to an interpolation in a template (`${n} players`).
_TEMPLATE_WORD = re.compile(r"(?:^|\s)[A-Za-z][a-z]{2,}(?=$|[\s.,:;!?)])")
_LINE_ALLOWED = re.compile(r"console\.|import |querySelector|addEventListener|new Error\(")
# Before a literal: the places where code, not people, reads it.
_CODE_PLACE = re.compile(
    r"""(?:\bclass|className|style|classList\.\w+\(|\bkind|\btype|\brole|\brel|"data-[\w-]+"|"aria-[\w-]+"\s*:\s*\w+\s*\?|===?|!==?|case|dataset\.\w+\s*=|\bkey|\bid|\bmode|\bphase|\.includes\(|\[)\s*:?\s*$"""
)
# Words printed on the cards and the board, the same in every language, and key names.
_ALLOWED = {
    "racedeck",
    "· racedeck",
    "Escape",
    "Enter",
    "START",
    "FINISH",
    "BLOCK",
    "FREE",
    "STURZ",
    "FAHRERWECHSEL",
    "Leo",
}


def literals(path: Path) -> list[tuple[int, str, str, bool]]:
    """(line, literal text with each ${...} as a space, what precedes it on its line, whether it
    is a template with interpolations) for every string literal of ``path``."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in _STRING.finditer(text):
        lit = m.group(0)
        if lit.startswith(("//", "/*")):
            continue
        body = re.sub(r"\$\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}", " ", lit[1:-1])
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[line_start : line_end if line_end >= 0 else None]
        if _LINE_ALLOWED.search(line):
            continue
        before = text[line_start : m.start()]
        templated = lit.startswith("`") and "${" in lit
        out.append((text.count("\n", 0, m.start()) + 1, body, before, templated))
    return out


def hard_coded(path: Path) -> list[str]:
    """Literals of ``path`` that look like words for people rather than keys or code."""
    found = []
    for line, body, before, templated in literals(path):
        words = body.strip()
        if (
            not words
            or words in _ALLOWED
            or re.fullmatch(r"[\w.-]+\.[\w.-]*", words.replace(" ", ""))
        ):
            continue  # empty, a name printed on the cards, or a message key (`error.${code}`)
        if _CODE_PLACE.search(before):
            continue
        sentence = _WORDS.search(body)
        labelled = _LABELLED.search(before) and re.fullmatch(
            r"[A-Za-z][a-z]{2,}[.!?:…]*|[A-Z]{3,}[!.?]*", words
        )
        template = templated and _TEMPLATE_WORD.search(body)
        if sentence or labelled or template:
            found.append(f"{path.relative_to(STATIC)}:{line}: {words!r}")
    return found


@pytest.mark.parametrize("path", scripts(), ids=lambda p: str(p.relative_to(STATIC)))
def test_no_hard_coded_texts(path: Path) -> None:
    assert hard_coded(path) == []


def test_the_scanner_finds_texts(tmp_path: Path) -> None:
    """The scanner is not blind: it flags a sentence, a labelled word and a template."""
    sample = tmp_path / "sample.js"
    sample.write_text(
        'el("p", { class: "wf-row wf-row--you", text: "Your turn" });\n'
        'el("h2", { text: "Scores" });\n'
        "const x = `${n} players`;\n"
        'el("p", { text: t("lobby.open") });\n',
        encoding="utf-8",
    )
    global STATIC
    saved, STATIC = STATIC, tmp_path
    try:
        found = hard_coded(sample)
    finally:
        STATIC = saved
    assert [f.split(":")[1] for f in found] == ["1", "2", "3"]


def test_every_key_the_client_names_is_in_english() -> None:
    en = catalogue("en")
    named = set()
    for path in scripts():
        named |= set(re.findall(r"""\bt[n]?\(\s*"([\w.-]+(?:/[\w-]+)?)\"""", path.read_text()))
    plural = {k for k in named if f"{k}.one" in en}
    assert sorted(named - set(en) - plural) == []


@pytest.mark.parametrize("code", ("en", *LANGS))
def test_counts_are_worded_by_plural_rules_not_shortcuts(code: str) -> None:
    """A count is a message per plural category (``key.one``, ``key.other``, chosen with the
    browser's ``Intl.PluralRules``), never "spectateur(s)"; every ``.one`` has its ``.other``."""
    messages = catalogue(code)
    shortcuts = {k: v for k, v in messages.items() if re.search(r"\w\((?:s|e|n|en)\)", v)}
    assert shortcuts == {}
    counts = [k for k, v in messages.items() if k.endswith(".one") and "{n}" in v]
    lonely = [k for k in counts if k[: -len(".one")] + ".other" not in messages]
    assert lonely == []


@pytest.mark.parametrize("game_id", ["why-first", "six-day-race", "setback"])
def test_the_browser_and_the_server_word_each_game_alike(game_id: str) -> None:
    """One English for each game's texts: the catalogue's title, summary, win rule and option
    help are the server's (``/api/games``, ``racedeck games``), its help without the ruling ids
    the form links to instead. A change on one side fails here until the other follows."""
    from racedeck.server.catalog import games

    en = catalogue("en")
    game = next(g for g in games() if g["id"] == game_id)
    ruling = re.compile(r" \((?:[A-Z]{2}-\d+(?:, )?)+\)")
    assert en[f"games.{game_id}.title"] == game["title"]
    assert en[f"games.{game_id}.summary"] == game["summary"]
    assert en[f"games.{game_id}.winRule"] == game["win_rule"]
    for opt in game["options"]:
        key = f"games.{game_id}.option.{opt['name']}.help"
        if opt["name"] != "players":  # the form asks for players in its own words
            assert en[key] == ruling.sub("", opt["help"]), key
