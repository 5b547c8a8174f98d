"""What each game offers the browser besides its folder (the ``web`` face).

A game's page in the browser is the folder ``static/games/<game-id>/``: ``board.js`` (its
renderer), ``board.css`` and ``words.js`` (its events in words), found by every page through
``static/faces.js``. A module per game here, named ``web`` in the game's spec, holds
``WIN_RULE``: the game's own words for who wins, shown with the standings at the end.
"""
