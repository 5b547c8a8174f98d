"""Read-only deep copies of JSON-like values, and their JSON form again.

Events and views hand out data that no holder may change for another: :func:`freeze` makes a
copy that cannot be changed, :func:`thaw` gives back fresh dicts and lists for JSON.
:func:`freeze_owned` does what :func:`freeze` does for a dict that nobody else holds, without
copying the dict itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["freeze", "freeze_owned", "thaw"]

# Exact types first: an ``isinstance`` check against an ABC such as ``Mapping`` costs several
# times a type lookup, and views and events are thawed for every frame the server sends.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """A read-only deep copy: mappings become mapping proxies, lists and tuples tuples."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    # Most of what is frozen holds only scalars: a loop in this frame finds out (a
    # comprehension would be a frame of its own), then one copy at C speed; a tuple of
    # scalars is frozen already.
    if kind is dict or kind is MappingProxyType:
        for v in value.values():
            if type(v) not in _SCALARS:
                return MappingProxyType(
                    {k: v if type(v) in _SCALARS else freeze(v) for k, v in value.items()}
                )
        return MappingProxyType(dict(value))
    if kind is tuple or kind is list:
        for v in value:
            if type(v) not in _SCALARS:
                return tuple([v if type(v) in _SCALARS else freeze(v) for v in value])
        return value if kind is tuple else tuple(value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple([freeze(v) for v in value])
    return value


def freeze_owned(value: dict[str, Any]) -> Mapping[str, Any]:
    """:func:`freeze` for a dict that nobody else holds or will change: its nested values are
    frozen where they are (copies, as :func:`freeze` makes) and the dict itself is only
    wrapped read-only, not copied. The caller gives ``value`` up: it is changed in place."""
    for key, v in value.items():
        if type(v) not in _SCALARS:
            # Replacing the value of a key that is there leaves the iteration valid.
            value[key] = freeze(v)
    return MappingProxyType(value)


def thaw(value: Any) -> Any:
    """The JSON form of a (frozen) value: fresh dicts and lists the caller may change."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    # As in freeze: scalars without a call (every frame the server sends is thawed).
    if kind is MappingProxyType or kind is dict:
        return {k: v if type(v) in _SCALARS else thaw(v) for k, v in value.items()}
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value
