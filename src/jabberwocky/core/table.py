"""What a table may be: how many players sit at it, what its seed and its players' names
may hold.

One place decides each, for every door into the engine (:class:`~jabberwocky.core.game.Game`,
:class:`~jabberwocky.core.rules.Ruleset`, game records, challenge links, the web facade, the
command line), so that the page, a record, a link and the CLI refuse the same things with
the same words.

>>> check_players(4)
4
>>> check_players(True)
Traceback (most recent call last):
...
jabberwocky.core.errors.SeedError: True players cannot play: choose 3 to 5
>>> check_seed("brave-otter-lamp-42")
'brave-otter-lamp-42'
>>> check_name("Maria")
'Maria'
"""

from __future__ import annotations

import unicodedata

from .deal import seed_bytes
from .errors import SeedError
from .messages import quote

MIN_PLAYERS = 3
MAX_PLAYERS = 5
DEFAULT_PLAYERS = 4

MAX_SEED_LENGTH = 200
"""Longer seeds are refused: a seed is meant to be read out and typed."""

MAX_NAME_LENGTH = 24
"""Longest player name: a name is shown beside a score, in a list of up to five."""

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a name holding one could make the
names or scores next to it read backwards."""


def check_players(players: object) -> int:
    """Return ``players`` if a table of that size can play, else raise :class:`SeedError`.

    A whole number (``true`` and ``4.0`` are not) from :data:`MIN_PLAYERS` to
    :data:`MAX_PLAYERS`.  Checked before anything is sized by it, so ``10**30`` is refused
    as quickly as ``6``.
    """
    if (not isinstance(players, int) or isinstance(players, bool)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise SeedError("table.players", value=quote(players), min=MIN_PLAYERS,
                        max=MAX_PLAYERS)
    return players


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def check_seed(seed: object) -> str:
    """Return ``seed`` if it is usable, else raise :class:`SeedError` saying why.

    A seed is text of at most :data:`MAX_SEED_LENGTH` characters that survives the deal's
    canonical form (NFC, then UTF-8: an unpaired surrogate does not, and the command line
    hands one over for bytes that are not UTF-8) and holds no control character (a tab, a
    newline, an escape: invisible or disruptive where a seed is shown, typed or shared).
    """
    if not isinstance(seed, str):
        raise SeedError("seed.not_text", value=quote(seed))
    if len(seed) > MAX_SEED_LENGTH:
        raise SeedError("seed.too_long", length=len(seed), max=MAX_SEED_LENGTH)
    try:
        seed_bytes(seed)
    except UnicodeEncodeError as exc:
        raise SeedError("seed.not_encodable", char=_code_point(seed[exc.start]),
                        position=exc.start + 1) from None
    for i, char in enumerate(seed):
        if unicodedata.category(char) == "Cc":
            raise SeedError("seed.control", char=_code_point(char), position=i + 1)
    return seed


def check_name(name: object) -> str:
    """Return ``name`` if it can be a player's name, else raise :class:`SeedError`.

    A name is plain short text: at most :data:`MAX_NAME_LENGTH` characters, not blank,
    encodable like a seed, and without control characters, line or paragraph separators
    or the bidirectional controls that reorder text around them (a name is shown among
    other names and scores, and travels in records and links).  Spaces are kept as given.
    """
    if not isinstance(name, str):
        raise SeedError("name.not_text", value=quote(name))
    if len(name) > MAX_NAME_LENGTH:
        raise SeedError("name.too_long", length=len(name), max=MAX_NAME_LENGTH)
    if not name.strip():
        raise SeedError("name.blank")
    try:
        seed_bytes(name)
    except UnicodeEncodeError as exc:
        raise SeedError("name.not_encodable", char=_code_point(name[exc.start]),
                        position=exc.start + 1) from None
    for i, char in enumerate(name):
        if unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS:
            raise SeedError("name.control", char=_code_point(char), position=i + 1)
    return name


def check_names(names: object, players: int) -> tuple[str | None, ...]:
    """One name or ``None`` per seat (a list of ``players`` entries), each checked by
    :func:`check_name`; raises :class:`SeedError` (``table.name_count``, ``name.*``)."""
    if not isinstance(names, (list, tuple)):
        raise SeedError("table.names_shape")
    if len(names) != players:
        raise SeedError("table.name_count", count=len(names), players=players)
    return tuple(None if n is None else check_name(n) for n in names)
