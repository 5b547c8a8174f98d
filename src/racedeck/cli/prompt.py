"""Asking a person at the terminal: one set of commands and input forms at every prompt.

Every prompt of every game accepts the same commands besides its answer:

* ``?`` or ``help`` — what this prompt accepts, and these commands;
* ``rules`` — the game's rules in brief; ``rules WF-4`` one ruling; ``rules all`` the whole page;
* ``undo`` — take back the part of the move typed so far (a move is final once it is complete:
  the table commits it at once, and the other seats may already have seen it);
* ``quit`` — leave the game; the record kept so far is saved.

Choices are offered as numbered lists and matched by :func:`match_choice`: by list number or by
any of a choice's own forms (a card's value ``+3``, its white number ``#32``, a figure's name or
board label), case and spaces ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from racedeck.cli.console import print_paged

__all__ = [
    "COMMANDS_HELP",
    "Ask",
    "Choice",
    "Prompter",
    "Quit",
    "Undo",
    "match_choice",
    "normalise",
    "numbered",
]

T = TypeVar("T")

Ask = Callable[[str], str]
"""Reads one line of input after showing a prompt (raises EOFError/KeyboardInterrupt to stop)."""

COMMANDS_HELP = (
    "At every prompt: ? or help (what you can type here) · rules (the game in brief; rules "
    "and a ruling's id for that ruling, rules all for the whole page) · undo (take back the "
    "part of this move typed so far) · quit (leave; the record is saved)."
)


class Quit(Exception):
    """The person typed ``quit``: the game stops, its record is kept."""


class Undo(Exception):
    """The person typed ``undo`` at a prompt that can go back to the previous part of a move."""


def normalise(text: str) -> str:
    """``text`` as matched against a choice's forms: lower case, no spaces, one kind of minus."""
    return "".join(text.split()).lower().replace("−", "-").replace("–", "-")


@dataclass(frozen=True)
class Choice(Generic[T]):
    """One answer a prompt offers: what it gives, how it is listed and how it may be typed."""

    value: T
    """What choosing it returns."""
    label: str
    """How the numbered list shows it."""
    forms: tuple[str, ...] = field(default=())
    """Other ways to type it (``+3``, ``#32``, ``leo``, ``L``); matched by :func:`normalise`."""
    number: int | None = None
    """The number it is listed under, when that is not its place in the list (a list keyed
    by the choices' own numbers, such as cards listed by value)."""


def match_choice(answer: str, choices: Sequence[Choice[T]]) -> list[Choice[T]]:
    """The choices ``answer`` names: the one at that list number, else those with that form.

    A list number wins over a form that looks the same, because the list is what is on screen;
    forms that would clash with a list number should carry a sign or a mark (``+3``, ``#3``).
    A choice with its own ``number`` is listed under that number instead of its place.
    """
    key = normalise(answer)
    if not key:
        return []
    if key.isdigit():
        listed = [
            c for i, c in enumerate(choices, 1) if (i if c.number is None else c.number) == int(key)
        ]
        if listed:
            return listed
    return [c for c in choices if key in {normalise(f) for f in (c.label, *c.forms)}]


class Prompter:
    """The person's side of every prompt: reads lines and answers the common commands itself.

    Calling it like a plain ``ask`` function returns the first line that is not a command.
    ``rules`` reads the game's rules page through ``rules_text`` (given by the caller, so this
    module needs no game layer).
    """

    def __init__(
        self,
        ask: Ask,
        console: Console,
        rules_text: Callable[[str], str | None] | None = None,
    ) -> None:
        self.ask = ask
        self.console = console
        self.rules_text = rules_text

    def __call__(self, prompt: str) -> str:
        """One answer that is not a command (``undo`` here has nothing to take back)."""
        return self.line(prompt)

    def line(self, prompt: str, forms: str = "", undo: bool = False) -> str:
        """Ask until the answer is not one of the common commands; return it stripped.

        ``forms`` says what this prompt accepts (shown by ``?``). With ``undo`` true, ``undo``
        raises :class:`Undo` for the caller to go back a step; else it explains that there is
        nothing to take back.
        """
        while True:
            answer = self.ask(prompt).strip()
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in {"?", "help"} and not rest:
                if forms:
                    self.console.print(Text(forms))
                self.console.print(Text(COMMANDS_HELP, style="dim"))
            elif word == "rules":
                self.show_rules(rest.strip())
            elif word in {"quit", "exit"} and not rest:
                raise Quit
            elif word == "undo" and not rest:
                if undo:
                    raise Undo
                self.console.print(
                    Text(
                        "Nothing to undo here: a move is final once it is complete.",
                        style="yellow",
                    )
                )
            else:
                return answer

    def choose(
        self,
        prompt: str,
        choices: Sequence[Choice[T]],
        forms: str = "",
        undo: bool = False,
        hint: str = "",
    ) -> T:
        """Ask for one of ``choices`` (by list number or one of its forms) until one is named.

        The list itself is printed by the caller (it knows the layout). A wrong answer is
        answered with what was wrong and what to type instead.
        """
        while True:
            answer = self.line(prompt, forms, undo)
            found = match_choice(answer, choices)
            if len(found) == 1:
                return found[0].value
            self.console.print(self.refusal(answer, choices, found, hint))

    @staticmethod
    def refusal(
        answer: str, choices: Sequence[Choice[T]], found: Sequence[Choice[T]], hint: str = ""
    ) -> Text:
        """Why ``answer`` named no single choice, and what to type."""
        count = len(choices)
        typed = answer if len(answer) <= 30 else answer[:29] + "…"
        if not answer:
            problem = "Please choose."
        elif found:
            problem = f"{typed} could be {' or '.join(c.label for c in found)}."
        elif normalise(answer).isdigit() and all(c.number is None for c in choices):
            problem = f"There is no choice {typed}."
        else:
            problem = f"{typed} is not one of the choices."
        advice = hint or (f"Type a number from 1 to {count}" if count > 1 else "Type 1")
        return Text.assemble((problem, "red"), " ", advice.rstrip(".") + " (? for help).")

    def show_rules(self, which: str) -> None:
        """Print the rules in brief, one ruling (``SB-9``) or the whole page (``all``)."""
        if self.rules_text is None:
            self.console.print(Text("No rules page for this game.", style="yellow"))
            return
        text = self.rules_text(which)
        if text is None:
            self.console.print(
                Text(
                    f"No ruling {which}. Type rules for the game in brief, or rules all.",
                    style="yellow",
                )
            )
            return
        print_paged(self.console, Markdown(text))

    def pause(self, prompt: str = "Press Enter to go on") -> None:
        """Wait for Enter (the commands still work: ``rules``, ``quit``...)."""
        self.line(prompt + " ")


def numbered(choices: Iterable[Choice[T]]) -> str:
    """``1=+3  2=-2 …``: a compact one-line list of choices."""
    return "  ".join(f"{i}={c.label}" for i, c in enumerate(choices, 1))
