"""The engine offered to other frameworks, at the edge: ``openspiel`` (the game for
OpenSpiel, optional, needs ``pyspiel`` only when registered).

May import: :mod:`jabberwocky.core` (and the layers below the drivers if ever needed);
nothing in the package imports an adapter.
"""
