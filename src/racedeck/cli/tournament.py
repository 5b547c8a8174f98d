"""``racedeck tournament``: a resumable round robin between bots, stored game by game."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from racedeck.cli.console import console, err_console, fail
from racedeck.cli.db_option import check_db_folder
from racedeck.cli.options import game_config
from racedeck.store.locations import DEFAULT_DB

if TYPE_CHECKING:  # loaded by the command when it runs: the simulator, OpenSkill and SQLAlchemy
    from racedeck.sim.runner import PlayedGame
    from racedeck.sim.stats import Share
    from racedeck.sim.tournament import Tournament, TournamentResult
    from racedeck.store.tournaments import StoredGame, TournamentStore

__all__ = ["tournament"]


def _create(
    game: str,
    bots: str,
    players: int | None,
    variant: str | None,
    options: list[str] | None,
    seed: int,
) -> Tournament:
    from racedeck.sim.tournament import Tournament

    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        config = game_config(game, options or [], variant=variant)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if len(set(names)) < 2:
        # One bot would only play itself, and every rating would stay where it started.
        one = names[0] if names else "random"
        raise fail(
            f"--bots {bots!r}: a tournament rates two or more bots against each other; "
            f"for one bot in every seat, use racedeck simulate {game} --bots {one}"
        )
    try:
        return Tournament.create(game, names, players=players, config=config, seed=seed)
    except (KeyError, ValueError, TypeError) as exc:
        raise fail(str(exc).strip('"')) from exc


def _stored(played: PlayedGame, lineup: tuple[str, ...], seed: int) -> StoredGame:
    from racedeck.store.tournaments import StoredGame

    return StoredGame(
        index=played.index,
        lineup=lineup,
        seed=seed,
        outcome=played.outcome,
        record=played.record,
        decisions=played.decisions,
        seconds=played.seconds,
    )


def _share(share: Share) -> str:
    return f"{share.value:.1%} ({100 * share.low:.1f}–{100 * share.high:.1f})"


def print_result(result: TournamentResult, out: Console | None = None) -> None:
    """Print the standings (best conservative rating first) and the win share of each seat."""
    out = out or console
    t = result.tournament
    table = Table(
        title=f"{t.game_id} · {t.players} players · {result.games} games · seed {t.seed}",
        caption="ordinal = μ − 3σ of the OpenSkill rating (Plackett–Luce); win share per "
        "seat-game, a shared win split",
        box=box.SIMPLE_HEAVY,
        pad_edge=False,
    )
    table.add_column("bot", no_wrap=True)
    table.add_column("ordinal", justify="right")
    table.add_column("μ ± σ", justify="right", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("seats", justify="right")
    table.add_column("won (95% CI)", justify="right", no_wrap=True)
    table.add_column("mean rank", justify="right")
    for s in result.standings:
        share = s.win_share
        table.add_row(
            s.bot,
            f"{s.rating.ordinal:.1f}",
            f"{s.rating.mu:.1f} ± {s.rating.sigma:.1f}",
            str(s.games),
            str(s.seat_games),
            _share(share),
            f"{s.mean_rank:.2f}",
        )
    out.print(table)
    seats = Table(title="wins by seat (any bot)", box=box.SIMPLE_HEAVY, pad_edge=False)
    seats.add_column("seat")
    seats.add_column("won (95% CI)", justify="right", no_wrap=True)
    for seat in result.seats:
        share = seat.win_share
        seats.add_row(seat.name, _share(share))
    out.print(seats)


def tournament(
    game: Annotated[str, typer.Argument(help="game id, see racedeck games", metavar="GAME")],
    bots: Annotated[
        str,
        typer.Option(
            help="bot specs, comma separated: levels or bot names, e.g. casual,expert,search@200"
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 100,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="seats per game (default: the number of bots, within range)"
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="local processes (default: every core)")
    ] = None,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    db: Annotated[
        str, typer.Option(help="SQLite file or SQLAlchemy URL where games are kept")
    ] = DEFAULT_DB,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="run on Ray at this address: auto, local or ray://host:10001"),
    ] = None,
    variant: Annotated[str | None, typer.Option(help="rule variant, e.g. tactical")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", metavar="KEY=VALUE", help="any game option, see racedeck games GAME"
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print JSON instead of tables", metavar="")
    ] = False,
) -> None:
    """Round robin between bots in every seat, rated with OpenSkill.

    Each finished game is stored at once in --db: the same command again resumes after Ctrl-C.
    A larger --games continues the same tournament.
    """
    if games < 1:
        raise fail(f"--games {games} is not allowed: at least 1")
    if workers is not None and workers < 1:
        raise fail(f"--workers {workers} is not allowed: at least 1")
    t = _create(game, bots, players, variant, option, seed)
    check_db_folder(db)
    from racedeck.sim.tournament import summarise
    from racedeck.store.tournaments import TournamentStore

    try:
        store = TournamentStore(db)
    except Exception as exc:  # any driver or path problem, reported plainly
        raise fail(f"cannot open the database {db!r}: {exc}") from exc
    with store:
        row = store.tournament(
            game=t.game_id,
            rules_version=t.rules_version,
            config=t.config,
            bots=t.bots,
            players=t.players,
            seed=t.seed,
        )
        assert row is not None
        done = store.game_indices(row.id, below=games)
        todo = [i for i in range(games) if i not in done]
        if done:
            err_console.print(
                f"Tournament {row.id} in {db}: {len(done)} of {games} games already stored"
                + (", playing the rest." if todo else ".")
            )
        _play(t, store, row.id, todo, games, len(done), workers, ray, as_json)
        outcomes = {g.index: g.outcome for g in store.iter_games(row.id, games, with_records=False)}
    result = summarise(t, outcomes)
    if as_json:
        payload: dict[str, Any] = {"tournament_id": row.id, "db": store.url, **result.to_json()}
        typer.echo(json.dumps(payload, indent=2))
    else:
        print_result(result)


def _play(
    t: Tournament,
    store: TournamentStore,
    tournament_id: int,
    todo: list[int],
    games: int,
    done: int,
    workers: int | None,
    ray: str | None,
    quiet: bool,
) -> None:
    from racedeck.cli.progress import game_progress
    from racedeck.sim.tournament import play_tournament

    if not todo:
        return
    played_now = 0
    with game_progress(
        games, f"{t.game_id} tournament", completed=done, console=err_console, transient=quiet
    ) as advance:

        def keep(played: PlayedGame) -> None:
            nonlocal played_now
            store.add_game(
                tournament_id, _stored(played, t.lineup(played.index), t.game_seed(played.index))
            )
            played_now += 1
            advance(1)

        try:
            play_tournament(t, todo, workers=workers, ray_address=ray, on_game=keep)
        except KeyboardInterrupt:
            kept = len(store.game_indices(tournament_id, below=games))
            err_console.print(
                f"\n[yellow]Interrupted.[/] {kept} of {games} games are stored "
                f"({played_now} from this run). Run the same command again to resume."
            )
            raise typer.Exit(130) from None
        except ImportError as exc:
            raise fail(str(exc)) from exc
        except ConnectionError as exc:
            raise fail(f"cannot reach Ray at {ray!r}: {exc}", 1) from exc
