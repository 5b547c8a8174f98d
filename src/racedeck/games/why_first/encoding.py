"""The action encoding of *Why First?* (see :mod:`racedeck.core.encoding`).

Base game (WF-4): ``PlaceCard(value, target)`` for every distinct card value of the deck, lowest
first, times every figure (Leo last in the two-player game, WF-9): index
``value_rank * figures + target``. Tactical variant (WF-10): ``CommitCard(card)`` for the white
numbers 1..N at indices ``card - 1``, then ``MoveFigure(target)`` at ``N + target``.

Longest game: every stage has ``hand_size - 1`` commit rounds (the last card is played for
everyone, WF-5), one decision per seat each; the tactical variant adds one move per seat's card
in every round, the last included (Leo's cards move Leo without asking, WF-10).
"""

from __future__ import annotations

from racedeck.core.encoding import ActionEncoding
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard, WhyFirstAction
from racedeck.games.why_first.rules import WhyFirst

__all__ = ["action_encoding"]


def action_encoding(game: WhyFirst) -> ActionEncoding[WhyFirstAction]:
    """The numbering of every action ``game``'s configuration can make legal."""
    cfg = game.cfg
    figures = game.figures
    n = cfg.players
    commit_rounds = cfg.stages * (cfg.hand_size - 1) * n
    actions: list[WhyFirstAction]
    if game.tactical:
        actions = [CommitCard(c) for c in range(1, len(cfg.card_values) + 1)]
        actions += [MoveFigure(t) for t in range(figures)]
        longest = commit_rounds + cfg.stages * cfg.hand_size * n
    else:
        values = sorted(set(cfg.card_values))
        actions = [PlaceCard(v, t) for v in values for t in range(figures)]
        longest = commit_rounds
    return ActionEncoding(actions, longest)
