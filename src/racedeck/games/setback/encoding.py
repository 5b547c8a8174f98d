"""The action encoding of Setback (see :mod:`racedeck.core.encoding`).

Indices run, in this order, over:

1. the declarations (:class:`Play`), card type by card type in the order of
   :class:`~racedeck.games.setback.cards.DeckIndex` (the deck's types and their Board Action
   forms, SB-3), each type's forms as :mod:`racedeck.games.setback.declarations` makes them
   (SB-5, SB-6, SB-10), for every player ``q``, every lane ``ln < max_lanes`` and every
   ordered pair ``a != b`` of players:

   * MOVE: ``Play(t)``, then, for a forward card, ``Play(t, lane=ln)`` (entering from START);
   * FOE: ``Play(t, target=q)``, then, for a forward card, ``Play(t, target=q, lane=ln)``;
   * ALL, DRAW: ``Play(t)``; SKIP: ``Play(t, target=q)``;
   * SHIFT: ``Play(t)``, ``Play(t, target=q, lane=ln)``;
   * TRADE, CUT: ``Play(t)``, ``Play(t, target=a, other=b)``;
   * REVAMP: ``Play(t)``, ``add-left``, ``add-right``, ``Play(t, mode="remove", lane=ln)``;
   * BLOCK: none (a BLOCK is never declared, SB-9);

   ``Play(t)`` alone is the card played for no effect when nothing is a legal target (FAQ 4);
2. ``EndHand``, ``DiscardBlock`` (SB-3), ``Block``, ``Pass`` (SB-9);
3. ``Step(token, lane)`` for every token and ``lane`` from -1 to ``max_lanes - 1``.

Longest game (``max_game_length``): ``max_moves``, 20,000 by default. The rules bound nothing —
minus cards, FOE, TRADE, CUT and SKIP can set tokens back without end (SB-4 to SB-10) — so the
game's own ``max_moves``, which ends it ranked by progress, is the only bound there is, and
games reach it: with the rulebook's board, 2 of 40,000 games of six heuristic players ended at
20,000 actions (one in a thousand took more than 8,597), and on 20 rows almost every game of
heuristic players does. Random play is far shorter (the longest of 200,000 six-player games
took 2,968 actions). ``benchmarks/setback_lengths.py`` measures them; a learner that wants
shorter episodes passes ``max_actions`` to the environments (truncated, not ended by the rules).
"""

from __future__ import annotations

from racedeck.core.encoding import ActionEncoding
from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
)
from racedeck.games.setback.cards import CardType, DeckIndex
from racedeck.games.setback.rules import Setback

__all__ = ["action_encoding", "declaration_forms"]


def declaration_forms(t: CardType, players: int, max_lanes: int) -> list[Play]:
    """Every :class:`Play` of card type ``t`` any state of such a game can make legal."""
    kind, forward = t.kind, t.amount > 0
    seats, lanes = range(players), range(max_lanes)
    pairs = [(a, b) for a in seats for b in seats if a != b]
    if kind == "BLOCK":
        return []
    if kind == "SKIP":  # another player is always there to skip
        return [Play(t, target=q) for q in seats]
    if kind == "FOE":  # another player is always there to target
        out = [Play(t, target=q) for q in seats]
        if forward:
            out += [Play(t, target=q, lane=ln) for q in seats for ln in lanes]
        return out
    out = [Play(t)]
    if kind == "MOVE" and forward:
        out += [Play(t, lane=ln) for ln in lanes]
    elif kind == "SHIFT":
        out += [Play(t, target=q, lane=ln) for q in seats for ln in lanes]
    elif kind in ("TRADE", "CUT"):
        out += [Play(t, target=a, other=b) for a, b in pairs]
    elif kind == "REVAMP":
        out += [Play(t, mode="add-left"), Play(t, mode="add-right")]
        out += [Play(t, mode="remove", lane=ln) for ln in lanes]
    return out


def action_encoding(game: Setback) -> ActionEncoding[SetbackAction]:
    """The numbering of every action ``game``'s configuration can make legal."""
    cfg = game.cfg
    n, max_lanes = cfg.players, cfg.max_lanes
    actions: list[SetbackAction] = []
    for t in DeckIndex(cfg.card_types()).types:
        actions += declaration_forms(t, n, max_lanes)
    actions += [EndHand(), DiscardBlock(), Block(), Pass()]
    actions += [Step(token, lane) for token in range(n) for lane in range(-1, max_lanes)]
    return ActionEncoding(actions, cfg.max_moves)
