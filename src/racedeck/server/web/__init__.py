"""What each game offers the browser shell besides its renderer (the ``web`` face).

A module per game holds ``WIN_RULE``: the game's own words for who wins, shown with the
standings at the end of a game.
"""
