"""What a report finds: the generic sections, and each game's own."""

from racedeck.report.batches import Batch
from racedeck.report.findings.base import Findings, GameFindings
from racedeck.report.findings.setback import SETBACK
from racedeck.report.findings.six_day_race import SIX_DAY_RACE
from racedeck.report.findings.why_first import WHY_FIRST

__all__ = ["Findings", "GameFindings", "findings_for"]


def _no_batches(main: Batch, games: int) -> list[Batch]:
    return []


_GENERIC = GameFindings(
    score="score", turns=None, extra_batches=_no_batches, findings=lambda results, out: Findings()
)

_BY_GAME = {"why-first": WHY_FIRST, "six-day-race": SIX_DAY_RACE, "setback": SETBACK}


def findings_for(game_id: str) -> GameFindings:
    """The report's knowledge of ``game_id`` (generic sections only for an unknown game)."""
    return _BY_GAME.get(game_id, _GENERIC)
