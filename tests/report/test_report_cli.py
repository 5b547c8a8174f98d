"""``racedeck report`` end to end: a page whose every image is a real PNG, and resuming."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app
from racedeck.report.build import ReportRequest, ReportRun
from racedeck.report.journal import FILE_NAME

runner = CliRunner()

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.sources.append(dict(attrs)["src"] or "")


def _check_png(path: Path) -> None:
    """A PNG signature, then well-formed chunks with correct CRCs, from IHDR to IEND."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, path
    pos, kinds = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, (path, kind)
        kinds.append(kind)
        pos += 12 + length
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds, path
    width, height = struct.unpack(">II", data[16:24])
    assert width > 300 and height > 200, path


def _report(out: Path, game: str, *extra: str) -> str:
    # A few deals for the learned bot's section (where a policy ships for the configuration).
    args = ["report", game, "--games", "12", "--out", str(out), "--workers", "1"]
    args += ["--policy-games", "6", *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


BOTS = {"why-first": "random", "six-day-race": "heuristic", "setback": "random,heuristic,random"}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Path, str]]:
    """The report of a game (folder and command output), made once for the tests that read
    it: plotting is most of a small report's time."""
    cache: dict[str, tuple[Path, str]] = {}

    def make(game: str) -> tuple[Path, str]:
        if game not in cache:
            out = tmp_path_factory.mktemp(game) / "report"
            cache[game] = (out, _report(out, game, "--bots", BOTS[game], "--seed", "3"))
        return cache[game]

    return make


@pytest.mark.parametrize(
    ("game", "sections"),
    [
        ("why-first", ["Leo in the two-player game", "The tactical variant"]),
        ("six-day-race", ["Slipstream", "Rider changes", "Laps lost"]),
        ("setback", ["BLOCK", "Lead changes", "Deck composition"]),
    ],
)
def test_report_writes_a_page_whose_images_are_pngs(
    made: Callable[[str], tuple[Path, str]], game: str, sections: list[str]
) -> None:
    out, output = made(game)
    bots = BOTS[game]
    assert "Seat balance:" in output
    page = (out / "index.html").read_text(encoding="utf-8")
    parser = _Images()
    parser.feed(page)
    assert len(parser.sources) >= 4
    for src in parser.sources:
        assert not Path(src).is_absolute() and "/" not in src  # next to the page
        _check_png(out / src)
    for title in ["Summary", "Seat balance", "Scores", "Game length", *sections]:
        assert f">{title}" in page, title
    data = json.loads((out / "data.json").read_text(encoding="utf-8"))
    assert data["summary"] and data["summary"][0].startswith("Seat balance:")
    assert data["batches"][0]["key"] == "main" and data["batches"][0]["played"] == 12
    shown = {f["image"] for s in data["sections"] for f in s["figures"]}
    assert shown == set(parser.sources)
    lines = (out / FILE_NAME).read_text(encoding="utf-8").splitlines()
    assert len(lines) == sum(b["games"] for b in data["batches"])
    if "," in bots:
        assert ">Bots<" in page  # a mixed lineup gets its own section


@pytest.mark.parametrize(
    ("game", "words"),
    [
        # The ×8 bar and the fixed rider changes are explained where they are shown.
        ("six-day-race", ["so ×8 needs all 7 others on one space", "(SD-1, SD-6)"]),
        # Comparisons say what their games can tell, not a bare "not significant".
        ("setback", ["A share compared between two decks: with 12 and 6 games, only"]),
        ("why-first", ["A seat compared between the variants: with 12 and 6 games, only"]),
    ],
)
def test_the_page_gives_reasons_and_resolutions(
    made: Callable[[str], tuple[Path, str]], game: str, words: list[str]
) -> None:
    out, _ = made(game)
    page = (out / "index.html").read_text(encoding="utf-8")
    for w in words:
        assert escape(w, quote=False) in page, w
    if game != "six-day-race":
        assert "comparisons tell" in page and "--detect 5 would size them" in page


def test_a_second_run_plays_nothing_new(made: Callable[[str], tuple[Path, str]]) -> None:
    out, first = made("six-day-race")
    assert "12 games played, 0 reused" in first
    data = (out / "data.json").read_text(encoding="utf-8")
    lines = (out / FILE_NAME).read_text(encoding="utf-8")
    second = _report(out, "six-day-race", "--bots", BOTS["six-day-race"], "--seed", "3")
    assert "0 games played, 12 reused" in second
    assert (out / FILE_NAME).read_text(encoding="utf-8") == lines
    assert (out / "data.json").read_text(encoding="utf-8") == data
    # Other parameters do not reuse those games.
    other = ReportRun(ReportRequest("six-day-race", {}, ("heuristic",) * 4, 12, out, seed=9))
    assert other.reused == 0 and other.ignored == 12 and len(other.missing()) == 12


def test_an_interrupted_run_keeps_its_games_and_resumes_to_the_same_report(
    tmp_path: Path,
) -> None:
    def request(out: Path) -> ReportRequest:
        return ReportRequest("setback", {}, ("random",) * 3, 10, out, seed=4, workers=1)

    whole = ReportRun(request(tmp_path / "whole"))
    whole.play()

    out = tmp_path / "cut"
    run = ReportRun(request(out))
    seen = []

    def stop_after_seven(n: int) -> None:
        seen.append(n)
        if len(seen) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.play(stop_after_seven)
    lines = (out / FILE_NAME).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    # A line cut short (a run killed while writing) is ignored and its game played again.
    with (out / FILE_NAME).open("a", encoding="utf-8") as f:
        f.write(lines[-1][:40])
    again = ReportRun(request(out))
    assert again.reused == 7 and again.ignored == 1
    again.play()
    assert again.played == again.total - 7
    # The same games as a run that was never interrupted, so the same report.
    assert again.results() == whole.results()


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", "setback", "--out", str(tmp_path), "--bots", "x,y"])
    assert result.exit_code == 2
    assert "3 seats need 1 or 3 bot names" in result.output
    result = runner.invoke(app, ["report", "setback", "--out", str(tmp_path), "--bots", "nobot"])
    assert result.exit_code == 2
    assert "no bot" in result.output
    result = runner.invoke(app, ["report", "nogame", "--out", str(tmp_path)])
    assert result.exit_code == 2
    result = runner.invoke(app, ["report", "setback", "--out", str(tmp_path), "--detect", "70"])
    assert result.exit_code == 2
    assert "a difference to detect of 70 percentage points is not possible" in result.output
