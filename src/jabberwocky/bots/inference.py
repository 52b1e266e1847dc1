"""Inference from play: what the cards a seat played say about the cards it kept.

A seat that plays for its bid gives its hand away a little with every card.  Needing a
trick, it lets a king win only when it holds nothing of that suit above the king;
wanting no more tricks, it takes one only when it has no lower card to duck with, and
ducks with its highest loser.  :func:`play_facts` turns the round's tricks into such
facts, each "seat ``s`` most likely holds none of the cards ``mask``", and the deal
sampler (:mod:`.sampling`) weighs a deal down for each fact it breaks.  The facts
are soft: real players (and the ``hard`` bot itself) sometimes keep a winner back or
duck with another card, so a deal that breaks one only counts for less.

The facts read, for each card played by another seat, that seat's need at that moment
(its bid minus the tricks it had taken when the trick began):

* needing tricks and following suit, it did not beat the best card of the suit led:
  it holds none of the higher cards of that suit;
* needing tricks and void in the suit led, it did not win the trick with a trump:
  it holds none of the trumps that would have won;
* wanting no more and following suit, it took the lead: it holds none of the cards of
  that suit below the best card it beat;
* wanting no more and following suit, it lost: it holds none of the losing cards of
  that suit above the one it played;
* wanting no more and void in the suit led, it won with a trump: it holds no card of
  another suit it could have thrown instead.

A fact is dropped when the seat later played one of the cards it names (it held it
after all), and only cards this seat cannot see are named.  Everything is public
(bids, tricks, the seat's own hand), so the facts are a pure function of the
observation, like everything a bot sees.
"""

from __future__ import annotations

from ..core.cards import SUIT_MASKS, Mask
from ..core.observation import Observation

FULL: Mask = (1 << 52) - 1


def _above(card: int) -> Mask:
    """The cards of ``card``'s suit above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def _below(card: int) -> Mask:
    """The cards of ``card``'s suit below it."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


def play_facts(obs: Observation) -> list[tuple[int, Mask]]:
    """The soft facts the round's play gives about the other seats' hands, as
    ``(seat, mask)``: ``seat`` most likely holds none of ``mask`` (engine cards, only
    cards unseen by this seat)."""
    n = obs.players
    trump = obs.trump_suit
    bids = obs.bids
    unseen = obs.unseen_mask()
    taken = [0] * n
    plays = [(t.leader, t.cards, t.winner) for t in obs.tricks]
    if obs.trick:
        plays.append((obs.leader, obs.trick, -1))
    # Cards each seat played, by position in the round, to drop facts it later broke.
    raw: list[tuple[int, Mask, int]] = []
    played_at: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    order = 0
    for leader, cards, winner in plays:
        led = cards[0] // 13
        best = cards[0]
        for i, c in enumerate(cards):
            seat = (leader + i) % n
            played_at[seat].append((order, c))
            order += 1
            if i == 0:
                continue
            s = c // 13
            wins = (s == best // 13 and c > best) or (s == trump and best // 13 != trump)
            bid = bids[seat]
            if seat != obs.seat and bid is not None:
                need = bid - taken[seat]
                mask = _fact(c, best, led, trump, wins, need)
                if mask:
                    raw.append((seat, mask, order))
            if wins:
                best = c
        if winner >= 0:
            taken[winner] += 1
    facts: list[tuple[int, Mask]] = []
    for seat, mask, when in raw:
        later = 0
        for at, c in played_at[seat]:
            if at >= when:
                later |= 1 << c
        if later & mask:
            continue
        mask &= unseen
        if mask:
            facts.append((seat, mask))
    return facts


def _fact(card: int, best: int, led: int, trump: int, wins: bool, need: int) -> Mask:
    """The cards a seat with ``need`` tricks still wanted most likely lacks, having
    played ``card`` on a trick whose best card was ``best`` (0 for no fact)."""
    follows = card // 13 == led
    trumped = best // 13 == trump and led != trump
    if need > 0:
        if wins:
            return 0
        if follows:
            return 0 if trumped else _above(best)
        return _above(best) if trumped else SUIT_MASKS[trump]
    if need < 0:
        return 0
    if follows:
        if wins:
            return _below(best)
        losers = SUIT_MASKS[led] if trumped else _below(best)
        return losers & _above(card)
    if wins and card // 13 == trump:
        return FULL & ~SUIT_MASKS[trump] & ~SUIT_MASKS[led]
    return 0


__all__ = ["play_facts"]
