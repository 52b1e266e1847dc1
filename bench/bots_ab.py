"""Paired A/B runs of bot settings: same seeds, same seats, one game record per line.

Tuning the ``hard`` bot means telling a change of a point or two of exact bids from
noise.  ``bench/bots.py`` prints a run's totals; this tool keeps every game's bids,
tricks and winners (JSON lines), so that two runs on the same games can be compared
game by game (:func:`compare`: the per-game differences give a paired 95% interval,
much tighter than the difference of two independent totals).

    python bench/bots_ab.py run --out A.jsonl --games 300 [--players 4] [--seed bench]
        [--hero hard] [--hero-args play_work=15000] [--others medium] [--others-args ...]
        [--first 0] [--deals hard-vs-3-medium] [--record games.jsonl]
    python bench/bots_ab.py compare A.jsonl B.jsonl

``--others ''`` (the default) is self-play: every seat is the hero and every seat is
measured.  Otherwise one hero seat (seat ``i % players`` in game ``i``) plays against
``players - 1`` copies of ``--others``, and only the hero seat is measured.  A level
with ``--*-args`` is built as ``HardBot(**args)`` (``hard`` only), so two settings of
``hard`` can sit at one table.  Game ``i`` is dealt from the seed
``f"{seed}/{name}/{i}"`` as in ``bench/bots.py`` (``name`` is ``hard-self-play`` or
``hard-vs-3-medium``, ``hard-vs-4-medium`` at five players...), so the figures of both
tools are on the same games.  ``--deals hard-vs-3-medium`` gives another hero (a bot of
your own, say) those very games, to compare with ``hard``'s run game by game.  Decision
times of the hero seats are written at the end (``"kind": "times"``); they are reported,
never used to decide.  ``--record`` also writes each game's whole record
(``jabberwocky-game/1``, one per line, as ``simulate --record`` does): every card of
every seat, for a look at the play or as training data (``bench/train_bots.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bots import mean_ci, parse_hard_args  # noqa: E402

from jabberwocky.bots import Bot, make_bot  # noqa: E402
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.drivers.simulate import percentile, play_game, record_line  # noqa: E402


def build(level: str, args: dict[str, Any]) -> Bot:
    """The bot of ``level``; ``hard`` with ``args`` is ``HardBot(**args)``."""
    if not args:
        return make_bot(level)
    if level != "hard":
        raise SystemExit(f"--*-args apply to 'hard' only, not {level!r}")
    from jabberwocky.bots.hard import HardBot

    return HardBot(**args)


def run_name(hero: str, others: str, players: int) -> str:
    """The seed part naming a run, as ``bench/bots.py`` spells it."""
    return f"{hero}-self-play" if not others else f"{hero}-vs-{players - 1}-{others}"


def seating(i: int, players: int, others: str, duel: bool) -> tuple[list[int], str]:
    """Game ``i``'s hero seats and the part of its seed that names the deal.

    Self-play: every seat.  One against the rest: seat ``i % players``.  A duel: games
    ``2k`` and ``2k + 1`` share one deal, the hero in the even seats of the first and
    in the odd seats of the second (with an odd table the last seat goes to the other
    side in the first game and to the hero in the second), so that both sides play
    every seat's cards once and the luck of the deal cancels out.
    """
    if duel:
        side = i % 2
        last = players - 1 if players % 2 else players
        return [p for p in range(players)
                if (p % 2 == side and p != last) or (side and p == last)], str(i // 2)
    if others:
        return [i % players], str(i)
    return list(range(players)), str(i)


def run(out: Path, games: int, first: int, players: int, seed: str, hero: str,
        hero_args: dict[str, Any], others: str, others_args: dict[str, Any],
        duel: bool = False, deals: str = "", record: Path | None = None) -> None:
    hero_bot = build(hero, hero_args)
    other_bot = build(others or hero, others_args) if others or duel else hero_bot
    name = deals or ("duel" if duel else run_name(hero, others, players))
    times: list[int] = []
    started = time.perf_counter()
    records = record.open("w") if record else None
    with out.open("w") as f:
        for i in range(first, first + games):
            heroes, deal = seating(i, players, others, duel)
            bots = [hero_bot if p in heroes else other_bot for p in range(players)]
            kinds = [hero if p in heroes else (others or hero) for p in range(players)]
            game = Game(f"{seed}/{name}/{deal}", players, seats=kinds)
            seat_times: list[list[int]] = [[] for _ in range(players)]
            play_game(game, bots, seat_times)
            for p in heroes:
                times.extend(seat_times[p])
            f.write(json.dumps({
                "i": i, "heroes": heroes, "scores": game.scores, "winners": game.winners(),
                "bids": [list(r.bids) for r in game.results],
                "taken": [list(r.taken) for r in game.results],
                "sizes": [r.hand_size for r in game.results],
            }, separators=(",", ":")) + "\n")
            f.flush()
            if records:
                records.write(record_line(game) + "\n")
                records.flush()
            done = i - first + 1
            if done % 25 == 0:
                print(f"{done}/{games} games, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
        times.sort()
        f.write(json.dumps({
            "kind": "times", "count": len(times),
            "p50_ms": percentile(times, 0.5) / 1e6, "p95_ms": percentile(times, 0.95) / 1e6,
            "max_ms": times[-1] / 1e6 if times else 0.0,
            "hero": hero, "hero_args": hero_args, "others": others, "others_args": others_args,
            "elapsed_s": time.perf_counter() - started,
        }) + "\n")


def load(path: Path) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """The games of a run by index, and its closing line (times and settings)."""
    games: dict[int, dict[str, Any]] = {}
    meta: dict[str, Any] = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.get("kind") == "times":
            meta = row
        else:
            games[row["i"]] = row
    return games, meta


def game_figures(g: dict[str, Any], seats: list[int] | None = None) -> dict[str, float]:
    """One game's figures of ``seats`` (default: the measured ones): exact bids, bids,
    over, under, win share (per seat)."""
    seats = g["heroes"] if seats is None else seats
    exact = over = under = bids = 0
    for b, t in zip(g["bids"], g["taken"], strict=True):
        for p in seats:
            bids += 1
            exact += b[p] == t[p]
            over += t[p] > b[p]
            under += t[p] < b[p]
    wins = sum(1.0 / len(g["winners"]) for p in seats if p in g["winners"])
    return {"exact": exact, "bids": bids, "over": over, "under": under,
            "win": wins / len(seats)}


def summary(games: dict[int, dict[str, Any]]) -> dict[str, float]:
    rows = [game_figures(g) for g in games.values()]
    bids = sum(r["bids"] for r in rows)
    win, half = mean_ci([r["win"] for r in rows])
    return {"games": len(rows), "exact": sum(r["exact"] for r in rows) / bids,
            "over": sum(r["over"] for r in rows) / bids,
            "under": sum(r["under"] for r in rows) / bids, "win": win, "win_half": half}


def compare(a_path: Path, b_path: Path) -> None:
    a, a_meta = load(a_path)
    b, b_meta = load(b_path)
    common = sorted(set(a) & set(b))
    for label, games, meta in (("A", a, a_meta), ("B", b, b_meta)):
        s = summary({i: games[i] for i in common})
        print(f"{label} {meta.get('hero')} {meta.get('hero_args')} vs "
              f"{meta.get('others') or 'itself'} {meta.get('others_args') or ''}")
        print(f"  {s['games']} games: exact {s['exact']:.2%} (over {s['over']:.1%}, "
              f"under {s['under']:.1%}), win share {s['win']:.1%} +- {s['win_half']:.1%}; "
              f"decisions p50 {meta.get('p50_ms', 0):.1f} p95 {meta.get('p95_ms', 0):.1f} "
              f"max {meta.get('max_ms', 0):.0f} ms")
    fa = [game_figures(a[i]) for i in common]
    fb = [game_figures(b[i]) for i in common]
    bids = [x["bids"] for x in fa]
    # Exact-bid rate difference: per-game differences of exact counts over the mean
    # bids per game (a ratio estimate, paired by game).
    per_game = sum(bids) / len(bids)
    d_exact, h_exact = mean_ci([(y["exact"] - x["exact"]) / per_game
                                for x, y in zip(fa, fb, strict=True)])
    d_win, h_win = mean_ci([y["win"] - x["win"] for x, y in zip(fa, fb, strict=True)])
    ahead = sum(y["exact"] > x["exact"] for x, y in zip(fa, fb, strict=True))
    behind = sum(y["exact"] < x["exact"] for x, y in zip(fa, fb, strict=True))
    print(f"B - A on {len(common)} paired games: exact {d_exact:+.2%} +- {h_exact:.2%}, "
          f"win share {d_win:+.1%} +- {h_win:.1%}; B ahead in {ahead} games, behind in "
          f"{behind}")


def duel_summary(path: Path) -> None:
    """Hero against the others on shared deals: exact-bid rates and the paired
    difference per deal (both games of a deal together)."""
    games, meta = load(path)
    diffs: list[float] = []
    wins: list[float] = []
    totals = [0, 0, 0, 0]
    for k in sorted({i // 2 for i in games}):
        pair = [games.get(2 * k), games.get(2 * k + 1)]
        if None in pair:
            continue
        he = hb = oe = ob = 0
        hw = ow = 0.0
        for g in pair:
            assert g is not None
            players = len(g["scores"])
            others = [p for p in range(players) if p not in g["heroes"]]
            hero, rest = game_figures(g), game_figures(g, others)
            he, hb, hw = he + hero["exact"], hb + hero["bids"], hw + hero["win"]
            oe, ob, ow = oe + rest["exact"], ob + rest["bids"], ow + rest["win"]
        totals = [totals[0] + he, totals[1] + hb, totals[2] + oe, totals[3] + ob]
        diffs.append(he / hb - oe / ob)
        wins.append((hw - ow) / 2)
    d, h = mean_ci(diffs)
    w, wh = mean_ci(wins)
    print(f"{meta.get('hero')} {meta.get('hero_args')} against "
          f"{meta.get('others') or meta.get('hero')} {meta.get('others_args') or ''}: "
          f"{len(diffs)} deals, two games each")
    print(f"  exact bids: hero {totals[0] / totals[1]:.2%}, others {totals[2] / totals[3]:.2%}; "
          f"hero - others {d:+.2%} +- {h:.2%}; win share per seat, hero - others "
          f"{w:+.1%} +- {wh:.1%}")
    print(f"  decisions (hero) p50 {meta.get('p50_ms', 0):.1f} p95 {meta.get('p95_ms', 0):.1f} "
          f"max {meta.get('max_ms', 0):.0f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play games and write one record line per game")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--games", type=int, default=100)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--players", type=int, default=4)
    r.add_argument("--seed", default="bench")
    r.add_argument("--hero", default="hard")
    r.add_argument("--hero-args", default="")
    r.add_argument("--others", default="", help="the other seats' level ('' = self-play)")
    r.add_argument("--others-args", default="")
    r.add_argument("--duel", action="store_true",
                   help="hero and others (default: the hero's level) share each deal, "
                        "swapping seats between two games")
    r.add_argument("--deals", default="",
                   help="the seed part naming the deals (default: from the levels, e.g. "
                        "hard-vs-3-medium): another bot can play hard's very games")
    r.add_argument("--record", type=Path, default=None,
                   help="also write every game's whole record here (JSON lines)")
    d = sub.add_parser("duel", help="the paired figures of a --duel run")
    d.add_argument("file", type=Path)
    c = sub.add_parser("compare", help="paired figures of two runs on the same games")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "compare":
        compare(args.a, args.b)
        return 0
    if args.cmd == "duel":
        duel_summary(args.file)
        return 0
    try:
        hero_args = parse_hard_args(args.hero_args)
        others_args = parse_hard_args(args.others_args)
    except ValueError as exc:
        ap.error(str(exc))
    if args.duel and args.games % 2:
        ap.error("a duel plays each deal twice: give an even --games")
    run(args.out, args.games, args.first, args.players, args.seed, args.hero, hero_args,
        args.others, others_args, args.duel, args.deals, args.record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
