"""The content of a report, independent of how it is shown: sections, figures and tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from racedeck.core.jsontypes import JSONObject

__all__ = ["Column", "Figure", "Report", "Section", "Table"]

Cell = str | int | float | None


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its heading and how its numbers read (``text``, ``int``, ``num``,
    ``pct`` for a share shown as a percentage, ``p`` for a p-value)."""

    name: str
    kind: str = "num"


@dataclass(frozen=True)
class Table:
    """The numbers behind a figure; cells hold raw values, formatted only when shown."""

    columns: tuple[Column, ...]
    rows: list[list[Cell]]

    def to_json(self) -> JSONObject:
        """Rows as objects keyed by column name."""
        names = [c.name for c in self.columns]
        return {"columns": names, "rows": [dict(zip(names, r, strict=True)) for r in self.rows]}


@dataclass(frozen=True)
class Figure:
    """A PNG (``image`` is its file name in the report folder), its caption and its numbers."""

    image: str
    title: str
    caption: str
    table: Table

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {
            "image": self.image,
            "title": self.title,
            "caption": self.caption,
            "table": self.table.to_json(),
        }


@dataclass
class Section:
    """A part of the report: a heading, paragraphs of plain words, figures, loose tables."""

    key: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[tuple[str, Table]] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        """Return the JSON form."""
        return {
            "key": self.key,
            "title": self.title,
            "paragraphs": self.paragraphs,
            "figures": [f.to_json() for f in self.figures],
            "tables": [{"title": t, **table.to_json()} for t, table in self.tables],
        }


@dataclass
class Report:
    """A whole report: what was run, the summary, how it was tested, the sections."""

    title: str
    facts: list[tuple[str, str]]
    summary: list[str]
    method: list[str]
    sections: list[Section]
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        """The content of ``data.json``: the run, the summary and every number shown."""
        return {
            "title": self.title,
            "facts": dict(self.facts),
            "summary": self.summary,
            "method": self.method,
            "sections": [s.to_json() for s in self.sections],
            **self.data,
        }
