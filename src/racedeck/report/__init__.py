"""Balance reports: seeded games between bots, tests of significance, plots and an HTML page.

This layer sits beside ``sim``: it uses ``core``, ``games``, ``bots`` and ``sim``, never ``cli``.
"""
