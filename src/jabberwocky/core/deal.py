"""From a seed to the first dealer and every round's deal: algorithm ``jabberwocky-deal/1``.

The derivation is the project's own and is frozen: a shared seed must give the same
deals on every machine, in CPython and in Pyodide, today and after future releases.
It uses only SHA-256 and integer arithmetic, never Python's ``random`` module.

The algorithm, version 1:

1. The seed is any text.  It is normalised to Unicode NFC and encoded as UTF-8: ``S``.
2. ``block(label, n)`` is SHA-256 of ``b"jabberwocky-deal/1" 0x00 label 0x00 S 0x00 n``
   (``label`` and ``n`` as ASCII decimal text), read as a 256-bit big-endian integer.
3. ``uniform(label, m)``: for ``n = 0, 1, ...`` take ``x = block(label, n)`` and return
   ``x mod m`` for the first ``x < 2**256 - (2**256 mod m)`` (rejection makes it exact).
4. The first dealer is ``uniform("dealer", players)``.
5. Round ``r`` (1-based) shuffles the full deck, cards ``0..51`` in record order
   (``2C 3C .. AC 2D .. AS``), by the permutation number ``p = uniform("round-r", 52!)``
   decoded as a Lehmer code: for ``i = 0..51``, ``k = p mod (52 - i)``, ``p //= 52 - i``,
   and the next card is the ``k``-th (0-based) of the cards not yet taken, in order.
6. The dealer deals the shuffled deck one card at a time, starting with the seat on the
   dealer's left and going left: card ``j`` goes to seat ``(dealer + 1 + j) mod players``
   for ``j < players * hand_size``; the next card is turned up as trump.

The dealer of round ``r`` is ``(first_dealer + r - 1) mod players``.  The deck order of a
round depends on the seed and the round only, so the same seed deals the same stock
whatever the number of players.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from .cards import Card, Mask

DEAL_ALGORITHM = "jabberwocky-deal/1"
_PREFIX = DEAL_ALGORITHM.encode("ascii") + b"\x00"
_TWO_256 = 1 << 256
_DECK_PERMUTATIONS = math.factorial(52)


class Deal(NamedTuple):
    """One round's deal: each seat's hand (as a mask) and the turned trump card."""

    hands: tuple[Mask, ...]
    trump_card: Card


@lru_cache(maxsize=1024)
def seed_bytes(seed: str) -> bytes:
    """The canonical bytes of a seed: NFC-normalised UTF-8."""
    return unicodedata.normalize("NFC", seed).encode("utf-8")


def uniform(seed: str, label: str, modulus: int) -> int:
    """An exactly uniform integer in ``0..modulus-1`` drawn from ``seed`` and ``label``."""
    base = _PREFIX + label.encode("ascii") + b"\x00" + seed_bytes(seed) + b"\x00"
    limit = _TWO_256 - _TWO_256 % modulus
    n = 0
    while True:
        x = int.from_bytes(hashlib.sha256(base + str(n).encode("ascii")).digest(), "big")
        if x < limit:
            return x % modulus
        n += 1  # pragma: no cover - happens with probability below 1e-9


def first_dealer(seed: str, players: int) -> int:
    """The seat that deals the first round."""
    return uniform(seed, "dealer", players)


def dealer_of_round(first: int, round_index: int, players: int) -> int:
    """The dealer of round ``round_index`` (0-based): the deal passes left each round."""
    return (first + round_index) % players


def shuffled_deck(seed: str, round_number: int, cards: int = 52) -> list[Card]:
    """The first ``cards`` cards of round ``round_number``'s (1-based) shuffled deck."""
    p = uniform(seed, f"round-{round_number}", _DECK_PERMUTATIONS)
    remaining = list(range(52))
    out: list[Card] = []
    for i in range(cards):
        p, k = divmod(p, 52 - i)
        out.append(remaining.pop(k))
    return out


def deal_round(seed: str, round_number: int, players: int, dealer: int, hand_size: int) -> Deal:
    """The deal of round ``round_number`` (1-based) as described in the module docstring."""
    dealt = players * hand_size
    deck = shuffled_deck(seed, round_number, dealt + 1)
    hands = [0] * players
    for offset in range(players):
        m = 0
        for c in deck[offset:dealt:players]:
            m |= 1 << c
        hands[(dealer + 1 + offset) % players] = m
    return Deal(tuple(hands), deck[dealt])
