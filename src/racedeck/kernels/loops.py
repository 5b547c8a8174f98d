"""Compiled loops around one game's kernel functions, cached on disk like the kernels.

The loops that step a batch (:mod:`racedeck.kernels.batch_loops`) or run the search
(:mod:`racedeck.kernels.search_loop`) are the same for every game; only the game functions they
call differ. Built as closures around those functions, Numba compiled them again in every
process (its cache cannot key a closure over other compiled functions), a few seconds a game
each time. Here a loop module is a *template*: :func:`compiled_loops` executes its code again
in a namespace of its own where the game's functions take the places of the template's
placeholders, and compiles its loops with Numba's cache on, each under a name made from the
game's functions, so every game has its own entries in the cache and a later process loads
them at once.

The cache entry of a loop is keyed by the template's file (its changes invalidate it, as any
cached function's), the loop's bytecode and its argument types; a change to a game function
the loop calls is, as for every cached kernel that calls another, not seen until the cache is
cleared (a fresh checkout compiles afresh). Functions defined inside other functions (a test's
stand-ins) cannot be named reliably, so loops around them are compiled without the cache.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from types import ModuleType
from typing import Any

import numba

__all__ = ["compiled_loops"]


def compiled_loops(template: ModuleType, functions: dict[str, Any]) -> dict[str, Any]:
    """The loops of ``template`` (its ``LOOPS``) compiled around ``functions`` (name →
    compiled game function, for the template's placeholders); once per process and set of
    functions."""
    key = tuple(sorted(functions.items(), key=lambda item: item[0]))
    return _compiled(template, key)


@cache
def _compiled(template: ModuleType, functions: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    names = [_name(f) for _, f in functions]
    cached = all("<locals>" not in n for n in names)
    tag = "g" + hashlib.sha256("\n".join(names).encode()).hexdigest()[:12]
    path = template.__file__
    assert path is not None
    with open(path, encoding="utf-8") as source:
        code = compile(source.read(), path, "exec")
    # A module of its own, registered under a name made from the functions: a cached loop's
    # globals are found again by that name when a later process loads it.
    module = ModuleType(f"{template.__name__}__{tag}")
    module.__file__ = path
    sys.modules[module.__name__] = module
    space = module.__dict__
    exec(code, space)  # the template's own code, in the module of its own
    space.update(functions)
    # Without reference counting: the loops make no array, and with it every array taken out of
    # a kernel's tables (a tuple of views) cost an atomic increment and decrement per call.
    flags: dict[str, Any] = {"_nrt": False, "cache": cached}
    for loop in space["LOOPS"]:
        plain = space[loop]
        plain.__qualname__ = f"{tag}.{loop}"  # the cache's index is named after it
        space[loop] = numba.njit(**flags)(plain)
    return {loop: space[loop] for loop in space["LOOPS"]}


def _name(function: Any) -> str:
    """``module.qualname`` of a compiled (or plain) function."""
    plain = getattr(function, "py_func", function)
    return f"{plain.__module__}.{plain.__qualname__}"
