"""The depth limit on anything from outside (``MAX_DEPTH``): :func:`load_json` refuses exactly
the values that nest deeper, whether it walks the value or sees from the text that it need not
(a value cannot nest deeper than its text has opening brackets)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from racedeck.server.messages import MAX_DEPTH, NestedTooDeeply, load_json, nesting_depth


def _depth(value: Any) -> int:
    """The plain recursive definition."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _nest(depth: int, inner: Any) -> Any:
    for i in range(depth):
        inner = [inner] if i % 2 else {"k": inner, "n": 1}
    return inner


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(alphabet="ab{[", max_size=3),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(alphabet="xy[{", max_size=2), children, max_size=3)
    ),
    max_leaves=12,
)


@given(json_values, st.integers(min_value=MAX_DEPTH - 3, max_value=MAX_DEPTH + 3))
def test_refused_exactly_when_deeper_than_the_limit(inner: Any, depth: int) -> None:
    value = _nest(depth, inner)
    assert nesting_depth(value) == min(_depth(value), MAX_DEPTH + 1) or _depth(value) > MAX_DEPTH
    text = json.dumps(value)
    for form in (text, text.encode()):
        if _depth(value) > MAX_DEPTH:
            with pytest.raises(NestedTooDeeply):
                load_json(form)
        else:
            assert load_json(form) == value


@given(json_values)
def test_depth_of_any_value(value: Any) -> None:
    assert nesting_depth(value) == _depth(value)
