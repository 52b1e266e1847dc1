"""Finished tricks and rounds: small immutable records, public once they are complete.

Named tuples rather than frozen dataclasses: a simulated game creates thousands of
tricks, and a named tuple is several times cheaper to build.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, Mask


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order from the leader, who won."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


class RoundResult(NamedTuple):
    """A finished round, public once it is over (every dealt card has been played)."""

    round_index: int
    dealer: int
    hand_size: int
    hands: tuple[Mask, ...]
    trump_card: Card
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    reneges: tuple[int, ...]
    points: tuple[int, ...]
