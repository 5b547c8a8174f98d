"""What a report finds: the generic sections, and each game's own (its ``findings`` plugin)."""

from racedeck.plugins import optional_plugin
from racedeck.report.batches import Batch
from racedeck.report.findings.base import Findings, GameFindings

__all__ = ["Findings", "GameFindings", "findings_for"]


def _no_batches(main: Batch, games: int) -> list[Batch]:
    return []


_GENERIC = GameFindings(
    score="score", turns=None, extra_batches=_no_batches, findings=lambda results, out: Findings()
)


def findings_for(game_id: str) -> GameFindings:
    """The report's knowledge of ``game_id``: its ``findings`` plugin's ``FINDINGS``, or the
    generic sections only when it registers none."""
    module = optional_plugin(game_id, "findings")
    found = getattr(module, "FINDINGS", None)
    return found if isinstance(found, GameFindings) else _GENERIC
