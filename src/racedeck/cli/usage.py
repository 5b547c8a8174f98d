"""Mistakes on the command line itself, each told in one line.

Typer reports a value of the wrong type, a missing argument or an unknown option in a framed
panel under the usage line, in its parser's words ("Input should be a valid integer, unable to
parse string as an integer"). :class:`OneLineErrors` turns each into the same one line as the
commands' own refusals: the option, the value and what is allowed, exit code 2.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click.exceptions import (
    BadParameter,
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperGroup

from racedeck.cli.console import err_console, fail

__all__ = ["OneLineErrors", "unwrap", "usage_message"]

# What a value of each kind must look like, by the parser's error type.
_EXPECTED = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_type": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "bool_parsing": "true or false",
}


def _hint(exc: BadParameter) -> str:
    """The option as typed (``--players``) or the argument's name (``GAME``)."""
    param = exc.param
    if param is None:
        return "a value"
    if param.param_type_name == "argument":
        return (param.name or "argument").upper()
    long = [o for o in param.opts if o.startswith("--")]
    return (long or list(param.opts) or [param.name or "option"])[0]


def _help_hint(exc: UsageError) -> str:
    command = exc.ctx.command_path if exc.ctx is not None else "racedeck"
    return f"see '{command} --help'"


def usage_message(exc: ClickException) -> str:
    """One line for a mistake on the command line."""
    if isinstance(exc, MissingParameter):
        return f"missing {_hint(exc)}; {_help_hint(exc)}"
    if isinstance(exc, BadParameter):
        cause = exc.__cause__
        errors = getattr(cause, "errors", None)
        if callable(errors):  # the value failed its type: name it and what was expected
            first: dict[str, Any] = errors()[0]
            expected = _EXPECTED.get(str(first.get("type")), str(first.get("msg", "")).lower())
            return f"{_hint(exc)} {first.get('input')!r} is not allowed: expected {expected}"
        message = exc.message.rstrip(".")
        for noun in ("path ", "file ", "directory "):  # "path 'x.json' does not exist"
            message = message.removeprefix(noun)
        return f"{_hint(exc)} {message}"
    if isinstance(exc, NoSuchOption):
        near = sorted(exc.possibilities or ())
        guess = f" (did you mean {' or '.join(near)}?)" if near else ""
        return f"no option {exc.option_name}{guess}; {_help_hint(exc)}"
    message = exc.format_message().rstrip(".")
    message = message[:1].lower() + message[1:]
    if isinstance(exc, UsageError):
        return f"{message}; {_help_hint(exc)}"
    return message


def unwrap(text: str) -> str:
    """A docstring as help text: each paragraph on one line, for the terminal to wrap.

    Typer prints a command's docstring with its line breaks kept, so a sentence wrapped in the
    source would break in the middle at any terminal width.
    """
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


class OneLineErrors(TyperGroup):
    """The ``racedeck`` command group: command-line mistakes in one line, exit code 2, and
    each command's help in whole paragraphs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            if command.help:
                command.help = unwrap(command.help)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode, print a mistake as one line and exit."""
        if not standalone_mode:
            return super().main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
            )
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except NoArgsIsHelpError as exc:  # the help is already printed
            sys.exit(exc.exit_code)
        except ClickException as exc:
            fail(usage_message(exc), exc.exit_code)
            sys.exit(exc.exit_code)
        except typer.Abort:
            err_console.print("Aborted.")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
