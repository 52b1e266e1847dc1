"""Hand-built positions: a :class:`Game` whose round state is set directly.

``position(...)`` deals a real game and then overwrites the round: the hands, the
trump card, the bids so far, the tricks already played, the trick on the table and
whether trump is broken.  The rule tests use it to reach any corner case in one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from jabberwocky.core.cards import Card, mask_of, parse_card
from jabberwocky.core.game import BIDDING, PLAYING, Game, trick_winner
from jabberwocky.core.history import Trick
from jabberwocky.core.rules import JABBERWOCKY, Ruleset


def cards(text: str) -> list[Card]:
    """``"AS KS 2H"`` -> the cards, in the order written."""
    return [parse_card(t) for t in text.split()]


def hand(text: str) -> int:
    """``"AS KS 2H"`` -> the mask of those cards."""
    return mask_of(cards(text))


def position(
    hands: Sequence[str],
    trump: str,
    *,
    dealer: int = 0,
    bids: Sequence[int | None] | None = None,
    trick: str = "",
    leader: int | None = None,
    broken: bool = False,
    rules: Ruleset = JABBERWOCKY,
    hand_size: int | None = None,
    played: Sequence[str] = (),
) -> Game:
    """A game of ``len(hands)`` players set to the given round state.

    ``bids`` lists every seat's bid (``None`` for not yet bid); when every seat has
    bid the game is in the playing phase, ``trick`` (cards in play order from
    ``leader``) is on the table and the next seat after it is to act.

    ``played`` lists the tricks already finished this round, each as its cards in play
    order: the first led from the dealer's left, each next one by the winner of the one
    before.  They set the tricks taken, whether trump is broken (also when ``broken``
    says so) and, unless ``leader`` is given, who leads the trick on the table; the
    hand size defaults to the cards still held plus the tricks played.
    """
    n = len(hands)
    g = Game("position", n, rules, ["human"] * n)
    masks = [hand(h) for h in hands]
    on_table = cards(trick)
    trump_card = parse_card(trump)
    done = [cards(t) for t in played]
    every = ([c for h in hands for c in cards(h)] + on_table + [trump_card]
             + [c for t in done for c in t])
    assert len(every) == len(set(every)), "a card appears twice in the position"
    g.dealer = dealer
    g.hand_size = (hand_size if hand_size is not None
                   else max(len(cards(h)) for h in hands) + len(done))
    g.hands = masks
    g.dealt = tuple(masks)
    g.trump_card = trump_card
    g.trump_suit = trump_card // 13
    g.bids = list(bids) if bids is not None else [None] * n
    g.taken = [0] * n
    g.reneges = [0] * n
    g.tricks = []
    lead = (dealer + 1) % n
    for t in done:
        assert len(t) == n, "a finished trick holds one card of each seat"
        winner = trick_winner(t, lead, n, g.trump_suit)
        g.tricks.append(Trick(lead, tuple(t), winner))
        g.taken[winner] += 1
        lead = winner
    g.trick = on_table
    g.leader = leader if leader is not None else lead
    g.broken = broken or any(c // 13 == g.trump_suit for t in done for c in t)
    if all(b is not None for b in g.bids):
        g.phase = PLAYING
        g.to_act = (g.leader + len(on_table)) % n
    else:
        g.phase = BIDDING
        order = [(dealer + 1 + k) % n for k in range(n)]
        g.to_act = next(s for s in order if g.bids[s] is None)
    g.step = sum(b is not None for b in g.bids) + len(on_table) + n * len(done)
    return g
