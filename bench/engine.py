"""Engine benchmark: random full 4-player games per second, against OpenSpiel's oh_hell.

Ours: ``jabberwocky.simulate.simulate(4, N, ["random"] * 4, seed)``, the path behind
``python -m jabberwocky simulate``: 13 rounds dealt 3..9..3, four random bots.

Baseline, measured in the same run: OpenSpiel's C++ ``oh_hell`` (PyPI ``open_spiel``,
an optional ``bench`` dependency), one game per round of the same schedule
(``num_tricks_fixed = h``), driven from Python with random chance outcomes and random
legal actions.  The two are timed in alternation, several repetitions, and the medians
compared.  Target: our time / OpenSpiel's time <= 0.5.  Times are CPU seconds of this
process (``time.process_time``: both run single-threaded in it, and CPU time is far
less disturbed than wall time on a shared machine); wall times are printed too.

Also timed: the plain command ``python -m jabberwocky simulate --players 4 --games 1000
--bots random`` (wall time, interpreter start included).

Usage: ``python bench/engine.py [--games N] [--reps R] [--no-cli]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.core.rules import JABBERWOCKY_SCHEDULE  # noqa: E402
from jabberwocky.simulate import simulate  # noqa: E402

PLAYERS = 4
TARGET_RATIO = 0.5


Timing = tuple[float, float]
"""(CPU seconds, wall seconds)."""


def _clocks() -> Timing:
    return time.process_time(), time.perf_counter()


def _since(start: Timing) -> Timing:
    cpu, wall = _clocks()
    return cpu - start[0], wall - start[1]


def time_ours(games: int, seed: str) -> Timing:
    """Seconds for ``games`` random full games through ``simulate``."""
    started = _clocks()
    summary = simulate(PLAYERS, games, ["random"] * PLAYERS, seed)
    elapsed = _since(started)
    assert summary["games"] == games
    return elapsed


def openspiel_games() -> dict[int, Any] | None:
    """One loaded ``oh_hell`` game per hand size of the schedule, or None without it."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return {h: pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": h})
            for h in sorted(set(JABBERWOCKY_SCHEDULE))}


def time_openspiel(games_by_size: dict[int, Any], games: int, rng: random.Random) -> Timing:
    """Seconds for ``games`` full games (13 rounds, 3..9..3) of random OpenSpiel play."""
    choice = rng.choice
    schedule = [games_by_size[h] for h in JABBERWOCKY_SCHEDULE]
    started = _clocks()
    for _ in range(games):
        for game in schedule:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
    return _since(started)


def time_cli(games: int) -> tuple[float, int]:
    """Wall time of the plain simulate command, and its exit status."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "jabberwocky", "simulate", "--players", str(PLAYERS),
           "--games", str(games), "--bots", "random"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode:
        sys.stderr.write(proc.stderr)
    return elapsed, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per timing (default 200)")
    parser.add_argument("--reps", type=int, default=7, help="alternating repetitions (default 7)")
    parser.add_argument("--no-cli", action="store_true", help="skip the simulate command timing")
    args = parser.parse_args()
    games, reps = args.games, args.reps

    print(f"engine benchmark: {PLAYERS} players, random bots, {len(JABBERWOCKY_SCHEDULE)} "
          f"rounds ({'-'.join(map(str, JABBERWOCKY_SCHEDULE))}), {games} games x {reps} reps")
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    spiel = openspiel_games()
    if spiel is None:
        print("OpenSpiel (pip install open_spiel) is not importable: our figures only")
    rng = random.Random(20261130)
    time_ours(20, "warm-up")
    if spiel is not None:
        time_openspiel(spiel, 5, rng)

    ours: list[Timing] = []
    theirs: list[Timing] = []
    for rep in range(reps):
        ours.append(time_ours(games, f"bench-{rep}"))
        if spiel is not None:
            theirs.append(time_openspiel(spiel, games, rng))

    def report(name: str, times: list[Timing]) -> float:
        cpu = statistics.median(t[0] for t in times)
        wall = statistics.median(t[1] for t in times)
        print(f"{name}: median {cpu / games * 100:.3f} s CPU per 100 games "
              f"({games / cpu:,.0f} games/s; wall {wall / games * 100:.3f} s per 100; "
              f"reps CPU {', '.join(f'{t[0] / games * 100:.3f}' for t in times)})")
        return cpu

    ours_cpu = report("jabberwocky", ours)
    status = 0
    if spiel is not None:
        theirs_cpu = report("open_spiel oh_hell", theirs)
        ratio = ours_cpu / theirs_cpu
        per_rep = sorted(a[0] / b[0] for a, b in zip(ours, theirs, strict=True))
        wall_ratio = (statistics.median(t[1] for t in ours)
                      / statistics.median(t[1] for t in theirs))
        print(f"time ratio jabberwocky / open_spiel: {ratio:.2f} CPU (per rep "
              f"{per_rep[0]:.2f}..{per_rep[-1]:.2f}; wall {wall_ratio:.2f}); "
              f"target <= {TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
    if not args.no_cli:
        wall, code = time_cli(1000)
        print(f"`python -m jabberwocky simulate --players 4 --games 1000 --bots random`: "
              f"{wall:.2f} s wall (exit status {code})")
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main())
