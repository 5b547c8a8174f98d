"""``racedeck games``: every game in a few lines, or one game in detail."""

from __future__ import annotations

import dataclasses
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import racedeck
from racedeck.core.spec import GameSpec, OptionInfo

__all__ = ["print_game", "print_games"]

_LONG = 6
"""A default with more items than this is shown by its length ("32 values")."""


def _players(spec: GameSpec) -> str:
    return f"{spec.min_players}–{spec.max_players} players"


def _bots(game_id: str) -> str:
    # Imported here: the bots load the search machinery, which listing options does not need.
    from racedeck.bots.registry import available_bots

    return ", ".join(available_bots(game_id))


def _default(opt: OptionInfo) -> str:
    value = opt.default
    if isinstance(value, tuple):
        if len(value) > _LONG:
            return f"{len(value)} values"
        return "[" + ", ".join(_default_item(v) for v in value) + "]"
    return _default_item(value)


def _default_item(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_default_item(v) for v in value) + "]"
    return str(value)


def _variants(spec: GameSpec) -> tuple[Any, ...]:
    """The choices of the game's ``variant`` option (empty when it has none)."""
    for field in dataclasses.fields(spec.config_type):
        if field.name == "variant":
            return tuple(field.metadata.get("choices") or ())
    return ()


def print_games(console: Console) -> None:
    """Every game: title, id, players, what it is, its options and bots."""
    for game_id in racedeck.available_games():
        spec = racedeck.get_spec(game_id)
        console.print(
            f"[bold]{spec.title}[/] ({spec.id}) · {_players(spec)} · rules v{spec.rules_version}"
        )
        console.print(Text(spec.summary), style="dim")
        names = ", ".join(opt.name for opt in spec.options())
        console.print(Text(f"options: {names}"))
        console.print(Text(f"bots: {_bots(game_id)}"))
        console.print()
    console.print(
        "One game in detail, with every option's default and allowed values: "
        "[bold]racedeck games GAME[/]"
    )


def print_game(console: Console, game_id: str) -> None:
    """One game in detail: what it is, its options with defaults, allowed values and
    meaning, its variants and bots, and where its rules are."""
    spec = racedeck.get_spec(game_id)
    console.print(f"[bold]{spec.title}[/] ({spec.id})")
    console.print(f"{_players(spec)} · rules version {spec.rules_version}")
    console.print(Text(spec.summary))
    console.print()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
    table.add_column("option", no_wrap=True)
    table.add_column("default")
    table.add_column("allowed")
    table.add_column("meaning", ratio=1)
    for opt in spec.options():
        table.add_row(opt.name, _default(opt), opt.allowed, opt.help)
    console.print(table)
    variants = _variants(spec)
    if variants:
        console.print(
            Text(f"variants: {', '.join(map(str, variants))} (--variant NAME or -o variant=NAME)")
        )
    console.print(Text(f"bots: {_bots(game_id)}"))
    console.print(Text("options: -o key=value on play, simulate, tournament and report"))
    console.print(Text(f"rules: racedeck rules {spec.id}, or docs/rules/{spec.id}.md"))
