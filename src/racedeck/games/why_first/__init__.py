"""*Why First?* (game id ``why-first``): the second figure scores, the second-best total wins."""

from racedeck.core.registry import register
from racedeck.core.spec import Dynamics, GameSpec
from racedeck.games.why_first.actions import CommitCard, MoveFigure, PlaceCard, WhyFirstAction
from racedeck.games.why_first.config import DEFAULT_CARD_VALUES, WhyFirstConfig
from racedeck.games.why_first.rules import WhyFirst
from racedeck.games.why_first.state import WhyFirstState
from racedeck.games.why_first.view import WhyFirstView

SPEC = register(
    GameSpec(
        id="why-first",
        title="Why First?",
        min_players=2,
        max_players=6,
        dynamics=frozenset({Dynamics.SIMULTANEOUS, Dynamics.SEQUENTIAL}),
        config_type=WhyFirstConfig,
        rules_version="1",
        factory=WhyFirst,
        presets={"quick": {"stages": 2}, "standard": {}, "long": {"stages": 8}},
        plugins={
            "encoding": "racedeck.games.why_first.encoding",
            "observation": "racedeck.rl.observations.why_first",
            "kernel": "racedeck.kernels.why_first_states",
            "search_kernel": "racedeck.kernels.why_first_search",
            "bots": "racedeck.bots.why_first",
            "playouts": "racedeck.bots.why_first_playout",
            "terminal": "racedeck.cli.why_first_ui",
            "measures": "racedeck.report.measures.why_first",
            "findings": "racedeck.report.findings.why_first",
            "web": "racedeck.server.web.why_first",
            "solvable": "racedeck.rl.solvable.why_first",
            "solvable_lessons": "racedeck.rl.solvable.why_first_lessons",
        },
        summary=(
            "Secretly place a card in front of any figure; the second figure scores, "
            "the second-best total wins. 2 players race with Leo; tactical variant."
        ),
    )
)
WhyFirst.spec = SPEC

__all__ = [
    "DEFAULT_CARD_VALUES",
    "SPEC",
    "CommitCard",
    "MoveFigure",
    "PlaceCard",
    "WhyFirst",
    "WhyFirstAction",
    "WhyFirstConfig",
    "WhyFirstState",
    "WhyFirstView",
]
