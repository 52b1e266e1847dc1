"""Why a suggested card: one short reason, from the seat's own view and the bot's numbers.

The hint names a card; players want to know why.  :func:`card_reason` reads the seat's
:class:`~jabberwocky.core.observation.Observation` (what it still needs, the trick on the
table, the cards still out) and the suggested card, and names the plan the card serves:
take this trick, lose it cheaply, keep the winners for later, get rid of a dangerous
card, cash a sure winner.  It is a description of the card, never a rule: the card's
estimated chance of making the bid (the bot's number) goes with it.

>>> from jabberwocky.core.cards import parse_card
>>> from jabberwocky.core.game import Game
>>> g = Game("why-hint", 4)
>>> card_reason(g.observation(0), parse_card("2C")) is None  # bidding: no card reason
True
"""

from __future__ import annotations

from ..core.cards import SUIT_MASKS, Card, card_name
from ..core.game import Phase
from ..core.messages import Message
from ..core.observation import Observation


def _beats(card: Card, best: Card, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _top_of_suit(obs: Observation, card: Card) -> bool:
    """No card of ``card``'s suit still out ranks above it."""
    higher = SUIT_MASKS[card // 13] & ~((2 << card) - 1)
    return not higher & obs.unseen_mask()


def card_reason(obs: Observation, card: Card, chance: float | None = None) -> Message | None:
    """The plan behind playing ``card`` now, as a message (``None`` outside play)."""
    if obs.phase is not Phase.PLAYING or not obs.my_turn:
        return None
    bid = obs.bids[obs.seat]
    if bid is None:
        return None
    need = bid - obs.taken[obs.seat]
    name = card_name(card)
    extra = {} if chance is None else {"chance": round(chance, 2)}
    trump = obs.trump_suit
    mine = obs.hand & SUIT_MASKS[card // 13]
    if obs.trick:
        best = obs.trick[0]
        for c in obs.trick[1:]:
            if _beats(c, best, trump):
                best = c
        if _beats(card, best, trump):
            if need > 0:
                return Message("hint.reason.take", card=name, need=need, **extra)
            return Message("hint.reason.forced_win" if need == 0 else "hint.reason.over",
                           card=name, **extra)
        if need <= 0:
            dangerous = mine and card == mine.bit_length() - 1 and card % 13 >= 9
            return Message("hint.reason.shed" if dangerous else "hint.reason.lose_cheaply",
                           card=name, **extra)
        return Message("hint.reason.save", card=name, need=need, **extra)
    # leading
    if need > 0 and _top_of_suit(obs, card):
        return Message("hint.reason.cash", card=name, need=need, **extra)
    if need > 0:
        return Message("hint.reason.lead_low", card=name, need=need, **extra)
    return Message("hint.reason.lead_safe", card=name, **extra)
