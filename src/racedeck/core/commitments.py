"""Commitments to face-down actions: published when taken, opened when revealed, checked after.

A seat's action may be *concealed* (:meth:`~racedeck.core.game.Game.conceals`) while the fact
that the seat acted is public: a card placed face down in *Why First?* (WF-4). The server then
publishes, at that moment, the SHA-256 of the action under a secret *salt* (:func:`digest`), so
the card cannot change between the commit and the reveal without everyone seeing the hash
break. The acting seat gets its salt at once (it can check its own commitment); everyone gets
the salts when the actions are public (:meth:`~racedeck.core.game.Game.reveals_concealed`),
and a finished game's record carries them all in ``meta.fair.commitments`` (:func:`check`).

Only actions whose *occurrence* is public are committed (:func:`is_committed`): the acting
seat must be one the game publicly waited for (:meth:`~racedeck.core.game.Game.public_acting`)
and the step must make an event everyone sees. An action nobody may know was taken — a silent
answer in a reaction window (SB-9) — gets no commitment, since publishing one would say who
answered.

Each salt is derived from the game's secret server seed (:mod:`racedeck.core.fairness`) with
HMAC-SHA256, so a server needs to store nothing new, a restarted server or a second process
opens the same commitments, and the salts are fixed by the seed commitment published before the
deal: the server cannot pick a salt after seeing a card.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.errors import RacedeckError
from racedeck.core.events import Event
from racedeck.core.game import Game
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, replay

__all__ = [
    "ActionCommitment",
    "Ledger",
    "check",
    "commitments_of",
    "digest",
    "is_committed",
    "salt",
]

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _seed_commitment(server_seed: str) -> str:
    """:func:`racedeck.core.fairness.commitment` (that module checks records with this one)."""
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def salt(server_seed: str, move: int, seat: int) -> str:
    """The secret salt of the action ``seat`` takes at ``move``: HMAC-SHA256 keyed with the
    server seed over ``face-down:<move>:<seat>``, as lowercase hex."""
    message = f"face-down:{move}:{seat}".encode()
    # The one-shot form: no HMAC object per salt (one is made for every face-down action).
    return hmac.digest(server_seed.encode("utf-8"), message, "sha256").hex()


def digest(game: str, move: int, seat: int, action: JSONObject, salt: str) -> str:
    """The commitment to one action: SHA-256 of the canonical JSON (keys sorted, no spaces,
    ASCII) of ``{"action", "game", "move", "salt", "seat"}``, as lowercase hex.

    ``game`` is the commitment to the game's server seed, so a commitment belongs to one game;
    ``move`` is the number of actions before this one (its index in the record).
    """
    payload = {"action": action, "game": game, "move": move, "salt": salt, "seat": seat}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def is_committed(
    game: Game[Any, Any, Any], before: Any, seat: int, action: Any, events: Iterable[Event]
) -> bool:
    """True when ``seat``'s ``action`` in ``before`` is concealed but its occurrence public:
    the game conceals it, publicly waited for ``seat`` and announces the step with a public
    event. Never a silent window answer (SB-9): nobody waits for a seat in public there. And
    since everyone is told of the step anyway, publishing a commitment adds no message whose
    timing could say anything."""
    return _committed(game, before, seat, game.conceals(before, seat, action), events)


def _committed(
    game: Game[Any, Any, Any], before: Any, seat: int, concealed: bool, events: Iterable[Event]
) -> bool:
    """:func:`is_committed` for an action whose concealment is known."""
    return concealed and seat in game.public_acting(before) and any(e.is_public for e in events)


@dataclass(frozen=True, slots=True)
class ActionCommitment:
    """The commitment to one face-down action: where it stands, its hash and its salt."""

    move: int
    seat: int
    hash: str
    salt: str

    def public_json(self) -> JSONObject:
        """What everyone may see before the reveal: ``{"move", "seat", "hash"}``."""
        return {"move": self.move, "seat": self.seat, "hash": self.hash}

    def to_json(self) -> JSONObject:
        """The opened form, with the salt (for the acting seat, the reveal and the record)."""
        return {**self.public_json(), "salt": self.salt}


@dataclass
class Ledger:
    """The commitments of one game in play, in order, and how many are opened.

    Feed it every accepted action (:meth:`note`); it says what to publish and what to open.
    """

    game: Game[Any, Any, Any]
    server_seed: str
    entries: list[ActionCommitment] = field(default_factory=list)
    opened: int = 0
    """Entries ``[0, opened)`` are opened: their salts are public."""
    game_commitment: str = field(init=False, repr=False)
    """The commitment to the server seed, which every digest of the game holds."""

    def __post_init__(self) -> None:
        self.game_commitment = _seed_commitment(self.server_seed)

    def note(
        self,
        before: Any,
        seat: int,
        action: JSONObject,
        move: int,
        after: Any,
        events: Iterable[Event],
        concealed: bool | None = None,
    ) -> tuple[ActionCommitment | None, tuple[ActionCommitment, ...]]:
        """Account for the action ``seat`` took at ``move`` (``before`` → ``after``, making
        ``events``). ``concealed``: whether the game conceals it, when the caller knows
        (:attr:`racedeck.core.table.Step.concealed`); asked of the game otherwise.

        Returns the new commitment to publish (``None`` when the action is seen, or nobody may
        know it was taken) and the commitments opened now, because the game has revealed
        every concealed action in ``after``.
        """
        new = None
        game = self.game
        if concealed is None:
            concealed = game.conceals(before, seat, game.action_from_json(action))
        if _committed(game, before, seat, concealed, events):
            key = salt(self.server_seed, move, seat)
            new = ActionCommitment(
                move, seat, digest(self.game_commitment, move, seat, action, key), key
            )
            self.entries.append(new)
        opened: tuple[ActionCommitment, ...] = ()
        if self.opened < len(self.entries) and self.game.reveals_concealed(after):
            opened = tuple(self.entries[self.opened :])
            self.opened = len(self.entries)
        return new, opened

    def public_json(self, seat: int | None = None) -> list[JSONObject]:
        """Every commitment so far as everyone may see it: salts of the opened ones only, and
        of ``seat``'s own (a seat knows its own face-down actions; ``None``: nobody's)."""
        return [
            e.to_json() if i < self.opened or e.seat == seat else e.public_json()
            for i, e in enumerate(self.entries)
        ]

    @classmethod
    def of_record(cls, record: GameRecord, server_seed: str) -> Ledger:
        """The ledger of ``record``'s actions so far (a table restored from its record)."""
        ledger = cls(record.make_game(), server_seed)
        state = ledger.game.start(record.seed).state
        for step in replay(record):
            ledger.note(
                state,
                step.seat,
                record.actions[step.index].action,
                step.index,
                step.state,
                step.events,
            )
            state = step.state
        return ledger


def commitments_of(record: GameRecord, server_seed: str) -> list[JSONObject]:
    """Every commitment of ``record``'s game, opened (``meta.fair.commitments``); raises
    :class:`~racedeck.core.errors.RacedeckError` when the record does not replay."""
    return [e.to_json() for e in Ledger.of_record(record, server_seed).entries]


def check(record: GameRecord, server_seed: str, entries: object) -> list[str]:
    """Every problem with ``record``'s face-down commitments (``entries``, from
    ``meta.fair.commitments``), in words; empty when each one opens to the recorded action.

    Checks the form of each entry, that its salt is the one derived from the server seed, that
    it opens to the action the record holds at its move (naming the move when not), and that
    the record's game committed exactly those actions — none left out, none added.
    """
    if not isinstance(entries, list):
        return ["the face-down commitments (meta.fair.commitments) must be a list"]
    problems: list[str] = []
    game_commitment = _seed_commitment(server_seed)
    actions = record.actions
    for i, entry in enumerate(entries):
        where = f"face-down commitment {i}"
        if not isinstance(entry, dict) or not _well_formed(entry):
            problems.append(
                f"{where} must be an object with integer 'move' and 'seat' and hex 'hash' "
                f"and 'salt'"
            )
            continue
        move, seat = entry["move"], entry["seat"]
        where = f"the face-down action at move {move} (seat {seat})"
        if not 0 <= move < len(actions):
            problems.append(f"{where}: the record has no action {move}")
            continue
        if actions[move].seat != seat:
            problems.append(f"{where}: the record's action {move} is seat {actions[move].seat}'s")
            continue
        if not hmac.compare_digest(entry["salt"], salt(server_seed, move, seat)):
            problems.append(f"{where}: the salt is not the one derived from the server seed")
        opened = digest(game_commitment, move, seat, actions[move].action, entry["salt"])
        if opened != entry["hash"]:
            problems.append(
                f"{where} is not the one committed: the recorded action "
                f"{json.dumps(actions[move].action, sort_keys=True)} does not open the "
                f"commitment {entry['hash']}"
            )
    try:
        expected = [(e.move, e.seat) for e in Ledger.of_record(record, server_seed).entries]
    except RacedeckError:
        return problems  # the replay check names the action that does not replay
    given = [(e["move"], e["seat"]) for e in entries if isinstance(e, dict) and _well_formed(e)]
    if given != expected:
        missing = sorted(set(expected) - set(given))
        extra = sorted(set(given) - set(expected))
        parts = []
        if missing:
            parts.append("moves without their commitment: " + _moves(missing))
        if extra:
            parts.append("commitments to actions that were not face down: " + _moves(extra))
        if not parts:
            parts.append("they are not in the order of the moves")
        problems.append("the face-down commitments do not match the game's: " + "; ".join(parts))
    return problems


def _well_formed(entry: JSONObject) -> bool:
    return (
        type(entry.get("move")) is int
        and type(entry.get("seat")) is int
        and isinstance(entry.get("hash"), str)
        and isinstance(entry.get("salt"), str)
        and bool(_HEX64.match(entry["hash"]))
        and bool(_HEX64.match(entry["salt"]))
    )


def _moves(where: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"move {m} (seat {s})" for m, s in where)
