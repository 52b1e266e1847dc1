"""Exact play of the last tricks of one sampled deal, for the ``hard`` bot.

Near the end of a round few cards are left, so instead of finishing a sampled deal
with the fast policy of :mod:`.playout`, :func:`solver` searches every way the round
can still go (double dummy: every hand of the sample is known) and returns the tricks
each seat takes when every seat plays to its own goal.

The model of the other seats is the one the playouts use, made exact: each seat, at
its turn, plays the card that gives it the best ``util[seat][tricks]`` at the end of
the round, assuming every later choice is made the same way by the seat whose turn it
is (a *max-n* search).  With ``util`` = the points for taking that many tricks on its
bid, less a hundredth per trick away from it, a seat makes its bid when it can at all
and otherwise misses by as little as it can.  Equal values go to the card searched
first: suit by suit (the trump suit last), the lowest card of a suit first, so a seat
with nothing at stake ducks low and keeps its trumps.  This order does not depend on
which of two cards of equal value is left in a hand, so searching one card of each
group gives the same result as searching them all.  The search is deterministic.

Work is bounded by the cards left: cards of equal value in one hand (every card
between them is in that hand or out of play) are searched once, each position at the
start of a trick is searched once (a memo keyed by the hands, the leader, trump
broken and the tricks taken), and the last trick, when every hand holds one card, is
played without search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .playout import LEAD_LOW, RM_SUITS, beats, sure_lead, sure_win

_ALL = (1 << 52) - 1

Memo = dict[tuple[tuple[int, ...], int, bool, tuple[int, ...]], tuple[int, ...]]
"""Positions at the start of a trick and the tricks taken from them."""


def _choices(legal: int, hand: int, alive: int, order: Sequence[int]) -> list[int]:
    """One card of each group of equal value among ``legal`` (rank-major): two cards
    of a suit are worth the same to ``hand`` when no card of ``alive`` (the cards in
    any hand or in the current trick) outside ``hand`` lies between them.  Suit by suit
    in ``order``, lowest first; the lowest card of each group stands for it."""
    if not legal & (legal - 1):
        return [legal.bit_length() - 1]
    others = alive & ~hand
    out: list[int] = []
    for s in order:
        suit = RM_SUITS[s]
        cards = legal & suit
        if not cards:
            continue
        gaps = others & suit
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
        while cards:
            nxt = cards & -cards
            cards ^= nxt
            if gaps & (nxt - 1) & ~((low << 1) - 1):
                out.append(nxt.bit_length() - 1)
            low = nxt
    return out


def policy_card(hands: Sequence[int], p: int, count: int, led: int, best: int,
                best_trump: bool, need: int, broken: bool, trump: int,
                lead_after_broken: bool) -> int:
    """The card the playout policy of :mod:`.playout` (the clairvoyant one) plays for
    seat ``p``, which still needs ``need`` tricks, ``count`` cards into the trick
    (``led``, ``best`` and ``best_trump`` describe it when ``count`` > 0)."""
    n = len(hands)
    suits = RM_SUITS
    tm = suits[trump]
    ntm = _ALL ^ tm
    h = hands[p]
    if count == 0:
        legal = h & ntm or h if lead_after_broken and not broken else h
        if need > 0:
            live = 0
            for x in hands:
                live |= x
            c = sure_lead(legal, live, trump)
            if c >= 0:
                return c
            if not LEAD_LOW:
                return legal.bit_length() - 1
        x = legal & ntm or legal
        return (x & -x).bit_length() - 1
    follow = h & suits[led]
    if follow:
        winners = 0 if best_trump and led != trump else follow & ~((2 << best) - 1)
        legal = follow
    else:
        trumps = h & tm
        winners = trumps & ~((2 << best) - 1) if best_trump else trumps
        legal = h
    losers = legal ^ winners
    last = count == n - 1
    if need > 0:
        if not winners:
            x = losers & ntm or losers
            return (x & -x).bit_length() - 1
        if last:
            return (winners & -winners).bit_length() - 1
        return sure_win(hands, p, winners, follow, led, best_trump, trump, n - 1 - count, n)
    if losers:
        x = losers & ntm or losers
        return x.bit_length() - 1
    if last:
        return winners.bit_length() - 1
    return (winners & -winners).bit_length() - 1


Solver = Callable[[Sequence[int], int, Sequence[int], bool, Sequence[int]], tuple[int, ...]]
"""``solver(hands, leader, trick, broken, taken)``: see :func:`solver`."""


def solver(util: Sequence[Sequence[float]], trump: int, lead_after_broken: bool,
           memo: Memo | None = None, seat: int = -1,
           goals: Sequence[int] = ()) -> Solver:
    """A function ``(hands, leader, trick, broken, taken)`` giving the tricks each seat
    has taken at the end of the round, every seat playing to its goal
    (``util[seat][tricks]``, see the module's text) from here on.

    Its arguments are as for :func:`.playout.play_out`: the remaining rank-major
    ``hands`` (not modified), the cards of the current trick from ``leader`` (it may
    be empty or complete), whether trump is broken and the tricks taken so far.  The
    positions it has searched are kept (in ``memo`` if given) for its later calls,
    on the same deal or on any other (the keys hold every hand).

    With ``seat``, only that seat searches: every other seat plays the card of the
    playout policy (:func:`policy_card`) for its goal in ``goals``.
    """
    n = len(util)
    suits = RM_SUITS
    tm = suits[trump]
    ntm = _ALL ^ tm
    after = lead_after_broken
    table: Memo = {} if memo is None else memo
    # ceiling[seat][lo][hi]: the best value of util[seat][t] for lo <= t <= hi.
    order = [s for s in range(4) if s != trump] + [trump]
    ceiling = [[[max(u[lo:hi + 1]) if hi >= lo else 0.0 for hi in range(len(u))]
                for lo in range(len(u))] for u in util]

    def last_trick(hs: tuple[int, ...], lead: int, took: tuple[int, ...]) -> tuple[int, ...]:
        # Every hand holds one card: play them.
        best = hs[lead].bit_length() - 1
        win = lead
        q = lead
        for _ in range(n - 1):
            q = q + 1 if q + 1 < n else 0
            x = hs[q].bit_length() - 1
            if (x > best) if x & 3 == best & 3 else x & 3 == trump:
                best, win = x, q
        out = list(took)
        out[win] += 1
        return tuple(out)

    def start(hs: tuple[int, ...], lead: int, brk: bool, took: tuple[int, ...]) -> tuple[int, ...]:
        h = hs[lead]
        if not h:
            return took
        key = (hs, lead, brk, took)
        got = table.get(key)
        if got is None:
            if not h & (h - 1):
                got = last_trick(hs, lead, took)
            else:
                alive = 0
                for x in hs:
                    alive |= x
                got = play(list(hs), lead, 0, 0, 0, False, lead, brk, took, alive)
            table[key] = got
        return got

    def play(hs: list[int], p: int, count: int, led: int, best: int, best_trump: bool,
             win: int, brk: bool, took: tuple[int, ...], alive: int) -> tuple[int, ...]:
        # alive: the cards in the hands and in this trick (the same all through it).
        h = hs[p]
        if count:
            legal = h & suits[led] or h
        elif after and not brk:
            legal = h & ntm or h
        else:
            legal = h
        mine = util[p]
        # The best this seat can still get: its goal, brought within the tricks it can
        # still take (this one included).  A card reaching it ends the search here.
        lo = took[p]
        bound = ceiling[p][lo][min(lo + h.bit_count(), len(mine) - 1)]
        top: tuple[int, ...] = ()
        top_value = 0.0
        if seat < 0 or p == seat:
            cards = _choices(legal, h, alive, order)
        else:
            cards = [policy_card(hs, p, count, led, best, best_trump, goals[p] - took[p], brk,
                                 trump, after)]
        for c in cards:
            hs[p] = h ^ (1 << c)
            cs = c & 3
            if count == 0:
                nled, nbest, nbt, nwin = cs, c, cs == trump, p
            else:
                nled, nbest, nbt, nwin = led, best, best_trump, win
                if cs == nled:
                    if c > best and (not best_trump or led == trump):
                        nbest, nwin = c, p
                elif cs == trump and (not best_trump or c > best):
                    nbest, nbt, nwin = c, True, p
            nbrk = brk or cs == trump
            if count + 1 == n:
                t = list(took)
                t[nwin] += 1
                got = start(tuple(hs), nwin, nbrk, tuple(t))
            else:
                got = play(hs, p + 1 if p + 1 < n else 0, count + 1, nled, nbest, nbt,
                           nwin, nbrk, took, alive)
            value = mine[got[p]]
            if not top or value > top_value:
                top, top_value = got, value
                if value >= bound:
                    break
        hs[p] = h
        return top

    def solve(hands: Sequence[int], leader: int, trick: Sequence[int], broken: bool,
              taken: Sequence[int]) -> tuple[int, ...]:
        took = tuple(taken)
        count = len(trick)
        if count == 0:
            return start(tuple(hands), leader, broken, took)
        led = trick[0] & 3
        best, win = trick[0], leader
        shown = 0
        for i, c in enumerate(trick):
            shown |= 1 << c
            if c & 3 == trump:
                broken = True
            if i and beats(c, best, trump):
                best, win = c, (leader + i) % n
        best_trump = best & 3 == trump
        if count == n:
            t = list(took)
            t[win] += 1
            return start(tuple(hands), win, broken, tuple(t))
        for x in hands:
            shown |= x
        return play(list(hands), (leader + count) % n, count, led, best, best_trump, win,
                    broken, took, shown)

    return solve


def utilities(bids: Sequence[int], tricks: int,
              points: Callable[[int, int], int]) -> list[list[float]]:
    """``util[seat][taken]`` for :func:`solver`, ``taken`` up to ``tricks``: the points
    for taking that many tricks on the seat's bid, less a hundredth per trick away
    from it."""
    return [[float(points(b, t)) - 0.01 * abs(b - t) for t in range(tricks + 1)]
            for b in bids]
