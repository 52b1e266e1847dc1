"""Decision time of the ``hard`` bot in Pyodide (Node.js) and in CPython, same positions.

    python bench/bots_pyodide.py [--decisions 300] [--level hard] [--seed pyodide-bench]
                                 [--hard-args game=1.0,game_last=4]

Positions: the decisions of seat 0 in games played by four ``medium`` bots (``random``
if ``medium`` is not available), every ``k``-th one kept so that ``--decisions`` of them
spread over whole games: bids and cards in the proportion real games have.  Both
runtimes build the positions themselves from the seed (the bots are deterministic) and
print a digest of them, so the comparison is on the very same decisions; the bot's
choices are compared too (they must agree: same observation, same answer).

Order: CPython, then Pyodide under Node (``bench/bots_pyodide.mjs``: the npm ``pyodide``
package from ``node_modules``, the same runtime the browser uses, with ``src/`` mounted),
then CPython again; the machine is shared, so two CPython passes show the drift.
Times are taken per decision around ``bot.act``, both wall clock (``time.perf_counter``;
in Pyodide it reads ``performance.now``) and CPU time of the process (CPython
``time.process_time``; Node's ``process.cpuUsage()``): on a shared machine the CPU
figures show the bot's own cost, the wall figures what a player would wait.
``--hard-args`` builds ``hard`` with those ``HardBot`` arguments in both runtimes (as
``bench/bots_ab.py --hero-args`` does), so a candidate is timed before it becomes the
default.
Targets (issue 17): ``hard`` p95 <= 100 ms in CPython and <= 150 ms in Pyodide.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.bots import available_levels, make_bot  # noqa: E402
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, Game  # noqa: E402
from jabberwocky.core.observation import Observation  # noqa: E402

PLAYERS = 4
TARGET_MS = {"cpython": 100.0, "pyodide": 150.0}


def positions(count: int, seed: str) -> list[Observation]:
    """``count`` observations of seat 0 to act, spread over whole games."""
    level = "medium" if "medium" in available_levels() else "random"
    bots = [make_bot(level) for _ in range(PLAYERS)]
    stride = 3  # seat 0 acts 88 times a game: ~29 positions per game
    out: list[Observation] = []
    i = 0
    game_no = 0
    while len(out) < count:
        game = Game(f"{seed}/{game_no}", PLAYERS, seats=[level] * PLAYERS)
        game_no += 1
        while game.phase != GAME_OVER and len(out) < count:
            if game.phase not in (BIDDING, PLAYING):
                game.next_round()
                continue
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            if seat == 0:
                if i % stride == 0:
                    out.append(obs)
                i += 1
            choice = bots[seat].act(obs)
            if game.phase == BIDDING:
                game.bid(choice)
            else:
                game.play(choice)
    return out


def digest(obs_list: list[Observation]) -> str:
    """A short fingerprint of the positions (equal in both runtimes if they match)."""
    h = hashlib.sha256()
    for o in obs_list:
        h.update(repr((o.round_index, o.hand, o.bids, o.trick, o.tricks, o.step,
                       o.bot_key)).encode())
    return h.hexdigest()[:16]


def cpu_clock() -> Callable[[], float]:
    """CPU seconds of this process: ``time.process_time`` in CPython; under Node, the
    Node process's ``process.cpuUsage()`` (user + system), read through Pyodide's FFI."""
    if sys.platform != "emscripten":
        return time.process_time
    import js  # type: ignore[import-not-found]  # Pyodide only

    def node_cpu() -> float:
        u = js.process.cpuUsage()
        return float(u.user + u.system) / 1e6

    return node_cpu


def measure(count: int, seed: str, level: str = "hard", hard_args: str = "") -> dict[str, Any]:
    """Time ``level``'s decision on each position; the figures and the choices.
    ``hard_args``: ``HardBot`` arguments for level ``hard`` (``"game=1.0,endgame=3"``)."""
    obs_list = positions(count, seed)
    if hard_args:
        from bots import configure_hard, parse_hard_args

        configure_hard(parse_hard_args(hard_args))
    bot = make_bot(level)
    bot.act(obs_list[0])  # warm-up: imports, caches
    cpu = cpu_clock()
    times: list[float] = []
    cpu_times: list[float] = []
    choices: list[int] = []
    kinds: list[str] = []
    for obs in obs_list:
        c0 = cpu()
        t0 = time.perf_counter()
        choices.append(bot.act(obs))
        times.append((time.perf_counter() - t0) * 1000.0)
        cpu_times.append((cpu() - c0) * 1000.0)
        kinds.append("bid" if obs.phase == BIDDING else "card")
    return {
        "runtime": "pyodide" if sys.platform == "emscripten" else "cpython",
        "python": sys.version.split()[0],
        "level": level,
        "hard_args": hard_args,
        "positions": len(obs_list),
        "digest": digest(obs_list),
        "times_ms": times,
        "cpu_ms": cpu_times,
        "kinds": kinds,
        "choices": choices,
    }


def stats(times: list[float]) -> dict[str, float]:
    t = sorted(times)
    if not t:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}

    def q(p: float) -> float:  # nearest rank
        return t[max(0, min(len(t) - 1, math.ceil(p * len(t)) - 1))]

    return {"p50": q(0.50), "p95": q(0.95), "max": t[-1]}


def _row(name: str, r: dict[str, Any], key: str) -> str:
    all_ = stats(r[key])
    bids = stats([t for t, k in zip(r[key], r["kinds"], strict=True) if k == "bid"])
    cards = stats([t for t, k in zip(r[key], r["kinds"], strict=True) if k == "card"])
    target = TARGET_MS[r["runtime"]]
    ok = "meets" if all_["p95"] <= target else "MISSES"
    return (f"{name:<24}{all_['p50']:>8.1f}{all_['p95']:>8.1f}{all_['max']:>8.1f}"
            f"{bids['p95']:>10.1f}{cards['p95']:>10.1f}   {ok} p95 <= {target:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    import argparse
    import subprocess

    ap = argparse.ArgumentParser(description="hard-bot decision time, Pyodide vs CPython")
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--seed", default="pyodide-bench")
    ap.add_argument("--hard-args", default="",
                    help="HardBot arguments for level hard, e.g. game=1.0,game_last=4")
    args = ap.parse_args(argv)
    first = measure(args.decisions, args.seed, args.level, args.hard_args)
    proc = subprocess.run(
        ["node", str(ROOT / "bench" / "bots_pyodide.mjs"), str(args.decisions), args.seed,
         args.level, args.hard_args], cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr, file=sys.stderr)
        print("the Pyodide run failed (is node_modules/pyodide installed? run npm ci)",
              file=sys.stderr)
        return 1
    pyo = json.loads(proc.stdout.strip().splitlines()[-1])
    second = measure(args.decisions, args.seed, args.level, args.hard_args)
    print(f"{args.level} {args.hard_args or '(defaults)'} decisions on "
          f"{first['positions']} positions of seat 0 in 4-player games "
          f"(digest CPython {first['digest']}, Pyodide {pyo['digest']})")
    print(f"CPython {first['python']}, Pyodide's Python {pyo['python']}")
    print(f"{'run':<24}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}{'bid p95':>10}{'card p95':>10}")
    for key, label in (("times_ms", "wall"), ("cpu_ms", "CPU")):
        print(_row(f"CPython (before), {label}", first, key))
        print(_row(f"Pyodide (Node), {label}", pyo, key))
        print(_row(f"CPython (after), {label}", second, key))
        ratio = stats(pyo[key])["p50"] / max(1e-9, stats(first[key])["p50"])
        print(f"Pyodide / CPython p50 ratio ({label}): {ratio:.2f}")
    same = pyo["choices"] == first["choices"] == second["choices"]
    print(f"same choices in both runtimes: {'yes' if same else 'NO'}")
    return 0 if same and pyo["digest"] == first["digest"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
