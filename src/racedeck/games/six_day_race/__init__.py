"""*Six Day Race* (game id ``six-day-race``): slipstream, rider change, crash, sprints, laps."""

from racedeck.core.registry import register
from racedeck.core.spec import Dynamics, GameSpec
from racedeck.games.six_day_race.actions import PlayCard
from racedeck.games.six_day_race.config import SixDayRaceConfig
from racedeck.games.six_day_race.rules import SixDayRace
from racedeck.games.six_day_race.state import SixDayRaceState
from racedeck.games.six_day_race.view import SixDayRaceView

SPEC = register(
    GameSpec(
        id="six-day-race",
        title="Six Day Race",
        min_players=2,
        max_players=8,
        dynamics=frozenset({Dynamics.SEQUENTIAL}),
        config_type=SixDayRaceConfig,
        rules_version="2",  # 2: SD-11 Amended reorder ties by series laps lost
        factory=SixDayRace,
        presets={"quick": {"races": 1}, "standard": {}},
        plugins={
            "encoding": "racedeck.games.six_day_race.encoding",
            "observation": "racedeck.rl.observations.six_day_race",
            "kernel": "racedeck.kernels.six_day_race_steps",
            "search_kernel": "racedeck.kernels.six_day_race_search",
            "bots": "racedeck.bots.six_day_race",
            "playouts": "racedeck.bots.six_day_race_playout",
            "terminal": "racedeck.cli.six_day_race_ui",
            "measures": "racedeck.report.measures.six_day_race",
            "findings": "racedeck.report.findings.six_day_race",
            "web": "racedeck.server.web.six_day_race",
            "solvable": "racedeck.rl.solvable.six_day_race",
            "solvable_lessons": "racedeck.rl.solvable.six_day_race_lessons",
        },
        summary=(
            "A series of one-lap cycling races: slipstream onto crowded spaces, change riders, "
            "avoid the crash, take the sprints; fewest laps lost wins the series."
        ),
    )
)
SixDayRace.spec = SPEC

__all__ = [
    "SPEC",
    "PlayCard",
    "SixDayRace",
    "SixDayRaceConfig",
    "SixDayRaceState",
    "SixDayRaceView",
]
