"""``hard``: Monte Carlo over the hidden hands.

For each decision the bot samples deals that fit everything its seat knows
(:mod:`.sampling`), then plays each sampled deal out to the end of the round with a
fast goal-driven policy on bitmasks (:mod:`.playout`):

* **Bidding** — for every legal bid ``b`` it plays the samples out aiming at ``b`` and
  estimates ``P(taken == b)`` (allowing for the trick more or less that real play tends
  to bring, :func:`at_a_real_table`); Jabberwocky pays only an exact bid, so it bids the
  ``b`` with the best expected score, not the rounded expected number of tricks.
* **Playing** — every playable card (cards of equal value counted once) is tried on
  the same samples; the card that most often ends the round exactly on the bid wins
  (``spoil`` > 0 adds a preference for cards that make the other seats miss theirs).

Work is bounded by sample counts, never by the clock, and the samples come from
``obs.rng()``, so a given observation always gets the same answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.cards import Card, Mask
from ..core.errors import JabberwockyError
from ..core.observation import Observation
from ..core.phase import Phase
from ..core.rng import Rng
from .base import HINT_PURPOSE, Bot, Hint
from .endgame import Solver, solver, utilities
from .medium import bid_distribution as medium_bid_distribution
from .playout import RM_SUITS, from_rm, mask_to_rm, play_out, play_out_goals, to_rm
from .sampling import DealSampler, HandValue, estimate_goal
from .strategy import round_values

BID_WORK = (4000, 4000)
"""Tricks simulated per bid decision: a first pass over every candidate bid, then a
second pass over the best two (samples = work / (candidates * hand size)).  Half of
``jabberwocky-bots/4``'s 8000/8000 since ``jabberwocky-bots/5``: with half of each bid's
chance the ``learned`` model's, the playouts' share needs fewer samples, and bids were the
decisions that kept ``hard`` over 150 ms at the 95th percentile in Pyodide (see
:class:`HardBot`)."""
PLAY_WORK = 5000
"""Tricks simulated per card decision (samples = work / (cards * tricks left))."""
SAMPLES = (24, 600)
"""Fewest and most deals sampled in one pass."""
SPOIL = 0.0
"""Weight of the other seats' exact bids against this seat's own (which counts 1).
0.15 was measured against 0.0 on the same 120 self-play games (6240 bids): exact-bid
rate 61.2% with 0.15, 62.2% with 0.0; against three ``medium`` 0.0 still wins 55.0%
[48.7, 61.2] of 200 games."""
ENDGAME = 4
"""Cards in hand at which card decisions search each sampled deal exactly
(:mod:`.endgame`) instead of playing it out (``HardBot``'s docstring has the figures)."""
ENDGAME_POLICY = 1
"""In that search only this seat searches; the others play the playout policy's card."""
MIX = 0.5
"""How much of a bid's chance is the ``learned`` model's (the rest the playouts'); with
:data:`LEARNED_PRIOR` the default since ``jabberwocky-bots/4`` (see :class:`HardBot`)."""
LEARNED_PRIOR = 1
"""1: the blend's other half is the ``learned`` model's trick distribution (0:
``medium``'s, when ``mix`` is set)."""
GAME = 1.0
"""How much of a card's worth is this seat's chance of winning the game (:mod:`.strategy`),
the rest its exact bid this round: the default since ``jabberwocky-bots/5`` (see
:class:`HardBot`: it wins more games against ``medium`` for fewer exact bids)."""
WINDOW = 3
"""Bids farther than this from the hand's estimated tricks are not simulated."""
TRICK_MORE = 0.3
"""Chance that a seat which took no trick in a playout takes one at a real table; a seat
which took ``t`` of ``h`` tricks takes one more with chance ``TRICK_MORE * (h - t) / h``.

Tuned at 4 players.  In 3-player self-play (1,000 games) hard takes more tricks than
it bid far more often than fewer (27.8% against 18.8%; 4 players: 20.3% against 17.3%).
``more=0.45`` there turned that round (21.2% against 25.4%) for +0.40% +- 0.70% exact
bids on 300 paired games, but as 1 seat against 2 ``medium`` (1,000 paired games) it
lost 2.98% +- 0.54% exact bids and 6.2% +- 2.1% win share (27.6% under; the default
there: 18.7% over, 20.8% under).  The imbalance follows who sits at the table, not only
its size, so one constant serves every table size."""
TRICK_FEWER = 0.2
"""Chance that a seat which took every trick in a playout misses one at a real table; a
seat which took ``t`` of ``h`` misses one with chance ``TRICK_FEWER * t / h``."""


def sure_tricks(hand: Mask, trump_card: Card) -> int:
    """The tricks ``hand`` takes whatever happens: its trumps from the top of the suit
    down, without a gap (the turned trump card is out of play, so it leaves none).

    A bid below this count cannot be made; the bidding never chooses one while a bid
    at or above it is legal.
    """
    suit = trump_card // 13
    count = 0
    for rank in range(12, -1, -1):
        card = suit * 13 + rank
        if card == trump_card:
            continue
        if not hand >> card & 1:
            break
        count += 1
    return count


def _stock(unseen: int, deal: list[int], me: int) -> int:
    """The cards of ``unseen`` that ``deal`` puts in no other seat's hand: the stock."""
    for p, hand in enumerate(deal):
        if p != me:
            unseen &= ~hand
    return unseen


def _samples(work: int, per_sample: int) -> int:
    return max(SAMPLES[0], min(SAMPLES[1], work // max(1, per_sample)))


def at_a_real_table(row: list[float], more: float = TRICK_MORE,
                    fewer: float = TRICK_FEWER) -> list[float]:
    """The trick-count weights ``row`` (index = tricks taken in the playouts, the last
    index = the hand's size) moved to what a real table gives.

    In a playout every seat sees every hand, so a seat plays its goal too well: one that
    must lose tricks loses them too easily, and one that must win tricks wins them too
    easily.  The more tricks a seat has to lose (``h - t``), the likelier one is forced on
    it; the more it has to win (``t``), the likelier one gets away.  Measured in
    4-player self-play with a flat 20% chance of one trick more (2,080 bids): hard still
    took more tricks than it bid 23% of the time and fewer 15%: over more often the lower
    it bid (bid 0: 26% over), under more often the higher (bid 3: 30% under).  Over games
    0-999 of the bench this two-sided correction made 62.0% exact bids against 61.6% for
    the flat one on the same games (ahead in 16 of the 20 parts of 50 games).
    """
    h = len(row) - 1
    if h == 0:
        return list(row)
    out = [0.0] * len(row)
    for t, weight in enumerate(row):
        up = more * (h - t) / h
        down = fewer * t / h
        out[t] += weight * (1.0 - up - down)
        if up:
            out[t + 1] += weight * up
        if down:
            out[t - 1] += weight * down
    return out


class HardBot(Bot):
    """Determinized Monte Carlo with bid inference; budgets count simulated tricks."""

    level = "hard"

    def __init__(self, bid_work: tuple[int, int] = BID_WORK, play_work: int = PLAY_WORK,
                 spoil: float = SPOIL, honest: int = 0, infer: float = 1.0,
                 game: float = GAME, game_last: int = 99, more: float = TRICK_MORE,
                 fewer: float = TRICK_FEWER, mix: float = MIX,
                 sigma: float | None = None, lift: float = 0.0, endgame: int = ENDGAME,
                 endgame_work: int | tuple[int, ...] = 0, endgame_bid: int = 0,
                 endgame_bid_work: int = 0, endgame_policy: int = ENDGAME_POLICY,
                 hook: int = 0, learned_prior: int = LEARNED_PRIOR) -> None:
        """Budgets and the experiments' switches (off by default, but for the endgame
        search of the last cards, ``endgame=4,endgame_policy=1``, the bids' blend with
        the ``learned`` model, ``mix=0.5,learned_prior=1`` (``mix=0`` bids as
        ``jabberwocky-bots/3`` did), and the cards played for the game, ``game=1.0``
        (``game=0`` plays as ``jabberwocky-bots/4`` did)).

        ``endgame=k``: when this seat holds ``k`` cards or fewer, each sampled deal is
        searched exactly (:mod:`.endgame`, every seat playing to its own bid) instead of
        played out by the policy; ``endgame_work`` sets the sample count there as
        ``play_work`` does elsewhere (0: ``play_work``; a tuple: per cards left, from 2
        up).  ``endgame_policy=1``: only this seat searches, the others play the
        playout policy's card.  ``endgame_bid=h`` / ``endgame_bid_work``: the same
        search for bids in rounds of ``h`` cards or fewer (not measured: about 5x the
        time of a bid's playouts at ``h`` = 3).

        Measured on the bench's 300 games (``bench/bots_ab.py``, paired with the
        default bot): ``endgame=3,endgame_work=2000`` in self-play +0.15% +- 0.40%
        exact bids (62.44% against 62.28%), decision p95 43.3 ms against 41.0 ms;
        1 seat against 3 ``medium``, -0.49% +- 0.56% exact and -0.7% +- 2.4% win
        share (48.9% against 49.7%).  ``endgame=4,endgame_policy=1``: self-play
        +0.23% +- 0.43% (62.51%), p95 47.3 ms; against 3 ``medium`` +1.10% +- 0.62%
        exact and +3.1% +- 3.0% win share (52.7%) on games 0-299, but +0.31% +- 0.65%
        and +1.1% +- 3.3% (47.1% against 46.0%) on games 300-599: over the 600,
        +0.71% +- 0.45% exact, +2.1% +- 2.2% win share.  Pyodide (``bench/
        bots_pyodide.py``, 300 positions): card p95 53 ms against 45 ms, all decisions
        p95 89 ms (bids dominate).  Games 600-999 against 3 ``medium`` confirmed it
        (+0.69% +- 0.61% exact, +1.2% +- 2.8% win share); over all 1,000 paired games
        +0.70% +- 0.36% exact (69.06% against 68.36%) and +1.7% +- 1.7% win share
        (51.6% against 49.9%): the default since ``jabberwocky-bots/3``
        (``endgame=0`` plays as ``jabberwocky-bots/2`` did).

        Tried on top of that default, 1 seat against 3 ``medium``, paired with it and
        left off: ``endgame_bid=4`` (the search for bids in the rounds of 3 and 4
        cards), 1,000 games: +0.22% +- 0.19% exact bids (69.28% against 69.06%),
        -0.1% +- 0.8% win share, decision p95 72.9 ms against 46.6 ms (those bids take
        110-180 ms, median, in CPython: the 150 ms Pyodide target would not hold);
        ``endgame=5``, stopped after 539 games: -0.26% +- 0.39% exact, -1.5% +- 1.9%
        win share.  ``game=0.5`` (cards chosen half for this seat's exact bid, half for
        its chance of winning the game, :mod:`.strategy`), 1,000 games: -0.15% +- 0.21%
        exact, +1.0% +- 1.2% win share (52.6% against 51.6%; games 500-999 alone
        +0.5% +- 1.8%), decision p95 56.9 ms against 46.6 ms; ``game=1.0`` (for the
        win alone), 1,000 games: -1.16% +- 0.45% exact, +1.8% +- 2.1% win share (53.4%),
        p95 57.0 ms; with games 1000-1499 (+4.1% +- 3.2% there), over 1,500 paired
        games -0.81% +- 0.38% exact and **+2.6% +- 1.8% win share** (52.9% against
        50.4%): playing for the game wins more games for fewer exact bids.  In 4-player
        self-play, paired with the default's, it costs every seat exact bids: ``game=1.0``
        -3.35% +- 1.22% over 89 games (stopped), ``game=0.5`` -1.05% +- 0.48% over 210,
        so it stays off (the self-play target pulls the other way).  ``game_last=4``
        (``game=1.0`` in the last four rounds only): against 3 ``medium``, 1,000 games,
        -0.32% +- 0.21% exact and +0.6% +- 1.1% win share; self-play, 315 games, -0.54%
        +- 0.29%: late risks alone do not win more games.

        ``hook=1``: at a bid with the dealer still to bid, the playouts of the one bid of
        this seat that would make the estimated bids add up to the hand size give the
        dealer the nearer other goal (the hook rule forbids it that bid).  4-player
        self-play, 300 paired games: -0.04% +- 0.22% exact bids (ahead in 46 games,
        behind in 48): the dealer's goal is not what the playouts miss.

        ``honest=1``: in the playouts a seat that wants a trick plays the cheapest winner
        that no card it cannot see may beat (:mod:`.playout`), instead of a winner
        picked with every hand in view.  With the default budgets, 4-player self-play, 212
        paired games (stopped): +0.04% +- 0.80% exact, for 1.1x the time.  With half the
        samples (``honest=1,play_work=2500,bid_work=4000/4000``) it plays about as well in a
        little over half the time: against 3 ``medium``, 1,000 paired games, +0.08% +-
        0.57% exact (69.15% against 69.06%) and +0.0% +- 2.5% win share (51.6% both),
        decision p95 28.9 ms against 51.8 ms (CPython); 4-player self-play, 1,000
        paired games, -0.22% +- 0.36% exact (62.19% against 62.41%), p95 28-32 ms
        against 50.4 ms.  A candidate for the next bots version, as a speed change.

        More work, stopped early for showing nothing: ``play_work=10000`` (twice the
        card samples), 226 games, -0.37% +- 0.78% exact, +0.3% +- 3.9% win share;
        ``bid_work=12000/12000``, 243 games, -0.13% +- 0.29% exact and -0.3% +- 1.5%
        win share (the count of exact bids differed in 22 games): at these budgets the
        samples are not what limits the bot.

        Three changes to the playouts' policy (:mod:`.playout`, and the same card in
        :func:`.endgame.policy_card`) were measured against 3 ``medium`` and dropped, so
        no switch is kept for them: a seat whose top live trumps cover the tricks it still
        needs ducks as if it had enough (-2.56% +- 1.79% exact bids, -4.6% +- 7.5% win
        share over 135 games, stopped; it took fewer tricks than it bid in 20.5% of its
        rounds against 17.2%); a seat with enough tricks leads the lowest card of the suit
        in which the other hands hold the most cards above it, instead of its lowest card
        (-0.37% +- 0.65% exact, -2.1% +- 2.8% win share over 400 games); a seat that
        needs tricks, follows suit and holds no winner that a later hand cannot beat plays
        its lowest card instead of its highest winner (-0.25% +- 0.58% exact, -2.7% +- 2.8%
        win share over 400 games).

        ``mix=0.5,learned_prior=1``: each candidate bid's chance is the mean of the
        playouts' and the ``learned`` model's (:mod:`.learned`: the Poisson-binomial sum of
        its per-card chances, a millisecond).  Against 3 ``medium``, games 0-399 of the
        bench, paired with the default: **+1.17% +- 0.68% exact bids** (70.04% against
        68.87%; ahead in 121 games, behind in 80) and +1.8% +- 3.1% win share (52.8%
        against 51.0%), for no measurable time (bid decisions are the same playouts).
        Over all 1,000 games (0-999), paired with the ``jabberwocky-bots/3`` default:
        **+1.35% +- 0.44% exact bids** (70.42% against 69.06%; ahead in 325 games,
        behind in 197) and +1.6% +- 2.0% win share (53.2% against 51.6%), decision p95
        the same in both runs (233.6 ms against 233.1 ms on a machine loaded by other
        work; 46.6 ms quiet before): the default since ``jabberwocky-bots/4``.
        Self-play and 3 and 5 players were not measured under it.  (The ``learned``
        level itself on games 0-399, paired with the bots/3 ``hard``: -0.98% +- 1.23%
        exact, -3.5% +- 4.8% win share.)

        ``game=1.0`` on top of the ``jabberwocky-bots/4`` default (cards for the chance
        of winning the game, :mod:`.strategy`), against 3 ``medium``, games 0-299, paired
        with the default in the same interleaved run: -1.31% +- 0.85% exact bids (68.92%
        against 70.23%; ahead in 72 games, behind in 105) and +2.6% +- 4.1% win share
        (55.0% against 52.4%), decision p95 154.3 ms against 153.7 ms on a loaded
        machine.  The same direction as under ``jabberwocky-bots/3`` (+2.6% +- 1.8% over
        1,500 games) but not confirmed on 1,000 games, so it stays off.  Game-level
        *bidding* was not tried: with one point per exact bid and the other seats' later
        rounds modelled as independent of this seat's bid (:func:`.strategy.round_values`),
        the chance of winning the game is ``V(missed) + P(exact) * (V(made) -
        V(missed))`` with ``V(made) >= V(missed)``, so the bid with the best chance of the
        game is the bid with the best chance of being exact: only the card play, which
        changes the other seats' bids, has something to trade.

        Confirmed on 1,000 games: ``game=1.0`` on top of the ``jabberwocky-bots/4``
        default, against 3 ``medium``, games 0-999 paired with the default: -0.99% +-
        0.45% exact bids (69.42% against 70.42%) and **+3.5% +- 2.2% win share (56.8%
        against 53.2%)**.  With it, half the bid work (``bid_work=4000/4000``: half of
        each bid's chance is the ``learned`` model's, so the playouts' half needs fewer
        samples) plays the same games alike (-0.02% +- 0.15% exact, -0.0% +- 0.8% win
        share, paired over the 1,000) and brings the bids, the slow decisions, within
        the time asked of them: on ``bench/bots_pyodide.py``'s 300 positions, p95 86.4 ms
        in Pyodide under Node.js (bids 102.4 ms) against 159.0-187.5 ms with the full
        bid work (bids 188-269 ms), and 45.9-56.3 ms in CPython, the same choices in
        both runtimes.  Both are the default since ``jabberwocky-bots/5``: against 3
        ``medium`` 69.41% exact and a 56.7% +- 2.8% win share (paired with
        ``jabberwocky-bots/4``: -1.01% +- 0.47% exact, +3.5% +- 2.3% win share); at 3
        and 5 players (games 0-199 of ``hard-vs-2-medium`` and ``hard-vs-4-medium``)
        62.35% exact and a 72.6% +- 5.6% win share (parity 33.3%), 73.15% exact and
        46.7% +- 6.2% (parity 20%).  It costs exact bids when every seat plays so: in
        4-player self-play, games 0-299 paired with ``jabberwocky-bots/4``,
        58.83% against 62.44% (-3.60% +- 0.68%).  One such seat among three
        ``jabberwocky-bots/4`` seats (``bench/bots_ab.py --duel``, 144 deals, each
        played twice with the seats swapped) is even with them: +0.13% +- 1.05% exact
        bids, -0.5% +- 3.8% win share per seat.

        ``card_mix=0.3`` (each card's mean score over the playouts moved 30% of the way
        to the ``learned`` model's chance that the card makes the bid, as the bids blend
        the two) against 3 ``medium``, games 0-450 paired with the ``jabberwocky-bots/4``
        default: +0.17% +- 0.42% exact, -0.5% +- 2.0% win share (ahead in 64 games,
        behind in 57): stopped and dropped, so no switch is kept for it.

        ``adapt=2`` (the bids' one-trick-more/less correction moved by this seat's own
        rounds so far: ``more`` raised by ``2 * (over - under) / (rounds + 4)`` when it
        went over its bid more often than under, ``fewer`` likewise), because in 4-player
        self-play under ``jabberwocky-bots/5`` a seat ends over its bid far more often than
        under (24.9% against 16.3%; against 3 ``medium`` 15.8% against 14.8%): games 0-299
        of self-play paired with the default, +0.37% +- 0.55% exact bids (59.21% against
        58.83%; over 23.2%, under 17.6%; ahead in 117 games, behind in 112): too little to
        keep, so no switch is kept for it.

        The ``learned`` level's card choice as the policy of every seat in the card
        decisions' playouts (the issue's "playouts" route; ``bench/learned_playouts.py``,
        which keeps the experiment): 4-player self-play, games 0-99 paired with the
        default at the same samples, -0.40% +- 1.24% exact bids (58.33% against 58.73%)
        for a card decision's p95 of ~775 ms against 43 ms: the playouts' hand-written
        policy is not what the learned one improves on, so nothing of it is kept here.
        The same model reading the other hands (each sampled deal weighed by the
        ``later`` network's chance that each seat which has bid takes exactly what it
        still needs, in place of :class:`.sampling.DealSampler`'s bell curve; the
        issue's "reading the other hands" route, ``--inference`` there): games 0-299
        of self-play, -0.64% +- 0.68% exact bids (58.19% against 58.83%), p95 55 ms
        against 43 ms: not kept either.
        """
        self.bid_work = bid_work
        self.play_work = play_work
        self.spoil = spoil
        self.honest = honest
        self.infer = infer
        self.game = game
        self.game_last = game_last
        self.more = more
        self.fewer = fewer
        self.mix = mix
        self.sigma = sigma
        self.lift = lift
        self.endgame = endgame
        self.endgame_work = endgame_work
        self.endgame_bid = endgame_bid
        self.endgame_bid_work = endgame_bid_work
        self.endgame_policy = endgame_policy
        self.hook = hook
        self.learned_prior = learned_prior

    def _endgame_solver(self, goals: Sequence[int], tricks: int,
                        points: Callable[[int, int], int], trump: int, after: bool,
                        me: int) -> Solver:
        """The exact search of :mod:`.endgame` for seats playing to ``goals`` in a round
        of ``tricks``: every seat searching, or only ``me`` (``endgame_policy``)."""
        return solver(utilities(goals, tricks, points), trump, after,
                      seat=me if self.endgame_policy else -1, goals=goals)

    @staticmethod
    def _check_turn(obs: Observation) -> None:
        if not obs.my_turn or obs.phase not in (Phase.BIDDING, Phase.PLAYING):
            raise JabberwockyError("bot.not_its_turn", seat=obs.seat, phase=obs.phase,
                                   to_act=obs.to_act)

    # -- bidding ----------------------------------------------------------------------

    def bid_distribution(self, obs: Observation, rng: Rng) -> tuple[int, dict[int, list[float]]]:
        """The chosen bid and, per simulated bid, the weighted count of each trick total
        (not normalised)."""
        legal = obs.legal_bids
        h = obs.hand_size
        n = obs.players
        me = obs.seat
        value = HandValue(obs.trump_suit)
        guess = value(mask_to_rm(obs.hand))
        sure = sure_tricks(obs.hand, obs.trump_card)
        legal = tuple(b for b in legal if b >= sure) or legal
        cands = [b for b in legal if abs(b - guess) <= WINDOW] or list(legal)
        sampler = DealSampler(obs, sigma=self.sigma)
        trump = obs.trump_suit
        leader = (obs.dealer + 1) % n
        after = obs.rules.trump_lead == "after-broken"
        counts = {b: [0.0] * (h + 1) for b in cands}
        points = obs.rules.points

        honest = self.honest
        unseen = sampler.unseen
        exact = h <= self.endgame_bid
        work = self.bid_work
        if exact and self.endgame_bid_work:
            work = (self.endgame_bid_work, self.endgame_bid_work)
        none_taken = [0] * n
        solvers: dict[tuple[int, ...], Solver] = {}
        dealer = obs.dealer
        hooked = bool(self.hook and obs.rules.hook and dealer != me
                      and obs.bids[dealer] is None)

        def run(bids: list[int], samples: int) -> None:
            deals, weights = sampler.sample(rng, samples)
            for deal, w in zip(deals, weights, strict=True):
                goals = [
                    b if b is not None else estimate_goal(value, deal[p], h)
                    for p, b in enumerate(obs.bids)
                ]
                if exact:
                    for b in bids:
                        goals[me] = b
                        key = tuple(goals)
                        solve = solvers.get(key)
                        if solve is None:
                            solve = solvers[key] = self._endgame_solver(key, h, points, trump,
                                                                         after, me)
                        counts[b][solve(deal, leader, (), False, none_taken)[me]] += w
                    continue
                stock = _stock(unseen, deal, me) if honest else -1
                jobs = [(goals, bids)]
                clash = h - sum(goals) + goals[me] if hooked else -1
                if clash in bids:
                    # The dealer, still to bid, may not make the bids add up to h: for the
                    # one bid of this seat that would, the dealer plays for the nearer
                    # other goal (its hand's estimate rounded the other way).
                    gd = goals[dealer]
                    up = value(deal[dealer]) > gd
                    moved = list(goals)
                    moved[dealer] = gd + 1 if (up and gd < h) or gd == 0 else gd - 1
                    jobs = [(moved, [clash]), (goals, [b for b in bids if b != clash])]
                for job_goals, targets in jobs:
                    if targets:
                        for b, t in play_out_goals(deal, trump, leader, job_goals, me, targets,
                                                   after, stock).items():
                            counts[b][t] += w

        more, fewer, mix, lift = self.more, self.fewer, self.mix, self.lift
        prior: list[float] = []
        if mix and self.learned_prior:
            from .learned import LearnedBot  # here: with mix=0 hard never loads the model

            prior = LearnedBot().distribution(obs)
        elif mix:
            prior = medium_bid_distribution(obs)

        def rank(b: int) -> tuple[float, float]:
            row = at_a_real_table(counts[b], more, fewer)
            p = row[b] / (sum(row) or 1.0)
            if mix:
                p += mix * (prior[b] - p)
            return (p * (1.0 + lift * b) * points(b, b), -abs(b - guess))

        run(cands, _samples(work[0], len(cands) * h))
        if len(cands) > 2:
            top = sorted(cands, key=rank, reverse=True)[:2]
            run(top, _samples(work[1], 2 * h))
            cands = top
        return max(cands, key=rank), counts

    def choose_bid(self, obs: Observation) -> int:
        self._check_turn(obs)
        return self.bid_distribution(obs, obs.rng())[0]

    # -- play -------------------------------------------------------------------------

    @staticmethod
    def card_groups(obs: Observation) -> list[list[int]]:
        """The playable cards (rank-major) grouped by equal value, lowest first.

        Two cards of a suit are worth the same when every card between them is in
        this hand or already gone, so only one of each group needs simulating.
        """
        legal = mask_to_rm(obs.honest)
        gone = mask_to_rm(obs.hand | obs.played_mask() | 1 << obs.trump_card)
        groups: list[list[int]] = []
        for s in range(4):
            cards = legal & RM_SUITS[s]
            prev = -1
            while cards:
                c = (cards & -cards).bit_length() - 1
                cards &= cards - 1
                if prev >= 0:
                    between = RM_SUITS[s] & ((1 << c) - 1) & ~((2 << prev) - 1)
                    if between & ~gone == 0:
                        groups[-1].append(c)
                        prev = c
                        continue
                groups.append([c])
                prev = c
        return groups

    def card_scores(self, obs: Observation, rng: Rng) -> tuple[Card, dict[Card, float]]:
        """The chosen card and every playable card's mean score over the samples."""
        card, scores, _, _ = self.card_evaluation(obs, rng)
        return card, scores

    def card_evaluation(self, obs: Observation, rng: Rng
                        ) -> tuple[Card, dict[Card, float], dict[Card, float],
                                   dict[Card, float]]:
        """The chosen card, every playable card's mean score over the samples, its
        chance of making the bid (the weighted share of the samples in which this seat
        took exactly its bid after playing it) and, when the cards are played for the
        game (``game``), its chance of winning the game (the mean over the samples of
        :func:`.strategy.round_values` for the way the round ended); each empty when one
        group of equivalent cards leaves nothing to sample.  The chances are tallied
        beside the scores from the same playouts, so asking for them changes no
        choice."""
        groups = self.card_groups(obs)
        if len(groups) == 1:
            c = groups[0][0]
            return from_rm(c), {from_rm(x): 1.0 for x in groups[0]}, {}, {}
        n = obs.players
        me = obs.seat
        bids: list[int] = [b if b is not None else 0 for b in obs.bids]
        trump = obs.trump_suit
        after = obs.rules.trump_lead == "after-broken"
        trick = [to_rm(c) for c in obs.trick]
        leader = obs.leader
        taken = list(obs.taken)
        points = obs.rules.points
        spoil = self.spoil / max(1, n - 1)
        left = obs.cards_in_hand(me)
        sampler = DealSampler(obs, sigma=self.sigma, infer=self.infer)
        exact = left <= self.endgame
        work = self.play_work
        if exact:
            ew = self.endgame_work
            if isinstance(ew, tuple):  # per cards left, from 2 up (the last for more)
                ew = ew[min(left - 2, len(ew) - 1)] if ew else 0
            work = ew or work
        deals, weights = sampler.sample(rng, _samples(work, len(groups) * left))
        if exact:
            solve = self._endgame_solver(bids, obs.hand_size, points, trump, after, me)
        totals = [0.0] * len(groups)
        hits = [0.0] * len(groups)
        wins = [0.0] * len(groups)
        honest = self.honest
        voids = obs.void_suits()
        values = self._round_values(obs)
        game = self.game
        t: Sequence[int]
        for deal, w in zip(deals, weights, strict=True):
            mine = deal[me]
            stock = _stock(sampler.unseen, deal, me) if honest else -1
            for gi, group in enumerate(groups):
                c = group[0]
                deal[me] = mine ^ (1 << c)
                trick.append(c)
                if exact:
                    t = solve(deal, leader, trick, obs.broken, taken)
                else:
                    t = play_out(deal, trump, leader, trick, obs.broken, taken, bids, after,
                                 stock=stock, voids=voids)
                trick.pop()
                score = float(points(bids[me], t[me]))
                if t[me] == bids[me]:
                    hits[gi] += w
                if values:
                    pattern = 0
                    for p in range(n):
                        if t[p] == bids[p]:
                            pattern |= 1 << p
                    wins[gi] += values[pattern] * w
                    score += game * (values[pattern] - score)
                score -= 0.01 * abs(bids[me] - t[me])
                if spoil:
                    score -= spoil * sum(points(bids[p], t[p]) for p in range(n) if p != me)
                totals[gi] += score * w
            deal[me] = mine
        k = sum(weights)
        scores = {from_rm(c): totals[gi] / k for gi, g in enumerate(groups) for c in g}
        chances = {from_rm(c): hits[gi] / k for gi, g in enumerate(groups) for c in g}
        won = ({from_rm(c): wins[gi] / k for gi, g in enumerate(groups) for c in g}
               if values else {})
        best = max(range(len(groups)), key=lambda gi: (totals[gi], -gi))
        return from_rm(groups[best][0]), scores, chances, won

    def _round_values(self, obs: Observation) -> list[float]:
        """Per pattern of made bids, this seat's chance of winning the game (empty when
        the game-level strategy is off, or for scoring other than 1 per exact bid)."""
        rounds_after = obs.rules.rounds - obs.round_index - 1
        if not self.game or rounds_after >= self.game_last or obs.rules.scoring != "exact-1":
            return []
        return round_values(obs.scores, rounds_after, obs.seat)

    def choose_card(self, obs: Observation) -> Card:
        self._check_turn(obs)
        return self.card_scores(obs, obs.rng())[0]

    # -- hints ------------------------------------------------------------------------

    def hint(self, obs: Observation) -> Hint:
        """The bot's choice for ``obs``'s seat, with numbers.

        For a bid, ``probabilities[k]`` is the estimated chance of taking exactly ``k``
        tricks while playing for the suggested bid: the share of simulated deals that
        ended there, corrected by :func:`at_a_real_table`.
        """
        self._check_turn(obs)
        rng = obs.rng(HINT_PURPOSE)
        if obs.phase == Phase.BIDDING:
            bid, counts = self.bid_distribution(obs, rng)
            row = at_a_real_table(counts[bid], self.more, self.fewer)
            total = sum(row)
            probs = tuple(x / total for x in row)
            return Hint("bid", bid, probabilities=probs, level=self.level)
        card, scores, chances, wins = self.card_evaluation(obs, rng)
        return Hint("card", card, card_scores=tuple(sorted(scores.items())),
                    card_chances=tuple(sorted(chances.items())),
                    card_wins=tuple(sorted(wins.items())), level=self.level)
