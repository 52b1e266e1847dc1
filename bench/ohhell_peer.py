"""OpenSpiel's C++ IS-MCTS as a peer at our table, searching in OpenSpiel's own ``oh_hell``.

``pyspiel.ISMCTSBot`` cannot search our Python game (``python_jabberwocky``): pyspiel's
bridge for Python games does not hand ``ResampleFromInfostate`` to C++.  So each decision
is searched in the built-in ``oh_hell``, set up as the current round: the table size,
``num_tricks_fixed`` = the round's cards, the dealer, a deal, the turned trump card, the
bids and the cards played so far.  ``points_per_trick=0`` makes its returns 10 for an
exact bid and 0 otherwise, our scoring of a round (times ten).  The peer plays each round
for its own exact bid; it knows nothing of the game's scores.

Two things keep the peer honest:

* It is a :class:`jabberwocky.bots.Bot`: it is handed one seat's ``Observation`` through
  the referee, like every bot, and never the game.
* It never searches the true deal.  ``oh_hell``'s own resampling only moves the cards
  that were dealt between the other hands (never the undealt stock), so a search started
  from the true deal would know which cards are out of play.  The peer deals the other
  hands itself from the cards it has not seen (:func:`filling`: each hand its size, no
  card of a suit its seat has shown it lacks), searches each of ``fillings`` such deals
  with ``simulations`` simulations, and sums the visit counts of the root's actions.

``oh_hell`` lets trumps be led before they are broken; when the most visited card is such
a lead, which our rules forbid, the peer plays its most visited legal card.  Its cards
are numbered ``rank * 4 + suit`` with the suits in the order C D S H (ours: ``suit * 13 +
rank``, C D H S), bids ``52 + bid``.

OpenSpiel breaks ties in hash maps whose order follows memory addresses, so the same
seed replays the same search only with address randomisation off (``setarch -R``).

The deal and state set-up (:func:`filling`, :func:`round_actions`) need no OpenSpiel;
:class:`ISMCTSPeer` imports ``pyspiel`` when first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jabberwocky.bots import Bot
from jabberwocky.core.cards import SUIT_MASKS, Card, Mask, cards_of
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng

NUM_CARDS = 52
OURS_TO_OH = (0, 1, 3, 2)
"""Our suit (C D H S) -> ``oh_hell``'s suit index (its order is C D S H)."""
OH_TO_OURS = (0, 1, 3, 2)
FILLINGS = 10
SIMULATIONS = 100
UCT_C = 10.0
"""On returns of 0 or 10 per round: the issue's measured setting."""
TRIES = 200
"""Attempts at a filling before giving up (the greedy deal below rarely needs two)."""


def to_oh(card: Card) -> int:
    """Our card number -> ``oh_hell``'s action for that card."""
    return (card % 13) * 4 + OURS_TO_OH[card // 13]


def from_oh(action: int) -> Card:
    """``oh_hell``'s card action -> our card number."""
    rank, suit = divmod(action, 4)
    return OH_TO_OURS[suit] * 13 + rank


def _plays(obs: Observation) -> list[tuple[int, Card]]:
    """Every card played this round, in order, with the seat that played it."""
    out: list[tuple[int, Card]] = []
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.leader, obs.trick))
    for leader, cards in tricks:
        out.extend(((leader + i) % obs.players, c) for i, c in enumerate(cards))
    return out


def filling(obs: Observation, rng: Rng) -> list[Mask]:
    """Every seat's hand now: this seat's own, and the others dealt from its unseen cards.

    Each other hand gets as many cards as that seat holds and none of a suit it has shown
    it lacks; what is left over is the stock.  Seats are dealt most constrained first
    from one shuffle of the unseen cards; a shuffle that leaves a seat short is drawn
    again (the true deal fits, so one that fits exists).
    """
    n = obs.players
    unseen = cards_of(obs.unseen_mask())
    voids = obs.shown_voids()  # bots never renege: under the honour rule a human might
    allowed = [sum(SUIT_MASKS[s] for s in range(4) if not voids[p] >> s & 1)
               for p in range(n)]
    counts = [obs.cards_in_hand(p) for p in range(n)]
    others = [p for p in range(n) if p != obs.seat]
    order = sorted(others, key=lambda p: (sum(1 for c in unseen if allowed[p] >> c & 1)
                                          - counts[p], p))
    for _ in range(TRIES):
        pool = list(unseen)
        rng.shuffle(pool)
        hands = [0] * n
        hands[obs.seat] = obs.hand
        ok = True
        for p in order:
            take = [c for c in pool if allowed[p] >> c & 1][:counts[p]]
            if len(take) < counts[p]:
                ok = False
                break
            for c in take:
                hands[p] |= 1 << c
                pool.remove(c)
        if ok:
            return hands
    raise RuntimeError(f"no filling fits seat {obs.seat}'s view after {TRIES} tries")


def round_actions(obs: Observation, hands: Sequence[Mask]) -> list[int]:
    """The ``oh_hell`` actions that set up this round with ``hands`` as the hands now.

    Chance first: the number of tricks, the dealer, the deal (``oh_hell`` deals card ``i``
    to player ``i % players``; each seat is dealt the cards it holds now and those it has
    played this round), the turned trump card; then the bids in bidding order and the
    cards played, in order.
    """
    n = obs.players
    dealt = [list(cards_of(hands[p])) for p in range(n)]
    plays = _plays(obs)
    for p, c in plays:
        dealt[p].append(c)
    for p in range(n):
        dealt[p].sort()
        if len(dealt[p]) != obs.hand_size:
            raise ValueError(f"seat {p} would be dealt {len(dealt[p])} cards, "
                             f"not {obs.hand_size}")
    actions = [obs.hand_size, obs.dealer]
    for i in range(obs.hand_size):
        actions.extend(to_oh(dealt[p][i]) for p in range(n))
    actions.append(to_oh(obs.trump_card))
    for k in range(n):
        bid = obs.bids[(obs.dealer + 1 + k) % n]
        if bid is None:
            break
        actions.append(NUM_CARDS + bid)
    actions.extend(to_oh(c) for _, c in plays)
    return actions


@lru_cache(maxsize=64)
def oh_hell_game(players: int, tricks: int) -> Any:
    """``oh_hell`` for one round of ``tricks`` cards each, scoring 10 for an exact bid."""
    import pyspiel

    return pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks,
                                         "points_per_trick": 0})


def oh_hell_state(obs: Observation, hands: Sequence[Mask]) -> Any:
    """An ``oh_hell`` state of this round with ``hands`` as the hands now."""
    state = oh_hell_game(obs.players, obs.hand_size).new_initial_state()
    for a in round_actions(obs, hands):
        state.apply_action(a)
    return state


class ISMCTSPeer(Bot):
    """OpenSpiel's C++ IS-MCTS (``pyspiel.ISMCTSBot``, random rollouts) over fillings."""

    level = "ismcts"

    def __init__(self, fillings: int = FILLINGS, simulations: int = SIMULATIONS,
                 uct_c: float = UCT_C) -> None:
        self.fillings = fillings
        self.simulations = simulations
        self.uct_c = uct_c

    def visits(self, obs: Observation) -> dict[int, float]:
        """The root's visit counts per ``oh_hell`` action, summed over the fillings."""
        import pyspiel

        rng = obs.rng()
        total: dict[int, float] = {}
        for _ in range(self.fillings):
            state = oh_hell_state(obs, filling(obs, rng))
            assert state.current_player() == obs.seat, (state.current_player(), obs.seat)
            seed = rng.below(1 << 31)
            bot = pyspiel.ISMCTSBot(
                seed, pyspiel.RandomRolloutEvaluator(1, seed), self.uct_c, self.simulations,
                -1, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
            policy, _ = bot.step_with_policy(state)
            for action, share in policy:
                total[action] = total.get(action, 0.0) + share * self.simulations
        return total

    def choose_bid(self, obs: Observation) -> int:
        if len(obs.legal_bids) == 1:
            return obs.legal_bids[0]
        seen = self.visits(obs)
        return max(obs.legal_bids, key=lambda b: (seen.get(NUM_CARDS + b, 0.0), -b))

    def choose_card(self, obs: Observation) -> Card:
        legal = obs.honest_cards()
        if len(legal) == 1:
            return legal[0]
        seen = self.visits(obs)
        # a trump lead before trumps are broken is not among ``legal``: the most
        # visited card that is wins
        return max(legal, key=lambda c: (seen.get(to_oh(c), 0.0), -c))
