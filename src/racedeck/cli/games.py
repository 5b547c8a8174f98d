"""``racedeck games``: every game in a few lines, or one game in detail."""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.console import Console
from rich.padding import Padding
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


def _levels(game_id: str) -> str:
    """The levels in one line, each with the bot that plays it: ``beginner (random), …``."""
    from racedeck.bots.levels import level_bot
    from racedeck.bots.registry import available_levels

    return ", ".join(
        f"{level} ({level_bot(level, game_id)})" for level in available_levels(game_id)
    )


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
        console.print(Text(f"Options: {names}"))
        console.print(Text(f"Levels: {_levels(game_id)}"))
        console.print(Text(f"Bots: {_bots(game_id)}"))
        console.print()
    console.print("Details of one game: [bold]racedeck games GAME[/]")


def print_game(console: Console, game_id: str) -> None:
    """One game in detail: what it is, its options with defaults, allowed values and
    meaning, its variants and bots, and where its rules are."""
    spec = racedeck.get_spec(game_id)
    console.print(
        f"[bold]{spec.title}[/] ({spec.id}) · {_players(spec)} · rules v{spec.rules_version}"
    )
    console.print(Text(spec.summary))
    console.print()
    console.print("[bold]Options[/] (-o key=value on play, simulate, tournament and report):")
    for opt in spec.options():
        line = Text("  ")
        line.append(f"{opt.name} = {_default(opt)}", style="bold")
        if opt.allowed:
            line.append(f" · {opt.allowed}", style="dim")
        console.print(line)
        console.print(Padding(Text(opt.help), (0, 0, 0, 6)))
    console.print()
    if spec.presets:
        lengths = [
            f"{name} ({', '.join(f'{k}={v}' for k, v in options.items()) or 'as the rulebook'})"
            for name, options in spec.presets.items()
        ]
        console.print(Text(f"Presets: {', '.join(lengths)} (--preset NAME)"))
    variants = _variants(spec)
    if variants:
        console.print(Text(f"Variants: {', '.join(map(str, variants))} (--variant NAME)"))
    console.print(Text(f"Levels: {_levels(game_id)} (--bots LEVEL)"))
    console.print(Text(f"Bots: {_bots(game_id)} (--bots NAME)"))
    console.print(Text(f"Rules: racedeck rules {spec.id}, or docs/rules/{spec.id}.md"))
