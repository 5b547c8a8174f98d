"""``racedeck versus``: one bot against another on the same deals, every side in every seat."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

import racedeck
from racedeck.cli.console import console, err_console, fail
from racedeck.cli.options import (
    GameArgument,
    OptionsOption,
    PlayersOption,
    game_config,
    options_shown,
)

if TYPE_CHECKING:  # loaded by the command when it runs: the simulator and the bots
    from racedeck.sim.versus import VersusResult

__all__ = ["print_versus", "versus"]


def _seconds(value: float) -> str:
    """A time per decision in the unit that keeps it readable: ``12.3 µs``, ``4.56 ms``."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{1e3 * value:.3g} ms"
    return f"{1e6 * value:.3g} µs"


def _ratio(value: float) -> str:
    return "–" if value == float("inf") else f"{value:.3g}×"


def print_versus(result: VersusResult, out: Console | None = None) -> None:
    """Print each side's share of the win with its 95% interval and equal play's share, the
    games played, each side's time per decision and the ratio of the two."""
    out = out or console
    # The title names the players already.
    shown = options_shown(result.game, result.config).split(", ")
    options = ", ".join(o for o in shown if o and not o.startswith("players="))
    plans = len(result.seatings)
    table = Table(
        title=f"{result.game} · {result.players} players{f' · {options}' if options else ''} · "
        f"{result.games} games ({result.deals} deals × {plans} seatings) · seed {result.seed}",
        caption="equal: equal play's share · score: mean final score a seat · "
        "timed: decisions with a choice · time: wall time a timed decision",
        box=box.SIMPLE_HEAVY,
        pad_edge=False,
    )
    table.add_column("side", no_wrap=True)
    table.add_column("bot", overflow="fold", min_width=14)  # a policy's path may be long
    table.add_column("won (95% CI)", justify="right", no_wrap=True)
    table.add_column("equal", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("timed", justify="right", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    sides = [
        ("ours", result.ours, result.share, result.low, result.high, result.fair,
         result.ours_score, result.ours_decisions, result.ours_seconds_per_decision),
        ("theirs", result.theirs, 1 - result.share, 1 - result.high, 1 - result.low,
         1 - result.fair, result.theirs_score, result.theirs_decisions,
         result.theirs_seconds_per_decision),
    ]  # fmt: skip
    for side, bot, share, low, high, fair, score, decisions, seconds in sides:
        table.add_row(
            side,
            bot,
            f"{share:.1%} ({100 * low:.1f}–{100 * high:.1f})",
            f"{fair:.1%}",
            f"{score:.1f}",
            f"{decisions:,}",
            _seconds(seconds),
        )
    out.print(table)
    out.print(
        f"{result.ours} takes {_ratio(result.time_ratio)} the time per decision of {result.theirs}"
    )


def versus(
    game: GameArgument,
    ours: Annotated[str, typer.Argument(help="our bot, e.g. search@200", metavar="OURS")],
    theirs: Annotated[str, typer.Argument(help="the bot it meets", metavar="THEIRS")],
    players: PlayersOption = None,
    option: OptionsOption = None,
    deals: Annotated[int, typer.Option(help="deals, each played under every seating")] = 50,
    seed: Annotated[int, typer.Option(help="master seed")] = 1,
    workers: Annotated[
        int | None, typer.Option(help="processes to use (default: one per core)")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print JSON instead of a table", metavar="")
    ] = False,
) -> None:
    """Play bot OURS against bot THEIRS on the same deals: OURS's share of the win.

    OURS sits in every other seat (with an odd number of players in one seat), in every
    rotation, and each deal is played under every seating. Prints OURS's win share with its
    95% interval next to what equal play would give, and the time each bot takes per decision.
    """
    from racedeck.cli.progress import game_progress
    from racedeck.sim.versus import head_to_head, seatings

    try:
        config = game_config(game, option or [], players=players)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if deals < 1:
        raise fail(f"--deals {deals} is not allowed: at least 1")
    if workers is not None and workers < 1:
        raise fail(f"--workers {workers} is not allowed: at least 1")
    try:
        total = deals * len(seatings(racedeck.make(game, **config).num_players))
        with game_progress(total, game, console=err_console, transient=as_json) as advance:
            result = head_to_head(game, config, ours, theirs, deals, seed, workers, advance)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    except KeyboardInterrupt:
        err_console.print("[yellow]Head to head interrupted.[/]")
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        print_versus(result)
