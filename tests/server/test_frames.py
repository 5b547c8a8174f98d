"""Frames are encoded as the standard library would encode them; each transition's events are
worded once for every recipient, each recipient getting exactly its own feed; and the views of
an update share their public part without changing a byte of any frame."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from unittest.mock import patch

import pytest
from budget import scaled
from game_configs import CASES, case_id, configs, make_game
from hypothesis import given, settings
from hypothesis import strategies as st

from racedeck.core.events import PUBLIC, Event
from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec
from racedeck.core.table import Table
from racedeck.server import live
from racedeck.server.frames import EventFeeds, encode
from racedeck.server.live import events_json
from racedeck.server.referee import frames as referee_frames
from racedeck.server.referee.frames import update_frames


def test_encode_reads_back_as_the_standard_encoder_writes() -> None:
    frame = {
        "type": "update",
        "view": {"scores": {0: 1.5, 1: -2}, "name": "Zoë", "cards": (1, 2, 3), "none": None},
        "big": 2**70,
    }
    assert json.loads(encode(frame)) == json.loads(json.dumps(frame))
    assert json.loads(encode({"seat": 2, "ok": True})) == {"seat": 2, "ok": True}


def test_each_seat_gets_its_feed_and_public_events_are_worded_once() -> None:
    spec = get_spec("why-first")
    table = Table(spec.factory(spec.make_config(players=3)), seed=5)
    public = table.history[0][1] or (Event("figure_moved", {"seat": 0}, PUBLIC),)
    events = (*public, Event("card_drawn", {"card": 3}, 1), Event("secret", {}, "record"))
    names = ["Ann", "Bo", "Cy"]
    feeds = EventFeeds(table, events, names)
    for seat in (0, 1, 2, None):
        assert feeds.for_seat(seat) == events_json(table, events, seat, names)
    # A public event is one object in every recipient's feed: worded once.
    assert feeds.for_seat(0)[0] is feeds.for_seat(2)[0] is feeds.for_seat(None)[0]
    assert not any(e.get("audience") == "record" for e in feeds.for_seat(1))
    assert any(e["kind"] == "card_drawn" for e in feeds.for_seat(1))
    assert not any(e["kind"] == "card_drawn" for e in feeds.for_seat(0))
    assert not any(e["kind"] == "card_drawn" for e in feeds.for_seat(None))


# -- update frames: the public part of the views made once --------------------------------------


@dataclass
class _Ref:
    """What :func:`update_frames` reads of a referee."""

    table: Table
    names: list[str]
    present: list[int | None]
    game_no: int = 1

    def clock_json(self, now: float) -> JSONObject:
        return {"now": now}

    def audiences(self) -> list[int | None]:
        return self.present


def _plain_views(
    table: Table, audiences: Iterable[int | None], names: Sequence[str]
) -> dict[int | None, JSONObject]:
    """Every audience's view as the server made it before views shared their public part:
    its own ``observe``, renamed in place."""
    out = {}
    for seat in audiences:
        view = table.view(seat).to_json()
        header = view["header"]
        defaults = table.game.seat_names()
        header["waiting"] = live._with_names(str(header.get("waiting", "")), defaults, names)
        header["seat_names"] = list(names)
        header["score_names"] = list(names) + list(header["score_names"])[len(names) :]
        outcome = header.get("outcome")
        if isinstance(outcome, dict):
            outcome["names"] = list(names) + list(outcome.get("names", []))[len(names) :]
        out[seat] = view
    return out


NAMES = ["Ann", "Bo", "P1", "P2", "P3", "Zoë", "P12", "Leo", "x P4 y"]
"""Names people choose, some of them another seat's default name (``P2`` at seat 0)."""


@pytest.mark.parametrize(("game_id", "fixed"), CASES, ids=map(case_id, CASES))
@settings(max_examples=scaled(2), deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), choices=st.integers(0, 2**32))
def test_update_frames_are_the_plain_path_frames(
    game_id: str, fixed: dict[str, Any], data: st.DataObject, seed: int, choices: int
) -> None:
    """Every audience's ``update`` frame, as text, is what it was when each view was made on
    its own, at every state of random games, whoever is connected and however named."""
    game = make_game(game_id, data.draw(configs(game_id, fixed), label="options"))
    n = game.num_players
    names = data.draw(st.permutations(NAMES).map(lambda p: p[:n]), label="names")
    table = Table(game, seed)
    rng = random.Random(choices)
    events = table.initial_events
    while True:
        present = [a for a in (None, *range(n)) if rng.random() < 0.8]
        ref: Any = _Ref(table, names, present)
        frames = update_frames(ref, events, 2.5)
        with patch.object(referee_frames, "views_json", _plain_views):
            before = update_frames(ref, events, 2.5)
        assert list(frames) == list(before) == present
        for a in present:
            assert encode(frames[a]) == encode(before[a]), f"audience {a}"
        if table.is_over:
            break
        seat = rng.choice(table.pending)
        events = table.submit(seat, rng.choice(game.legal_actions(table.state, seat))).events
