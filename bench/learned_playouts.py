"""Experiments: ``hard`` with the ``learned`` model in its playouts or its deal sampling.

``hard``'s card decisions play each sampled deal out with a fast hand-written policy
(:mod:`jabberwocky.bots.playout`, about 14 microseconds for a whole round in CPython).
The bots issue asks whether the ``learned`` model's card choice (:mod:`.learned`: the
card with the best chance of making the seat's bid) would make better playouts.  This
tool replaces the playouts of the card decisions (the bids' playouts and the endgame
search of the last four cards are unchanged) by one in which every seat plays the
``learned`` policy from what *that seat* can see in the sampled deal: its own hand,
the cards gone, the voids shown, every seat's need.  It is far slower, so it is
measured at equal *samples*, paired with the default at the same ``play_work``:

    python bench/learned_playouts.py run --out B.jsonl --games 100 --play-work 500 \\
        [--first 0] [--players 4] [--fast]     # --fast: the default policy (A)
    python bench/learned_playouts.py run --out C.jsonl --games 100 --inference
    python bench/bots_ab.py compare A.jsonl B.jsonl

``--inference`` measures the issue's other route for the model, reading the other hands:
the playouts stay as they are, and each sampled deal is weighted by the ``later``
network's chance that each seat which has bid takes exactly the tricks it still needs
with the hand the deal gives it (the Poisson-binomial sum of its cards' chances, seen
from that seat), in place of the default's bell curve around a count of honours
(:class:`~jabberwocky.bots.sampling.DealSampler`).

Self-play only (every seat the same bot), on ``bench/bots_ab.py``'s games
(``bench/hard-self-play/i``), so ``compare`` pairs them game by game.  Nothing here is
shipped: it is a measurement of one route, kept so that it can be run again.

Inside a playout the policy is the ``learned`` level's own card choice: checked on 1,025
positions of six 4-player games of that level (every seat's hand known, as in a playout),
it chose the level's card in 1,021; the 4 others were positions where no card can make
the bid (the level then plays as ``medium`` does, this policy its lowest card).

Measured (``jabberwocky-bots/5``, 4-player self-play, games 0-99, ``play_work=5000`` as
the default, paired with the default's run on the same games): **-0.40% +- 1.24% exact
bids** (58.33% against 58.73%; over 25.0% against 24.8%, under 16.7% against 16.5%;
ahead in 39 games, behind in 45), for a card decision's p95 of 766-783 ms against 43 ms
(CPython, two processes on two cores; a game took ~48 s against ~6 s).  With the forward
passes memoised a simulated decision costs ~40 microseconds, a whole fast playout ~14:
even free, the learned policy would not make better playouts for exact bids here.

``--inference``, the same games 0-299 paired with the default: **-0.64% +- 0.68% exact
bids** (58.19% against 58.83%; over 24.5% against 24.9%, under 17.3% against 16.3%; ahead
in 113 games, behind in 153), decision p95 55 ms against 43 ms.  The learned weights are
sharper than the default's (in 10 of 12 positions of one game looked at, an effective
sample size of 87-183 of 300 deals against 172-281; the other two near 300 in both), and
no better for it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import jabberwocky.bots.hard as hard_module  # noqa: E402
from jabberwocky.bots.hard import HardBot  # noqa: E402
from jabberwocky.bots.knowledge import (  # noqa: E402
    beating_mask,
    beats,
    poisson_binomial,
    trick_best,
)
from jabberwocky.bots.model import (  # noqa: E402
    Model,
    Net,
    later_own,
    later_shared,
    load_model,
    now_inputs,
)
from jabberwocky.bots.playout import from_rm, rm_to_mask  # noqa: E402
from jabberwocky.bots.sampling import DealSampler  # noqa: E402
from jabberwocky.core.cards import SUIT_MASKS  # noqa: E402
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.core.observation import Observation  # noqa: E402
from jabberwocky.drivers.simulate import percentile, play_game  # noqa: E402

FULL = (1 << 52) - 1


@contextlib.contextmanager
def swapped(name: str, value: Any) -> Iterator[None]:
    """``jabberwocky.bots.hard``'s ``name`` (what its decisions call) is ``value`` meanwhile."""
    default = getattr(hard_module, name)
    setattr(hard_module, name, value)
    try:
        yield
    finally:
        setattr(hard_module, name, default)


def _memo(cache: dict[tuple[int, ...], float], net: Net, key: tuple[int, ...]) -> float:
    """``net``'s chance for the active inputs ``key``, computed once (the cache is
    emptied when it grows past 400,000 entries)."""
    p = cache.get(key)
    if p is None:
        if len(cache) > 400_000:
            cache.clear()
        p = cache[key] = net.prob(key)
    return p


class LearnedPlayout:
    """A playout in which every seat plays the ``learned`` policy (engine cards).

    Forward passes are memoised by their active inputs: the same inputs recur across
    the samples of a decision, and a pass is the slow part."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.gone = 0  # the cards out of play before the decision (and the turned card)
        self.cache_later: dict[tuple[int, ...], float] = {}
        self.cache_now: dict[tuple[int, ...], float] = {}
        self.decisions = 0

    def later(self, shared: list[int], own: list[int]) -> float:
        return _memo(self.cache_later, self.model.later, (*shared, *own))

    def now(self, active: list[int]) -> float:
        return _memo(self.cache_now, self.model.now, tuple(active))

    def __call__(self, hands_rm: Sequence[int], trump: int, leader: int,
                 trick_rm: Sequence[int], broken: bool, taken_in: Sequence[int],
                 goals: Sequence[int], after: bool, record: Any = None, stock: int = -1,
                 voids: Sequence[int] | None = None) -> list[int]:
        n = len(hands_rm)
        hands = [rm_to_mask(h) for h in hands_rm]
        trick = [from_rm(c) for c in trick_rm]
        taken = list(taken_in)
        void = list(voids) if voids is not None else [0] * n
        gone = self.gone
        for c in trick:
            gone |= 1 << c
        p = (leader + len(trick)) % n
        if len(trick) == n:
            p = self._finish(trick, leader, trump, taken, n)
            trick, leader = [], p
        while hands[p]:
            c = self._choose(p, hands, trick, leader, trump, broken, after, taken, goals,
                             void, gone, n)
            if trick and c // 13 != trick[0] // 13:
                void[p] |= 1 << (trick[0] // 13)
            if c // 13 == trump:
                broken = True
            hands[p] &= ~(1 << c)
            gone |= 1 << c
            trick.append(c)
            if len(trick) == n:
                p = self._finish(trick, leader, trump, taken, n)
                trick, leader = [], p
            else:
                p = (p + 1) % n
        return taken

    @staticmethod
    def _finish(trick: list[int], leader: int, trump: int, taken: list[int], n: int) -> int:
        w = (leader + trick_best(trick, trump)) % n
        taken[w] += 1
        return w

    def _choose(self, p: int, hands: list[int], trick: list[int], leader: int, trump: int,
                broken: bool, after: bool, taken: list[int], goals: Sequence[int],
                void: list[int], gone: int, n: int) -> int:
        self.decisions += 1
        hand = hands[p]
        tm = SUIT_MASKS[trump]
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            legal = follow or hand
        else:
            legal = hand & ~tm if after and not broken and hand & ~tm else hand
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        best = trick[trick_best(trick, trump)] if trick else None
        need = goals[p] - taken[p]
        cards = [c for c in range(52) if legal >> c & 1]
        if need < 0:
            # over its bid already: shed the highest card that loses, else the lowest
            losers = [c for c in cards if best is not None and not beats(c, best, trump)]
            return max(losers) if losers else min(cards, key=lambda c: (c % 13, c))
        unseen = FULL & ~hand & ~gone
        needs: list[int | None] = [goals[(p + r) % n] - taken[(p + r) % n] for r in range(n)]
        trump_unseen = (tm & unseen).bit_count()
        still = [(p + i) % n for i in range(1, n - len(trick))]
        led = trick[0] // 13 if trick else -1
        chances: dict[int, float] = {}
        for c in cards:
            rest = hand & ~(1 << c)
            voids_rest = sum(1 for m in SUIT_MASKS if not rest & m)
            shared = later_shared(n, rest.bit_count(), needs, voids_rest, trump_unseen)
            probs = []
            x = rest
            while x:
                low = x & -x
                d = low.bit_length() - 1
                x ^= low
                probs.append(self.later(shared, later_own(d, trump, rest, unseen)))
            q = poisson_binomial(probs)
            if best is not None and not beats(c, best, trump):
                win = 0.0
            else:
                s = c // 13
                higher = beating_mask(c, trump) & SUIT_MASKS[s] & unseen
                trumps = 0 if s == trump else tm & unseen
                sure = True
                for o in still:
                    if (higher and not void[o] >> s & 1) or (trumps and not void[o] >> trump & 1):
                        sure = False
                        break
                if sure:
                    win = 1.0
                else:
                    lead_suit = led if led >= 0 else s
                    win = self.now(now_inputs(
                        n, len(trick), [needs[(o - p) % n] for o in still], trump_unseen,
                        lead_suit == trump, (SUIT_MASKS[lead_suit] & unseen).bit_count(),
                        s == trump, (beating_mask(c, trump) & unseen).bit_count(),
                        sum(1 for o in still if void[o] >> lead_suit & 1),
                        sum(1 for o in still if void[o] >> trump & 1), hand.bit_count()))
            hit = q[need - 1] if 0 <= need - 1 < len(q) else 0.0
            miss = q[need] if need < len(q) else 0.0
            chances[c] = win * hit + (1.0 - win) * miss
        top = max(chances.values())
        if top <= 0.0:
            # the bid cannot be made: the lowest card (a trump only when nothing else)
            return min(cards, key=lambda c: (c // 13 == trump, c % 13, c))
        return max(cards, key=lambda c: (chances[c], -(c % 13), -c))


INFERENCE_FLOOR = 0.02
"""The least a seat's chance counts for in a deal's weight: a deal the model finds
unlikely for one seat is weighed down, not thrown away."""


def learned_sampler(playout: LearnedPlayout) -> type[DealSampler]:
    """A :class:`DealSampler` whose weights come from ``playout``'s ``later`` network."""

    class LearnedSampler(DealSampler):
        def __init__(self, obs: Observation, sigma: float | None = None,
                     infer: float = 1.0) -> None:
            super().__init__(obs, sigma=sigma, infer=infer)
            self.gone = obs.played_mask() | 1 << obs.trump_card
            self.trump_suit = obs.trump_suit
            n = obs.players
            self.seat_needs = {
                p: [None if obs.bids[(p + r) % n] is None
                    else obs.bids[(p + r) % n] - obs.taken[(p + r) % n]  # type: ignore[operator]
                    for r in range(n)]
                for p, _ in self.needs}

        def weight(self, deal: list[int]) -> float:
            w = 1.0
            trump = self.trump_suit
            tm = SUIT_MASKS[trump]
            for p, need in self.needs:
                hand = rm_to_mask(deal[p])
                unseen = FULL & ~hand & ~self.gone
                shared = later_shared(self.players, hand.bit_count(), self.seat_needs[p],
                                      sum(1 for m in SUIT_MASKS if not hand & m),
                                      (tm & unseen).bit_count())
                probs = []
                x = hand
                while x:
                    low = x & -x
                    x ^= low
                    probs.append(playout.later(shared, later_own(low.bit_length() - 1, trump,
                                                                 hand, unseen)))
                q = poisson_binomial(probs)
                w *= max(q[need] if need < len(q) else 0.0, INFERENCE_FLOOR)
            for p, mask in self.facts:
                if deal[p] & mask:
                    w *= self.infer
            return w

    return LearnedSampler


class LearnedInferenceHard(HardBot):
    """``hard`` whose deal sampler weighs deals by the ``later`` network."""

    def __init__(self, playout: LearnedPlayout, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sampler = learned_sampler(playout)

    def bid_distribution(self, obs: Observation, rng: Any) -> Any:
        with swapped("DealSampler", self.sampler):
            return super().bid_distribution(obs, rng)

    def card_evaluation(self, obs: Observation, rng: Any) -> Any:
        with swapped("DealSampler", self.sampler):
            return super().card_evaluation(obs, rng)


class LearnedPlayoutHard(HardBot):
    """``hard`` whose card decisions' playouts use :class:`LearnedPlayout`."""

    def __init__(self, playout: LearnedPlayout, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.playout = playout

    def card_evaluation(self, obs: Observation, rng: Any) -> Any:
        self.playout.gone = obs.played_mask() | 1 << obs.trump_card
        with swapped("play_out", self.playout):  # hard passes stock= and voids= by name
            return super().card_evaluation(obs, rng)


def run(out: Path, games: int, first: int, players: int, play_work: int, fast: bool,
        inference: bool = False) -> None:
    playout = LearnedPlayout(load_model())
    bot: HardBot
    if inference:
        bot = LearnedInferenceHard(playout, play_work=play_work)
    elif fast:
        bot = HardBot(play_work=play_work)
    else:
        bot = LearnedPlayoutHard(playout, play_work=play_work)
    args = {"play_work": play_work, "playouts": "fast" if fast or inference else "learned",
            "inference": "learned" if inference else "default"}
    times: list[int] = []
    started = time.perf_counter()
    with out.open("w") as f:
        for i in range(first, first + games):
            game = Game(f"bench/hard-self-play/{i}", players, seats=["hard"] * players)
            seat_times: list[list[int]] = [[] for _ in range(players)]
            play_game(game, [bot] * players, seat_times)
            for st in seat_times:
                times.extend(st)
            f.write(json.dumps({
                "i": i, "heroes": list(range(players)), "scores": game.scores,
                "winners": game.winners(), "bids": [list(r.bids) for r in game.results],
                "taken": [list(r.taken) for r in game.results],
                "sizes": [r.hand_size for r in game.results],
            }, separators=(",", ":")) + "\n")
            f.flush()
            print(f"{i - first + 1}/{games} games, {time.perf_counter() - started:.0f} s, "
                  f"{playout.decisions} simulated decisions", file=sys.stderr, flush=True)
        times.sort()
        f.write(json.dumps({
            "kind": "times", "count": len(times), "p50_ms": percentile(times, 0.5) / 1e6,
            "p95_ms": percentile(times, 0.95) / 1e6, "max_ms": times[-1] / 1e6,
            "hero": "hard", "hero_args": args, "others": "", "others_args": {},
            "elapsed_s": time.perf_counter() - started}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--games", type=int, default=100)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--players", type=int, default=4)
    r.add_argument("--play-work", type=int, default=500)
    r.add_argument("--fast", action="store_true", help="the default playouts (the A side)")
    r.add_argument("--inference", action="store_true",
                   help="the default playouts, deals weighed by the learned model")
    a = parser.parse_args()
    run(a.out, a.games, a.first, a.players, a.play_work, a.fast, a.inference)


if __name__ == "__main__":
    main()
