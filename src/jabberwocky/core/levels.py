"""The names of the seat kinds, shared by the CLI, the web settings and game records.

A seat is ``human`` or a bot level.  The built-in levels are :data:`BOT_LEVELS`, weakest
first; third-party bots (:func:`jabberwocky.bots.register`, or the ``jabberwocky.bots``
entry-point group) add levels of their own.  Any name that :func:`is_level_name` accepts
may stand in a game record, whether or not that bot is installed where the record is
read: a record holds every move, so it replays and checks without the bot.

>>> is_level_name("acme-greedy"), is_level_name("Acme"), is_level_name("human")
(True, False, False)
"""

from __future__ import annotations

import re

HUMAN = "human"
BOT_LEVELS = ("random", "easy", "medium", "learned", "hard")
"""Bot levels from weakest to strongest."""
SEAT_KINDS = (HUMAN, *BOT_LEVELS)
"""The built-in seat kinds (a registered bot's level is a seat kind too)."""

BOTS_VERSION = "jabberwocky-bots/5"
"""Names the behaviour of every built-in bot.  A record or a link made with another bots
version still plays (same deals, same rules), but its bots may choose differently: the
page says so.  Bumped whenever a golden bot game (``tests/golden/bots.json``) changes.

It stands here, beside the level names, not in :mod:`jabberwocky.bots`: every new
:class:`~jabberwocky.core.game.Game` names it, and the referee imports nothing of the
bots (``jabberwocky.bots`` re-exports it)."""

MAX_LEVEL_LENGTH = 32
"""The longest bot level name: short enough for a table's column and a seat label."""
LEVEL_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*")
"""A level name: lowercase ASCII letters and digits, words joined by one ``.``, ``-`` or
``_``, starting with a letter (``acme``, ``acme.greedy-2``).  No comma or space, so a
``--bots`` list splits on commas; no capitals, so two names never differ by case alone."""


def is_level_name(name: object) -> bool:
    """True when ``name`` may name a bot level (``human`` is a seat kind, not a level)."""
    return (isinstance(name, str) and len(name) <= MAX_LEVEL_LENGTH and name != HUMAN
            and LEVEL_PATTERN.fullmatch(name) is not None)


def is_seat_kind(kind: object) -> bool:
    """True when ``kind`` may name a seat: ``human`` or a level name."""
    return kind == HUMAN or is_level_name(kind)
