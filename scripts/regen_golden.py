"""Regenerate the golden playthroughs in ``tests/golden/<game-id>/``.

Every registered game has a few seeded cases (:data:`GOLDEN_CASES`). Each case is played by a
deterministic uniform random policy: a :class:`racedeck.core.Rng` seeded with
``derive_seed(seed, POLICY_STREAM)`` first picks one of the pending seats, then an index into
that seat's ``legal_actions``. The script writes, per case:

``<case>.txt``
    A header (game, rules version, configuration JSON, seed, policy), then for the initial state
    and every step: the step number, the seat, the action's text and JSON forms, the events in
    words (``describe_event``) and the view JSON (compact, sorted keys) of the spectator and of
    every seat; finally the outcome. An event that not everyone may see names its audience
    (``event [seat 1]:``, ``event [record]:``). When that would exceed :data:`MAX_BYTES`, only the
    spectator's and seat 0's views are written (the header says which).
``<case>.record.json``
    The game record (``racedeck.Table(...).record``), one action per line.

``tests/test_golden.py`` regenerates every case in memory and compares it with these files, so
any change in the rules' behaviour, the JSON forms or the wording shows up as a diff. When such
a change is intended, run ``make golden`` (``.venv/bin/python scripts/regen_golden.py``) and
review the diff. ``--check`` compares without writing and exits with status 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import racedeck
from racedeck.core import Rng, derive_seed
from racedeck.core.events import PUBLIC, RECORD
from racedeck.core.jsontypes import JSONObject
from racedeck.games.setback.cards import DEFAULT_DECK as SB_DECK

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "golden"
MAX_BYTES = 450_000
"""Above this size a playthrough keeps only the spectator's and seat 0's views."""
POLICY_STREAM = 1
"""The policy's RNG is ``Rng(derive_seed(seed, POLICY_STREAM))``, independent of the deal."""
REGEN_COMMAND = "make golden (= .venv/bin/python scripts/regen_golden.py)"


@dataclass(frozen=True)
class GoldenCase:
    """One seeded game to play: a file name, the configuration options and the seed."""

    name: str
    seed: int
    config: Mapping[str, Any] = field(default_factory=dict)


GOLDEN_CASES: dict[str, tuple[GoldenCase, ...]] = {
    "why-first": (
        GoldenCase("p3-base-seed1", 1, {"players": 3, "variant": "base"}),
        GoldenCase("p2-leo-seed2", 2, {"players": 2, "variant": "base"}),
        GoldenCase("p4-tactical-seed3", 3, {"players": 4, "variant": "tactical"}),
    ),
    "six-day-race": (
        GoldenCase("p3-two-riders-1race-seed1", 1, {"players": 3, "races": 1}),
        # Two races on the full track with one rider each (SD-11: the order is reset between
        # them). Three players: with every view's header, five would outgrow MAX_BYTES.
        GoldenCase("p3-one-rider-2races-seed2", 2, {"players": 3, "riders": 1, "races": 2}),
        GoldenCase("p2-two-riders-1race-seed3", 3, {"players": 2, "races": 1}),
        # Three riders end on 68 and share places 1-3: 20/3 points each (SD-9).
        GoldenCase("p8-one-race-tie-seed359", 359, {"players": 8, "races": 1}),
        # A short track, so that riders cross the line and the final turns are played (SD-9).
        GoldenCase(
            "p4-short-track-2races-seed5",
            5,
            {
                "players": 4,
                "riders": 1,
                "races": 2,
                "line": 45,
                "sprints": (15, 30),
                "rider_change": 17,
                "crash": 27,
            },
        ),
    ),
    "setback": (
        # Rules version 3 (SB-9 amended: a BLOCK window after every declaration, asking everyone
        # who may answer; the passes of seats without a BLOCK are actions of the record too.
        # Amended again: the answers are simultaneous and concealed, so an answer makes no event
        # and a BLOCK answered is played only when the window's last answer is in).
        # Every kind of choice while a card resolves: ALL order and entry lanes, joining an added
        # lane, placing a token displaced by a removed lane; BLOCK windows; two rows removed.
        GoldenCase("p2-all-revamp-steps-seed116", 116, {"players": 2}),
        # Two players BLOCK at once: the first in seating order after the declarer plays its
        # BLOCK, the other keeps its card; in the window on that BLOCK two players BLOCK again
        # and the first after the BLOCKer plays, so the action stands (SB-9 amended again).
        GoldenCase("p3-block-on-block-seed1009", 1009, {"players": 3}),
        # A hand of BLOCKs only discards one (SB-3).
        GoldenCase("p3-discard-block-seed123", 123, {"players": 3}),
        # The discards are shuffled into an empty draw pile (SB-3), soon with half a deck.
        GoldenCase(
            "p2-small-deck-reshuffle-seed1",
            1,
            {"players": 2, "rows": 4, "deck": tuple((n, max(1, c // 2)) for n, c in SB_DECK)},
        ),
        # Four lanes; many ALL steps; two BLOCKs answered at once (the first in seating order
        # is played, SB-9 amended again); a BLOCK on a BLOCK.
        GoldenCase("p5-four-lanes-seed1338", 1338, {"players": 5}),
        # A board SKIP is a Board Action (SB-10): its own player BLOCKs it and goes on with the
        # Hand Action (self_block="board", SB-9); a later board SKIP stands and costs a turn.
        # Twice the SKIPs and BLOCKs, so that it happens early.
        GoldenCase(
            "p2-board-skip-self-blocked-seed2684",
            2684,
            {
                "players": 2,
                "deck": tuple(
                    (n, 12 if n == "SKIP" else 16 if n == "BLOCK" else c) for n, c in SB_DECK
                ),
            },
        ),
        # An ALL takes three tokens to FINISH: the first in the order wins, the tokens left move
        # on by themselves and rank right after the winner (SB-5).
        GoldenCase("p4-all-three-reach-finish-seed3280", 3280, {"players": 4}),
    ),
}
"""Golden cases by game id. A new game adds an entry here (``tests/test_golden.py`` fails for a
registered game without one), then runs ``make golden``."""


@dataclass(frozen=True)
class Playthrough:
    """The rendered files of one case."""

    game_id: str
    case: GoldenCase
    text: str
    record: str

    @property
    def text_path(self) -> Path:
        """Where the playthrough text is kept."""
        return GOLDEN_DIR / self.game_id / f"{self.case.name}.txt"

    @property
    def record_path(self) -> Path:
        """Where the record JSON is kept."""
        return GOLDEN_DIR / self.game_id / f"{self.case.name}.record.json"


@dataclass(frozen=True)
class _Step:
    index: int
    seat: int | None
    action: Any
    state: Any
    events: tuple[racedeck.Event, ...]


def _compact(obj: JSONObject) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _play(game: racedeck.Game[Any, Any, Any], case: GoldenCase) -> racedeck.Table:
    table = racedeck.Table(game, case.seed, meta={"golden": case.name})
    policy = Rng(derive_seed(case.seed, POLICY_STREAM))
    while table.pending:
        pending: Sequence[int] = table.pending
        seat = pending[policy.below(len(pending))]
        legal = game.legal_actions(table.state, seat)
        table.submit(seat, legal[policy.below(len(legal))])
    return table


def _steps(game: racedeck.Game[Any, Any, Any], table: racedeck.Table) -> list[_Step]:
    """The initial state and the state after every recorded action (replayed, checked path),
    each with the events of the transition that led to it."""
    start = game.start(table.seed)
    steps = [_Step(0, None, None, start.state, start.events)]
    for step in racedeck.replay(table.record):
        steps.append(_Step(step.index + 1, step.seat, step.action, step.state, step.events))
    return steps


def _event_line(game: racedeck.Game[Any, Any, Any], event: racedeck.Event) -> str:
    if event.audience == PUBLIC:
        return f"event: {game.describe_event(event)}"
    to = "record" if event.audience == RECORD else f"seat {event.audience}"
    return f"event [{to}]: {game.describe_event(event)}"


def _render(
    game_id: str,
    game: racedeck.Game[Any, Any, Any],
    case: GoldenCase,
    steps: Sequence[_Step],
    view_seats: Sequence[int],
) -> str:
    spec = racedeck.get_spec(game_id)
    every_seat = len(view_seats) == game.num_players
    lines = [
        f"# Golden playthrough. Regenerate with {REGEN_COMMAND} when a change is intended.",
        f"game: {game_id}",
        f"rules_version: {spec.rules_version}",
        f"config: {_compact(game.config.to_json())}",
        f"seed: {case.seed}",
        "policy: uniform random pending seat, then uniform random legal action, "
        f"Rng(derive_seed({case.seed}, {POLICY_STREAM}))",
        "views: spectator and "
        + ("every seat" if every_seat else ", ".join(f"seat {s}" for s in view_seats)),
    ]
    for step in steps:
        lines.append("")
        if step.seat is None:
            lines.append(f"== step {step.index}: initial state")
        else:
            lines.append(f"== step {step.index}: seat {step.seat} plays {step.action}")
            lines.append(f"action: {_compact(step.action.to_json())}")
        lines.extend(_event_line(game, e) for e in step.events)
        lines.append(f"view spectator: {_compact(game.observe(step.state, None).to_json())}")
        for seat in view_seats:
            view = game.observe(step.state, seat).to_json()
            lines.append(f"view seat {seat}: {_compact(view)}")
    outcome = game.outcome(steps[-1].state)
    lines.append("")
    lines.append("== outcome")
    lines.append(f"outcome: {_compact(outcome.to_json()) if outcome is not None else 'null'}")
    return "\n".join(lines) + "\n"


def render_record(record: JSONObject) -> str:
    """The record as JSON: top-level keys in order, one action per line."""
    head = [(k, v) for k, v in record.items() if k != "actions"]
    lines = ["{"]
    lines.extend(f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}," for k, v in head)
    actions = record["actions"]
    lines.append('  "actions": [')
    lines.extend(
        f"    {json.dumps(a, sort_keys=True)}{',' if i < len(actions) - 1 else ''}"
        for i, a in enumerate(actions)
    )
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def play_case(game_id: str, case: GoldenCase) -> Playthrough:
    """Play ``case`` of ``game_id`` and render its files (in memory)."""
    game = racedeck.make(game_id, **case.config)
    table = _play(game, case)
    steps = _steps(game, table)
    text = _render(game_id, game, case, steps, range(game.num_players))
    if len(text.encode("utf-8")) > MAX_BYTES:
        text = _render(game_id, game, case, steps, [0])
    return Playthrough(game_id, case, text, render_record(table.record.to_json()))


def all_playthroughs() -> list[Playthrough]:
    """Every case of every game in :data:`GOLDEN_CASES`."""
    return [play_case(game_id, case) for game_id, cases in GOLDEN_CASES.items() for case in cases]


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every golden file; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    missing = sorted(set(racedeck.available_games()) - set(GOLDEN_CASES))
    if missing:
        print(f"warning: no golden cases for {', '.join(missing)}", file=sys.stderr)
    differ = 0
    for run in all_playthroughs():
        for path, content in ((run.text_path, run.text), (run.record_path, run.record)):
            old = path.read_text(encoding="utf-8") if path.exists() else None
            rel = path.relative_to(ROOT)
            size = len(content.encode("utf-8"))
            if old == content:
                print(f"unchanged {rel} ({size:,} bytes)")
            elif args.check:
                differ += 1
                print(f"DIFFERS   {rel}")
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content, encoding="utf-8")
                print(f"wrote     {rel} ({size:,} bytes)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
