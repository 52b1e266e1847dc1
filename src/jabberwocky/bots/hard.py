"""``hard``: Monte Carlo over the hidden hands.

For each decision the bot samples deals that fit everything its seat knows
(:mod:`.sampling`), then plays each sampled deal out to the end of the round with a
fast goal-driven policy on bitmasks (:mod:`.playout`):

* **Bidding** — for every legal bid ``b`` it plays the samples out aiming at ``b`` and
  estimates ``P(taken == b)``; Jabberwocky pays only an exact bid, so it bids the
  ``b`` with the best expected score, not the rounded expected number of tricks.
* **Playing** — every playable card (cards of equal value counted once) is tried on
  the same samples; the card that most often ends the round exactly on the bid wins,
  with a small preference for cards that make the other seats miss theirs.

Work is bounded by sample counts, never by the clock, and the samples come from
``obs.rng()``, so a given observation always gets the same answer.
"""

from __future__ import annotations

from ..cards import Card
from ..observation import Observation
from ..rng import Rng
from .base import HINT_PURPOSE, Bot, Hint
from .playout import RM_SUITS, from_rm, mask_to_rm, play_out, to_rm
from .sampling import DealSampler, HandValue, estimate_goal

BID_SAMPLES = 24
"""Deals sampled per bid decision."""
PLAY_SAMPLES = 28
"""Deals sampled per card decision."""
SPOIL = 0.15
"""Weight of the other seats' misses in a card's score (own exact bid counts 1)."""
WINDOW = 3
"""Bids farther than this from the hand's estimated tricks are not simulated."""


class HardBot(Bot):
    """Determinized Monte Carlo with bid inference; budgets are sample counts."""

    level = "hard"

    def __init__(self, bid_samples: int = BID_SAMPLES, play_samples: int = PLAY_SAMPLES,
                 spoil: float = SPOIL) -> None:
        self.bid_samples = bid_samples
        self.play_samples = play_samples
        self.spoil = spoil

    # -- bidding ----------------------------------------------------------------------

    def bid_distribution(self, obs: Observation, rng: Rng) -> tuple[int, dict[int, list[int]]]:
        """The chosen bid and, per simulated bid, how often each trick count came up."""
        legal = obs.legal_bids
        h = obs.hand_size
        n = obs.players
        me = obs.seat
        value = HandValue(obs.trump_suit)
        guess = value(mask_to_rm(obs.hand))
        cands = [b for b in legal if abs(b - guess) <= WINDOW] or list(legal)
        sampler = DealSampler(obs)
        deals = sampler.sample(rng, self.bid_samples)
        trump = obs.trump_suit
        leader = (obs.dealer + 1) % n
        after = obs.rules.trump_lead == "after-broken"
        zeros = [0] * n
        counts = {b: [0] * (h + 1) for b in cands}
        for deal in deals:
            goals = [
                b if b is not None else estimate_goal(value, deal[p], h)
                for p, b in enumerate(obs.bids)
            ]
            for b in cands:
                goals[me] = b
                t = play_out(deal, trump, leader, (), False, zeros, goals, after)[me]
                counts[b][t] += 1
        rules = obs.rules
        best = max(cands, key=lambda b: (counts[b][b] * rules.points(b, b), -abs(b - guess)))
        return best, counts

    def choose_bid(self, obs: Observation) -> int:
        return self.bid_distribution(obs, obs.rng())[0]

    # -- play -------------------------------------------------------------------------

    @staticmethod
    def card_groups(obs: Observation) -> list[list[int]]:
        """The playable cards (rank-major) grouped by equal value, lowest first.

        Two cards of a suit are worth the same when every card between them is in
        this hand or already gone, so only one of each group needs simulating.
        """
        legal = mask_to_rm(obs.strict_legal)
        gone = mask_to_rm(obs.hand | obs.played_mask() | 1 << obs.trump_card)
        groups: list[list[int]] = []
        for s in range(4):
            cards = legal & RM_SUITS[s]
            prev = -1
            while cards:
                c = (cards & -cards).bit_length() - 1
                cards &= cards - 1
                if prev >= 0:
                    between = RM_SUITS[s] & ((1 << c) - 1) & ~((2 << prev) - 1)
                    if between & ~gone == 0:
                        groups[-1].append(c)
                        prev = c
                        continue
                groups.append([c])
                prev = c
        return groups

    def card_scores(self, obs: Observation, rng: Rng) -> tuple[Card, dict[Card, float]]:
        """The chosen card and every playable card's mean score over the samples."""
        groups = self.card_groups(obs)
        if len(groups) == 1:
            c = groups[0][0]
            return from_rm(c), {from_rm(x): 1.0 for x in groups[0]}
        n = obs.players
        me = obs.seat
        bids: list[int] = [b if b is not None else 0 for b in obs.bids]
        trump = obs.trump_suit
        after = obs.rules.trump_lead == "after-broken"
        trick = [to_rm(c) for c in obs.trick]
        leader = obs.leader
        taken = list(obs.taken)
        points = obs.rules.points
        spoil = self.spoil / max(1, n - 1)
        deals = DealSampler(obs).sample(rng, self.play_samples)
        totals = [0.0] * len(groups)
        for deal in deals:
            mine = deal[me]
            for gi, group in enumerate(groups):
                c = group[0]
                deal[me] = mine ^ (1 << c)
                trick.append(c)
                t = play_out(deal, trump, leader, trick, obs.broken, taken, bids, after)
                trick.pop()
                score = float(points(bids[me], t[me])) - 0.01 * abs(bids[me] - t[me])
                if spoil:
                    score -= spoil * sum(points(bids[p], t[p]) for p in range(n) if p != me)
                totals[gi] += score
            deal[me] = mine
        k = len(deals)
        scores = {from_rm(c): totals[gi] / k for gi, g in enumerate(groups) for c in g}
        best = max(range(len(groups)), key=lambda gi: (totals[gi], -gi))
        return from_rm(groups[best][0]), scores

    def choose_card(self, obs: Observation) -> Card:
        return self.card_scores(obs, obs.rng())[0]

    # -- hints ------------------------------------------------------------------------

    def hint(self, obs: Observation) -> Hint:
        """The bot's choice for ``obs``'s seat, with numbers.

        For a bid, ``probabilities[k]`` is the share of simulated deals in which the
        seat took exactly ``k`` tricks while playing for the suggested bid.
        """
        rng = obs.rng(HINT_PURPOSE)
        if obs.phase == "bidding":
            bid, counts = self.bid_distribution(obs, rng)
            row = counts.get(bid)
            if not row or sum(row) == 0:
                probs = tuple(1.0 if k == bid else 0.0 for k in range(obs.hand_size + 1))
            else:
                total = sum(row)
                probs = tuple(x / total for x in row)
            return Hint("bid", bid, probabilities=probs, level=self.level)
        card, scores = self.card_scores(obs, rng)
        return Hint("card", card, card_scores=tuple(sorted(scores.items())), level=self.level)
