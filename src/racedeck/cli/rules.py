"""``racedeck rules``: a game's rules page in the terminal, whole, in brief or one ruling."""

from __future__ import annotations

from typing import Annotated

import typer

from racedeck import rulebook
from racedeck.cli.console import console, fail, print_paged

__all__ = ["rules", "rules_text"]


def rules_text(game_id: str, ruling_id: str | None = None, *, brief: bool = False) -> str:
    """The Markdown to show: the whole page of ``game_id``, its "In brief" section, or the
    section of one ruling.

    Raises :class:`~racedeck.rulebook.UnknownRules` with a one-line message naming what
    exists when the game has no page or the page no such ruling.
    """
    if ruling_id is not None:
        found = rulebook.ruling(game_id, ruling_id)
        if found is None:
            ids = rulebook.ruling_ids(game_id)
            raise rulebook.UnknownRules(
                f"{rulebook.title(game_id)} has no ruling {ruling_id.strip()}; its rulings are "
                f"{ids[0]} to {ids[-1]}"
            )
        return found
    if brief:
        return f"# {rulebook.title(game_id)} in brief\n\n" + rulebook.brief(game_id).split("\n", 1)[
            1
        ].lstrip("\n")
    return rulebook.page(game_id)


def rules(
    game: Annotated[str, typer.Argument(help="game id, see `racedeck games`")],
    ruling: Annotated[
        str | None, typer.Argument(help="one ruling only, by its id, e.g. SB-9")
    ] = None,
    brief: Annotated[bool, typer.Option("--brief", help="the rules in brief only")] = False,
) -> None:
    """Show the rules of GAME: in brief, then every ruling and the option that changes it."""
    from rich.markdown import Markdown  # only this command renders Markdown

    if brief and ruling is not None:
        raise fail(f"give a ruling ({ruling}) or --brief, not both")
    try:
        text = rules_text(game, ruling, brief=brief)
    except rulebook.UnknownRules as exc:
        raise fail(str(exc)) from None
    print_paged(console, Markdown(text))
