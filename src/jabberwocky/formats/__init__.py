"""The engine's texts: game records, challenge links, their packing, the JSON of a game.

Holds ``record`` (``jabberwocky-game/1``), ``challenge`` (challenge links and their
codec), ``packing`` (bit packing and base64url), ``jsontext`` (JSON read with depth and size
limits), ``gamejson`` (the one writer of a game's JSON: rounds, tricks, a seat's view) and
``deals`` (a seed's deals as JSON).

May import: :mod:`jabberwocky.core` and :mod:`jabberwocky.bots` (a challenge checks its bots'
moves; records name the bots' version).  Nothing above.
"""
