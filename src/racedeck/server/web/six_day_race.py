"""*Six Day Race* in the browser shell."""

WIN_RULE = "the most points wins a single race; over a series, fewest laps lost, then most points"
"""Who wins (rulebook: laps lost decide a series, points break ties)."""
