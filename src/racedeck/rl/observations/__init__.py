"""Observation encodings: a seat's view as a fixed-size float32 vector, one module per game.

Each game registers its module as the ``observation`` plugin; the module offers
``observer(game) -> Observer`` (see :mod:`racedeck.rl.observations.base`) and documents its
fields in its docstring.
"""
