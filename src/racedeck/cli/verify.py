"""``racedeck verify``: check that an online game's record was dealt fairly and is true.

A record downloaded from a table (``GET /api/tables/{id}/record``) holds the commitment the
server published before the deal, the server seed it revealed at the end, the seats' client
seeds, the result and the commitments to its face-down actions (a card placed face down). The
command checks them with :func:`racedeck.core.fairness.verify`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from racedeck.cli.console import console, fail
from racedeck.cli.records import load_record
from racedeck.core.errors import InvalidRecord
from racedeck.core.fairness import COMMITMENTS_KEY, FAIR_KEY, verify
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import CLOCK_KEY

__all__ = ["verify_cmd"]


def verify_cmd(
    path: Annotated[
        Path, typer.Argument(help="a record downloaded from an online table", exists=True)
    ],
) -> None:
    """Check a record of an online game: the server seed matches the commitment published
    before the deal, the game's seed comes from it and the client seeds, the actions replay to
    the stated result, and every face-down card is the one committed when it was placed. Exit
    code 1 names each problem found."""
    try:
        record = load_record(path)
    except InvalidRecord as exc:
        raise fail(f"{path}: {exc}") from None
    problems = verify(record)
    if problems:
        for problem in problems:
            console.print(f"FAILED: {problem}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    fair = record.meta[FAIR_KEY]
    assert isinstance(fair, dict)
    seeds = fair["client_seeds"]
    given = sum(1 for s in seeds if s)
    lines = [
        f"OK: {record.game}, {len(record.actions)} actions",
        f"  the server seed hashes to the commitment {fair['commitment']}",
        f"  the game seed {record.seed} is derived from the server seed and "
        f"{given} of {len(seeds)} seats' client seeds",
        f"  the actions replay to the stated result: scores {fair['result'].get('scores')}, "
        f"winners (seats from 1) {[w + 1 for w in fair['result'].get('winners', [])]}",
    ]
    lines.append(_face_down_line(fair))
    played = record.meta.get(CLOCK_KEY, {}).get("bot_played", [])
    if played:
        lines.append(
            f"  a stand-in bot played for seats {[s + 1 for s in played]} "
            "(timeouts and takeovers are in meta.clock)"
        )
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _face_down_line(fair: JSONObject) -> str:
    """What the check of face-down commitments found, in one line."""
    if COMMITMENTS_KEY not in fair:
        return "  the record holds no face-down commitments (made before they were published)"
    count = len(fair[COMMITMENTS_KEY])
    if count == 0:
        return "  the game had no face-down actions to commit to"
    return f"  {count} face-down actions open the commitments published when they were taken"
