"""Configurations from strangers: every option of every registered game is checked by its type
and declared bounds, and refused with a message naming the option, the value and what is
allowed (``config/invalid``)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from dash_game import SPEC as DASH

import racedeck
from racedeck.core.errors import InvalidConfig
from racedeck.core.spec import MAX_ITEMS, GameSpec


def _options(spec: GameSpec) -> list[tuple[str, Any, dict[str, Any], Any]]:
    """(name, type, declared bounds, default) of every option."""
    hints = typing.get_type_hints(spec.config_type)
    return [
        (f.name, hints[f.name], dict(f.metadata), f.default)
        for f in dataclasses.fields(spec.config_type)
    ]


def _wrong_types(hint: Any) -> list[Any]:
    """Values of another type than ``hint`` that a careless client might send."""
    if hint is int:
        return [True, 2.5, 3.0, "3", None, [3]]
    if hint is bool:
        return ["maybe", "true", 1, 0, None]
    if hint is str:
        return [3, True, None, ["a"]]
    if typing.get_origin(hint) is tuple:
        return ["abc", 7, None, {"a": 1}]
    raise AssertionError(f"no wrong values known for {hint}")


def _cases() -> list[Any]:
    cases = []
    for spec in [*(racedeck.get_spec(g) for g in racedeck.available_games()), DASH]:
        for name, hint, _, _ in _options(spec):
            for value in _wrong_types(hint):
                cases.append(pytest.param(spec, name, value, id=f"{spec.id}-{name}={value!r}"))
    return cases


def _refused(spec: GameSpec, name: str, value: Any) -> InvalidConfig:
    with pytest.raises(InvalidConfig) as refused:
        spec.make_config(**{name: value})
    assert refused.value.code == "config/invalid"
    assert refused.value.option == name
    return refused.value


@pytest.mark.parametrize(("spec", "name", "value"), _cases())
def test_a_value_of_the_wrong_type_is_refused_by_name(
    spec: GameSpec, name: str, value: Any
) -> None:
    message = str(_refused(spec, name, value))
    assert f"option {name}=" in message and "not allowed" in message and "expected" in message


@pytest.mark.parametrize(
    "spec",
    [*(racedeck.get_spec(g) for g in racedeck.available_games()), DASH],
    ids=lambda s: s.id,
)
def test_declared_bounds_and_list_sizes_are_enforced(spec: GameSpec) -> None:
    for name, hint, meta, default in _options(spec):
        lo, hi, choices = meta.get("min"), meta.get("max"), meta.get("choices")
        if hint is int and lo is not None:
            assert "below" in str(_refused(spec, name, lo - 1))
        if hint is int and hi is not None:
            assert "above" in str(_refused(spec, name, hi + 1))
        if choices:
            # A value of the right type outside the choices, named as such.
            outside = "no-such-choice" if hint is str else max(choices) + 1
            if hint is int and hi is not None and outside > hi:
                outside = min(choices) - 1
            message = str(_refused(spec, name, outside))
            assert "one of" in message and str(outside) in message
        if typing.get_origin(hint) is tuple and isinstance(default, tuple):
            limit = meta.get("max_items") or MAX_ITEMS
            if len(default) and typing.get_args(hint)[-1] is Ellipsis:
                too_many = (default[0],) * (limit + 1)
                assert f"at most {limit} items" in str(_refused(spec, name, too_many))
    # The defaults, as JSON, make the same configuration again.
    config = spec.make_config()
    assert spec.make_config(**config.to_json()) == config


def test_dash_bounds_name_what_is_allowed() -> None:
    message = str(_refused(DASH, "goal", 31))
    assert message == "dash: option goal=31 is not allowed: above 30 (allowed: integer, 3 to 30)"
    assert "below 1" in str(_refused(DASH, "hand_size", 0))
    assert DASH.make_config(goal=30, hand_size=1).to_json()["goal"] == 30


@pytest.mark.parametrize("game_id", racedeck.available_games())
def test_unknown_options_and_player_counts_are_refused(game_id: str) -> None:
    spec = racedeck.get_spec(game_id)
    with pytest.raises(InvalidConfig, match="unknown option") as unknown:
        spec.make_config(random_firsts=True)
    assert unknown.value.option == "random_firsts"
    for players in (spec.min_players - 1, spec.max_players + 1):
        assert "players" in str(_refused(spec, "players", players))


@pytest.mark.parametrize(
    ("game_id", "option", "value"),
    [
        ("why-first", "stages", 2.5),  # a game that would never end
        ("why-first", "hand_size", 3.0),  # crashed mid-game
        ("six-day-race", "races", 2.5),
        ("six-day-race", "random_first", "maybe"),  # was written into the record
        ("setback", "lanes", "3"),
    ],
)
def test_the_values_found_by_the_probe_are_refused(game_id: str, option: str, value: Any) -> None:
    _refused(racedeck.get_spec(game_id), option, value)
