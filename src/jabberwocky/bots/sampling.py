"""Deal sampling for the ``hard`` bot: guess the hidden hands from one seat's view.

A :class:`DealSampler` is built from an :class:`~jabberwocky.core.observation.Observation`
and nothing else.  Each sampled deal gives every other seat a hand that fits all the
seat knows: the right number of cards, none of the cards it holds, none played, not
the turned trump card, and no card of a suit that seat has shown it lacks.  (Under
the honour rule a player may renege, so there a shown void is kept only most of the
time.)  Deals are then weighted by how well each seat's hand fits its bid: a seat
that bid 3 and still needs 2 tricks more likely holds high cards and trumps, and
:meth:`DealSampler.sample` returns those weights with the deals (importance sampling).

Hands come back as rank-major masks (see :mod:`.playout`), ready for playouts.
"""

from __future__ import annotations

import math

from ..core.cards import cards_of
from ..core.observation import Observation
from ..core.phase import Phase
from ..core.rng import Rng
from .inference import play_facts
from .playout import RM_SUITS, mask_to_rm, to_rm

SOFT_VOID_KEEP = 0.9
"""Under the honour rule, the chance that a sampled deal respects a shown void."""

BID_SIGMA = 0.9
"""How far (in tricks) a seat's hand strength may stray from its remaining bid."""


def _rank_mask(ranks: range, suits: tuple[int, ...]) -> int:
    return sum(1 << (r * 4 + s) for r in ranks for s in suits)


class HandValue:
    """A quick estimate of the tricks a hand takes with ``trump`` as trump.

    A weighted count of honours and trumps (rank-major masks): good enough to say
    which deals fit the bids, and to guess the goal of a seat that has not bid yet.
    """

    __slots__ = ("_parts",)

    TRUMP_WEIGHTS = ((12, 0.95), (11, 0.8), (10, 0.6), (9, 0.45))
    TRUMP_LOW = 0.3
    SIDE_WEIGHTS = ((12, 0.75), (11, 0.4), (10, 0.15))

    def __init__(self, trump: int) -> None:
        side = tuple(s for s in range(4) if s != trump)
        parts = [(1 << (r * 4 + trump), w) for r, w in self.TRUMP_WEIGHTS]
        parts.append((_rank_mask(range(9), (trump,)), self.TRUMP_LOW))
        parts.extend((_rank_mask(range(r, r + 1), side), w) for r, w in self.SIDE_WEIGHTS)
        self._parts = tuple(parts)

    def __call__(self, hand: int) -> float:
        total: float = 0
        for m, w in self._parts:
            total += (hand & m).bit_count() * w
        return total


class DealSampler:
    """Draws the other seats' hidden hands for one observation."""

    def __init__(self, obs: Observation, sigma: float | None = None,
                 infer: float = 1.0) -> None:
        n = obs.players
        self.players = n
        self.seat = obs.seat
        self.trump = obs.trump_suit
        self.hand = mask_to_rm(obs.hand)
        self.unseen = mask_to_rm(obs.unseen_mask())
        self.unseen_list = cards_of(self.unseen)
        self.counts = [obs.cards_in_hand(s) for s in range(n)]
        self.counts[obs.seat] = 0
        voids = obs.void_suits()
        self.void_masks = [
            sum(RM_SUITS[s] for s in range(4) if voids[p] >> s & 1) if p != obs.seat else 0
            for p in range(n)
        ]
        self.soft = obs.rules.honour_rule
        self.value = HandValue(self.trump)
        # Seats whose bid tells something: they still need 0.. tricks.
        self.needs: list[tuple[int, int]] = []
        for p in range(n):
            b = obs.bids[p]
            if p != obs.seat and b is not None and b >= obs.taken[p] and self.counts[p] > 0:
                self.needs.append((p, b - obs.taken[p]))
        sigma = BID_SIGMA if sigma is None else sigma
        self.inv2s2 = 1.0 / (2.0 * sigma * sigma)
        order = sorted((p for p in range(n) if self.counts[p] > 0),
                       key=lambda p: -self.void_masks[p].bit_count())
        self.order = order
        self.infer = infer
        self.facts: list[tuple[int, int]] = []
        if infer < 1.0 and obs.phase == Phase.PLAYING:
            self.facts = [(p, mask_to_rm(m)) for p, m in play_facts(obs)]

    # -- one deal -------------------------------------------------------------------

    def draw(self, rng: Rng) -> list[int]:
        """One deal consistent with the hard facts (hands as rank-major masks)."""
        voids = self.void_masks
        if self.soft and rng.random() >= SOFT_VOID_KEEP:
            voids = [0] * self.players
        for _ in range(50):
            deal = self._try_draw(rng, voids)
            if deal is not None:
                return deal
        # The voids cannot all be honoured (only possible after a renege): drop them.
        deal = self._try_draw(rng, [0] * self.players)
        assert deal is not None
        return deal

    def _try_draw(self, rng: Rng, voids: list[int]) -> list[int] | None:
        hands = [0] * self.players
        hands[self.seat] = self.hand
        pool = self.unseen_list[:]
        for p in self.order:
            k = self.counts[p]
            vm = voids[p]
            cards = [c for c in pool if not vm >> c & 1] if vm else pool
            size = len(cards)
            if size < k:
                return None
            m = 0
            for i in range(k):
                j = i + rng.below(size - i)
                cards[i], cards[j] = cards[j], cards[i]
                m |= 1 << cards[i]
            hands[p] = m
            if cards is pool:
                del pool[:k]
            else:
                pool = [c for c in pool if not m >> c & 1]
        return hands

    # -- weighted deals ---------------------------------------------------------------

    def weight(self, deal: list[int]) -> float:
        """How well ``deal`` fits the bids and the play (1.0 when every hand matches
        its bid and breaks none of the :func:`~.inference.play_facts`)."""
        value = self.value
        d2 = 0.0
        for p, need in self.needs:
            d = value(deal[p]) - need
            d2 += d * d
        w = math.exp(-d2 * self.inv2s2) if d2 else 1.0
        for p, mask in self.facts:
            if deal[p] & mask:
                w *= self.infer
        return w

    def sample(self, rng: Rng, k: int) -> tuple[list[list[int]], list[float]]:
        """``k`` deals drawn by the hard facts, with importance weights for the bids
        (all 1.0 when no bid tells anything)."""
        deals = [self.draw(rng) for _ in range(k)]
        if not self.needs and not self.facts:
            return deals, [1.0] * k
        weights = [self.weight(d) for d in deals]
        if sum(weights) <= 1e-12:
            return deals, [1.0] * k
        return deals, weights


def estimate_goal(value: HandValue, hand: int, cards: int) -> int:
    """A seat's likely bid for ``hand``: its estimated tricks, rounded, in range."""
    return max(0, min(cards, round(value(hand))))


__all__ = ["DealSampler", "HandValue", "estimate_goal", "to_rm"]
