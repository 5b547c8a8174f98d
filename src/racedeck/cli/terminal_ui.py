"""How a game looks and asks in the terminal: one small UI class per game, a generic fallback."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from racedeck.cli.prompt import Ask, Choice, Prompter, match_choice
from racedeck.core.errors import IllegalAction
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.plugins import optional_plugin

__all__ = ["Ask", "TerminalUI", "second_person", "ui_for"]


# Second person for a player called "You": "You's turn" → "Your turn", "You plays" → "You play",
# "Bot 2 moves You" → "Bot 2 moves you". Every verb the games' narration (games/*/narrate.py and
# the terminal UIs) puts after a player's name is listed, with its plain form.
_VERBS = {
    "adds": "add",
    "changes": "change",
    "crashes": "crash",
    "crosses": "cross",
    "discards": "discard",
    "draws": "draw",
    "goes": "go",
    "has": "have",
    "holds": "hold",
    "is": "are",
    "lands": "land",
    "loses": "lose",
    "moves": "move",
    "passes": "pass",
    "places": "place",
    "plays": "play",
    "reaches": "reach",
    "removes": "remove",
    "scores": "score",
    "sits": "sit",
    "stands": "stand",
    "takes": "take",
    "wins": "win",
}
_ME = r"You(?![-\w])"  # the player called You, not a rider of theirs ("You-1")
_ANY_VERB = re.compile(r"\b(" + "|".join(_VERBS) + r")\b(?!-)")
_SUBJECT = re.compile(rf"^(?:Game over: )?{_ME} (?:also )?(\w+)")
_OBJECT = re.compile(rf"\b(of|on|moves|by|to|with) {_ME}")


def second_person(line: str) -> str:
    """Narration about a player called "You" in the second person.

    Each clause (the parts between "; ") whose subject is You gets the plain form of its
    verbs ("You cross the line first and win the race!"); You after a verb or a preposition
    becomes "you" ("Bot 2 moves you", "in front of you"), and yourself when You is both.
    """
    line = re.sub(r"\bYou's\b", "Your", line)
    line = line.replace("in front of You: they lose their", "in front of you: you lose your")
    line = _OBJECT.sub(lambda m: f"{m.group(1)} you", line)
    clauses = line.split("; ")
    for i, clause in enumerate(clauses):
        subject = _SUBJECT.match(clause)
        if subject is None or subject.group(1) not in _VERBS:
            continue
        clause = _ANY_VERB.sub(lambda m: _VERBS[m.group(1)], clause)
        clause = re.sub(r"^(You \w+) you\b", r"\1 yourself", clause)
        clauses[i] = clause.replace("in front of them", "in front of you")
    return "; ".join(clauses)


class TerminalUI:
    """Generic terminal UI: a numbered menu of legal actions and the events in words."""

    width = 120
    """Columns available for drawing (set from the console by the caller)."""

    stage_end_kinds: frozenset[str] = frozenset({"stage_scored"})
    """Event kinds after which the play loop shows :meth:`render_stage_end`."""

    def __init__(self, game: Game[Any, Any, Any], names: Sequence[str]) -> None:
        self.game = game
        self.names = tuple(names)
        self.seat: int | None = self.names.index("You") if "You" in self.names else None
        """The seat of the person at this screen (``None``: a spectator); their private
        events are shown. Callers that know it set it (``racedeck play --name``)."""

    def render(self, view: Any) -> RenderableType:
        """The table as the seat sees it: the view's common header (move, scores, who acts)."""
        header = view.header
        scores = ", ".join(
            f"{name} {score:g}"
            for name, score in zip(header.score_names, header.scores, strict=False)
        )
        return Text(
            f"{header.title} · move {header.move}"
            + (f" · {scores}" if scores else "")
            + (f" · {header.waiting}" if header.waiting else "")
        )

    def render_sheet(self, view: Any) -> RenderableType | None:
        """The score sheet so far, shown beside the board in a replay; ``None`` when the
        board shows the scores already (the generic board's header line does)."""
        return None

    def render_outcome(self, view: Any, outcome: Any) -> RenderableType:
        """The final result."""
        table = Table(title="Result")
        table.add_column("player")
        table.add_column("score", justify="right")
        table.add_column("rank", justify="right")
        for i, score in enumerate(outcome.scores):
            name = self.names[i] if i < len(self.names) else outcome.names[i]
            won = " 🏆" if i in outcome.winners else ""
            table.add_row(name + won, f"{score:g}", str(outcome.ranks[i]))
        return table

    def render_stage_end(self, view: Any, event: Any) -> RenderableType:
        """What to show when a stage (or race) is scored; ``event`` is the scoring event."""
        return Text("")

    def pause_before(self, event: Event) -> str | None:
        """The words to wait for Enter with before ``event`` is shown, when what came before
        would otherwise scroll away (``None``: no wait)."""
        return None

    def visible_events(self, events: Sequence[Event]) -> list[Event]:
        """The events worth printing; hidden commits (``card_committed``) are left out."""
        return [e for e in events if e.kind != "card_committed"]

    def describe_events(self, events: Sequence[Any]) -> list[str]:
        """One line per event, in the second person for a player called "You"."""
        lines = [self.game.describe_event(e, self.names) for e in events]
        if "You" not in self.names:
            return lines
        return [second_person(line) for line in lines]

    def ask_action(self, view: Any, prompter: Prompter) -> Any:
        """Ask for one legal action: by menu number or by its text form (read from the view
        alone); re-ask on bad input."""
        console = prompter.console
        legal = list(view.legal_actions)
        choices = [Choice(a, self.game.describe_action(a, self.names)) for a in legal]
        menu = Table.grid(padding=(0, 2))
        for i, choice in enumerate(choices, 1):
            menu.add_row(f"[bold]{i}[/]", choice.label)
        console.print(menu)
        forms = "Type the number of a choice, or the action as text."
        while True:
            answer = prompter.line("Your choice (number or text): ", forms)
            found = match_choice(answer, choices)
            if len(found) == 1:
                return found[0].value
            try:
                action = self.game.parse_action(answer, view)
            except IllegalAction as exc:
                console.print(f"[red]{exc.reason}.[/] Type a number from 1 to {len(legal)}.")
                continue
            if action in legal:
                return action
            console.print(f"[red]{answer} is not legal now.[/] Type 1 to {len(legal)}.")


def ui_for(game: Game[Any, Any, Any], names: Sequence[str]) -> TerminalUI:
    """The terminal UI of ``game``: its ``terminal`` plugin's ``UI``, else the generic one."""
    module = optional_plugin(game.spec.id, "terminal")
    factory = getattr(module, "UI", TerminalUI)
    return factory(game, names)
