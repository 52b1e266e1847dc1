"""Train the ``learned`` bot's networks (:mod:`jabberwocky.bots.model`) by self-play.

    python bench/train_bots.py --out model.json [--games 3000] [--per-gen 100]
        [--seed train] [--workers 2] [--players 3,4,5] [--hidden 40] [--now-hidden 30]
        [--lr 0.02] [--decay 0.02] [--medium-gens 1] [--medium-seats 0.5]
        [--snapshots DIR]

Generation ``g`` plays ``--per-gen`` games (game ``j`` dealt from the seed
``<seed>/train/<g>/<j>`` at ``players[j % len(players)]`` seats) with every seat the
bot of the weights so far (``medium``'s choices for the first ``--medium-gens``
generations: a cheap policy to start from), records the inputs of every card at every
decision, labels them with what happened (did the card take a trick), and then takes
one pass of plain stochastic gradient descent (cross-entropy) over them in an order
drawn from the seed.  That is the online self-play of campbellsoup37's OhHell trainer.

- Deterministic: the same arguments give the same weights, whatever ``--workers`` is
  (games are played in parallel but their examples are taken in game order).
- Resumable: after every generation the state is written to ``<out>.ckpt`` (the
  weights and the generation reached); running the same command again continues from
  it.  ``--snapshots DIR`` also keeps ``DIR/gen-<g>.json`` for a learning curve.
- Pure Python (no numpy: it is not among the locked development tools), so it runs
  wherever the tests do; the networks are small and their inputs one-hot, so a
  training example costs a few hundred float operations.

The weights are written as ``jabberwocky-model/1`` JSON (:func:`jabberwocky.bots.model.
dumps`); ``--out src/jabberwocky/bots/models/learned-1.json`` replaces the shipped ones
(then update ``MODEL_DIGEST``, measure, and bump the bots version).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.bots.learned import LearnedBot, Record  # noqa: E402
from jabberwocky.bots.model import (  # noqa: E402
    LATER_SIZE,
    NOW_SIZE,
    Model,
    Net,
    dumps,
    loads,
    sigmoid,
)
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.core.rng import Rng, seed_key  # noqa: E402
from jabberwocky.simulate import play_game  # noqa: E402

Example = tuple[int, tuple[int, ...], float]
"""``(network: 0 later / 1 now, active inputs, label)``."""


def init_net(inputs: int, units: int, rng: Rng) -> Net:
    """Small random first-layer weights (a one-hot input has about a dozen active
    groups), output weights of either sign, zero biases but a small positive one in
    the hidden layer so every unit starts alive."""
    scale = 1.0 / math.sqrt(12.0)
    w1 = [[(rng.random() * 2.0 - 1.0) * scale for _ in range(units)] for _ in range(inputs)]
    w2 = [(rng.random() * 2.0 - 1.0) / math.sqrt(units) for _ in range(units)]
    return Net(inputs, w1, [0.1] * units, w2, 0.0)


def new_model(seed: str, hidden: int, now_hidden: int) -> Model:
    rng = Rng(seed_key(seed, "train-init"))
    return Model(init_net(LATER_SIZE, hidden, rng), init_net(NOW_SIZE, now_hidden, rng),
                 {"seed": seed})


def sgd_step(net: Net, active: tuple[int, ...], label: float, lr: float) -> float:
    """One gradient step of the cross-entropy on one example; returns its loss."""
    w1, w2 = net.w1, net.w2
    units = len(net.b1)
    h = list(net.b1)
    for i in active:
        col = w1[i]
        for j in range(units):
            h[j] += col[j]
    z = net.b2
    for j in range(units):
        if h[j] > 0.0:
            z += h[j] * w2[j]
    p = sigmoid(z)
    g = p - label
    net.b2 -= lr * g
    b1 = net.b1
    for j in range(units):
        hj = h[j]
        if hj > 0.0:
            d = lr * g * w2[j]
            w2[j] -= lr * g * hj
            b1[j] -= d
            for i in active:
                w1[i][j] -= d
    p = min(max(p, 1e-12), 1.0 - 1e-12)
    return -math.log(p) if label else -math.log(1.0 - p)


def winning_cards(game: Game) -> list[set[int]]:
    """Per finished round, the cards that took a trick."""
    out = []
    n = game.players
    for r in game.results:
        out.append({t.cards[(t.winner - t.leader) % n] for t in r.tricks})
    return out


_worker_model: Model | None = None


def _init_worker(model_text: str) -> None:
    global _worker_model
    _worker_model = loads(model_text)


def play_one(task: tuple[str, int, str, int]) -> list[Example]:
    """Play one training game; its labelled examples, in decision order.

    The first ``medium_seats`` seats (counted from a seat that moves with the game's
    number) play ``medium`` and record nothing: the bot learns what its own cards do
    against other players than itself."""
    seed, players, policy, medium_seats = task
    assert _worker_model is not None
    records: list[Record] = []
    turn = int(seed.rsplit("/", 1)[-1]) % players
    others = {(turn + i) % players for i in range(medium_seats)}
    bots = [LearnedBot(_worker_model, policy="medium") if p in others else
            LearnedBot(_worker_model, policy=policy, record=records) for p in range(players)]
    game = Game(seed, players, seats=["learned"] * players)
    play_game(game, bots)
    wins = winning_cards(game)
    return [(0 if net == "later" else 1, active, 1.0 if card in wins[r] else 0.0)
            for net, r, card, active in records]


def progress(done: int, total: int, started: float, extra: str, resumed: int = 0) -> None:
    """One progress line on stderr (redrawn in place on a terminal); ``resumed`` games
    were played before this process started (the time left counts this run's pace)."""
    width = 30
    filled = width * done // max(1, total)
    elapsed = time.perf_counter() - started
    here = done - resumed
    eta = elapsed / here * (total - done) if here > 0 else 0.0
    line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
            f"{elapsed:.0f} s, eta {eta:.0f} s {extra}")
    if sys.stderr.isatty():
        print("\r" + line, end="", file=sys.stderr, flush=True)
    else:
        print(line, file=sys.stderr, flush=True)


def settings_key(args: argparse.Namespace) -> dict[str, Any]:
    """What must match for a checkpoint to be resumed."""
    return {"seed": args.seed, "per_gen": args.per_gen, "players": args.players,
            "hidden": args.hidden, "now_hidden": args.now_hidden, "lr": args.lr,
            "medium_gens": args.medium_gens, "decay": args.decay,
            "medium_seats": args.medium_seats}


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def train(args: argparse.Namespace) -> Model:
    out: Path = args.out
    ckpt = out.with_name(out.name + ".ckpt")
    out.parent.mkdir(parents=True, exist_ok=True)
    sizes = [int(x) for x in args.players.split(",")]
    gens = math.ceil(args.games / args.per_gen)
    key = settings_key(args)
    start = 0
    model = new_model(args.seed, args.hidden, args.now_hidden)
    if ckpt.exists():
        state = json.loads(ckpt.read_text())
        if state["settings"] != key:
            raise SystemExit(f"{ckpt} was made with other settings ({state['settings']}); "
                             "remove it or use the same ones")
        model = loads(state["model"])
        start = int(state["gen"])
        print(f"resuming from {ckpt}: generation {start}", file=sys.stderr)
    started = time.perf_counter()
    ctx = get_context("spawn") if args.workers > 1 else None
    for g in range(start, gens):
        policy = "medium" if g < args.medium_gens else "learned"
        tasks = [(f"{args.seed}/train/{g}/{j}", n, policy,
                  0 if policy == "medium" else round(args.medium_seats * n))
                 for j in range(args.per_gen) for n in [sizes[j % len(sizes)]]]
        text = dumps(model)
        if ctx is not None:
            with ctx.Pool(args.workers, _init_worker, (text,)) as pool:
                results = pool.map(play_one, tasks, chunksize=max(1, len(tasks) //
                                                                   (4 * args.workers)))
        else:
            _init_worker(text)
            results = [play_one(t) for t in tasks]
        examples = [e for r in results for e in r]
        rng = Rng(seed_key(f"{args.seed}/{g}", "train-order"))
        order = list(range(len(examples)))
        rng.shuffle(order)
        lr = args.lr / (1.0 + args.decay * g)
        nets = (model.later, model.now)
        loss = [0.0, 0.0]
        count = [0, 0]
        for i in order:
            net, active, label = examples[i]
            loss[net] += sgd_step(nets[net], active, label, lr)
            count[net] += 1
        model.meta = {"seed": args.seed, "games": (g + 1) * args.per_gen, "generations": g + 1,
                      "settings": key}
        text = dumps(model)
        model = loads(text)  # train on from exactly what is saved (rounded weights)
        write_atomic(ckpt, json.dumps({"settings": key, "gen": g + 1, "model": text}))
        if args.snapshots:
            args.snapshots.mkdir(parents=True, exist_ok=True)
            write_atomic(args.snapshots / f"gen-{g + 1}.json", text)
        progress((g + 1) * args.per_gen, gens * args.per_gen, started,
                 f"gen {g + 1}/{gens} ({policy}) loss later "
                 f"{loss[0] / max(1, count[0]):.4f} now {loss[1] / max(1, count[1]):.4f}",
                 start * args.per_gen)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    text = dumps(model)
    write_atomic(out, text)
    print(f"wrote {out} (sha256 {hashlib.sha256(text.encode()).hexdigest()})", file=sys.stderr)
    return model


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--per-gen", type=int, default=100)
    ap.add_argument("--seed", default="train")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--hidden", type=int, default=40)
    ap.add_argument("--now-hidden", type=int, default=30)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--decay", type=float, default=0.02,
                    help="the learning rate of generation g is lr / (1 + decay * g)")
    ap.add_argument("--medium-gens", type=int, default=1)
    ap.add_argument("--medium-seats", type=float, default=0.0,
                    help="the share of seats that play medium in the self-play games "
                         "(rounded per table; they record no examples)")
    ap.add_argument("--snapshots", type=Path, default=None)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.games < 1 or args.per_gen < 1 or args.workers < 1:
        raise SystemExit("--games, --per-gen and --workers must be at least 1")
    train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
