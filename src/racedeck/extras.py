"""Optional dependencies: which pip extra brings each one, and a one-line message when it is
missing.

>>> with needs("PettingZoo's environments"):
...     from racedeck.rl.aec import RacedeckAEC

Without PettingZoo installed this raises :class:`MissingExtra`, a
:class:`ModuleNotFoundError` whose message is the whole story — ``PettingZoo's environments:
pettingzoo is not installed; pip install 'racedeck[rl]'`` — instead of the import error of a
module deep inside the face. The command line and the examples catch it and print that line
alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXTRA_OF", "MissingExtra", "install_hint", "missing_extra", "needs"]

EXTRA_OF: dict[str, str | None] = {
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "numba": "rl",
    "pyspiel": "rl",
    "open_spiel": "rl",
    "torch": "examples",
    "sb3_contrib": "examples",
    "stable_baselines3": "examples",
    "ray": "ray",
    "jax": "jax",
    "jaxlib": "jax",
    # racedeck's own dependencies: missing only from a broken installation.
    "numpy": None,
    "matplotlib": None,
    "PIL": None,
    "rich": None,
}
"""The pip extra of ``racedeck`` that installs each optional top-level module (``None``: racedeck
itself depends on it). The names are those of ``[project.optional-dependencies]``."""


class MissingExtra(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the pip extra to install
    (``name`` is the missing module, as for any :class:`ModuleNotFoundError`)."""


def install_hint(module: str) -> str:
    """What to install for the top-level ``module``: ``pip install 'racedeck[rl]'`` …"""
    extra = EXTRA_OF.get(module)
    return f"pip install 'racedeck[{extra}]'" if extra else "pip install --force-reinstall racedeck"


def missing_extra(exc: ModuleNotFoundError, what: str) -> MissingExtra | None:
    """The :class:`MissingExtra` that ``exc`` means for ``what`` (``None`` when the missing
    module is none of :data:`EXTRA_OF`'s: a module of racedeck's own, a typo …)."""
    module = (exc.name or "").split(".")[0]
    if module not in EXTRA_OF:
        return None
    return MissingExtra(f"{what}: {module} is not installed; {install_hint(module)}", name=module)


@contextmanager
def needs(what: str) -> Iterator[None]:
    """Turn a missing optional module, imported inside the block, into :class:`MissingExtra`
    saying what ``what`` lacks and which extra installs it. Other import errors pass
    unchanged."""
    try:
        yield
    except MissingExtra:
        raise  # an inner block said it already, closer to what needs the module
    except ModuleNotFoundError as exc:
        missing = missing_extra(exc, what)
        if missing is None:
            raise
        raise missing from None  # the one line says it all: no chain of library frames
