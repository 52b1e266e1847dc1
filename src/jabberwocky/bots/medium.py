"""``medium``: a strong heuristic player that always knows what it is playing for.

Both decisions rest on one estimate, :func:`card_values`: for each card in hand, the
chance that it takes a trick later (high trumps, side aces, guarded kings, low trumps
that can ruff a short suit), computed from what this seat can see
(:mod:`.knowledge`: cards played, unseen cards, known voids, the other seats' needs).

- Bidding: the per-card chances give a distribution of the trick count (Poisson
  binomial); the bot bids the legal count with the best expected score.  A dealer
  barred by the hook rule therefore takes the best remaining count, next to its
  estimate, never an absurd one.
- Play: for each legal card, the chance of making the bid exactly if it plays it:
  ``P(win now) * P(rest takes need-1) + P(lose now) * P(rest takes need)``.  Needing
  tricks, that favours the cheapest card likely to win; having enough, it favours
  ducking with the highest card that still loses (shedding the dangerous ones).

No randomness and no search: a decision costs well under a millisecond.
"""

from __future__ import annotations

from ..cards import SUIT_MASKS, Card, cards_of
from ..observation import Observation
from .base import Bot, Hint
from .knowledge import Knowledge, higher_in_suit, poisson_binomial

GUARD = 0.35
"""Share of the risk from higher unseen cards removed when the card is guarded (as
many lower cards of its suit in hand as there are higher cards unseen)."""
RUFF_VOID = 0.6
"""Expected ruffing chances from a side suit this seat lacks (while cards of it are out)."""
RUFF_SHORT = 0.3
"""... from a side suit of one card (becomes a void once it is played)."""
RUFF_SAFE = 0.7
"""Chance that a ruff is not over-ruffed and is wanted."""
LOW_FLOOR = 0.02
CAL_T0 = 0.15
CAL_T1 = 0.65
CAL_S0 = 0.04
CAL_S1 = 0.72
"""Every card wins now and then (a trick nobody else wants)."""


def card_values(k: Knowledge) -> dict[Card, float]:
    """The chance that each card in hand takes a trick before the round ends."""
    trump = k.trump
    suits = k.hand_suits()
    values: dict[Card, float] = {}
    trumps: list[tuple[float, Card]] = []
    for c in cards_of(k.hand):
        s = c // 13
        top = k.p_win_led(c)
        hi = (higher_in_suit(c) & k.unseen).bit_count()
        if hi and top < 1.0:
            below = (suits[s] & ((1 << c) - 1)).bit_count()
            if below >= hi:
                top += (1.0 - top) * GUARD
        top = max(top, LOW_FLOOR)
        values[c] = top
        if s == trump:
            trumps.append((top, c))
    if trumps:
        chances = 0.0
        for s in range(4):
            if s == trump or not SUIT_MASKS[s] & k.unseen:
                continue
            n = suits[s].bit_count()
            if n == 0:
                chances += RUFF_VOID
            elif n == 1:
                chances += RUFF_SHORT
        trumps.sort()
        for top, c in trumps:
            if chances <= 0.0:
                break
            use = min(1.0, chances)
            chances -= use
            values[c] = 1.0 - (1.0 - top) * (1.0 - use * RUFF_SAFE)
    for c, v in values.items():
        if c // 13 == trump:
            values[c] = v if v >= 0.9 else CAL_T0 + CAL_T1 * v
        else:
            values[c] = CAL_S0 + CAL_S1 * v
    return values


def bid_distribution(obs: Observation) -> list[float]:
    """``result[k]``: the estimated chance that this hand takes exactly ``k`` tricks."""
    k = Knowledge(obs)
    values = card_values(k)
    return poisson_binomial(list(values.values()))


def best_bid(obs: Observation, dist: list[float]) -> int:
    """The legal bid with the best expected score under ``dist``."""
    rules = obs.rules
    legal = obs.legal_bids or tuple(range(obs.hand_size + 1))
    return max(legal, key=lambda b: (dist[b] * rules.points(b, b), -abs(b - _mean(dist))))


def _mean(dist: list[float]) -> float:
    return sum(i * p for i, p in enumerate(dist))


def card_scores(obs: Observation) -> list[tuple[Card, float]]:
    """Each legal card with the estimated chance of making the bid exactly if played."""
    k = Knowledge(obs)
    values = card_values(k)
    need = k.need[k.me]
    assert need is not None
    out = []
    for c in cards_of(obs.strict_legal):
        win = k.p_win_now(c)
        rest = poisson_binomial([v for d, v in values.items() if d != c])
        p_need = rest[need] if 0 <= need < len(rest) else 0.0
        p_less = rest[need - 1] if 0 <= need - 1 < len(rest) else 0.0
        out.append((c, win * p_less + (1.0 - win) * p_need))
    return out


def _pick(obs: Observation, scores: list[tuple[Card, float]]) -> Card:
    """The best-scoring card; ties go to the cheaper winner or the higher loser."""
    k = Knowledge(obs)

    def key(item: tuple[Card, float]) -> tuple[float, float]:
        c, score = item
        win = k.p_win_now(c)
        rank = c % 13
        return (round(score, 9), -rank if win > 0.5 else rank)

    return max(scores, key=key)[0]


class MediumBot(Bot):
    """Counts likely winners to bid; plays each card for the exact bid."""

    level = "medium"

    def choose_bid(self, obs: Observation) -> int:
        return best_bid(obs, bid_distribution(obs))

    def choose_card(self, obs: Observation) -> Card:
        legal = obs.strict_legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        return _pick(obs, card_scores(obs))

    def hint(self, obs: Observation) -> Hint:
        if obs.phase == "bidding":
            dist = bid_distribution(obs)
            return Hint("bid", best_bid(obs, dist), probabilities=tuple(dist), level=self.level)
        scores = card_scores(obs)
        return Hint("card", _pick(obs, scores), card_scores=tuple(scores), level=self.level)
