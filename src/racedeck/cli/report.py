"""``racedeck report``: a balance report of seeded games between bots, as an HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import racedeck
from racedeck.cli.console import console, err_console, fail
from racedeck.cli.options import game_config

__all__ = ["report"]


def _lineup(game_id: str, seats: int, bots: str | None) -> tuple[str, ...]:
    from racedeck.bots.registry import available_bots

    if bots is None:  # the heuristic bot where the game has one, else the random bot
        bots = "heuristic" if "heuristic" in available_bots(game_id) else "random"
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise fail(f"{seats} seats need 1 or {seats} bot names, got {len(names)}")
    return tuple(names)


def report(
    game: Annotated[str, typer.Argument(help="game id, see racedeck games", metavar="GAME")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="folder for index.html, the PNG plots, data.json and games.jsonl",
            file_okay=False,
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help="games in the main batch (comparison batches play half, or see --detect)",
        ),
    ] = 1000,
    detect: Annotated[
        float | None,
        typer.Option(
            "--detect",
            help="size the comparison batches to tell win shares this many percentage points "
            "apart (95% confidence, 80% power), e.g. 5",
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="bots by seat, comma separated (one = every seat); a mixed lineup is rotated "
            "one seat per game; default: heuristic where the game has one, else random"
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="local processes (default: every core)")
    ] = None,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="run on Ray at this address: auto, local or ray://host:10001"),
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", help="rule variant, e.g. tactical")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", metavar="KEY=VALUE", help="any game option, see racedeck games GAME"
        ),
    ] = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            "--policy",
            help="a saved policy (.npz) for the section on what a learned bot teaches; "
            "default: the learned bot that ships for this configuration, if any",
            dir_okay=False,
        ),
    ] = None,
    policy_games: Annotated[
        int,
        typer.Option(
            "--policy-games",
            help="deals of the section on the learned bot (each played twice: it in one seat, "
            "and the field bot alone)",
        ),
    ] = 150,
) -> None:
    """Write a balance report of GAME as a web page with plots.

    The report, DIR/index.html, gives win shares by seat and bot with significance tests,
    score and length distributions and the game's own measures.

    Every finished game is saved in DIR/games.jsonl at once: after Ctrl-C the same command
    continues where it stopped.

    With --policy PATH, or when a learned bot ships for the configuration, the report adds
    what the learned policy teaches: its opening choices, how it plays the game's aim (Why
    First?: second place) and how its value estimates move through a game.
    """
    try:
        config = game_config(game, option or [], players=players, variant=variant)
        seats = racedeck.make(game, **config).num_players
    except (KeyError, ValueError, TypeError) as exc:
        raise fail(str(exc).strip('"')) from exc
    if games < 1:
        raise fail(f"--games {games} is not allowed: at least 1")
    if workers is not None and workers < 1:
        raise fail(f"--workers {workers} is not allowed: at least 1")
    if policy_games < 1:
        raise fail(f"--policy-games {policy_games} is not allowed: at least 1")
    # Imported here: plotting loads matplotlib, which every other command can do without.
    from racedeck.cli.progress import game_progress
    from racedeck.report.build import ReportRequest, ReportRun
    from racedeck.report.journal import FILE_NAME
    from racedeck.report.lessons.play import learned_policy
    from racedeck.report.lessons.section import absent_note

    request = ReportRequest(
        game_id=game,
        config=config,
        bots=_lineup(game, seats, bots),
        games=games,
        out=out,
        seed=seed,
        workers=workers,
        ray_address=ray,
        detect=None if detect is None else detect / 100,
        policy=learned_policy(game, config, policy),
        policy_games=policy_games,
    )
    try:
        run = ReportRun(request)
    except (KeyError, ValueError, TypeError) as exc:
        raise fail(str(exc).strip('"')) from exc
    journal = out / FILE_NAME
    if run.reused:
        err_console.print(f"Reusing {run.reused:,} games saved in {journal}.")
    if run.ignored:
        err_console.print(
            f"[yellow]{run.ignored:,} saved games in {journal} were played with other "
            "parameters and are not used.[/]"
        )
    try:
        with game_progress(run.total, f"{game} report", completed=run.done) as advance:
            run.play(advance)
    except KeyboardInterrupt:
        err_console.print(
            f"\n[yellow]Interrupted.[/] Kept {run.done:,} of {run.total:,} games in {journal} "
            f"({run.played:,} new); run the same command again to play the rest."
        )
        raise typer.Exit(130) from None
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if request.policy is not None:
        with game_progress(policy_games, f"{request.policy} in one seat") as advance:
            run.play_lessons(advance)
    else:
        err_console.print(f"Learned policy: {absent_note(game)}.")
    with err_console.status("Analysing the games and drawing the plots…"):
        result = run.write()
    console.print(f"[bold]{result.title}[/] · {run.played:,} games played, {run.reused:,} reused")
    for line in result.summary:
        console.print(f"• {line}", highlight=False)
    console.print(f"Report: {out / 'index.html'}")
