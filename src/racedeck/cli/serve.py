"""``racedeck serve``: the online service under uvicorn."""

from __future__ import annotations

import gc
from typing import Annotated, Literal

import typer

from racedeck.cli.console import fail
from racedeck.cli.db_option import check_db_folder
from racedeck.server.limits import Limits
from racedeck.store.locations import DEFAULT_TABLES_DB

__all__ = ["serve"]

DEFAULT_LIMITS = Limits()

LogLevel = Literal["debug", "info", "warning", "error"]


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="SQLite file or database URL where tables are kept; several processes "
            "may serve the same tables from one postgresql:// database"
        ),
    ] = DEFAULT_TABLES_DB,
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before it moves, so people can follow")
    ] = 0.6,
    bot_workers: Annotated[int, typer.Option(help="worker processes for bots' decisions")] = 2,
    max_tables: Annotated[
        int, typer.Option(help="tables held at once; more are refused (server/full)")
    ] = DEFAULT_LIMITS.tables,
    table_spectators: Annotated[
        int, typer.Option(help="spectator sockets one table takes (seats always connect)")
    ] = DEFAULT_LIMITS.spectators_per_table,
    server_spectators: Annotated[
        int, typer.Option(help="spectator sockets the whole server takes")
    ] = DEFAULT_LIMITS.spectators,
    seat_sockets: Annotated[
        int, typer.Option(help="sockets one seat may have open (a person's tabs)")
    ] = DEFAULT_LIMITS.sockets_per_seat,
    max_creations: Annotated[
        int,
        typer.Option(help="tables one client address may create per --creation-window"),
    ] = DEFAULT_LIMITS.creations,
    creation_window: Annotated[
        float, typer.Option(help="seconds over which --max-creations counts")
    ] = DEFAULT_LIMITS.creation_window,
    open_expiry: Annotated[
        float,
        typer.Option(help="seconds an open table nobody is at lives without activity"),
    ] = DEFAULT_LIMITS.open_expiry,
    lobby_idle: Annotated[
        float,
        typer.Option(help="the lobby lists tables with activity within these seconds"),
    ] = DEFAULT_LIMITS.lobby_idle,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            "--ws-deflate/--no-ws-deflate",
            help="compress WebSocket frames (permessage-deflate): fewer bytes, more server CPU",
        ),
    ] = False,
    log_level: Annotated[
        LogLevel,
        typer.Option(help="the least important log lines written (to standard error)"),
    ] = "info",
) -> None:
    """Serve the online tables and the browser client.

    Prints the address to open. Every accepted move is committed to --db before anyone sees
    it, so a restarted server continues every game. On PostgreSQL, several processes serve the
    same tables (docs/deploy.md). SIGTERM stops it within seconds: every socket is told to
    reconnect (close code 1012) and the process exits with 0. GET /healthz and GET /metrics
    are for the operator (docs/deploy.md).
    """
    if not 1 <= port <= 65535:
        raise fail(f"--port {port} is not allowed: a port is 1 to 65535")
    if bot_delay < 0:
        raise fail(f"--bot-delay {bot_delay} is not allowed: 0 seconds or more")
    if bot_workers < 1:
        raise fail(f"--bot-workers {bot_workers} is not allowed: at least 1")
    try:
        limits = Limits(
            tables=max_tables,
            spectators_per_table=table_spectators,
            spectators=server_spectators,
            sockets_per_seat=seat_sockets,
            creations=max_creations,
            creation_window=creation_window,
            open_expiry=open_expiry,
            lobby_idle=lobby_idle,
        )
    except ValueError as exc:
        raise fail(f"a limit is not allowed: {exc}") from None
    check_db_folder(db)
    # Imported here: the web framework and SQLAlchemy are for this command alone.
    from racedeck.server import shutdown
    from racedeck.server.app import create_app
    from racedeck.server.collector import Collector
    from racedeck.server.logs import logging_config
    from racedeck.server.messages import MAX_FRAME_BYTES

    app = create_app(
        db, bot_delay=bot_delay, bot_workers=bot_workers, limits=limits, collector=Collector()
    )
    _tune_gc()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"racedeck is serving at http://{shown}:{port}/  (database: {db})", err=False)
    shutdown.run(
        app,
        host=host,
        port=port,
        # One format for racedeck's lines and uvicorn's; a line about a table names it.
        log_config=logging_config(log_level),
        access_log=False,
        # Frames up to this are read and a message over its own limit is answered
        # (message/too-large) on an open socket; only a larger frame closes it (1009).
        ws_max_size=MAX_FRAME_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # Off unless asked: compressing every frame was the largest single cost of a move
        # (about a sixth of the server's CPU), to save a kilobyte per frame.
        ws_per_message_deflate=ws_deflate,
    )


GC_THRESHOLDS = (50_000, 20, 100)
"""Young collections every 50,000 new container objects (Python's default is 700)."""


def _tune_gc() -> None:
    """Fewer, cheaper collections for a long-running server.

    With the default thresholds, objects that live across a few young collections (a frame in
    an outbox, a message being handled) are promoted at a thousand actions a second, and full
    collections over the whole heap, hundreds of milliseconds each with a thousand sockets, stop
    every table several times a minute. Freezing what exists before the first request (the
    modules, the application) keeps it out of every later collection; the application's
    :class:`~racedeck.server.collector.Collector` goes on freezing what lives a while.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
