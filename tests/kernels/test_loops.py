"""Loops made per game around its functions (:mod:`racedeck.kernels.loops`) are cached on disk
per set of functions: a later process loads them instead of compiling, each set gets its own
machine code, and loops around functions defined inside functions are compiled uncached."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numba

from racedeck.kernels import search_loop
from racedeck.kernels.loops import compiled_loops

TEMPLATE = """
from typing import Any

LOOPS = ("each",)

f: Any = None


def each(xs, out):  # type: ignore[no-untyped-def]
    for i in range(xs.shape[0]):
        out[i] = f(xs[i])
"""

GAMES = """
import numba


@numba.njit(cache=True)
def one_more(x):
    return x + 1


@numba.njit(cache=True)
def twice(x):
    return x * 2
"""

RUN = """
import json, sys
import numpy as np
import template, games
from racedeck.kernels.loops import compiled_loops

out = {}
for name in ("one_more", "twice"):
    each = compiled_loops(template, {"f": getattr(games, name)})["each"]
    got = np.zeros(3, np.int64)
    each(np.arange(3, dtype=np.int64), got)
    out[name] = [got.tolist(), sum(each.stats.cache_hits.values())]
print(json.dumps(out))
"""


def _run(folder: Path) -> dict[str, list[object]]:
    done = subprocess.run(
        [sys.executable, "-c", RUN],
        cwd=folder,
        env={
            "PYTHONPATH": f"{folder}:{Path(search_loop.__file__).parents[2]}",
            "NUMBA_CACHE_DIR": str(folder / "cache"),
        },
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, list[object]] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_a_later_process_loads_each_games_loops_from_the_cache(tmp_path: Path) -> None:
    (tmp_path / "template.py").write_text(textwrap.dedent(TEMPLATE))
    (tmp_path / "games.py").write_text(textwrap.dedent(GAMES))
    first = _run(tmp_path)
    assert first == {"one_more": [[1, 2, 3], 0], "twice": [[0, 2, 4], 0]}
    second = _run(tmp_path)  # the same results, from the cache
    assert second == {"one_more": [[1, 2, 3], 1], "twice": [[0, 2, 4], 1]}


def test_loops_around_local_functions_are_not_cached() -> None:
    @numba.njit
    def local(ints, bits, i, t):  # type: ignore[no-untyped-def]
        return 0

    functions = {name: local for name in ("current_player", "legal", "apply")}
    functions.update({n: local for n in ("heuristic_action", "redeal", "group", "horizon")})
    functions.update({n: local for n in ("estimate", "values")})
    run = compiled_loops(search_loop, functions)["run"]
    assert not run._cache.__class__.__name__.endswith("FunctionCache")
