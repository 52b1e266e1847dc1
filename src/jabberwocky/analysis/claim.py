"""Claiming the rest of a round: accepted only when it is certain from the claimer's view.

A player may claim every remaining trick when their cards win each of them whatever the
other seats hold and however they play.  The check reads one seat's
:class:`~jabberwocky.core.observation.Observation` and nothing else (a refusal must not tell
the claimer anything about hidden cards), and it is sound: it never accepts a claim that
could fail.  It assumes a stronger opponent than any real one: every unseen card (the
stock's included) may be played by any seat still to play, except that a seat never plays
a suit it has shown it lacks, and no unseen card is ever used up.  Against that opponent
the claimer must win the trick in progress with one card and then lead a sure winner to
every later trick (cards of other suits before trumps, so a trump is led only once trump
is broken or nothing else is left).  Few cards are left when a claim matters, so trying
every card for the trick in progress is cheap.

>>> from jabberwocky.core.game import Game
>>> why_claim_fails(Game("claim-doc", 4).observation(0)).code
'claim.not_playing'
"""

from __future__ import annotations

from ..core.cards import SUIT_MASKS, Card, cards_of
from ..core.game import Phase
from ..core.messages import Message
from ..core.observation import Observation


def _higher(card: Card) -> int:
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def _can_beat(obs: Observation, card: Card, seats: list[int], unseen: int,
              voids: list[int]) -> bool:
    """Whether one of ``seats`` might beat ``card``, now winning its trick."""
    trump = obs.trump_suit
    suit = card // 13
    for seat in seats:
        void = voids[seat]
        if suit == trump:
            # a higher trump (on a trick led in another suit the seat may lack that suit)
            if not void >> trump & 1 and _higher(card) & unseen:
                return True
        else:
            if not void >> suit & 1 and _higher(card) & unseen:
                return True
            if not void >> trump & 1 and SUIT_MASKS[trump] & unseen:
                return True  # it may lack the suit and ruff
    return False


def _sure_leads(obs: Observation, cards: list[Card], unseen: int, voids: list[int]) -> bool:
    """Whether every one of ``cards``, led in turn (non-trumps first), surely wins."""
    others = [s for s in range(obs.players) if s != obs.seat]
    return all(not _can_beat(obs, c, others, unseen, voids) for c in cards)


def claim_order(obs: Observation) -> list[Card] | None:
    """The order in which ``obs``'s seat plays out a claim that surely wins every trick,
    or ``None`` when the claim is not certain (see :func:`why_claim_fails`)."""
    if obs.phase is not Phase.PLAYING or not obs.my_turn:
        return None
    unseen = obs.unseen_mask()
    # Under the honour rule a card off suit may be a renege, not a void: trust no void.
    voids = [0] * obs.players if obs.rules.honour_rule else obs.void_suits()
    hand = cards_of(obs.hand)
    trump = obs.trump_suit

    def rest_order(rest: list[Card]) -> list[Card]:
        return sorted(rest, key=lambda c: (c // 13 == trump, c))

    if not obs.trick:
        order = rest_order(hand)
        return order if _sure_leads(obs, order, unseen, voids) else None
    # The trick in progress: a legal card that beats the table and that nobody after
    # this seat can beat; then sure leads with the rest.
    n = obs.players
    after = [(obs.seat + i) % n for i in range(1, n - len(obs.trick))]
    best = _best(obs.trick, trump)
    for card in cards_of(obs.honest):
        if not _beats(card, best, trump):
            continue
        if _can_beat(obs, card, after, unseen, voids):
            continue
        rest = rest_order([c for c in hand if c != card])
        if _sure_leads(obs, rest, unseen, voids):
            return [card, *rest]
    return None


def why_claim_fails(obs: Observation) -> Message | None:
    """Why ``obs``'s seat may not claim every remaining trick now, or ``None`` if it may."""
    if obs.phase is not Phase.PLAYING:
        return Message("claim.not_playing", phase=obs.phase)
    if not obs.my_turn:
        return Message("move.wait_turn")
    if claim_order(obs) is None:
        return Message("claim.not_certain")
    return None


def _beats(card: Card, best: Card, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _best(trick: tuple[Card, ...], trump: int) -> Card:
    best = trick[0]
    for c in trick[1:]:
        if _beats(c, best, trump):
            best = c
    return best
