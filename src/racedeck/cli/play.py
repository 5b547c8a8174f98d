"""``racedeck play``: you against bots in the terminal, on the table driver."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from racedeck import rulebook
from racedeck.bots.levels import find_level
from racedeck.bots.registry import make_bot
from racedeck.cli.prompt import Ask, Prompter, Quit
from racedeck.cli.records import save_record
from racedeck.cli.terminal_ui import TerminalUI, ui_for
from racedeck.core.events import feed
from racedeck.core.game import Game, Transition
from racedeck.core.rng import derive_seed
from racedeck.core.table import Player, Table, run

__all__ = ["TerminalPlayer", "play_in_terminal", "rules_reader"]


def rules_reader(game_id: str) -> Callable[[str], str | None] | None:
    """What the ``rules`` command shows for ``game_id``: the rules in brief (no argument), the
    whole page (``all``) or one ruling by id; ``None`` when the game has no rules page."""
    if game_id not in rulebook.available():
        return None

    def read(which: str) -> str | None:
        if not which:
            return rulebook.brief(game_id)
        if which.lower() == "all":
            return rulebook.page(game_id)
        return rulebook.ruling(game_id, which.upper())

    return read


class TerminalPlayer:
    """The person at the terminal as a player: shows the seat's view and asks for an action.

    Like every other player it gets the seat's view and nothing else.
    """

    def __init__(self, ui: TerminalUI, prompter: Prompter) -> None:
        self.ui = ui
        self.prompter = prompter
        self.console = prompter.console
        self.acted = False
        """True from the person's answer until the play loop has shown what followed it."""

    def act(self, view: Any) -> Any:
        """Draw the table as the seat sees it and read one legal action."""
        self.acted = True
        self.console.print()
        self.console.print(self.ui.render(view))
        return self.ui.ask_action(view, self.prompter)


def _opponents(names: Sequence[str], bot_names: Sequence[str], human_seat: int) -> str:
    """Who the bots are, a level by its title: ``Bot 2, Bot 3: Expert · Bot 4: heuristic``."""
    by_kind: dict[str, list[str]] = {}
    for seat, bot in enumerate(bot_names):
        if seat != human_seat:
            level = find_level(bot)
            by_kind.setdefault(level.title if level else bot.strip(), []).append(names[seat])
    return " · ".join(f"{', '.join(seats)}: {kind}" for kind, seats in by_kind.items())


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

    The person only ever sees their own view and their own feed of events. The record is
    saved after every accepted action, so stopping with ``quit`` (exit code 0), Ctrl-C (exit
    code 130) or at end of input (exit code 1) loses nothing. At the end of each stage (or
    race) the screen waits for Enter, so the sheet does not scroll away.
    """
    n = game.num_players
    names = [human_name if seat == human_seat else f"Bot {seat + 1}" for seat in range(n)]
    ui = ui_for(game, names)
    ui.width = console.width
    ui.seat = human_seat
    prompter = Prompter(ask, console, rules_reader(game.spec.id))
    table = Table(game, seed, meta={"names": names, "human_seat": human_seat})
    person = TerminalPlayer(ui, prompter)
    players: list[Player] = [
        person
        if seat == human_seat
        else make_bot(bot_names[seat], game, seat, derive_seed(seed, 1, seat))
        for seat in range(n)
    ]

    def show(table: Table, transition: Transition[Any] | None) -> None:
        if transition is None:
            for line in ui.describe_events(
                ui.visible_events(feed(table.history[0][1], human_seat))
            ):
                console.print(line)
            return
        save_record(table.record, record_path)
        shown = ui.visible_events(feed(transition.events, human_seat))
        if not shown:
            return
        if person.acted:  # one blank line after the prompt; what the bots do follows closely
            console.print()
            person.acted = False
        scored = [e for e in shown if e.kind in ui.stage_end_kinds]
        sheet_after = scored[-1] if scored and not table.is_over else None
        for event in shown:
            waiting = ui.pause_before(event)
            if waiting is not None:  # what came before fills the screen
                prompter.pause(waiting)
            for line in ui.describe_events([event]):
                console.print(line)
            if event is sheet_after:  # the sheet before the next stage's first events
                console.print(ui.render_stage_end(table.view(human_seat), event))
                prompter.pause()

    console.print(Rule(f"{game.spec.title} · {n} players · seed {seed}"))
    console.print(Text(_opponents(names, bot_names, human_seat), style="dim"))
    console.print("[dim]Type ? at any prompt for help, rules for the rules, quit to leave.[/]")
    try:
        run(table, players, observer=show)
    except Quit:
        path = save_record(table.record, record_path)
        console.print(f"[yellow]You left the game.[/] Record saved to {path}")
        return 0
    except KeyboardInterrupt:
        path = save_record(table.record, record_path)
        console.print(f"\n[yellow]Game stopped.[/] Record saved to {path}")
        return 130
    except EOFError:
        path = save_record(table.record, record_path)
        console.print(f"\n[yellow]Input ended; game stopped.[/] Record saved to {path}")
        return 1
    outcome = game.outcome(table.state)
    console.print(Rule("Game over"))
    console.print(ui.render_outcome(table.view(human_seat), outcome))
    path = save_record(table.record, record_path)
    console.print(f"Record saved to {path}  (replay: racedeck replay {path})")
    return 0
