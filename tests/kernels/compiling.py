"""One test process compiles a kernel while the others that need it wait for Numba's cache.

``make test`` runs several processes; each compiling the same kernel at once cost a minute of
the run on two cores. :func:`compile_once` takes a lock in a folder every process shares, runs
what compiles the kernel (a small game), and lets the next process in, which then loads the
compiled code from the cache.
"""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from pathlib import Path

import pytest


def compile_once(factory: pytest.TempPathFactory, name: str, compile: Callable[[], object]) -> None:
    """Run ``compile`` under the lock ``name`` shared by every test process of the run."""
    shared: Path = factory.getbasetemp().parent  # one folder for every process
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            compile()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
