"""Fast playouts for the ``hard`` bot: finish a round with every hand known, on ints.

A Monte Carlo decision plays thousands of simulated tricks, so this module never
builds a :class:`~jabberwocky.core.game.Game`.  It works on *rank-major* masks, where bit
``rank * 4 + suit`` stands for a card: the lowest bit of a mask is then its lowest
card by rank and the highest bit its highest, whatever the suits, while a suit is
still a fixed mask (:data:`RM_SUITS`) and, inside one suit, a higher bit is a higher
card.  :func:`to_rm` and :func:`from_rm` convert from and to engine cards
(``suit * 13 + rank``).

The policy every seat follows in a playout is a compact version of sound Oh Hell
play, driven by that seat's goal (its bid): a seat that still needs tricks wins
cheaply when it can and leads its sure winners; a seat that has enough ducks with its
highest losing card and leads low.  It is deterministic, so a decision's randomness
comes from the sampled deals alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card, Mask

RM_SUITS: tuple[int, int, int, int] = tuple(  # type: ignore[assignment]
    sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)
)
"""The rank-major mask of each suit."""

LEAD_LOW = True
"""Needing tricks without a sure winner: lead low (True; keeps the high cards for
later, measured slightly better in self-play) or the highest card (False)."""

_TO_RM = tuple((c % 13) * 4 + c // 13 for c in range(52))
_FROM_RM = tuple((b & 3) * 13 + (b >> 2) for b in range(52))


def to_rm(card: Card) -> int:
    """The rank-major bit index of an engine card."""
    return _TO_RM[card]


def from_rm(bit: int) -> Card:
    """The engine card of a rank-major bit index."""
    return _FROM_RM[bit]


def _remap(mask: int, table: Sequence[int]) -> int:
    """``mask`` with each bit ``b`` moved to bit ``table[b]``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << table[low.bit_length() - 1]
        mask ^= low
    return out


def mask_to_rm(mask: Mask) -> int:
    """An engine mask as a rank-major mask."""
    return _remap(mask, _TO_RM)


def rm_to_mask(rm: int) -> Mask:
    """A rank-major mask as an engine mask."""
    return _remap(rm, _FROM_RM)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether rank-major ``card`` beats the trick's current best card ``best``."""
    cs = card & 3
    bs = best & 3
    if cs == bs:
        return card > best
    return cs == trump


def _honest_win(p: int, winners: int, follow: int, led: int, best_trump: bool,
                trump: int, out: int, void: Sequence[int], later: int, n: int) -> int:
    """The card a seat that wants this trick plays from what it can see: the cheapest
    winner that no card it cannot see (``out``) can beat in the hand of a later seat
    that may hold it (voids shown so far), else its highest winner when following
    suit, its lowest winning trump when ruffing."""
    sure = winners
    suits = RM_SUITS
    led_out = out & suits[led]
    trump_out = out & suits[trump]
    q = p
    for _ in range(later):
        q = q + 1 if q + 1 < n else 0
        vq = void[q]
        if not vq >> led & 1:
            if led_out and (not best_trump or led == trump):
                sure &= ~((2 << (led_out.bit_length() - 1)) - 1)
        elif trump_out and not vq >> trump & 1:
            if follow and led != trump:
                sure = 0
            else:
                sure &= ~((2 << (trump_out.bit_length() - 1)) - 1)
        if not sure:
            break
    if sure:
        return (sure & -sure).bit_length() - 1
    if follow:
        return winners.bit_length() - 1
    return (winners & -winners).bit_length() - 1


def sure_lead(legal: int, live: int, trump: int) -> int:
    """A sure winner to lead from ``legal``: the top live card (``live``: every card not
    yet played that may be in a hand) of a suit, trumps first, else the highest such;
    -1 when ``legal`` holds none."""
    suits = RM_SUITS
    top = (live & suits[trump]).bit_length() - 1
    if top >= 0 and legal >> top & 1:
        return top
    c = -1
    for s in range(4):
        if s != trump:
            top = (live & suits[s]).bit_length() - 1
            if top >= 0 and legal >> top & 1 and top > c:
                c = top
    return c


def sure_win(hands: Sequence[int], p: int, winners: int, follow: int, led: int,
              best_trump: bool, trump: int, later: int, n: int) -> int:
    """The card a seat that wants this trick plays when it sees every hand (the
    clairvoyant playout): the cheapest winner that no later seat's hand can beat, else
    its highest winner when following suit, its lowest winning trump when ruffing."""
    suits = RM_SUITS
    tm = suits[trump]
    sure = winners
    q = p
    for _ in range(later):
        q = q + 1 if q + 1 < n else 0
        hq = hands[q]
        f = hq & suits[led]
        if f:
            if not best_trump or led == trump:
                sure &= ~((2 << (f.bit_length() - 1)) - 1)
        elif hq & tm:
            if follow and led != trump:
                sure = 0
            else:
                sure &= ~((2 << ((hq & tm).bit_length() - 1)) - 1)
    if sure:
        return (sure & -sure).bit_length() - 1
    if follow:
        return winners.bit_length() - 1
    return (winners & -winners).bit_length() - 1


def play_out(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    broken: bool,
    taken: Sequence[int],
    goals: Sequence[int],
    lead_after_broken: bool,
    record: list[int] | None = None,
    stock: int = -1,
    voids: Sequence[int] | None = None,
) -> list[int]:
    """Play the rest of a round and return the tricks taken per seat.

    ``hands`` are the seats' remaining rank-major hands (not modified), ``trick`` the
    rank-major cards of the current trick from ``leader`` (it may be empty or even
    complete), ``taken`` the tricks taken so far and ``goals`` the number of tricks
    each seat plays for.  Cards are assumed legal; bots never renege.  ``record``, if
    given, receives the rank-major cards played, in order (for tests).

    With ``stock`` (the rank-major mask of the undealt cards other than the turned
    one) every seat decides from its own information: a card is a sure winner when no
    card it cannot see (in another hand or in the stock) beats it, given the voids
    shown so far (``voids``: a 4-bit suit mask per seat, updated as the playout goes).
    Without it (``-1``) a seat following suit looks at the later seats' hands.
    """
    return _play(hands, trump, leader, trick, broken, taken, goals, lead_after_broken, record,
                 stock, voids)[0]


def play_out_goals(
    hands: Sequence[int],
    trump: int,
    leader: int,
    goals: Sequence[int],
    seat: int,
    targets: Sequence[int],
    lead_after_broken: bool,
    stock: int = -1,
) -> dict[int, int]:
    """The tricks ``seat`` takes in a whole round played from the deal ``hands``, for
    each of its goals in ``targets`` (the other seats playing for ``goals``): the same
    as one :func:`play_out` per target, in less time.

    A seat's policy looks only at whether it still needs tricks, so the playouts for
    two goals ``g < g'`` are the same card for card until the seat has taken ``g``
    tricks.  The playout for the highest goal is run once, and the one for each lower
    goal ``g`` starts from where the seat took its ``g``-th trick (or, if it never
    did, is the same playout).
    """
    order = sorted(set(targets))
    out: dict[int, int] = {}
    goals = list(goals)
    state_hands, state_leader, broken = list(hands), leader, False
    taken = [0] * len(hands)
    void: list[int] = [0] * len(hands)
    top = order[-1]
    for g in order:
        if taken[seat] < g:
            # Advance the shared playout (any goal above g plays alike) to the g-th trick.
            goals[seat] = top
            taken, state_hands, state_leader, broken, void = _play(
                state_hands, trump, state_leader, (), broken, taken, goals,
                lead_after_broken, None, stock, void, seat, g)
            if taken[seat] < g:  # the round ended first: every goal from g up agrees
                for rest in order[order.index(g):]:
                    out[rest] = taken[seat]
                return out
        goals[seat] = g
        out[g] = _play(state_hands, trump, state_leader, (), broken, taken, goals,
                       lead_after_broken, None, stock, void)[0][seat]
    return out


def _play(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    broken: bool,
    taken: Sequence[int],
    goals: Sequence[int],
    lead_after_broken: bool,
    record: list[int] | None = None,
    stock: int = -1,
    voids: Sequence[int] | None = None,
    stop_seat: int = -1,
    stop_at: int = -1,
) -> tuple[list[int], list[int], int, bool, list[int]]:
    """:func:`play_out`, returning the state where it ends: the tricks taken, the hands,
    the next leader, whether trump is broken and the voids.  With ``stop_seat`` it
    stops early, after the trick that brings that seat's tricks to ``stop_at``."""
    hands = list(hands)
    taken = list(taken)
    n = len(hands)
    suits = RM_SUITS
    tm = suits[trump]
    ntm = ((1 << 52) - 1) ^ tm
    alive = 0
    for h in hands:
        alive |= h
    honest = stock >= 0
    void = list(voids) if voids is not None else [0] * n
    if not honest:
        stock = 0
    count = len(trick)
    led = best = win = 0
    best_trump = False
    if count:
        led = trick[0] & 3
        best = trick[0]
        best_trump = led == trump
        win = leader
        for i in range(1, count):
            c = trick[i]
            cs = c & 3
            if cs == trump:
                broken = True
                if not best_trump or c > best:
                    best, best_trump, win = c, True, (leader + i) % n
            elif cs == led and not best_trump and c > best:
                best, win = c, (leader + i) % n
        if best_trump:
            broken = True
    p = (leader + count) % n
    if count == n:
        taken[win] += 1
        p = win
        count = 0
        if win == stop_seat and taken[win] == stop_at:
            return taken, hands, p, broken, void
    if not hands[p]:
        return taken, hands, p, broken, void
    while True:
        h = hands[p]
        need = goals[p] - taken[p]
        if count == 0:
            legal = h
            if lead_after_broken and not broken:
                legal = h & ntm or h
            if need > 0:
                # Lead a sure winner (the top live card of its suit), trumps first.
                c = sure_lead(legal, alive | stock, trump)
                if c < 0:
                    if LEAD_LOW:
                        x = legal & ntm or legal
                        c = (x & -x).bit_length() - 1
                    else:
                        c = legal.bit_length() - 1
            else:
                x = legal & ntm or legal
                c = (x & -x).bit_length() - 1
            led = c & 3
            best = c
            best_trump = led == trump
            win = p
        else:
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
                if winners:
                    if last:
                        c = (winners & -winners).bit_length() - 1
                    elif honest:
                        c = _honest_win(p, winners, follow, led, best_trump, trump,
                                        (alive | stock) & ~h, void, n - 1 - count, n)
                    else:
                        c = sure_win(hands, p, winners, follow, led, best_trump, trump,
                                      n - 1 - count, n)
                else:
                    x = losers & ntm or losers
                    c = (x & -x).bit_length() - 1
            elif losers:
                x = losers & ntm or losers
                c = x.bit_length() - 1
            elif last:
                c = winners.bit_length() - 1
            else:
                c = (winners & -winners).bit_length() - 1
            if winners >> c & 1:
                best = c
                win = p
                if c & 3 == trump:
                    best_trump = True
        if record is not None:
            record.append(c)
        if count and c & 3 != led:
            void[p] |= 1 << led
        bit = 1 << c
        hands[p] = h ^ bit
        alive ^= bit
        if c & 3 == trump:
            broken = True
        count += 1
        if count == n:
            taken[win] += 1
            if not hands[win] or (win == stop_seat and taken[win] == stop_at):
                return taken, hands, win, broken, void
            p = win
            count = 0
        else:
            p = p + 1 if p + 1 < n else 0
