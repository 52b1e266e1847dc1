"""Bots playing each other: the engine of ``python -m jabberwocky simulate``.

Game ``i`` of a run is dealt from the seed ``f"{seed}/{i}"``, so any game of a run can
be replayed alone.  Decision times are measured per decision with a monotonic
clock; they are reported, never used to decide anything.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from .bots import Bot, make_bot
from .bots.random_bot import RandomBot
from .fastplay import finish_round_randomly
from .game import BIDDING, GAME_OVER, PLAYING, Game
from .record import to_record
from .rng import round_stream
from .rules import JABBERWOCKY, Ruleset
from .stats import Tally, game_facts


@dataclass
class SeatStats:
    """Running totals for one seat over a run: the statistics' tally and decision times."""

    level: str
    tally: Tally = field(default_factory=Tally)
    times_ns: list[int] = field(default_factory=list)


def game_seed(seed: str, index: int) -> str:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return f"{seed}/{index}"


def play_game(game: Game, bots: Sequence[Bot], times: Sequence[list[int]] | None = None) -> Game:
    """Play ``game`` to the end with one bot per seat; append decision times if asked.

    A :class:`RandomBot` needs nothing but the legal moves, so it is given only those
    (the same choice as through an observation, see ``RandomBot.pick``); simulations of
    random play then cost little more than the rules themselves.
    """
    clock = time.perf_counter_ns
    fast = [isinstance(b, RandomBot) for b in bots]
    if all(fast):
        while game.phase != GAME_OVER:
            if game.phase != BIDDING and game.phase != PLAYING:
                game.next_round()
            finish_round_randomly(game, times)
        return game
    pick = RandomBot.pick
    key = game.bot_key
    stream = b""
    stream_round = -1
    while True:
        phase = game.phase
        if phase in (PLAYING, BIDDING):
            seat: int = game.to_act  # type: ignore[assignment]
            if fast[seat]:
                t0 = clock()
                if stream_round != game.round_index:
                    stream_round = game.round_index
                    stream = round_stream(key, stream_round)
                i = 2 * game.step
                u16 = stream[i] << 8 | stream[i + 1]
                if phase == PLAYING:
                    card = pick((), game.honest_mask(), u16)
                    t1 = clock()
                    game._play(card)
                else:
                    bid = pick(game.legal_bids(), 0, u16)
                    t1 = clock()
                    game._bid(bid)
            else:
                t0 = clock()
                choice = bots[seat].act(game.observation(seat))
                t1 = clock()
                if phase == PLAYING:
                    game.play(choice)
                else:
                    game.bid(choice)
            if times is not None:
                times[seat].append(t1 - t0)
        elif phase == GAME_OVER:
            return game
        else:
            game.next_round()


def percentile(sorted_values: Sequence[int], q: float) -> float:
    """The ``q``-quantile (0..1) of already sorted values, nearest rank."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return float(sorted_values[k])


def simulate(
    players: int,
    games: int,
    levels: Sequence[str],
    seed: str,
    rules: Ruleset = JABBERWOCKY,
    record: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of bots and return the summary (see :func:`summarize`)."""
    if len(levels) != players:
        raise ValueError(f"{len(levels)} bot levels given for {players} seats: give one per seat")
    bots = [make_bot(lvl) for lvl in levels]
    stats = [SeatStats(lvl, Tally(seat=seat)) for seat, lvl in enumerate(levels)]
    times: list[list[int]] = [s.times_ns for s in stats]
    started = time.perf_counter()
    for i in range(games):
        game = Game(game_seed(seed, i), players, rules, list(levels))
        play_game(game, bots, times)
        _tally(game, stats)
        if record is not None:
            record.write(json.dumps(to_record(game), separators=(",", ":")) + "\n")
        if progress is not None:
            progress(i + 1, games)
    elapsed = time.perf_counter() - started
    return summarize(players, games, seed, rules, stats, elapsed)


def _tally(game: Game, stats: list[SeatStats]) -> None:
    facts = game_facts(game)
    for st in stats:
        st.tally.add(facts)


def summarize(players: int, games: int, seed: str, rules: Ruleset, stats: list[SeatStats],
              elapsed: float) -> dict[str, Any]:
    """The run's summary: per seat points per game, exact-bid rate, win share with a 95%
    interval, decision time p50/p95/max in milliseconds."""
    seats = []
    for seat, st in enumerate(stats):
        t = sorted(st.times_ns)
        seats.append({
            "seat": seat,
            "level": st.level,
            **st.tally.core(),  # the statistics' own figures (stats.py)
            "decision_ms": {
                "p50": percentile(t, 0.50) / 1e6,
                "p95": percentile(t, 0.95) / 1e6,
                "max": (t[-1] / 1e6) if t else 0.0,
                "count": len(t),
            },
        })
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "rules": rules.to_dict(),
        "elapsed_s": elapsed,
        "seats": seats,
    }
