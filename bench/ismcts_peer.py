"""One of our levels against OpenSpiel's C++ IS-MCTS, a bot nobody here wrote.

Game ``i`` seats the level in seat ``i % players`` and a peer (:mod:`ohhell_peer`:
``pyspiel.ISMCTSBot`` searching OpenSpiel's ``oh_hell`` set up as the current round,
``--fillings`` deals of the hidden hands x ``--simulations`` simulations, UCT constant
``--uct-c``) in every other seat, and is dealt from the seed
``f"{seed}/vs-{players - 1}-ismcts/{i}"`` whatever the level: two levels run on the same
``--seed`` play the very same deals from the very same seats, so their games pair one by
one (``report A.jsonl B.jsonl``).  The game is Jabberwocky (13 rounds, 3..9..3 cards,
hook, trumps led once broken, 1 point per exact bid), refereed by our engine; the peer
sees one seat's observation, as every bot does.

    python bench/ismcts_peer.py run --level hard --games 30 --out hard.jsonl
    python bench/ismcts_peer.py run --level medium --games 30 --out medium.jsonl
    python bench/ismcts_peer.py report hard.jsonl medium.jsonl

``run`` writes one line per game as ``bench/bots_ab.py`` does (the level's seat, the
scores, the winners, every round's bids and tricks; ``bots_ab.py compare`` reads them
too) and, at the end, the decision times; a stopped run keeps the games it finished.
``report`` prints, for the level's seat: its win share (ties shared; parity is
1/players), exact-bid rate and points per game, each with a 95% interval over the games,
beside the peers' exact-bid rate and points, and the decision times of both; given two
runs, the difference of the second from the first on the games both played.

Needs ``open_spiel`` (the ``bench`` extra; ``python3 build.py test`` installs it where it
can).  A seeded run replays the same games only with address randomisation off
(``setarch -R python bench/ismcts_peer.py ...``): OpenSpiel's search breaks ties in
hash maps whose order follows memory addresses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bots import mean_ci  # noqa: E402
from bots_ab import game_figures, load  # noqa: E402
from ohhell_peer import FILLINGS, SIMULATIONS, UCT_C, ISMCTSPeer  # noqa: E402

from jabberwocky.bots import make_bot  # noqa: E402
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.drivers.simulate import percentile, play_game  # noqa: E402


def deal_seed(seed: str, players: int, i: int) -> str:
    """Game ``i``'s seed: the same for every level measured against the peers."""
    return f"{seed}/vs-{players - 1}-ismcts/{i}"


def run(out: Path, level: str, games: int, first: int, players: int, seed: str,
        fillings: int, simulations: int, uct_c: float) -> None:
    """Play games ``first .. first + games - 1``, one line per game into ``out``."""
    hero = make_bot(level)
    peer = ISMCTSPeer(fillings, simulations, uct_c)
    hero_ns: list[int] = []
    peer_ns: list[int] = []
    started = time.perf_counter()
    with out.open("w") as f:
        for i in range(first, first + games):
            seat = i % players
            kinds = ["ismcts"] * players
            kinds[seat] = level
            game = Game(deal_seed(seed, players, i), players, seats=kinds)
            times: list[list[int]] = [[] for _ in range(players)]
            play_game(game, [hero if p == seat else peer for p in range(players)], times)
            for p in range(players):
                (hero_ns if p == seat else peer_ns).extend(times[p])
            f.write(json.dumps({
                "i": i, "heroes": [seat], "scores": game.scores, "winners": game.winners(),
                "bids": [list(r.bids) for r in game.results],
                "taken": [list(r.taken) for r in game.results],
                "sizes": [r.hand_size for r in game.results],
                # each decision's milliseconds, so that a stopped run still has its times
                "hero_ms": [round(t / 1e6, 2) for t in times[seat]],
                "peer_ms": [round(t / 1e6, 2) for p in range(players) if p != seat
                            for t in times[p]],
            }, separators=(",", ":")) + "\n")
            f.flush()
            print(f"game {i}: {level} in seat {seat}, scores {game.scores}, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        f.write(json.dumps({
            "kind": "times", "hero": level, "others": "ismcts",
            "peer": {"fillings": fillings, "simulations": simulations, "uct_c": uct_c},
            "hero_ms": _times(hero_ns), "peer_ms": _times(peer_ns),
            "elapsed_s": time.perf_counter() - started,
        }) + "\n")


def _times(ns: list[int]) -> dict[str, float]:
    return _summary([t / 1e6 for t in ns])


def _summary(times_ms: list[float]) -> dict[str, float]:
    ms = sorted(times_ms)
    if not ms:
        return {"count": 0}
    return {"count": len(ms), "mean": statistics.fmean(ms), "p50": percentile(ms, 0.5),
            "p95": percentile(ms, 0.95), "max": ms[-1]}


def per_game(g: dict[str, Any]) -> dict[str, float]:
    """One game's figures for the level's seat and for the peers' seats."""
    seat = g["heroes"][0]
    peers = [p for p in range(len(g["scores"])) if p != seat]
    hero, rest = game_figures(g), game_figures(g, peers)
    return {"win": hero["win"], "exact": hero["exact"] / hero["bids"],
            "points": float(g["scores"][seat]), "peer_exact": rest["exact"] / rest["bids"],
            "peer_points": sum(g["scores"][p] for p in peers) / len(peers)}


def _line(label: str, xs: list[float], pct: bool) -> str:
    m, h = mean_ci(xs)
    return f"{label} {m:.1%} +- {h:.1%}" if pct else f"{label} {m:.2f} +- {h:.2f}"


def report(paths: list[Path]) -> None:
    """Each run's figures, and the second run's difference from the first."""
    runs = [load(p) for p in paths]
    for path, (games, meta) in zip(paths, runs, strict=True):
        rows = [per_game(g) for g in games.values()]
        if not rows:
            print(f"{path}: no games")
            continue
        n = len(next(iter(games.values()))["scores"])
        level = meta.get("hero", path.stem)
        print(f"{path}: {level} vs {n - 1} IS-MCTS, {len(rows)} games "
              f"({min(games)}-{max(games)}), peer {meta.get('peer', '(run not finished)')}")
        print("  " + _line("win share", [r["win"] for r in rows], True)
              + f" (parity {1 / n:.1%}); "
              + _line("exact bids", [r["exact"] for r in rows], True) + "; "
              + _line("points/game", [r["points"] for r in rows], False))
        print("  peers: " + _line("exact bids", [r["peer_exact"] for r in rows], True)
              + "; " + _line("points/game", [r["peer_points"] for r in rows], False))
        for who in ("hero_ms", "peer_ms"):
            t = meta.get(who)
            if all(who in g for g in games.values()):  # from the games themselves
                t = _summary([x for g in games.values() for x in g[who]])
            if t and t.get("count"):
                print(f"  {who[:-3]} decisions: {t['count']}, mean {t['mean']:.1f} ms, "
                      f"p50 {t['p50']:.1f}, p95 {t['p95']:.1f}, max {t['max']:.0f}")
    if len(runs) == 2:
        (a, _), (b, _) = runs
        common = sorted(set(a) & set(b))
        if not common:
            return
        fa = [per_game(a[i]) for i in common]
        fb = [per_game(b[i]) for i in common]
        parts = [_line(label, [y[key] - x[key] for x, y in zip(fa, fb, strict=True)], pct)
                 for key, label, pct in (("win", "win share", True),
                                         ("exact", "exact bids", True),
                                         ("points", "points/game", False))]
        print(f"{paths[1]} - {paths[0]} on {len(common)} paired games: " + "; ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    r = sub.add_parser("run", help="play games of one level against the peers")
    r.add_argument("--level", default="hard")
    r.add_argument("--games", type=int, default=30)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--players", type=int, default=4)
    r.add_argument("--seed", default="bench")
    r.add_argument("--fillings", type=int, default=FILLINGS)
    r.add_argument("--simulations", type=int, default=SIMULATIONS)
    r.add_argument("--uct-c", type=float, default=UCT_C)
    r.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("report", help="figures of one run, or of two paired runs")
    p.add_argument("runs", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command is None:  # ``python3 build.py bench`` runs every script bare
        parser.print_help()
        return
    if args.command == "run":
        try:
            import pyspiel  # noqa: F401
        except ImportError as exc:
            print(f"skipped: this benchmark needs open_spiel (pip install open_spiel): {exc}")
            return
        run(args.out, args.level, args.games, args.first, args.players, args.seed,
            args.fillings, args.simulations, args.uct_c)
        report([args.out])
    else:
        report(args.runs[:2])


if __name__ == "__main__":
    main()
