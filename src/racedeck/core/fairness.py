"""Provably fair deals: a committed server seed, the seats' client seeds, and the check.

Before the deal the server publishes the SHA-256 of a secret *server seed* (the
*commitment*). Each seat may contribute a *client seed*. The game's seed is derived from
both, so neither the server (bound by its commitment before it knew the client seeds) nor any
one player chooses the deal. When the game ends the server reveals its seed; anyone holding
the record can then check, with :func:`verify`, that

1. the revealed server seed hashes to the commitment published before the deal,
2. the record's game seed is the derivation of the server seed and the client seeds,
3. the record replays, action by action, to the result it states,
4. every face-down action opens the commitment published when it was taken
   (:mod:`racedeck.core.commitments`), so no face-down card changed before its reveal.

A record carries these facts in ``meta["fair"]`` (see :func:`fair_meta`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from racedeck.core import commitments as face_down
from racedeck.core.errors import InvalidRecord
from racedeck.core.jsontypes import JSONObject
from racedeck.core.record import GameRecord, replay

__all__ = [
    "COMMITMENTS_KEY",
    "FAIR_KEY",
    "MAX_CLIENT_SEED",
    "commitment",
    "fair_meta",
    "game_seed",
    "result_of",
    "verify",
]

FAIR_KEY = "fair"
"""The key of a record's ``meta`` that holds the fairness facts."""

COMMITMENTS_KEY = "commitments"
"""The key of ``meta["fair"]`` that holds the opened commitments to face-down actions."""

MAX_CLIENT_SEED = 64
"""Longest client seed, in characters."""

_SERVER_SEED = re.compile(r"^[0-9a-f]{64}$")


def commitment(server_seed: str) -> str:
    """The SHA-256 of ``server_seed`` (hex text), as lowercase hex: what is published first."""
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def game_seed(server_seed: str, client_seeds: Sequence[str]) -> int:
    """The engine's seed from the server seed and each seat's client seed, in seat order.

    SHA-256 over the server seed and every client seed, each followed by a newline (so no
    two lists of seeds run together into the same text; a seat without one contributes the
    empty text); the first eight bytes, as a 63-bit non-negative integer.
    """
    text = "".join(s + "\n" for s in (server_seed, *client_seeds))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def result_of(record: GameRecord, state: Any) -> JSONObject:
    """The result a finished game states: its scores, ranks and winners (``{}`` while it
    goes on)."""
    outcome = record.make_game().outcome(state)
    if outcome is None:
        return {}
    out = outcome.to_json()
    out.pop("names", None)  # the people's names are no part of the result
    return out


def fair_meta(
    server_seed: str,
    client_seeds: Sequence[str],
    result: JSONObject | None = None,
    commitments: Sequence[JSONObject] | None = None,
) -> JSONObject:
    """``meta["fair"]`` of a finished game's record: the commitment, the revealed server
    seed, the client seeds, the result and the opened commitments to its face-down actions
    (:func:`racedeck.core.commitments.commitments_of`; left out when ``None``, as in a
    record from before they were published)."""
    out: JSONObject = {
        "commitment": commitment(server_seed),
        "server_seed": server_seed,
        "client_seeds": list(client_seeds),
        "result": {} if result is None else result,
    }
    if commitments is not None:
        out[COMMITMENTS_KEY] = list(commitments)
    return out


def verify(record: GameRecord) -> list[str]:
    """Every problem found with ``record``'s fairness facts, in words (empty: it checks out).

    Checks that the record holds the facts at all, that the revealed server seed hashes to the
    commitment, that the game seed is derived from the server seed and the client seeds, that
    the actions replay to the result the record states, and that every face-down action opens
    its commitment (naming the move of one that does not).
    """
    fair = record.meta.get(FAIR_KEY)
    if not isinstance(fair, dict):
        return ["the record holds no fairness facts (meta.fair): it was not dealt fairly online"]
    problems: list[str] = []
    server_seed = fair.get("server_seed")
    committed = fair.get("commitment")
    client_seeds = fair.get("client_seeds")
    result = fair.get("result")
    if not isinstance(committed, str) or not committed:
        problems.append("the record holds no commitment (meta.fair.commitment)")
    if not isinstance(server_seed, str) or not _SERVER_SEED.match(server_seed):
        problems.append("the server seed (meta.fair.server_seed) is missing or not 64 hex digits")
        server_seed = None
    if not isinstance(client_seeds, list) or not all(isinstance(s, str) for s in client_seeds):
        problems.append("the client seeds (meta.fair.client_seeds) must be a list of texts")
        client_seeds = None
    if not isinstance(result, dict) or not result:
        problems.append("the record states no result (meta.fair.result)")
        result = None
    if (
        server_seed is not None
        and isinstance(committed, str)
        and committed
        and commitment(server_seed) != committed
    ):
        problems.append(
            f"the server seed does not match the commitment: its SHA-256 is "
            f"{commitment(server_seed)}, the commitment is {committed}"
        )
    if server_seed is not None and client_seeds is not None:
        derived = game_seed(server_seed, client_seeds)
        if derived != record.seed:
            problems.append(
                f"the game seed {record.seed} is not the one derived from the server seed "
                f"and the client seeds ({derived})"
            )
    if server_seed is not None and COMMITMENTS_KEY in fair:
        # A record from before face-down commitments has none to check (the CLI says so).
        problems.extend(face_down.check(record, server_seed, fair[COMMITMENTS_KEY]))
    try:
        state = record.make_game().start(record.seed).state
        for step in replay(record):
            state = step.state
    except InvalidRecord as exc:
        problems.append(str(exc))  # names the action that does not replay, or why
        return problems
    replayed = result_of(record, state)
    if not replayed:
        problems.append(f"the record's {len(record.actions)} actions do not finish the game")
    elif result is not None and replayed != result:
        problems.append(
            f"the record states the result {_short(result)}, its actions give {_short(replayed)}"
        )
    return problems


def _short(result: JSONObject) -> str:
    return f"scores {result.get('scores')} winners {result.get('winners')}"
