"""What runs games for a person at a terminal or for a batch: the command line and the
bots' runs.

Holds ``cli`` (``python -m jabberwocky``), ``terminal`` (a game at the terminal),
``simulate`` (the tally and summary of bots' games) and ``tournament`` (runs over workers
and shards, merges, ``simulate()``).

May import: :mod:`jabberwocky.core`, :mod:`jabberwocky.bots`, :mod:`jabberwocky.formats`,
:mod:`jabberwocky.analysis`.  Not the page's facade nor the adapters (siblings, not layers).
"""
