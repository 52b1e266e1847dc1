"""Our ``hard`` bot against OpenSpiel's ISMCTS on our game, at equal time per decision.

Needs ``open_spiel`` (``pip install open_spiel``; the ``openspiel`` extra).  The games are
``python_jabberwocky`` (``jabberwocky.adapters.openspiel``) with our seeded deals: game ``i`` of a
pairing is dealt from ``f"{seed}/{pairing}/{i}"``, and the lone seat moves round the table
from game to game so no seat is favoured.  Pairings: ``hard:ismcts`` (one ``hard``
against three ISMCTS) and ``ismcts:hard`` (one ISMCTS against three ``hard``).

**Equal time per decision.**  Before each ISMCTS decision the ``hard`` bot is timed on the
very same position (the ISMCTS seat's observation; its answer is thrown away), and ISMCTS
then searches for exactly that long: simulations until the time is spent, at least two
(the first only expands the root).
ISMCTS is OpenSpiel's (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) with its random
rollout evaluator (``mcts.RandomRolloutEvaluator``: one rollout to the end of the game per
leaf), UCT constant ``--uct-c``, the information state string as the node key, and our
``resample_from_infostate`` (the unseen cards of the round dealt again, voids kept, the
future left to chance); only the loop's stopping rule is ours (a time budget instead of a
fixed number of simulations).  ``hard`` plays as in the engine (work counted in samples);
its decision times are wall clock per decision.

Figures per pairing: the lone seat's win share with a 95% interval (ties shared; parity
is 1/players), exact-bid rate and points per game for each side, decision times, and
ISMCTS's simulations per decision.

Usage: ``python bench/openspiel_ismcts.py [--games 10] [--pairings hard:ismcts,ismcts:hard]
[--players 4] [--seed bench] [--uct-c 2.0] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.adapters.openspiel import NUM_CARDS, register  # noqa: E402
from jabberwocky.bots import make_bot  # noqa: E402
from jabberwocky.core.game import BIDDING  # noqa: E402
from jabberwocky.drivers.simulate import percentile  # noqa: E402

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as exc:  # pragma: no cover - optional, like the engine bench's baseline
    print(f"skipped: this benchmark needs open_spiel (pip install open_spiel): {exc}")
    sys.exit(0)


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS, stopped by a time budget (``budget_s``) instead of a count."""

    budget_s = 0.0
    last_simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_simulations = 0
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.budget_s
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # the first only expands the root
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


@dataclass
class Side:
    """Totals for the seats of one kind in one pairing."""

    seat_games: int = 0
    points: int = 0
    exact: int = 0
    bids: int = 0
    shares: list[float] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)


def hard_action(bot: Any, state: Any, seat: int) -> tuple[int, float]:
    obs = state.jabberwocky_observation(seat)
    t0 = time.perf_counter()
    choice = bot.act(obs)
    elapsed = time.perf_counter() - t0
    return (choice + NUM_CARDS if obs.phase == BIDDING else choice), elapsed


def play(game_name: str, kinds: list[str], uct_c: float, rng_seed: int,
         sides: dict[str, Side]) -> None:
    game = pyspiel.load_game(game_name)
    rs = np.random.RandomState(rng_seed)
    hard = make_bot("hard")
    searcher = TimedISMCTS(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, 1,
                           random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])  # seeded: one outcome
            continue
        seat = state.current_player()
        if kinds[seat] == "hard":
            action, took = hard_action(hard, state, seat)
            sides["hard"].times_ms.append(took * 1e3)
        else:
            _, took = hard_action(hard, state, seat)  # the time hard needs here
            searcher.budget_s = took
            t0 = time.perf_counter()
            action = searcher.step(state)
            sides["ismcts"].times_ms.append((time.perf_counter() - t0) * 1e3)
            sides["ismcts"].simulations.append(searcher.last_simulations)
        state.apply_action(int(action))
    final = state.jabberwocky_observation(0)
    results = state.core.game.results
    scores = list(final.scores)
    best = max(scores)
    winners = [s for s, v in enumerate(scores) if v == best]
    for seat, kind in enumerate(kinds):
        side = sides[kind]
        side.seat_games += 1
        side.points += scores[seat]
        side.shares.append(1.0 / len(winners) if seat in winners else 0.0)
        for res in results:
            side.bids += 1
            side.exact += res.bids[seat] == res.taken[seat]


def figures(side: Side) -> dict[str, Any]:
    n = len(side.shares)
    mean = sum(side.shares) / n if n else 0.0
    var = sum((s - mean) ** 2 for s in side.shares) / n if n else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    times = sorted(side.times_ms)
    out: dict[str, Any] = {
        "seat_games": side.seat_games,
        "win_share": mean,
        "win_share_ci95": [max(0.0, mean - half), min(1.0, mean + half)],
        "exact_bid_rate": side.exact / side.bids if side.bids else 0.0,
        "points_per_game": side.points / side.seat_games if side.seat_games else 0.0,
        "decision_ms": {"mean": statistics.fmean(times) if times else 0.0,
                        "p50": percentile(times, 0.5), "p95": percentile(times, 0.95),
                        "count": len(times)},
    }
    if side.simulations:
        sims = sorted(side.simulations)
        out["simulations_per_decision"] = {"mean": statistics.fmean(sims),
                                           "p50": percentile(sims, 0.5),
                                           "p95": percentile(sims, 0.95), "min": sims[0]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per pairing")
    parser.add_argument("--pairings", default="hard:ismcts,ismcts:hard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    register()
    report: dict[str, Any] = {"games": args.games, "players": args.players,
                              "uct_c": args.uct_c, "pairings": {}}
    for pairing in args.pairings.split(","):
        hero, others = pairing.split(":")
        sides = {"hard": Side(), "ismcts": Side()}
        started = time.perf_counter()
        for i in range(args.games):
            kinds = [others] * args.players
            kinds[i % args.players] = hero
            name = (f"python_jabberwocky(players={args.players},"
                    f"seed={args.seed}/{pairing.replace(':', '-')}/{i})")
            play(name, kinds, args.uct_c, i, sides)
        lone = figures(sides[hero])
        report["pairings"][pairing] = {"lone": hero, "hard": figures(sides["hard"]),
                                       "ismcts": figures(sides["ismcts"]),
                                       "elapsed_s": time.perf_counter() - started}
        lo, hi = lone["win_share_ci95"]
        print(f"{pairing}: {args.games} games, one {hero} against {args.players - 1} {others}")
        print(f"  {hero} win share {lone['win_share']:.1%} [{lo:.1%}, {hi:.1%}] "
              f"(parity {1 / args.players:.1%})")
        for kind in ("hard", "ismcts"):
            f = report["pairings"][pairing][kind]
            extra = ""
            if "simulations_per_decision" in f:
                s = f["simulations_per_decision"]
                extra = f"; simulations/decision mean {s['mean']:.1f}, p50 {s['p50']:.0f}"
            print(f"  {kind:<7} exact bids {f['exact_bid_rate']:.1%}, points/game "
                  f"{f['points_per_game']:.2f}, decision ms mean {f['decision_ms']['mean']:.1f} "
                  f"p95 {f['decision_ms']['p95']:.1f}{extra}")
        print(f"  ({report['pairings'][pairing]['elapsed_s']:.0f} s)")
        sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
