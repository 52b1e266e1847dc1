"""What is worked out about games already played: statistics, reviews, claims, hints.

Holds ``stats`` (the page's statistics and the tally that ``simulate`` shares), ``review``
(a finished game's timeline, every hand face up, and the hard bot's second opinion),
``claim`` (when claiming every remaining trick is certain) and ``hint_reason`` (why a hint's
card is good, as a catalogue code).

May import: :mod:`jabberwocky.core`, :mod:`jabberwocky.bots`, :mod:`jabberwocky.formats`.
"""
