"""What one seat may see: the only thing bots and the UI ever receive.

An :class:`Observation` is a frozen snapshot built by the referee for one seat.  It
holds that seat's own hand and the public table (the turned trump card, bids, cards
played, tricks taken, scores, finished rounds) and nothing else, so no bot and no
view can peek at another seat's cards.  It does not hold the seed either, since the
seed determines the deal; bots get ``bot_key``, a one-way digest of it, for their
random streams.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUIT_MASKS, Card, Mask, cards_of
from .history import RoundResult, Trick
from .phase import Phase
from .rng import Rng
from .rules import Ruleset


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of the game at one moment."""

    seat: int
    players: int
    rules: Ruleset
    round_index: int
    hand_size: int
    dealer: int
    trump_card: Card
    hand: Mask
    bids: tuple[int | None, ...]
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    broken: bool
    scores: tuple[int, ...]
    phase: Phase
    to_act: int | None
    legal_bids: tuple[int, ...]
    legal: Mask
    """Cards this seat may play now (reneges included under the honour rule)."""
    honest: Mask
    """The legal cards that are no renege: what bots choose from."""
    history: tuple[RoundResult, ...]
    step: int
    bot_key: int

    @property
    def trump_suit(self) -> int:
        """The trump suit of this round."""
        return self.trump_card // 13

    @property
    def my_turn(self) -> bool:
        """True when this seat must act now."""
        return self.to_act == self.seat

    def legal_cards(self) -> list[Card]:
        """The cards this seat may play now (reneges included under the honour rule)."""
        return cards_of(self.legal)

    def honest_cards(self) -> list[Card]:
        """The cards this seat may play now without reneging (what bots choose from)."""
        return cards_of(self.honest)

    def played_mask(self) -> Mask:
        """Every card played so far this round, the current trick included."""
        m = 0
        for t in self.tricks:
            for c in t.cards:
                m |= 1 << c
        for c in self.trick:
            m |= 1 << c
        return m

    def unseen_mask(self) -> Mask:
        """Cards this seat has not seen: in other hands or in the stock."""
        return ((1 << 52) - 1) & ~self.hand & ~self.played_mask() & ~(1 << self.trump_card)

    def void_suits(self) -> list[int]:
        """For each seat, a 4-bit mask of suits it has shown it lacks this round."""
        voids = [0] * self.players
        plays = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            plays.append((self.leader, self.trick))
        for leader, cards in plays:
            led = cards[0] // 13
            for i in range(1, len(cards)):
                if cards[i] // 13 != led:
                    voids[(leader + i) % self.players] |= 1 << led
        return voids

    def shown_voids(self, follow: bool = True) -> list[int]:
        """For each seat, a 4-bit mask of the suits the play of this round shows it lacks:
        with ``follow``, those it failed to follow (:meth:`void_suits`; under the honour
        rule a renege makes that a hint, not a proof), and, where trumps may be led only
        once broken, every suit but trumps for a seat that led a trump before they were
        (the rules allow that lead only to a hand of trumps alone)."""
        voids = self.void_suits() if follow else [0] * self.players
        if self.rules.trump_lead != "after-broken":
            return voids
        trump = self.trump_suit
        broken = False
        plays = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            plays.append((self.leader, self.trick))
        for leader, cards in plays:
            if cards[0] // 13 == trump and not broken:
                voids[leader] |= 0b1111 & ~(1 << trump)
            broken = broken or any(c // 13 == trump for c in cards)
        return voids

    def cards_in_hand(self, seat: int) -> int:
        """How many cards ``seat`` still holds (public: everyone can count)."""
        played = len(self.tricks)
        if self.trick:
            pos = (seat - self.leader) % self.players
            if pos < len(self.trick):
                played += 1
        return self.hand_size - played

    def rng(self, purpose: int = 0) -> Rng:
        """This decision's random stream (seed, seat, round and step; ``purpose`` keeps
        hints apart from moves)."""
        return Rng.for_decision(self.bot_key ^ purpose, self.seat, self.round_index, self.step)

    def suit_count(self, suit: int) -> int:
        """How many cards of ``suit`` this seat holds."""
        return (self.hand & SUIT_MASKS[suit]).bit_count()
