"""*Why First?* in the browser shell."""

WIN_RULE = "the second-best total wins"
"""Who wins: the second-highest total after the last stage, not the highest (rulebook)."""
