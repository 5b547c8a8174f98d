"""The README's Python example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_example_runs() -> None:
    match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert match, "the README has a Python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(match.group(1), "README.md", "exec"), {})
    assert "Second-highest total wins" in out.getvalue()
