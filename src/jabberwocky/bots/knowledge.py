"""What a seat can work out from its observation: shared by the heuristic bots.

Everything here is a pure function of one :class:`~jabberwocky.core.observation.Observation`
(the seat's own hand and the public table), so a bot built on it cannot depend on
hidden cards.  :class:`Knowledge` gathers, once per decision:

- ``played`` / ``unseen``: cards played this round; cards this seat has not seen
  (in other hands or in the undealt stock; the turned trump card is seen);
- ``voids``: per seat, a 4-bit mask of the suits it has shown it lacks (it failed to
  follow);
- ``need``: per seat, tricks still wanted (bid minus taken; ``None`` before its bid);
- ``held``: per seat, cards still in hand (public: everyone can count);
- ``stock``: the number of undealt cards (never played);
- exact tests (:meth:`Knowledge.beaters`, :meth:`Knowledge.is_certain_winner`,
  :meth:`Knowledge.current_best`) and probability estimates under a uniform model of
  the unseen cards that respects known voids (:meth:`Knowledge.p_win_now`,
  :meth:`Knowledge.p_win_later`).

The probability model: an unseen card of suit ``s`` is equally likely to sit in any
"slot" that may hold it: each card still held by a seat not known void in ``s``,
and each card of the stock.  Different cards are treated as independent.  Crude but
cheap (no sampling), deterministic, and good enough to rank moves.

Module-level helpers (:func:`beats`, :func:`trick_best`, :func:`poisson_binomial`)
need no observation.

>>> poisson_binomial([0.5, 0.5])
[0.25, 0.5, 0.25]
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import SUIT_MASKS, Card, Mask, cards_of
from ..core.observation import Observation

FULL: Mask = (1 << 52) - 1

WILLING_NEEDS = 1.0
"""How readily a seat that still needs tricks takes a trick it can take."""
WILLING_DONE = 0.3
"""... a seat that has exactly its bid (it ducks when it can)."""
WILLING_BUST = 0.6
"""... a seat that already took more than its bid (it no longer cares)."""


def beats(card: Card, best: Card, trump: int) -> bool:
    """True when ``card`` beats ``best``, the card now winning a trick.

    ``best`` is of the suit led or a trump, so a card of a third suit never beats it.
    """
    s = card // 13
    b = best // 13
    if s == b:
        return card > best
    return s == trump


def trick_best(trick: Sequence[Card], trump: int) -> int:
    """The index in ``trick`` of the card now winning it (``-1`` for an empty trick)."""
    if not trick:
        return -1
    bi = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[bi], trump):
            bi = i
    return bi


def higher_in_suit(card: Card) -> Mask:
    """The mask of the cards of ``card``'s suit ranked above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def beating_mask(card: Card, trump: int) -> Mask:
    """Every card that beats ``card`` when ``card`` is winning a trick: the higher
    cards of its suit and, unless it is a trump, every trump."""
    m = higher_in_suit(card)
    if card // 13 != trump:
        m |= SUIT_MASKS[trump]
    return m


def poisson_binomial(probs: Sequence[float]) -> list[float]:
    """The distribution of the number of successes of independent events.

    ``result[k]`` is the chance that exactly ``k`` of the events happen.
    """
    dist = [1.0]
    for p in probs:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * q
            nxt[k + 1] += v * p
        dist = nxt
    return dist


def willingness(need: int | None) -> float:
    """How readily a seat with ``need`` tricks still wanted takes a trick it can take."""
    if need is None or need > 0:
        return WILLING_NEEDS
    return WILLING_DONE if need == 0 else WILLING_BUST


class Knowledge:
    """The facts and estimates one seat can derive from its observation."""

    __slots__ = ("hand", "held", "me", "need", "obs", "played", "players", "remaining",
                 "stock", "trump", "unseen", "voids")

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.me = obs.seat
        self.players = n = obs.players
        self.trump = obs.trump_suit
        self.hand = obs.hand
        self.played = obs.played_mask()
        self.unseen = FULL & ~obs.hand & ~self.played & ~(1 << obs.trump_card)
        self.voids = obs.void_suits()
        self.held = [obs.cards_in_hand(s) for s in range(n)]
        self.stock = 51 - n * obs.hand_size
        self.need: list[int | None] = [
            None if b is None else b - obs.taken[s] for s, b in enumerate(obs.bids)
        ]
        self.remaining = obs.hand.bit_count()
        """Tricks this seat still plays, the current one included."""

    # -- exact facts ------------------------------------------------------------------

    def opponents(self) -> list[int]:
        """The other seats, in play order after this one."""
        n = self.players
        return [(self.me + i) % n for i in range(1, n)]

    def still_to_play(self) -> list[int]:
        """The seats that play to the current trick after this one."""
        n = self.players
        after = n - len(self.obs.trick) - 1
        return [(self.me + i) % n for i in range(1, after + 1)]

    def current_best(self) -> Card | None:
        """The card now winning the current trick, or ``None`` when it is empty."""
        trick = self.obs.trick
        i = trick_best(trick, self.trump)
        return None if i < 0 else trick[i]

    def is_void(self, seat: int, suit: int) -> bool:
        """True when ``seat`` has shown it holds no card of ``suit``."""
        return bool(self.voids[seat] >> suit & 1)

    def beaters(self, card: Card) -> Mask:
        """The unseen cards that would beat ``card`` if it were winning a trick."""
        return beating_mask(card, self.trump) & self.unseen

    def is_certain_winner(self, card: Card) -> bool:
        """True when ``card``, led now, wins whatever the hidden cards are.

        No unseen card of its suit is higher, and it is a trump, or no unseen trump
        is left, or every opponent has shown a void in trump or can still follow.
        (Conservative: a seat that might be void in the suit and hold a trump
        makes the answer ``False``.)
        """
        if higher_in_suit(card) & self.unseen:
            return False
        s = card // 13
        if s == self.trump or not SUIT_MASKS[self.trump] & self.unseen:
            return True
        return all(self.is_void(p, self.trump) for p in self.opponents())

    def wins_for_sure_now(self, card: Card) -> bool:
        """True when playing ``card`` now certainly wins the current trick."""
        best = self.current_best()
        if best is not None and not beats(card, best, self.trump):
            return False
        t = self.trump
        s = card // 13
        higher = higher_in_suit(card) & self.unseen
        trumps = 0 if s == t else SUIT_MASKS[t] & self.unseen
        for p in self.still_to_play():
            if higher and not self.is_void(p, s):
                return False
            if trumps and not self.is_void(p, t):
                return False
        return True

    # -- probability estimates ---------------------------------------------------------

    def slot_share(self, seat: int, suit: int) -> float:
        """The chance that one given unseen card of ``suit`` is in ``seat``'s hand."""
        if self.voids[seat] >> suit & 1:
            return 0.0
        slots = self.stock
        for p in range(self.players):
            if p != self.me and not self.voids[p] >> suit & 1:
                slots += self.held[p]
        return self.held[seat] / slots if slots else 0.0

    def p_holds_any(self, seat: int, mask: Mask, suit: int) -> float:
        """The chance that ``seat`` holds at least one card of ``mask`` (cards of
        ``suit``; only the unseen ones count)."""
        k = (mask & self.unseen).bit_count()
        if not k:
            return 0.0
        q = self.slot_share(seat, suit)
        return 1.0 - (1.0 - q) ** k

    def p_void(self, seat: int, suit: int) -> float:
        """The chance that ``seat`` holds no card of ``suit``."""
        if self.voids[seat] >> suit & 1:
            return 1.0
        return 1.0 - self.p_holds_any(seat, SUIT_MASKS[suit], suit)

    def p_beats(self, seat: int, card: Card, led: int) -> float:
        """The chance that ``seat`` can beat ``card`` (winning a trick led in ``led``)."""
        t = self.trump
        s = card // 13
        if s == t:
            hi = self.p_holds_any(seat, higher_in_suit(card), t)
            return hi if led == t else hi * self.p_void(seat, led)
        hi = self.p_holds_any(seat, higher_in_suit(card), s)
        void = self.p_void(seat, s)
        return hi + void * self.p_holds_any(seat, SUIT_MASKS[t], t)

    def p_win_now(self, card: Card) -> float:
        """The chance that ``card``, played now, wins the current trick.

        Seats still to play beat it when they can, with a readiness that depends on
        whether they still need tricks (:func:`willingness`).
        """
        trick = self.obs.trick
        if trick:
            best = self.current_best()
            assert best is not None
            if not beats(card, best, self.trump):
                return 0.0
            led = trick[0] // 13
        else:
            led = card // 13
        p = 1.0
        for seat in self.still_to_play():
            p *= 1.0 - willingness(self.need[seat]) * self.p_beats(seat, card, led)
        return p

    def p_win_led(self, card: Card) -> float:
        """The chance that ``card``, led to a trick by this seat, wins it."""
        led = card // 13
        p = 1.0
        for seat in self.opponents():
            p *= 1.0 - willingness(self.need[seat]) * self.p_beats(seat, card, led)
        return p

    def hand_suits(self, hand: Mask | None = None) -> list[Mask]:
        """This seat's cards (or ``hand``'s) split by suit."""
        h = self.hand if hand is None else hand
        return [h & m for m in SUIT_MASKS]

    def cards(self) -> list[Card]:
        """This seat's cards in increasing order."""
        return cards_of(self.hand)
