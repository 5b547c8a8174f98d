"""How the environments draw a game: the spectator's view, as text and as an image.

Every face renders from the spectator's view (``table.view(None)``): what anyone watching the
table sees, so rendering never shows a hand, a concealed commit or a BLOCK answer, whatever the
mode (and a recorded video can be shared). The modes:

- ``"human"``: the game's own terminal drawing (its ``terminal`` plugin, the board ``racedeck
  play`` shows, in colour) and the last transition's events in words, printed to standard
  output after every reset and step, as Gymnasium and PettingZoo expect of that mode, and by
  ``render()``, which returns ``None``.
- ``"ansi"``: the same text, without colour codes, returned as a string.
- ``"rgb_array"``: that drawing as an ``H × W × 3`` ``uint8`` image, colours and all, in
  DejaVu Sans Mono (shipped with Matplotlib) on a white ground: what video recorders
  (Gymnasium's ``RecordVideo``) and notebooks want. Every frame of an environment has the same
  size, as a video needs: :data:`WIDTH` columns, and the lines of its first frame plus
  :data:`ROOM` more; a drawing that grows longer still loses its last lines (events first:
  they come after the board and the header line).

A game without a terminal drawing is drawn as its header line (title, move, scores, who is
asked), which every view carries.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from rich.text import Text

from racedeck.core.events import feed
from racedeck.core.game import Game
from racedeck.core.table import Table
from racedeck.extras import needs
from racedeck.plugins import optional_plugin

__all__ = [
    "RENDER_FPS",
    "RENDER_MODES",
    "RGB",
    "ROOM",
    "WIDTH",
    "Renderer",
    "checked_render_mode",
    "image",
]

RENDER_MODES = ("human", "ansi", "rgb_array")
"""The render modes of every face, as ``metadata["render_modes"]`` lists them."""

RENDER_FPS = 4
"""Frames a second a recorder should show (``metadata["render_fps"]``): a move every 250 ms."""

WIDTH = 120
"""Columns the drawing may take (the widest board, *Why First?*'s track, needs 116)."""

ROOM = 16
"""Lines an image keeps free below its first frame's drawing, for longer ones later."""

_FONT_SIZE = 16
"""Pixels per em of the image's font: a cell is 10 × 19 pixels."""
_MARGIN = 12
"""Pixels of white around the image's text."""


def checked_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` when it is ``None`` or one of :data:`RENDER_MODES`; else a
    :class:`ValueError` listing them."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        shown = ", ".join(repr(m) for m in RENDER_MODES)
        raise ValueError(f"render_mode must be None or one of {shown}, not {render_mode!r}")
    return render_mode


class Renderer:
    """Draws the tables of one game in one render mode (see the module's notes)."""

    def __init__(self, game: Game[Any, Any, Any], render_mode: str) -> None:
        self.game = game
        self.render_mode = checked_render_mode(render_mode)
        self.names = game.seat_names()
        self._rows: int | None = None
        """Lines of every image, fixed by the first one."""
        module = optional_plugin(game.spec.id, "terminal")
        factory = getattr(module, "UI", None)
        self._ui: Any = factory(game, self.names) if factory is not None else None
        if self._ui is not None:
            self._ui.width = WIDTH

    def render(self, table: Table) -> str | NDArray[np.uint8] | None:
        """What the render mode gives for ``table`` now (printing it for ``"human"``)."""
        drawing = self.drawing(table)
        if self.render_mode == "rgb_array":
            lines = _lines(drawing, color=True)
            if self._rows is None:
                self._rows = len(lines) + ROOM
            return image(lines[: self._rows], rows=self._rows)
        if self.render_mode == "human":
            Console(file=sys.stdout, width=WIDTH).print(drawing)
            return None
        return "\n".join(
            "".join(s.text for s in line).rstrip() for line in _lines(drawing, color=False)
        )

    def drawing(self, table: Table) -> RenderableType:
        """The spectator's board, the header line (title, move, who is asked, scores) and the
        last transition's public events."""
        view = table.view(None)
        header = view.header
        scores = ", ".join(
            f"{name} {score:g}"
            for name, score in zip(header.score_names, header.scores, strict=True)
        )
        parts: list[RenderableType] = []
        if self._ui is not None:
            parts.append(self._ui.render(view))
        parts.append(Text(f"{header.title} · move {header.move} · {header.waiting} · {scores}"))
        events = [self.game.describe_event(e, self.names) for e in feed(table.history[-1][1], None)]
        parts += [Text(line) for line in events if line]
        return Group(*parts)


def _lines(drawing: RenderableType, *, color: bool) -> list[list[Segment]]:
    """The drawing as lines of styled segments, as a terminal of :data:`WIDTH` columns shows
    it (``color=False``: as a terminal without colours); trailing blank lines dropped."""
    console = Console(
        file=io.StringIO(),
        width=WIDTH,
        color_system="truecolor" if color else None,
        force_terminal=color,
    )
    segments = (s for s in console.render(drawing) if not s.control)
    lines = [list(line) for line in Segment.split_lines(segments)]
    while lines and not any(s.text.strip() for s in lines[-1]):
        lines.pop()
    return lines


RGB = tuple[int, int, int]
"""A colour of the image: red, green, blue from 0 to 255."""


def _rgb(style: Style | None) -> tuple[RGB, RGB | None]:
    """The text colour and the ground colour (``None``: the page's) of ``style``, as a
    terminal with Rich's default (light) theme shows them."""
    theme = DEFAULT_TERMINAL_THEME
    fg: RGB = theme.foreground_color
    bg: RGB | None = None
    if style is not None:
        if style.color is not None:
            fg = style.color.get_truecolor(theme)
        if style.bgcolor is not None:
            bg = style.bgcolor.get_truecolor(theme, foreground=False)
        if style.reverse:
            fg, bg = bg or theme.background_color, fg
        if style.dim:
            red, green, blue = fg
            fg = ((red + 510) // 3, (green + 510) // 3, (blue + 510) // 3)  # a third to white
    return fg, bg


@cache
def _fonts() -> tuple[Any, Any]:
    """The regular and bold DejaVu Sans Mono at :data:`_FONT_SIZE` (Matplotlib ships both)."""
    with needs('render_mode="rgb_array"'):
        import matplotlib
        from PIL import ImageFont

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    return (
        ImageFont.truetype(str(folder / "DejaVuSansMono.ttf"), _FONT_SIZE),
        ImageFont.truetype(str(folder / "DejaVuSansMono-Bold.ttf"), _FONT_SIZE),
    )


def image(
    lines: Sequence[Sequence[Segment]], rows: int | None = None, columns: int = WIDTH
) -> NDArray[np.uint8]:
    """Styled lines of text drawn cell by cell, as an ``H × W × 3`` ``uint8`` image of
    ``rows`` lines (default: as many as there are) of ``columns`` cells; what does not fit is
    left out."""
    regular, bold = _fonts()  # first: it says which package is missing, if one is
    from PIL import Image, ImageDraw

    ascent, descent = regular.getmetrics()
    cell_w = round(regular.getlength("M"))
    cell_h = ascent + descent  # no leading: box-drawing lines join from one row to the next
    rows = len(lines) if rows is None else rows
    size = (2 * _MARGIN + max(columns, 1) * cell_w, 2 * _MARGIN + max(rows, 1) * cell_h)
    page = Image.new("RGB", size, tuple(DEFAULT_TERMINAL_THEME.background_color))
    pen = ImageDraw.Draw(page)
    for row, line in enumerate(lines[:rows]):
        y = _MARGIN + row * cell_h
        column = 0
        for segment in line:
            width = cell_len(segment.text)
            fg, bg = _rgb(segment.style)
            x = _MARGIN + column * cell_w
            if bg is not None:
                pen.rectangle((x, y, x + width * cell_w - 1, y + cell_h - 1), fill=bg)
            if segment.text.strip():
                font = bold if segment.style is not None and segment.style.bold else regular
                # Character by character, so that a wide character keeps the cells after it
                # where the terminal puts them.
                for char in segment.text:
                    if not char.isspace():
                        pen.text((x, y), char, fill=fg, font=font)
                    x += cell_len(char) * cell_w
            column += width
    return np.asarray(page, dtype=np.uint8).copy()
