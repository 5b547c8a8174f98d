"""Scripted answers for the terminal's prompts, shared by the CLI tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def script(*answers: str) -> Callable[[str], str]:
    """An ``ask`` giving ``answers`` in turn; the test fails if it is asked once more, so a UI
    that keeps re-asking cannot loop forever."""
    given = iter(answers)

    def ask(prompt: str) -> str:
        answer = next(given, None)
        if answer is None:
            pytest.fail(f"asked again after the answers ran out: {prompt!r}")
        return answer

    return ask
