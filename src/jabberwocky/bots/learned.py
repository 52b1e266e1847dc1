"""``learned``: bids and cards from a small network trained on self-play (:mod:`.model`).

No search and no hand-set weights of its own:

- Bidding: for every card in hand the ``later`` network's chance that it takes a trick
  this round; their Poisson-binomial sum is the distribution of the tricks the hand
  takes, and the bot bids the legal count with the best expected score (the hook rule
  may forbid one count to the dealer: then the next best).
- Play: for every playable card ``x``, ``P(x wins now) * Q[need - 1] +
  P(x loses now) * Q[need]``, where ``Q`` is the distribution of tricks the other cards
  take after ``x`` is gone (the ``later`` network again) and ``P(x wins now)`` is 0 for a
  card that cannot beat the trick, 1 for a sure winner and the ``now`` network's
  estimate otherwise.  The card with the best chance of making the bid exactly is
  played.  A seat already over its bid, or one that cannot make it whatever it plays
  (every chance 0), plays as ``medium`` does (it then spoils another seat's bid).

Deterministic: no randomness at all, and the forward pass gives the same bits in CPython
and in Pyodide (:mod:`.model`).  ``bench/train_bots.py`` trains the networks from games
of this very bot (``record`` collects their inputs).
"""

from __future__ import annotations

from ..core.cards import SUIT_MASKS, Card, Mask, cards_of
from ..core.observation import Observation
from ..core.phase import Phase
from .base import Bot, Hint
from .knowledge import Knowledge, beating_mask, beats, poisson_binomial, trick_best
from .medium import best_bid as medium_best_bid
from .medium import bid_distribution as medium_bid_distribution
from .medium import play_card as medium_play_card
from .model import Model, Net, later_own, later_shared, load_model, now_inputs

Record = tuple[str, int, Card, tuple[int, ...]]
"""``(network, round index, card, active inputs)``: one training example's inputs; its
label is whether ``card`` took a trick (for ``later``: any trick of the round; for
``now``: the trick it was played to, which is the same thing)."""


def _void_count(hand: Mask) -> int:
    return sum(1 for m in SUIT_MASKS if not hand & m)


class LearnedBot(Bot):
    """Plays for the exact bid from learned per-card chances of taking a trick."""

    level = "learned"

    def __init__(self, model: Model | None = None, policy: str = "learned",
                 record: list[Record] | None = None) -> None:
        """``model``: the networks (default: the shipped ones).  ``policy="medium"``
        makes ``medium``'s choices while still recording (the trainer's first games);
        ``record``: a list to append every decision's training inputs to."""
        self._model = model
        self.policy = policy
        self.record = record

    @property
    def model(self) -> Model:
        if self._model is None:
            self._model = load_model()
        return self._model

    # -- the pieces -------------------------------------------------------------------

    @staticmethod
    def _needs(obs: Observation) -> list[int | None]:
        """Every seat's remaining need, from this seat round the table."""
        n = obs.players
        out: list[int | None] = []
        for r in range(n):
            p = (obs.seat + r) % n
            b = obs.bids[p]
            out.append(None if b is None else b - obs.taken[p])
        return out

    def _later(self, obs: Observation, hand: Mask, unseen: Mask, needs: list[int | None]
               ) -> dict[Card, tuple[float, tuple[int, ...]]]:
        """For each card of ``hand`` (this seat's cards after its play, if any), the
        ``later`` network's chance and its active inputs."""
        net: Net = self.model.later
        trump = obs.trump_suit
        shared = later_shared(obs.players, hand.bit_count(), needs, _void_count(hand),
                              (SUIT_MASKS[trump] & unseen).bit_count())
        base = net.partial(shared)
        out: dict[Card, tuple[float, tuple[int, ...]]] = {}
        for c in cards_of(hand):
            own = later_own(c, trump, hand, unseen)
            out[c] = (net.prob(own, base), (*shared, *own))
        return out

    def _now(self, obs: Observation, k: Knowledge, card: Card) -> tuple[float, tuple[int, ...]]:
        """The chance that ``card``, played now, takes this trick, and the ``now``
        network's inputs (empty when the answer is certain)."""
        trick = obs.trick
        trump = k.trump
        if trick and not beats(card, trick[trick_best(trick, trump)], trump):
            return 0.0, ()
        if k.wins_for_sure_now(card):
            return 1.0, ()
        n = obs.players
        after = k.still_to_play()
        led = trick[0] // 13 if trick else card // 13
        unseen = k.unseen
        active = now_inputs(
            n, len(trick), [k.need[p] for p in after],
            (SUIT_MASKS[trump] & unseen).bit_count(), led == trump,
            (SUIT_MASKS[led] & unseen).bit_count(), card // 13 == trump,
            (beating_mask(card, trump) & unseen).bit_count(),
            sum(1 for p in after if k.is_void(p, led)),
            sum(1 for p in after if k.is_void(p, trump)), k.remaining)
        return self.model.now.prob(active), tuple(active)

    def distribution(self, obs: Observation) -> list[float]:
        """``result[k]``: the model's chance that this hand takes exactly ``k`` tricks."""
        later = self._later(obs, obs.hand, obs.unseen_mask(), self._needs(obs))
        return poisson_binomial([p for p, _ in later.values()])

    def card_chances(self, obs: Observation) -> dict[Card, float]:
        """Each playable card's estimated chance of making the bid exactly."""
        return self._evaluate(obs)[0]

    def _evaluate(self, obs: Observation) -> tuple[dict[Card, float], dict[Card, tuple[
            tuple[int, ...], dict[Card, tuple[float, tuple[int, ...]]]]]]:
        k = Knowledge(obs)
        needs = self._needs(obs)
        need = needs[0]
        assert need is not None
        chances: dict[Card, float] = {}
        inputs = {}
        for c in cards_of(obs.honest):
            rest = self._later(obs, obs.hand & ~(1 << c), k.unseen, needs)
            q = poisson_binomial([p for p, _ in rest.values()])
            win, now_active = self._now(obs, k, c)
            hit = q[need - 1] if 0 <= need - 1 < len(q) else 0.0
            miss = q[need] if 0 <= need < len(q) else 0.0
            chances[c] = win * hit + (1.0 - win) * miss
            inputs[c] = (now_active, rest)
        return chances, inputs

    # -- decisions --------------------------------------------------------------------

    def choose_bid(self, obs: Observation) -> int:
        if self.policy == "medium" and self.record is None:
            return medium_best_bid(obs, medium_bid_distribution(obs))
        later = self._later(obs, obs.hand, obs.unseen_mask(), self._needs(obs))
        if self.record is not None:
            for c, (_, active) in later.items():
                self.record.append(("later", obs.round_index, c, active))
        if self.policy == "medium":
            return medium_best_bid(obs, medium_bid_distribution(obs))
        return self.best_bid(obs, poisson_binomial([p for p, _ in later.values()]))

    @staticmethod
    def best_bid(obs: Observation, dist: list[float]) -> int:
        """The legal bid with the best expected score under ``dist`` (the nearer to the
        distribution's mean on a tie, then the lower)."""
        legal = obs.legal_bids or tuple(range(obs.hand_size + 1))
        mean = sum(i * p for i, p in enumerate(dist))
        points = obs.rules.points
        return max(legal, key=lambda b: (dist[b] * points(b, b), -abs(b - mean), -b))

    def choose_card(self, obs: Observation) -> Card:
        return self._choose_card(obs)[0]

    def _choose_card(self, obs: Observation) -> tuple[Card, dict[Card, float] | None]:
        """The card, and each playable card's chance when the choice was made from them
        (``None`` when it was not: one card, the medium policy, a bid already broken),
        so that :meth:`hint` need not evaluate the position a second time."""
        legal = obs.honest
        if legal & (legal - 1) == 0 and self.record is None:
            return legal.bit_length() - 1, None
        need = obs.bids[obs.seat]
        assert need is not None
        need -= obs.taken[obs.seat]
        if self.policy == "medium" or need < 0:
            card = medium_play_card(obs) if legal & (legal - 1) else legal.bit_length() - 1
            if self.record is not None:
                k = Knowledge(obs)
                self._record(obs, card, self._now(obs, k, card)[1],
                             self._later(obs, obs.hand & ~(1 << card), k.unseen,
                                         self._needs(obs)))
            return card, None
        chances, inputs = self._evaluate(obs)
        card = max(chances, key=lambda c: (chances[c], -(c % 13), -c))
        if chances[card] <= 0.0 and legal & (legal - 1):
            card = medium_play_card(obs)
        if self.record is not None:
            self._record(obs, card, *inputs[card])
        return card, chances

    def _record(self, obs: Observation, card: Card, now_active: tuple[int, ...],
                rest: dict[Card, tuple[float, tuple[int, ...]]]) -> None:
        assert self.record is not None
        if now_active:
            self.record.append(("now", obs.round_index, card, now_active))
        for c, (_, active) in rest.items():
            self.record.append(("later", obs.round_index, c, active))

    def hint(self, obs: Observation) -> Hint:
        if obs.phase == Phase.BIDDING:
            dist = self.distribution(obs)
            return Hint("bid", self.best_bid(obs, dist), probabilities=tuple(dist),
                        level=self.level)
        card, chances = self._choose_card(obs)
        scores = tuple(sorted((self.card_chances(obs) if chances is None else chances).items()))
        return Hint("card", card, card_scores=scores, card_chances=scores, level=self.level)
