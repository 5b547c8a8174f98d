"""Layering: the rules (``racedeck.core``, ``racedeck.games``) stay pure.

They import no outer layer (bots, sim, kernels, report, store, cli, server, rl), no I/O, UI,
concurrency or clock module, and ``core`` does not import ``games``; the compiled kernels import
the rules only. Checked on the source with :mod:`ast`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

OUTER_LAYERS = ("bots", "sim", "kernels", "report", "store", "cli", "server", "rl")
FORBIDDEN_MODULES = frozenset(
    {
        "os",
        "sys",
        "io",
        "pathlib",
        "socket",
        "subprocess",
        "sqlite3",
        "asyncio",
        "http",
        "urllib",
        "shutil",
        "tempfile",
        "logging",
        "typer",
        "rich",
        "click",
        "fastapi",
        "starlette",
        "numpy",
        "threading",
        "multiprocessing",
        "concurrent",
        "time",
        "importlib",
        "builtins",
    }
)
FORBIDDEN_CALLS = frozenset({"open", "print", "input", "__import__", "exec", "eval"})


def _resolve(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """Absolute name of ``from <level dots><module> import …`` inside ``importer``."""
    if level == 0:
        return module or ""
    parts = importer.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imported_modules(source: str, importer: str, is_package: bool = False) -> set[str]:
    """Every module a source imports, absolute; ``from a import b`` yields ``a`` and ``a.b``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, importer, is_package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return found


def violations(source: str, importer: str, is_package: bool = False) -> list[str]:
    """Layer violations of a module of ``racedeck.core`` or ``racedeck.games``."""
    problems = []
    for name in sorted(imported_modules(source, importer, is_package)):
        top = name.split(".")[0]
        if top in FORBIDDEN_MODULES:
            problems.append(f"imports {name} (I/O, UI, clock or concurrency)")
        parts = name.split(".")
        if top == "racedeck" and len(parts) > 1 and parts[1] in OUTER_LAYERS:
            problems.append(f"imports outer layer {name}")
        core = importer.startswith("racedeck.core")
        if core and top == "racedeck" and (len(parts) == 1 or parts[1] == "games"):
            problems.append(f"core imports {name} (core must not depend on games)")
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            problems.append(f"calls {node.func.id}() on line {node.lineno}")
    return problems


def _modules() -> list[tuple[str, Path]]:
    found = []
    for layer in ("core", "games"):
        for path in sorted((SRC / "racedeck" / layer).rglob("*.py")):
            rel = path.relative_to(SRC).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.append((".".join(parts), path))
    return found


MODULES = _modules()


def test_the_rules_are_found() -> None:
    names = {name for name, _ in MODULES}
    assert {"racedeck.core", "racedeck.core.game", "racedeck.games"} <= names
    assert any(name.startswith("racedeck.games.why_first.") for name in names)


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_rules_modules_respect_the_layers(module: str, path: Path) -> None:
    is_package = path.name == "__init__.py"
    assert violations(path.read_text(encoding="utf-8"), module, is_package) == []


KERNEL_MODULES = sorted((SRC / "racedeck" / "kernels").rglob("*.py"))


@pytest.mark.parametrize("path", KERNEL_MODULES, ids=[p.stem for p in KERNEL_MODULES])
def test_kernels_depend_on_the_rules_only(path: Path) -> None:
    """The compiled kernels sit beside the bots and the simulator: they may use the rules
    (``core``, ``games``) but no layer that uses them (search and the environments do)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    imported = imported_modules(path.read_text(encoding="utf-8"), module, path.stem == "__init__")
    outer = sorted(
        name
        for name in imported
        if name.split(".")[0] == "racedeck"
        and len(name.split(".")) > 1
        and name.split(".")[1] in OUTER_LAYERS
        and name.split(".")[1] != "kernels"
    )
    assert outer == []


# -- the checker itself ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "importer", "problem"),
    [
        ("import os\n", "racedeck.games.why_first.rules", "imports os"),
        ("import os.path as p\n", "racedeck.core.game", "imports os.path"),
        ("from pathlib import Path\n", "racedeck.core.record", "imports pathlib"),
        ("import logging\n", "racedeck.core.record", "imports logging"),
        ("from time import perf_counter\n", "racedeck.games.why_first.rules", "imports time"),
        ("import numpy as np\n", "racedeck.games.why_first.rules", "imports numpy"),
        ("from rich.console import Console\n", "racedeck.core", "imports rich.console"),
        ("def f():\n    import sqlite3\n", "racedeck.core.rng", "imports sqlite3"),
        ("import racedeck.bots.random\n", "racedeck.games.x", "outer layer racedeck.bots.random"),
        ("from racedeck import cli\n", "racedeck.games.x", "outer layer racedeck.cli"),
        ("from racedeck.sim import run\n", "racedeck.core.game", "outer layer racedeck.sim"),
        ("from ...server import app\n", "racedeck.games.why_first.rules", "racedeck.server"),
        ("from ..rl import env\n", "racedeck.core.game", "outer layer racedeck.rl"),
        ("from racedeck.games import why_first\n", "racedeck.core.registry", "core imports"),
        ("import racedeck\n", "racedeck.core.registry", "core imports racedeck "),
        ("from .. import games\n", "racedeck.core.record", "core imports racedeck.games"),
        ("from ..games.why_first import rules\n", "racedeck.core.spec", "core imports"),
        ("print('hi')\n", "racedeck.games.why_first.rules", "calls print()"),
        ("data = open('x').read()\n", "racedeck.core.record", "calls open()"),
    ],
)
def test_checker_catches_violations(source: str, importer: str, problem: str) -> None:
    found = violations(source, importer)
    assert any(problem in p for p in found), found


@pytest.mark.parametrize(
    ("source", "importer"),
    [
        ("from racedeck.core.game import Game\n", "racedeck.games.why_first.rules"),
        ("from racedeck.games.why_first import rules\n", "racedeck.games"),
        ("from . import narrate\n", "racedeck.games.why_first.rules"),
        ("from .errors import IllegalAction\n", "racedeck.core.game"),
        ("import dataclasses\nfrom typing import Any\n", "racedeck.core.spec"),
        ("from collections.abc import Sequence\nimport re\n", "racedeck.games.why_first.x"),
        ("import ostrich\nimport timeit_like\n", "racedeck.core.x"),
    ],
)
def test_checker_accepts_allowed_imports(source: str, importer: str) -> None:
    assert violations(source, importer) == []


def test_relative_imports_resolve() -> None:
    assert imported_modules("from . import x\n", "racedeck.core", is_package=True) == {
        "racedeck.core",
        "racedeck.core.x",
    }
    assert "racedeck.games.why_first.rules" in imported_modules(
        "from .rules import WhyFirst\n", "racedeck.games.why_first", is_package=True
    )
    assert "racedeck.games" in imported_modules("from ..games import a\n", "racedeck.core.spec")
