"""``medium``: a strong heuristic player that always knows what it is playing for.

Both decisions rest on one estimate, :func:`card_values`: for each card in hand, the
chance that it takes a trick later (high trumps, side aces, guarded kings, low trumps
that can ruff a short suit), computed from what this seat can see
(:mod:`.knowledge`: cards played, unseen cards, known voids, the other seats' needs).

- Bidding: the per-card chances, moved to a mean fitted on self-play (which also
  reads the bids already made), give a distribution of the trick count (Poisson
  binomial); the bot bids the legal count with the best expected score.  A dealer
  barred by the hook rule therefore takes the best remaining count, next to its
  estimate, never an absurd one.
- Play (:func:`play_card`): having enough tricks, duck with the most dangerous card
  that still loses; needing tricks, win with the cheapest sure winner, else the
  likeliest one, unless it is too unlikely and tricks can still wait.  "Sure" and
  "likely" come from the cards played, the known voids and who still wants tricks.
- Hints: the bid distribution, and per card the estimated chance of making the bid
  exactly if it is played (:func:`card_scores`).

No randomness and no search: a decision costs well under a millisecond.
"""

from __future__ import annotations

import math

from ..core.cards import SUIT_MASKS, Card, cards_of
from ..core.observation import Observation
from ..core.phase import Phase
from .base import Bot, Hint
from .knowledge import Knowledge, higher_in_suit, poisson_binomial, trick_best

GUARD = 0.35
"""Share of the risk from higher unseen cards removed when the card is guarded (as
many lower cards of its suit in hand as there are higher cards unseen)."""
RUFF_VOID = 0.6
"""Expected ruffing chances from a side suit this seat lacks (while cards of it are out)."""
RUFF_SHORT = 0.3
"""... from a side suit of one card (becomes a void once it is played)."""
RUFF_SAFE = 0.7
"""Chance that a ruff is not over-ruffed."""
LOW_FLOOR = 0.02
"""Every card wins now and then (a trick nobody else wants)."""
SIDE_DECAY = 0.75
"""Each further card of a side suit wins on a later round of it, when ruffs are likelier."""
CAL_TRUMP = (0.42, 0.42)
"""Calibration of a trump's raw chance below 0.9: ``a + b * raw`` (fitted on self-play:
low trumps win far more often than the lead model says, by ruffing and by length)."""
CAL_SIDE = (0.04, 0.72)
"""Calibration of a side card's raw chance: ``a + b * raw``."""
BID_FIT: dict[int, tuple[float, ...]] = {
    3: (-0.5, 1.001, -0.357, 0.07, -0.103, 0.24),
    4: (-0.225, 0.985, -0.212, -0.011, -0.075, 0.214),
    5: (-0.072, 1.039, -0.15, -0.072, -0.047, 0.152),
}
"""Per table size, the coefficients of the expected trick count used for bidding:
``a + b * sum(card values) + c * excess + d * hand_size + e * bids_made + f * trumps``,
where ``excess`` is how far the bids already made exceed an even share.  A
least-squares fit of the tricks actually taken in ``medium`` self-play (strong hands
take more than their cards' chances, weak hands fewer; a greedy table leaves fewer
tricks; trumps are worth more than the lead model says)."""
ZERO_BONUS = 1.2
"""A zero bid is easier to play for than its estimated chance says (duck everything)."""
FOLLOW_MIN = 0.4
"""Needing tricks but not all of them, follow with a winner only if it wins this often;
otherwise keep the winners and throw the least useful card."""


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
    for s in range(4):
        if s == trump:
            continue
        mine = cards_of(suits[s])
        for i in range(1, len(mine)):
            values[mine[i]] = max(values[mine[i]], values[mine[i - 1]])
        for j, c in enumerate(reversed(mine)):
            values[c] *= SIDE_DECAY**j
    for c, v in values.items():
        if c // 13 == trump:
            values[c] = v if v >= 0.9 else CAL_TRUMP[0] + CAL_TRUMP[1] * v
        else:
            values[c] = CAL_SIDE[0] + CAL_SIDE[1] * v
    return values


def bid_distribution(obs: Observation) -> list[float]:
    """``result[k]``: the estimated chance that this hand takes exactly ``k`` tricks."""
    k = Knowledge(obs)
    probs = list(card_values(k).values())
    mean = sum(probs)
    prev = [b for b in obs.bids if b is not None]
    excess = sum(prev) - len(prev) * obs.hand_size / obs.players
    a, b, c, d, e, f = BID_FIT[obs.players]
    trumps = obs.suit_count(obs.trump_suit)
    target = a + b * mean + c * excess + d * obs.hand_size + e * len(prev) + f * trumps
    target = min(max(target, 0.05), obs.hand_size - 0.05)
    return poisson_binomial(shift_to_mean(probs, target))


def shift_to_mean(probs: list[float], target: float) -> list[float]:
    """``probs`` moved together on the logit scale so that they sum to ``target``."""
    logits = [math.log(min(max(p, 1e-4), 1 - 1e-4) / (1 - min(max(p, 1e-4), 1 - 1e-4)))
              for p in probs]
    lo, hi = -6.0, 6.0
    out = probs
    for _ in range(30):
        mid = (lo + hi) / 2
        out = [1.0 / (1.0 + math.exp(-(x + mid))) for x in logits]
        if sum(out) < target:
            lo = mid
        else:
            hi = mid
    return out


def best_bid(obs: Observation, dist: list[float]) -> int:
    """The legal bid with the best expected score under ``dist``."""
    rules = obs.rules
    legal = obs.legal_bids or tuple(range(obs.hand_size + 1))
    mean = sum(i * p for i, p in enumerate(dist))

    def value(b: int) -> tuple[float, float]:
        bonus = ZERO_BONUS if b == 0 else 1.0
        return (dist[b] * rules.points(b, b) * bonus, -abs(b - mean))

    return max(legal, key=value)


def card_scores(obs: Observation) -> list[tuple[Card, float]]:
    """Each legal card with the estimated chance of making the bid exactly if played:
    ``P(win now) * P(rest takes need-1) + P(lose now) * P(rest takes need)``, the rest
    being a Poisson binomial over :func:`card_values`.  These are the hint's numbers;
    the move itself follows :func:`play_card`, which usually but not always picks the
    top-scored card (independence makes the estimate too kind to waiting)."""
    k = Knowledge(obs)
    values = card_values(k)
    need = k.need[k.me]
    assert need is not None
    out = []
    for c in cards_of(obs.honest):
        win = k.p_win_now(c)
        rest = poisson_binomial([v for d, v in values.items() if d != c])
        p_need = rest[need] if 0 <= need < len(rest) else 0.0
        p_less = rest[need - 1] if 0 <= need - 1 < len(rest) else 0.0
        out.append((c, win * p_less + (1.0 - win) * p_need))
    return out


def _win_choice(k: Knowledge, legal: list[Card], pw: dict[Card, float],
                values: dict[Card, float]) -> Card:
    """The card to play when this trick is wanted: the cheapest sure winner, else the
    likeliest winner (the cheaper on a tie), else the least useful card."""
    winners = [c for c in legal if pw[c] > 0.0]
    if not winners:
        return _least_useful(legal, values)
    sure = [c for c in winners if pw[c] >= 0.999 or k.wins_for_sure_now(c)]
    if sure:
        return _least_useful(sure, values)
    return max(winners, key=lambda c: (round(pw[c], 3), -values[c], -(c % 13)))


def _least_useful(cards: list[Card], values: dict[Card, float]) -> Card:
    return min(cards, key=lambda c: (values[c], c % 13))


def _lose_choice(legal: list[Card], pw: dict[Card, float], values: dict[Card, float]) -> Card:
    """The card to play when this trick is not wanted: the most dangerous card that
    still loses, else the card likeliest to be beaten (the most dangerous on a tie)."""
    losers = [c for c in legal if pw[c] == 0.0]
    if losers:
        return max(losers, key=lambda c: (values[c], c % 13))
    return min(legal, key=lambda c: (round(pw[c], 3), -values[c], -(c % 13)))


def play_card(obs: Observation) -> Card:
    """The card ``medium`` plays: it knows at every trick whether it wants it.

    - Enough tricks already: duck with the most dangerous card that still loses,
      else play the card likeliest to be beaten.  Already over its bid, it takes a
      trick away from a seat that still needs one when it can.
    - Needing every remaining trick: the cheapest sure winner, else the likeliest.
    - Needing some: following, the same when that card wins often enough
      (:data:`FOLLOW_MIN`); leading, the least useful card: the winners are kept for
      tricks that others lead (in self-play this beat cashing them, 59% exact bids
      against 57%).
    """
    k = Knowledge(obs)
    values = card_values(k)
    need = k.need[k.me]
    assert need is not None
    legal = cards_of(obs.honest)
    pw = {c: k.p_win_now(c) for c in legal}
    if need < 0 and obs.trick:
        owner = (obs.leader + trick_best(obs.trick, k.trump)) % obs.players
        owner_need = k.need[owner]
        if owner_need is not None and owner_need > 0:
            return _win_choice(k, legal, pw, values)
    if need <= 0:
        return _lose_choice(legal, pw, values)
    win = _win_choice(k, legal, pw, values)
    if need >= k.remaining or (obs.trick and pw[win] >= FOLLOW_MIN):
        return win
    return _least_useful(legal, values)


class MediumBot(Bot):
    """Counts likely winners to bid; plays each card for the exact bid."""

    level = "medium"

    def choose_bid(self, obs: Observation) -> int:
        return best_bid(obs, bid_distribution(obs))

    def choose_card(self, obs: Observation) -> Card:
        legal = obs.honest
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        return play_card(obs)

    def hint(self, obs: Observation) -> Hint:
        if obs.phase == Phase.BIDDING:
            dist = bid_distribution(obs)
            return Hint("bid", best_bid(obs, dist), probabilities=tuple(dist), level=self.level)
        return Hint("card", self.choose_card(obs), card_scores=tuple(card_scores(obs)),
                    level=self.level)
