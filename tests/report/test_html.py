"""The page: everything escaped, numbers formatted by what they are, images relative."""

from __future__ import annotations

import ast
from pathlib import Path

from racedeck.report.document import Column, Figure, Report, Section, Table
from racedeck.report.html import format_cell, render

EVIL = '<script>alert("x")</script> & co'


def test_every_text_is_escaped() -> None:
    table = Table((Column(EVIL, "text"), Column("share", "pct")), [[EVIL, 0.25]])
    report = Report(
        title=EVIL,
        facts=[("options", EVIL)],
        summary=[EVIL],
        method=[EVIL],
        sections=[
            Section("s", EVIL, [EVIL], [Figure('a"b.png', EVIL, EVIL, table)], [(EVIL, table)])
        ],
    )
    page = render(report)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" in page
    assert 'src="a&quot;b.png"' in page
    assert '<td class="n">25.0%</td>' in page


def test_cells_read_by_their_kind() -> None:
    assert format_cell(0.418, "pct") == "41.8%"
    assert format_cell(0.0004, "p") == "< 0.001"
    assert format_cell(0.04123, "p") == "0.041"
    assert format_cell(2000, "int") == "2,000"
    assert format_cell(12.0, "num") == "12"
    assert format_cell(2.5123, "num") == "2.51"
    assert format_cell(1234.56, "num") == "1,234.6"
    assert format_cell(None, "num") == "–"
    assert format_cell("Seat 1", "text") == "Seat 1"


def test_report_modules_stay_out_of_the_faces() -> None:
    # report sits beside sim: it may use core, games, bots and sim, never cli, server or rl.
    root = Path(__file__).resolve().parents[2] / "src" / "racedeck" / "report"
    modules = sorted(root.rglob("*.py"))
    assert len(modules) > 10
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                parts = name.split(".")
                assert not (
                    parts[0] == "racedeck"
                    and len(parts) > 1
                    and parts[1] in ("cli", "server", "rl")
                ), f"{path.name} imports {name}"
