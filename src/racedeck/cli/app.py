"""The ``racedeck`` command: list games, play in the terminal, simulate, replay."""

from __future__ import annotations

import json
import secrets
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import racedeck
from racedeck.bots.registry import available_bots
from racedeck.cli.console import console, err_console, fail
from racedeck.cli.options import game_config
from racedeck.cli.play import play_in_terminal
from racedeck.cli.records import default_record_path
from racedeck.cli.replay import replay_cmd
from racedeck.cli.report import report as report_cmd
from racedeck.cli.rules import rules as rules_cmd
from racedeck.cli.serve import serve as serve_cmd
from racedeck.cli.tournament import tournament as tournament_cmd
from racedeck.sim.simulate import SimulationResult, simulate

app = typer.Typer(
    help="Play, study and train AI on racing card games.",
    no_args_is_help=True,
    add_completion=False,
)

GameArg = Annotated[str, typer.Argument(help="game id, see `racedeck games`")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="rule variant, e.g. tactical")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="any game option as key=value")
]
RidersOpt = Annotated[
    int | None, typer.Option("--riders", help="riders per player (Six Day Race: 1 or 2)")
]
RacesOpt = Annotated[int | None, typer.Option("--races", help="races in the series (Six Day Race)")]


def _config(
    game_id: str,
    players: int | None,
    variant: str | None,
    options: list[str] | None,
    **named: int | str | None,
) -> dict[str, Any]:
    """The game options from the command line, checked by the game; ``named`` are options
    given by their own flag."""
    try:
        return game_config(game_id, options or [], players=players, variant=variant, **named)
    except ValueError as exc:
        raise fail(str(exc)) from exc


@app.command()
def games() -> None:
    """List the games, their player counts and options."""
    for game_id in racedeck.available_games():
        spec = racedeck.get_spec(game_id)
        table = Table(
            title=f"[bold]{spec.title}[/] ({spec.id}) · {spec.min_players}–{spec.max_players} "
            f"players · rules v{spec.rules_version}",
            title_justify="left",
            caption=spec.summary,
            caption_justify="left",
        )
        table.add_column("option")
        table.add_column("default")
        table.add_column("meaning")
        for opt in spec.options():
            default = opt.default
            shown = (
                f"{len(default)} values"
                if isinstance(default, tuple) and len(default) > 8
                else str(default)
            )
            table.add_row(opt.name, shown, opt.help)
        console.print(table)
        console.print(f"bots: {', '.join(available_bots(game_id))}")
        console.print(f"rules: racedeck rules {game_id}\n", highlight=False)


@app.command()
def play(
    game: GameArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    riders: RidersOpt = None,
    races: RacesOpt = None,
    seed: Annotated[int | None, typer.Option(help="seed of the deal (random if omitted)")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="bot for the other seats (or a comma list); default: heuristic where the "
            "game has one, else random"
        ),
    ] = None,
    seat: Annotated[int, typer.Option(help="your seat, 1-based")] = 1,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
    record: Annotated[Path | None, typer.Option(help="where to save the game record")] = None,
) -> None:
    """Play GAME in the terminal against bots."""
    config = _config(game, players, variant, option, riders=riders, races=races)
    g = racedeck.make(game, **config)
    n = g.num_players
    if not 1 <= seat <= n:
        raise fail(f"--seat must be between 1 and {n}")
    known = available_bots(game)
    if bots is None:  # the heuristic bot where the game has one, else the random bot
        bots = "heuristic" if "heuristic" in known else "random"
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * n
    elif len(names) == n - 1:
        names = [*names[: seat - 1], "human", *names[seat - 1 :]]
    if len(names) != n:
        raise fail(f"--bots needs 1 or {n - 1} names, got {len(names)}")
    for i, b in enumerate(names):
        if i != seat - 1 and b not in known:
            raise fail(f"no bot {b!r} for {game}; available: {', '.join(known)}")
    if seed is None:
        seed = secrets.randbelow(2**31)
    path = record or default_record_path(game, seed)
    code = play_in_terminal(g, seed, seat - 1, names, path, console, console.input, name)
    raise typer.Exit(code)


def _print_simulation(result: SimulationResult) -> None:
    table = Table(
        title=f"{result.game} · {result.games} games · seed {result.seed} · "
        f"{json.dumps(result.config)}"
    )
    for col, justify in [
        ("seat", "left"),
        ("bot", "left"),
        ("win share", "right"),
        ("95% CI", "right"),
        ("mean score", "right"),
        ("mean rank", "right"),
    ]:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for c in result.contestants:
        table.add_row(
            c.name,
            c.bot,
            f"{c.win_share.value:.1%}",
            f"{c.win_share.low:.1%} – {c.win_share.high:.1%}",
            f"{c.mean_score:.2f}",
            f"{c.mean_rank:.2f}",
        )
    console.print(table)
    if len(result.by_bot) > 1:
        fair = 1 / len(result.contestants)
        by_bot = Table(title=f"by bot (a fair share is {fair:.1%} per seat)")
        by_bot.add_column("bot")
        by_bot.add_column("win share per seat", justify="right")
        by_bot.add_column("95% CI", justify="right")
        for bot_name, share in result.by_bot.items():
            by_bot.add_row(bot_name, f"{share.value:.1%}", f"{share.low:.1%} – {share.high:.1%}")
        console.print(by_bot)


@app.command(name="simulate")
def simulate_cmd(
    game: GameArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    riders: RidersOpt = None,
    races: RacesOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 1000,
    bots: Annotated[str, typer.Option(help="bots by seat, comma separated (one = all)")] = (
        "random"
    ),
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    workers: Annotated[int, typer.Option(help="processes to use")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False,
) -> None:
    """Simulate many games between bots and report win shares with 95% intervals."""
    config = _config(game, players, variant, option, riders=riders, races=races)
    g = racedeck.make(game, **config)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * g.num_players
    if len(names) != g.num_players:
        raise fail(f"{g.num_players} seats need 1 or {g.num_players} bot names, got {len(names)}")
    if games < 1:
        raise fail("--games must be at least 1")
    started = time.perf_counter()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=as_json,
    )
    try:
        with progress:
            task = progress.add_task(f"{game}", total=games, rate="–")

            def advance(k: int) -> None:
                progress.advance(task, k)
                done = progress.tasks[0].completed
                rate = done / max(time.perf_counter() - started, 1e-9)
                progress.update(task, rate=f"{rate:,.0f}")

            result = simulate(game, config, names, games, seed, workers, advance)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    except KeyboardInterrupt:
        err_console.print("[yellow]Simulation interrupted.[/]")
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        _print_simulation(result)


app.command(name="tournament")(tournament_cmd)
app.command(name="report")(report_cmd)
app.command(name="serve")(serve_cmd)
app.command(name="rules")(rules_cmd)
app.command(name="replay")(replay_cmd)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - Ctrl-C outside a command's own handling
        sys.exit(130)
