"""Train a bid model from ``hard``'s own games: the chance of each card taking a trick,
given the bid its seat made.

    python bench/train_bid_model.py --records A.rec.jsonl [B.rec.jsonl ...]
        --out bids.json [--seats hard] [--epochs 4] [--hidden 40] [--lr 0.02]
        [--holdout 0.1] [--init learned-1|fresh] [--seed bids]

The ``learned`` level's ``later`` network (:mod:`jabberwocky.bots.model`) learned what
a card does when the ``learned`` policy plays it, and at bid time it sees its own seat
as "not bid yet".  ``hard`` blends that network's trick distribution into its bids
(``mix``).  This trainer keeps the network's inputs but fills the bidding seat's own
need with the bid the seat then made, and labels each card with what it did when
``hard`` (or whoever sat there) played the round out: asked for a candidate bid ``b``,
the network gives the distribution of the tricks the hand takes *when played for*
``b`` — what the playouts estimate, learned from real play instead of sampled.

The games come from records (``bench/bots_ab.py run --record``, ``simulate --record``):
each is replayed through the referee, and at every bid decision of a seat whose level
is in ``--seats`` each card of the hand becomes one example (its inputs as that seat saw
them then, its label whether it took a trick that round).  Games are split by their
index into training and held-out sets (every ``1 / holdout``-th game is held out, so
the split does not depend on the files' order); the held-out log-loss of the chance
of an exact bid is printed beside the ``learned`` network's (unconditioned) for the
same decisions.  Pure Python; deterministic from ``--seed``.

The weights are written as ``jabberwocky-model/1`` with this network as ``later`` and
``learned-1``'s ``now`` network beside it unchanged (the file format wants both).

What it showed (2026-12-05; 400 games of 4-player ``hard`` self-play under
``jabberwocky-bots/4``, ``bench/bots_ab.py run --seed trainhard --record``: 18,720 bid
decisions to train on, 2,080 held out, starting from ``learned-1``'s weights): neither
form predicts the exact bids better than ``learned-1`` as it is.  Held-out log-loss of
P(exact) for the bid made, ``learned-1`` 0.6692; conditioned on the bid, after 1-4
epochs, 0.6689, 0.6682, 0.6697, 0.6734; unconditioned (``--condition none``), 0.6834,
0.6818, 0.6828.  Every form is some 11-15 points too pessimistic about the exact bid
(mean predicted minus actual), while its mean count of tricks is within 0.1 of the
real one (``learned-1``: -0.064): a sum of independent per-card chances spreads the
tricks wider than a player who steers for its bid does, whatever the cards' chances
are.  So the network was not put into ``hard``; a model of the bid's outcome itself
(not of each card) is what would be left to try.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from train_bots import init_net, sgd_step, winning_cards  # noqa: E402

from jabberwocky.bots.knowledge import poisson_binomial  # noqa: E402
from jabberwocky.bots.learned import LearnedBot, _void_count  # noqa: E402
from jabberwocky.bots.model import (  # noqa: E402
    LATER_SIZE,
    Model,
    Net,
    dumps,
    later_own,
    later_shared,
    load_model,
)
from jabberwocky.cards import SUIT_MASKS, cards_of  # noqa: E402
from jabberwocky.core.actions import apply, fresh, game_actions  # noqa: E402
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.core.observation import Observation  # noqa: E402
from jabberwocky.core.rng import Rng, seed_key  # noqa: E402
from jabberwocky.formats.record import loads as load_record  # noqa: E402

Decision = dict[str, Any]
"""One bid decision: ``shared`` (the inputs every card shares, but the own need),
``own`` (per card: its own inputs), ``labels`` (per card: took a trick), ``bid``,
``taken`` and ``base`` (the ``learned`` network's unconditioned distribution)."""


def bid_inputs(obs: Observation, bid: int | None) -> tuple[list[int], list[list[int]]]:
    """The ``later`` inputs of every card of ``obs``'s hand at a bid, the seat's own need
    set to ``bid`` (``None``: not bid yet, as the ``learned`` level sees it)."""
    needs = LearnedBot._needs(obs)
    needs[0] = bid
    hand = obs.hand
    unseen = obs.unseen_mask()
    trump = obs.trump_suit
    shared = later_shared(obs.players, hand.bit_count(), needs, _void_count(hand),
                          (SUIT_MASKS[trump] & unseen).bit_count())
    return shared, [later_own(c, trump, hand, unseen) for c in cards_of(hand)]


def decisions_of(game: Game, seats: set[str] | None, learned: LearnedBot) -> list[Decision]:
    """Every bid decision of the chosen seats in finished ``game``, replayed."""
    wins = winning_cards(game)
    out: list[Decision] = []
    replay = fresh(game)
    for action in game_actions(game):
        if action.kind == "bid" and (seats is None or game.seats[action.seat] in seats):
            # deal the round first (apply would), then look before the bid
            while replay.round_index < action.round_index:
                replay.next_round()
            obs = replay.observation(action.seat)
            shared, own = bid_inputs(obs, action.value)
            result = game.results[action.round_index]
            out.append({
                "shared_none": bid_inputs(obs, None)[0], "shared": shared, "own": own,
                "cards": cards_of(obs.hand),
                "labels": [1.0 if c in wins[action.round_index] else 0.0
                           for c in cards_of(obs.hand)],
                "bid": action.value, "taken": result.taken[action.seat],
                "base": learned.distribution(obs), "obs": obs,
            })
        apply(replay, action)
    return out


def load_games(paths: list[Path]) -> list[Game]:
    games = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                games.append(load_record(line))
    return games


def dist_for(net: Net, d: Decision, bid: int | None) -> list[float]:
    """The conditioned network's trick distribution for decision ``d`` played for ``bid``."""
    obs = d["obs"]
    shared, own = bid_inputs(obs, bid)
    base = net.partial(shared)
    return poisson_binomial([net.prob(o, base) for o in own])


def log_loss(p: float, hit: bool) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -math.log(p if hit else 1 - p)


def evaluate(net: Net, held: list[Decision], conditioned: bool = True
             ) -> tuple[float, float, float, float, float]:
    """Mean log-loss of P(exact) for the bid made: the conditioned net, the ``learned``
    network's unconditioned distribution, the mean predicted minus actual exact rate, and
    the mean predicted minus actual tricks taken (ours, then ``learned``'s)."""
    ours = base = 0.0
    pred = 0.0
    hits = 0
    tricks = base_tricks = 0.0
    for d in held:
        hit = d["taken"] == d["bid"]
        dist = dist_for(net, d, d["bid"] if conditioned else None)
        p = dist[d["bid"]]
        tricks += sum(k * q for k, q in enumerate(dist)) - d["taken"]
        base_tricks += sum(k * q for k, q in enumerate(d["base"])) - d["taken"]
        ours += log_loss(p, hit)
        base += log_loss(d["base"][d["bid"]], hit)
        pred += p
        hits += hit
    n = max(1, len(held))
    return ours / n, base / n, (pred / n) - (hits / n), tricks / n, base_tricks / n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, nargs="+", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seats", default="hard", help="levels whose bids are learned ('' = all)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=40)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--decay", type=float, default=0.5, help="lr / (1 + decay * epoch)")
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--init", choices=("learned-1", "fresh"), default="learned-1")
    ap.add_argument("--seed", default="bids")
    ap.add_argument("--condition", choices=("bid", "none"), default="bid",
                    help="the bidding seat's own need: the bid it made, or 'not bid yet' "
                         "(the learned level's inputs: a recalibration of its network)")
    args = ap.parse_args(argv)

    shipped = load_model()
    learned = LearnedBot(shipped)
    seats = {s for s in args.seats.split(",") if s} or None
    games = load_games(args.records)
    every = max(2, round(1 / args.holdout)) if args.holdout > 0 else 0
    train: list[Decision] = []
    held: list[Decision] = []
    for i, game in enumerate(games):
        ds = decisions_of(game, seats, learned)
        (held if every and i % every == every - 1 else train).extend(ds)
    print(f"{len(games)} games: {len(train)} bid decisions to train on, {len(held)} held out",
          file=sys.stderr)

    rng = Rng(seed_key(args.seed, "bids-init"))
    net = (copy.deepcopy(shipped.later) if args.init == "learned-1"
           else init_net(LATER_SIZE, args.hidden, rng))
    key = "shared" if args.condition == "bid" else "shared_none"
    examples = [(tuple(d[key] + o), label)
                for d in train for o, label in zip(d["own"], d["labels"], strict=True)]
    cond = args.condition == "bid"
    loss, base, bias, tr, base_tr = evaluate(net, held, cond)
    print(f"before: held-out log-loss of P(exact) {loss:.4f} (learned-1 unconditioned "
          f"{base:.4f}), mean predicted - actual exact {bias:+.4f}, tricks {tr:+.3f} "
          f"(learned-1 {base_tr:+.3f})", file=sys.stderr)
    for epoch in range(args.epochs):
        order = list(range(len(examples)))
        Rng(seed_key(f"{args.seed}/{epoch}", "bids-order")).shuffle(order)
        lr = args.lr / (1.0 + args.decay * epoch)
        total = 0.0
        for i in order:
            active, label = examples[i]
            total += sgd_step(net, active, label, lr)
        loss, base, bias, tr, base_tr = evaluate(net, held, cond)
        print(f"epoch {epoch + 1}: train loss {total / max(1, len(examples)):.4f}; held-out "
              f"log-loss of P(exact) {loss:.4f} (learned-1 unconditioned {base:.4f}), "
              f"mean predicted - actual exact {bias:+.4f}, tricks {tr:+.3f} (learned-1 "
              f"{base_tr:+.3f})", file=sys.stderr)
    model = Model(net, shipped.now, {"trainer": "bench/train_bid_model.py",
                                     "records": [p.name for p in args.records],
                                     "games": len(games), "epochs": args.epochs,
                                     "init": args.init, "conditioned": "own need = bid"})
    args.out.write_text(dumps(model))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
