"""``racedeck play``: you against bots in the terminal."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule

from racedeck.bots.registry import make_bot
from racedeck.cli.records import save_record
from racedeck.cli.terminal_ui import Ask, ui_for
from racedeck.core.game import Game
from racedeck.core.record import Session
from racedeck.core.rng import derive_seed

__all__ = ["play_in_terminal"]


def play_in_terminal(
    game: Game[Any, Any, Any],
    seed: int,
    human_seat: int,
    bot_names: Sequence[str],
    record_path: Path,
    console: Console,
    ask: Ask,
    human_name: str = "You",
) -> int:
    """Play one game with a person at ``human_seat`` and bots elsewhere; return an exit code.

    The person only ever sees their own view. The record is saved after every accepted action,
    so stopping with Ctrl-C (exit code 130) or at end of input (exit code 1) loses nothing.
    """
    n = game.num_players
    names = [human_name if seat == human_seat else f"Bot {seat + 1}" for seat in range(n)]
    bots = {
        seat: make_bot(bot_names[seat], game, seat, derive_seed(seed, 1, seat))
        for seat in range(n)
        if seat != human_seat
    }
    ui = ui_for(game, names)
    ui.width = console.width
    session = Session(game, seed, meta={"names": names, "human_seat": human_seat})
    console.print(Rule(f"{game.spec.title} · {n} players · seed {seed}"))
    for line in ui.describe_events(session.initial_events):
        console.print(line)
    try:
        while not session.state.is_terminal:
            pending = session.state.pending
            events: list[Any] = []
            for seat in pending:
                if seat not in session.state.pending:
                    continue  # an earlier answer changed who is asked (a reaction window)
                forced = game.forced_action(session.state, seat)
                if forced is not None:
                    action = forced  # no choice to ask about (SB-9: a pass without a BLOCK)
                elif seat == human_seat:
                    view = game.observe(session.state, seat)
                    console.print()
                    console.print(ui.render(view))
                    action = ui.ask_action(view, session.state, ask, console)
                else:
                    action = bots[seat].act(game.observe(session.state, seat))
                events.extend(session.apply(seat, action))
                save_record(session.record, record_path)
            shown = ui.visible_events(events)
            if shown:
                console.print()
                scored = [e for e in shown if e.kind in ui.stage_end_kinds]
                sheet_after = scored[-1] if scored and not session.state.is_terminal else None
                for event in shown:
                    for line in ui.describe_events([event]):
                        console.print(line)
                    if event is sheet_after:  # the sheet before the next stage's first events
                        view = game.observe(session.state, human_seat)
                        console.print(ui.render_stage_end(view, event))
    except KeyboardInterrupt:
        path = save_record(session.record, record_path)
        console.print(f"\n[yellow]Game stopped.[/] Record saved to {path}")
        return 130
    except EOFError:
        path = save_record(session.record, record_path)
        console.print(f"\n[yellow]Input ended; game stopped.[/] Record saved to {path}")
        return 1
    outcome = game.outcome(session.state)
    view = game.observe(session.state, human_seat)
    console.print(Rule("Game over"))
    console.print(ui.render_outcome(view, outcome))
    path = save_record(session.record, record_path)
    console.print(f"Record saved to {path}  (replay: racedeck replay {path})")
    return 0
