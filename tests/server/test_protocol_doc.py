"""``docs/protocol.md`` is true: its examples match the schemas, every schema is shown or
linked, and every error code the service can send is listed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from racedeck.core import errors
from server.live import ROOT, SCHEMAS, validator

DOC = (ROOT / "docs" / "protocol.md").read_text()
EXAMPLES = re.findall(r"<!-- schema: ([a-z-]+) -->\s*```json\n(.*?)```", DOC, re.S)
SERVER_SRC = ROOT / "src" / "racedeck" / "server"


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize(("name", "text"), EXAMPLES)
def test_example_matches_its_schema(name: str, text: str) -> None:
    validator(name).validate(json.loads(text))


@pytest.mark.parametrize("path", sorted((SCHEMAS / "protocol").glob("*.json")), ids=str)
def test_every_schema_is_in_the_document(path: Path) -> None:
    assert f"schemas/protocol/{path.name}" in DOC or f"schema: {path.stem} " in DOC


def test_every_error_code_is_documented() -> None:
    codes = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.RacedeckError) and cls.code != "error"
    }
    for path in SERVER_SRC.glob("*.py"):
        codes |= set(re.findall(r'"([a-z]+/[a-z-]+)"', path.read_text()))
    codes = {c for c in codes if c.split("/")[0] not in ("application", "text", "image")}  # MIME
    missing = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not missing, missing
