"""The ``racedeck`` command: list games, play in the terminal, simulate, replay.

Only what every command needs is imported here; each command imports its own heavy parts
(SQLAlchemy, the simulator, the bots, plotting) when it runs, so ``racedeck --help`` starts at
once.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import racedeck
from racedeck.cli.compile import compile_cmd
from racedeck.cli.console import console, err_console, fail
from racedeck.cli.games import print_game, print_games
from racedeck.cli.options import game_config, options_shown
from racedeck.cli.records import default_record_path
from racedeck.cli.replay import replay_cmd
from racedeck.cli.report import report as report_cmd
from racedeck.cli.rules import rules as rules_cmd
from racedeck.cli.serve import serve as serve_cmd
from racedeck.cli.tournament import tournament as tournament_cmd
from racedeck.cli.train import train as train_cmd
from racedeck.cli.usage import OneLineErrors
from racedeck.cli.verify import verify_cmd
from racedeck.cli.versus import versus as versus_cmd
from racedeck.extras import MissingExtra, missing_extra

if TYPE_CHECKING:
    from racedeck.sim.simulate import SimulationResult

app = typer.Typer(
    cls=OneLineErrors,
    help="Play, study and train AI on racing card games.",
    no_args_is_help=True,
    add_completion=False,
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("racedeck")
        except PackageNotFoundError:  # run from a source tree that was never installed
            shown = racedeck.__version__
        typer.echo(f"racedeck {shown}")
        raise typer.Exit()


@app.callback()
def _main(
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_show_version,
            is_eager=True,
            metavar="",
        ),
    ] = False,
) -> None:
    """Play, study and train AI on racing card games."""


GameArg = Annotated[str, typer.Argument(help="game id, see racedeck games", metavar="GAME")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="rule variant, e.g. tactical")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", metavar="KEY=VALUE", help="any game option, see racedeck games GAME"
    ),
]
RidersOpt = Annotated[
    int | None, typer.Option("--riders", help="riders per player (Six Day Race: 1 or 2)")
]
RacesOpt = Annotated[int | None, typer.Option("--races", help="races in the series (Six Day Race)")]
PresetOpt = Annotated[
    str | None,
    typer.Option("--preset", help="how long to play: quick, standard or long (see racedeck games)"),
]


def _config(
    game_id: str,
    players: int | None,
    variant: str | None,
    options: list[str] | None,
    preset: str | None = None,
    **named: int | str | None,
) -> dict[str, Any]:
    """The game options from the command line, checked by the game: a ``preset``'s, then
    ``options``; ``named`` are options given by their own flag."""
    try:
        return game_config(
            game_id, options or [], preset=preset, players=players, variant=variant, **named
        )
    except ValueError as exc:
        raise fail(str(exc)) from exc


@app.command()
def games(
    game: Annotated[
        str | None,
        typer.Argument(help="a game id: that game's options, bots and rules", metavar="GAME"),
    ] = None,
) -> None:
    """List the games; with GAME, one game's options, bots and rules.

    The list gives each game's players, summary, option names and bots; GAME adds every
    option's default, allowed values and meaning.
    """
    if game is None:
        print_games(console)
    elif game not in racedeck.available_games():
        raise fail(f"unknown game {game!r}; games are {', '.join(racedeck.available_games())}")
    else:
        print_game(console, game)


@app.command()
def play(
    game: GameArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    riders: RidersOpt = None,
    races: RacesOpt = None,
    preset: PresetOpt = None,
    seed: Annotated[int | None, typer.Option(help="seed of the deal (random if omitted)")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="level of the other seats: beginner, casual, strong or expert (or a bot "
            "name, or a comma list, one per other seat); default: casual"
        ),
    ] = None,
    seat: Annotated[int, typer.Option(help="your seat, 1-based")] = 1,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
    record: Annotated[Path | None, typer.Option(help="where to save the game record")] = None,
) -> None:
    """Play GAME in the terminal against bots."""
    import secrets

    from racedeck.bots.registry import available_levels, make_bot
    from racedeck.cli.play import play_in_terminal

    config = _config(game, players, variant, option, preset, riders=riders, races=races)
    g = racedeck.make(game, **config)
    n = g.num_players
    if not 1 <= seat <= n:
        raise fail(f"--seat {seat} is not allowed: a game of {n} players has seats 1 to {n}")
    if bots is None:  # a level that any newcomer can beat now and then, and learn from
        bots = "casual" if "casual" in available_levels(game) else "beginner"
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * n
    elif len(names) == n - 1:
        names = [*names[: seat - 1], "human", *names[seat - 1 :]]
    if len(names) != n:
        raise fail(
            f"--bots {bots!r} is not allowed: name 1 bot or {n - 1} (one for each other seat), "
            f"got {len(names)}"
        )
    try:
        for i, b in enumerate(names):  # an unknown bot is refused before the deal
            if i != seat - 1:
                make_bot(b, g, i, 0)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if seed is None:
        seed = secrets.randbelow(2**31)
    path = record or default_record_path(game, seed)
    if path.exists() and not path.is_file():
        raise fail(f"--record {path} is not a file; name a file to save the game to")
    code = play_in_terminal(g, seed, seat - 1, names, path, console, console.input, name)
    raise typer.Exit(code)


def _print_simulation(result: SimulationResult) -> None:
    from rich.table import Table

    options = options_shown(result.game, result.config)
    table = Table(
        title=f"{result.game} · {result.games} games · seed {result.seed}"
        + (f" · {options}" if options else "")
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
    preset: PresetOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            help="bots by seat, comma separated (one = all): a level (beginner, casual, strong, "
            "expert) or a bot name"
        ),
    ] = "random",
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    workers: Annotated[int, typer.Option(help="processes to use")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="print JSON instead of a table", metavar="")
    ] = False,
) -> None:
    """Simulate games between bots: win shares with 95% intervals.

    Prints each seat's win share, mean score and mean rank (and each bot's share when the
    lineup mixes bots); --json prints the same as JSON.
    """
    from racedeck.bots.registry import make_bot
    from racedeck.cli.progress import game_progress
    from racedeck.sim.simulate import simulate

    config = _config(game, players, variant, option, preset, riders=riders, races=races)
    g = racedeck.make(game, **config)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * g.num_players
    if len(names) != g.num_players:
        raise fail(
            f"--bots {bots!r} is not allowed: {g.num_players} seats need 1 or "
            f"{g.num_players} bot names, got {len(names)}"
        )
    try:
        for bot in set(names):  # an unknown bot is refused before anything is played
            make_bot(bot, g, 0, 0)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if games < 1:
        raise fail(f"--games {games} is not allowed: at least 1")
    if workers < 1:
        raise fail(f"--workers {workers} is not allowed: at least 1")
    try:
        with game_progress(games, game, console=err_console, transient=as_json) as advance:
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
app.command(name="versus")(versus_cmd)
app.command(name="train")(train_cmd)
app.command(name="report")(report_cmd)
app.command(name="serve")(serve_cmd)
app.command(name="rules")(rules_cmd)
app.command(name="replay")(replay_cmd)
app.command(name="verify")(verify_cmd)
app.command(name="compile")(compile_cmd)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - Ctrl-C outside a command's own handling
        sys.exit(130)
    except ModuleNotFoundError as exc:
        # An optional dependency a command imports when it runs (numba for train, pyspiel …):
        # one line naming the extra to install rather than the traceback of the import.
        command = " ".join(["racedeck", *sys.argv[1:2]])
        missing = exc if isinstance(exc, MissingExtra) else missing_extra(exc, command)
        if missing is None:
            raise
        fail(str(missing))  # outside the command Click no longer turns typer.Exit into a code
        sys.exit(1)


if __name__ == "__main__":
    main()
