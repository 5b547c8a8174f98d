"""Setback (game id ``setback``): race through lanes of cards, BLOCK out of turn."""

from racedeck.core.registry import register
from racedeck.core.spec import Dynamics, GameSpec
from racedeck.games.setback.actions import (
    Block,
    DiscardBlock,
    EndHand,
    Pass,
    Play,
    SetbackAction,
    Step,
)
from racedeck.games.setback.cards import CardType, parse_card_type
from racedeck.games.setback.config import SetbackConfig
from racedeck.games.setback.rules import Setback
from racedeck.games.setback.state import SetbackState
from racedeck.games.setback.view import SetbackView

SPEC = register(
    GameSpec(
        id="setback",
        title="Setback",
        min_players=2,
        max_players=6,
        dynamics=frozenset({Dynamics.SEQUENTIAL, Dynamics.REACTIVE, Dynamics.SIMULTANEOUS}),
        config_type=SetbackConfig,
        rules_version="3",  # 3: SB-9 amended again, simultaneous concealed answers
        factory=Setback,
        presets={"quick": {"rows": 4}, "standard": {}, "long": {"rows": 9}},
        plugins={
            "encoding": "racedeck.games.setback.encoding",
            "observation": "racedeck.rl.observations.setback",
            "kernel": "racedeck.kernels.setback_steps",
            "search_kernel": "racedeck.kernels.setback_search",
            "bots": "racedeck.bots.setback",
            "playouts": "racedeck.bots.setback_playout",
            "terminal": "racedeck.cli.setback_ui",
            "measures": "racedeck.report.measures.setback",
            "findings": "racedeck.report.findings.setback",
            "web": "racedeck.server.web.setback",
            "solvable": "racedeck.rl.solvable.setback",
            "solvable_lessons": "racedeck.rl.solvable.setback_lessons",
        },
        summary=(
            "Race your token through lanes of cards from START to FINISH; MOVE, FOE, ALL, "
            "SHIFT, TRADE, CUT, REVAMP and SKIP — and BLOCK anything, out of turn."
        ),
    )
)
Setback.spec = SPEC

__all__ = [
    "SPEC",
    "Block",
    "CardType",
    "DiscardBlock",
    "EndHand",
    "Pass",
    "Play",
    "Setback",
    "SetbackAction",
    "SetbackConfig",
    "SetbackState",
    "SetbackView",
    "Step",
    "parse_card_type",
]
