"""``easy``: plausible but beatable.

It bids a simple count of its obvious winners (high trumps, side aces, guarded side
kings), sometimes one off, and plays by its goal with no memory of the cards already
played: needing tricks, it plays its lowest card that beats the table (or leads its
highest); having enough, it plays its highest card that loses (or leads its lowest).
Now and then (:data:`SLIP`) it plays a random legal card instead.  All its randomness
comes from ``obs.rng()``, so a seed replays it exactly.
"""

from __future__ import annotations

from ..core.cards import SUIT_MASKS, Card, cards_of
from ..core.observation import Observation
from ..core.phase import Phase
from .base import Bot, Hint
from .knowledge import beats, poisson_binomial, trick_best

SLIP = 0.12
"""Chance of playing a random legal card instead of the planned one."""
BID_NOISE = 0.25
"""Chance of bidding one more or one fewer than the count."""


def card_chances(obs: Observation) -> list[float]:
    """Rough per-card chances of taking a trick, from the card's rank alone."""
    trump = obs.trump_suit
    out = []
    for c in cards_of(obs.hand):
        s, r = divmod(c, 13)
        length = (obs.hand & SUIT_MASKS[s]).bit_count()
        if s == trump:
            out.append(0.95 if r >= 10 else 0.6 if r >= 7 else 0.3)
        elif r == 12:
            out.append(0.8)
        elif r == 11 and length >= 2:
            out.append(0.5)
        else:
            out.append(0.05)
    return out


def count_bid(obs: Observation) -> int:
    """The noise-free bid: the number of cards with a better-than-even chance."""
    return sum(1 for p in card_chances(obs) if p > 0.5)


def _closest_legal(obs: Observation, want: int) -> int:
    legal = obs.legal_bids or tuple(range(obs.hand_size + 1))
    return min(legal, key=lambda b: (abs(b - want), b))


class EasyBot(Bot):
    """A simple goal-driven player with little card memory and occasional slips."""

    level = "easy"

    def choose_bid(self, obs: Observation) -> int:
        rng = obs.rng()
        want = count_bid(obs)
        if rng.random() < BID_NOISE:
            want += 1 if rng.below(2) else -1
        want = max(0, min(obs.hand_size, want))
        return _closest_legal(obs, want)

    def choose_card(self, obs: Observation) -> Card:
        legal = cards_of(obs.honest)
        if len(legal) == 1:
            return legal[0]
        rng = obs.rng()
        if rng.random() < SLIP:
            return legal[rng.below(len(legal))]
        return self.planned_card(obs, legal)

    @staticmethod
    def planned_card(obs: Observation, legal: list[Card]) -> Card:
        """The card it means to play (before any slip)."""
        bid = obs.bids[obs.seat]
        want = bid is None or bid > obs.taken[obs.seat]
        by_rank = sorted(legal, key=lambda c: (c % 13, c // 13 == obs.trump_suit))
        if not obs.trick:
            return by_rank[-1] if want else by_rank[0]
        best = obs.trick[trick_best(obs.trick, obs.trump_suit)]
        winners = [c for c in by_rank if beats(c, best, obs.trump_suit)]
        losers = [c for c in by_rank if not beats(c, best, obs.trump_suit)]
        if want:
            return winners[0] if winners else by_rank[0]
        return losers[-1] if losers else by_rank[-1]

    def hint(self, obs: Observation) -> Hint:
        if obs.phase == Phase.BIDDING:
            dist = poisson_binomial(card_chances(obs))
            return Hint("bid", _closest_legal(obs, count_bid(obs)),
                        probabilities=tuple(dist), level=self.level)
        legal = cards_of(obs.honest)
        pick = self.planned_card(obs, legal)
        scores = tuple((c, 1.0 if c == pick else 0.0) for c in legal)
        return Hint("card", pick, card_scores=scores, level=self.level)
