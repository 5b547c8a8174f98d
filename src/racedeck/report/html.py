"""A report as one self-contained HTML page; images are PNG files next to it."""

from __future__ import annotations

import math
from html import escape

from racedeck.report.document import Cell, Figure, Report, Section, Table

__all__ = ["format_cell", "render"]

_STYLE = """
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       background: #fafafa; margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 1.5rem 1.5rem 4rem; background: #fff; }
h1 { font-size: 1.8rem; margin: 0 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2.5rem 0 .6rem; border-bottom: 2px solid #e4e4e4;
     padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem;
         margin: .8rem 0; font-size: .95rem; }
.facts dt { color: #666; }
.facts dd { margin: 0; word-break: break-word; }
.summary { background: #f2f6fb; border-left: 4px solid #3b6fb6; padding: .6rem 1.2rem; }
.summary h2 { margin-top: .6rem; }
.summary li { margin: .35rem 0; }
.method { font-size: .92rem; color: #444; }
nav ol { columns: 2; font-size: .95rem; }
figure { margin: 1.5rem 0 2rem; }
figure img { max-width: 100%; height: auto; display: block; border: 1px solid #eee; }
figcaption { font-size: .9rem; color: #555; margin: .4rem 0 .6rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .4rem 0 1rem;
        font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ddd; padding: .25rem .55rem; }
th { background: #f3f3f3; text-align: left; font-weight: 600; }
td.n { text-align: right; }
.scroll { overflow-x: auto; }
"""


def format_cell(value: Cell, kind: str) -> str:
    """A table cell as text: ``pct`` shares as percentages, ``p`` p-values, numbers grouped."""
    if value is None:
        return "–"
    if kind == "text" or isinstance(value, str):
        return str(value)
    x = float(value)
    if math.isnan(x):
        return "–"
    if kind == "pct":
        return f"{x:.1%}"
    if kind == "p":
        return "< 0.001" if x < 0.001 else f"{x:.3f}"
    if kind == "int" or x.is_integer():
        return f"{x:,.0f}"
    return f"{x:.3g}" if abs(x) < 10 else f"{x:,.1f}"


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(c.name)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = []
        for col, value in zip(table.columns, row, strict=True):
            numeric = col.kind != "text" and not isinstance(value, str)
            cls = ' class="n"' if numeric else ""
            cells.append(f"<td{cls}>{escape(format_cell(value, col.kind))}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _figure(fig: Figure) -> str:
    return (
        f"<figure><h3>{escape(fig.title)}</h3>"
        f'<img src="{escape(fig.image)}" alt="{escape(fig.title)}: {escape(fig.caption)}">'
        f"<figcaption>{escape(fig.caption)}</figcaption>{_table(fig.table)}</figure>"
    )


def _section(section: Section) -> str:
    parts = [f'<section id="{escape(section.key)}"><h2>{escape(section.title)}</h2>']
    parts += [f"<p>{escape(p)}</p>" for p in section.paragraphs]
    parts += [_figure(f) for f in section.figures]
    for title, table in section.tables:
        parts.append(f"<h3>{escape(title)}</h3>{_table(table)}")
    parts.append("</section>")
    return "\n".join(parts)


def render(report: Report) -> str:
    """The whole page."""
    facts = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in report.facts)
    summary = "".join(f"<li>{escape(s)}</li>" for s in report.summary)
    method = "".join(f"<li>{escape(m)}</li>" for m in report.method)
    toc = "".join(
        f'<li><a href="#{escape(s.key)}">{escape(s.title)}</a></li>' for s in report.sections
    )
    sections = "\n".join(_section(s) for s in report.sections)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(report.title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<main>
<h1>{escape(report.title)}</h1>
<dl class="facts">{facts}</dl>
<section class="summary" id="summary"><h2>Summary</h2><ul>{summary}</ul></section>
<section class="method" id="method"><h2>How the numbers were tested</h2><ul>{method}</ul></section>
<nav><h2>Contents</h2><ol>{toc}</ol></nav>
{sections}
<p class="method">The numbers behind every plot are in <a href="data.json">data.json</a>; the
measures of every game in <a href="games.jsonl">games.jsonl</a>.</p>
</main>
</body>
</html>
"""
