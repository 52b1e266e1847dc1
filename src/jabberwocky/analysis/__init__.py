"""What is worked out about games already played: statistics, reviews, claims, hints.

Holds ``stats`` (the page's statistics and the tally that ``simulate`` shares), ``review``
(a finished game's timeline, every hand face up, and the hard bot's second opinion),
``claim`` (when claiming every remaining trick is certain) and ``hint_reason`` (why a hint's
card is good, as a catalogue code).

May import: :mod:`jabberwocky.core`, :mod:`jabberwocky.bots`, :mod:`jabberwocky.formats`.
"""

MAX_STATS_CHARS = 8_000_000
"""A ``stats`` request may be longer than others: the facts of a few thousand games (under
1 KB each), or a few hundred records.  (Here, not in :mod:`.stats_requests`: the worker's
dispatcher checks a request's length before it imports the statistics.)"""
MAX_STATS_GAMES = 5000
"""The most records plus facts one ``stats`` request tallies (the page keeps 3000)."""
