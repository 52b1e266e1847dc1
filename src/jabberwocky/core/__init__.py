"""The referee: cards, seeded deals, rules, the game, what one seat may see.

Holds ``cards``, ``deal`` and ``rng`` (the versioned seed-to-deal algorithm and the bots'
seeded randomness), ``table`` (seats, seeds, names), ``rules`` (the :class:`Ruleset` and the
specification of every rule option), ``game`` (:class:`Game`), ``actions`` (a game as a list
of moves: replay, take-back), ``observation``, ``history``, ``phase``, ``levels`` (seat kinds,
``BOTS_VERSION``), ``words`` (fresh seeds), ``errors`` and ``messages`` (every sentence as a
catalogue code).

May import: the standard library only.  Everything else in the package stands on this.
"""
