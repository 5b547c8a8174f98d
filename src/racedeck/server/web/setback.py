"""*Setback* in the browser shell."""

WIN_RULE = "the first to reach or pass FINISH wins"
"""Who wins (rulebook)."""
