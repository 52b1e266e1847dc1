"""Bots playing each other: the engine of ``python -m jabberwocky simulate``.

Game ``i`` of a run is dealt from the seed ``f"{seed}/{i}"``, so any game of a run can
be replayed alone, and any set of a run's games can be played anywhere (another process,
another machine: :mod:`~jabberwocky.drivers.tournament`) with the same result.  Each game gets
new bots.  Decision times are measured per decision with a monotonic clock; they are
reported, never used to decide anything.

The summary has one source: :class:`SeatStats`, a tally of whole numbers only (points,
bids made exactly, win counts by the number of winners sharing: the statistics'
:class:`~jabberwocky.analysis.stats.SeatCounts`, which also tally the page's statistics; and
decision times counted by their value to three significant digits), so tallies of parts
of a run add up to exactly the tally of the whole run, in any order.  :func:`tally_game`
adds a finished game, :func:`tally_records` a list of game records, :func:`summarize`
turns a tally into the summary (its figures:
:meth:`~jabberwocky.analysis.stats.SeatCounts.figures`).  The games themselves are played by
:func:`~jabberwocky.bots.play.play_game` (re-exported here); a whole run,
:func:`~jabberwocky.drivers.tournament.simulate`, is the tournament module's: it imports
this one, never the other way round.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.stats import SeatCounts
from ..bots.play import play_game as play_game  # re-exported: simulate's own name
from ..core.game import GAME_OVER, Game
from ..core.rules import Ruleset


def time_bucket(ns: int) -> int:
    """A decision time in nanoseconds rounded to three significant digits (``1234567``
    is ``1230000``): finer than any figure the summary shows, and coarse enough that a
    run's times fit in a few thousand counts however many games it has."""
    if ns < 1000:
        return max(0, ns)
    scale = 10
    while ns >= 1000 * scale:
        scale *= 10
    return (ns + scale // 2) // scale * scale


@dataclass
class SeatStats(SeatCounts):
    """One seat's tally over a run: the statistics' whole-number counts
    (:class:`~jabberwocky.analysis.stats.SeatCounts`) and decision times, so tallies merge
    exactly."""

    level: str
    times: dict[int, int] = field(default_factory=dict)
    """Decision times: :func:`time_bucket` value (ns) -> count."""
    max_ns: int = 0
    """The longest decision, exactly."""

    @property
    def decisions(self) -> int:
        """How many decision times were counted."""
        return sum(self.times.values())

    def add_times(self, times_ns: Iterable[int]) -> None:
        """Count decision times given in nanoseconds."""
        counts = self.times
        for ns in times_ns:
            b = time_bucket(ns)
            counts[b] = counts.get(b, 0) + 1
            if ns > self.max_ns:
                self.max_ns = ns

    def merge(self, other: SeatStats) -> None:
        """Add ``other``'s tally (the same seat of another part of the run)."""
        self.merge_counts(other)
        for b, n in other.times.items():
            self.times[b] = self.times.get(b, 0) + n
        self.max_ns = max(self.max_ns, other.max_ns)

    def to_json(self) -> dict[str, Any]:
        """The tally as JSON (keys as text, sorted), for :meth:`from_json`."""
        return {
            "level": self.level, **self.counts_json(),
            "times_ns": {str(k): n for k, n in sorted(self.times.items())},
            "max_ns": self.max_ns,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatStats:
        """The tally :meth:`to_json` wrote (the caller checks the shape)."""
        return cls(
            level=data["level"], points=data["points"], exact=data["exact"],
            bids=data["bids"], wins={int(k): n for k, n in data["wins"].items()},
            exact_by_size={int(k): list(v) for k, v in data["exact_by_size"].items()},
            times={int(k): n for k, n in data["times_ns"].items()},
            max_ns=data["max_ns"],
        )


def new_stats(levels: Sequence[str]) -> list[SeatStats]:
    """An empty tally, one :class:`SeatStats` per seat."""
    return [SeatStats(lvl) for lvl in levels]


def game_seed(seed: str, index: int) -> str:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return f"{seed}/{index}"


def percentile(sorted_values: Sequence[int], q: float) -> float:
    """The ``q``-quantile (0..1) of already sorted values, nearest rank."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return float(sorted_values[k])


def counted_percentile(counts: Mapping[int, int], q: float) -> float:
    """The ``q``-quantile (0..1), nearest rank, of values given as ``value -> count``
    (what :func:`percentile` gives for the sorted list those counts stand for)."""
    total = sum(counts.values())
    if not total:
        return 0.0
    k = max(0, min(total - 1, math.ceil(q * total) - 1))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen > k:
            return float(value)
    raise AssertionError("unreachable: the counts add up to total")  # pragma: no cover


def tally_game(game: Game, stats: Sequence[SeatStats],
               times: Sequence[Iterable[int]] | None = None) -> None:
    """Add the finished ``game`` (and its decision times in nanoseconds, per seat) to
    ``stats`` (the counts: :meth:`~jabberwocky.analysis.stats.SeatCounts.count_game`, as the
    statistics count a game)."""
    results, scores, winners = game.results, game.scores, game.winners()
    for seat, st in enumerate(stats):
        st.count_game(results, scores, winners, seat)
        if times is not None:
            st.add_times(times[seat])


def tally_records(records: Iterable[Game], levels: Sequence[str] | None = None
                  ) -> list[SeatStats]:
    """The tally of finished games (loaded records, e.g. by
    :func:`jabberwocky.formats.record.loads`: the same figures as
    :func:`~jabberwocky.drivers.tournament.simulate` gives for them, without decision times).

    ``levels`` names the seats (default: the first game's seats).  Every game must be
    finished and have as many seats.
    """
    stats: list[SeatStats] | None = None if levels is None else new_stats(levels)
    for game in records:
        if stats is None:
            stats = new_stats(game.seats)
        if game.phase != GAME_OVER or game.players != len(stats):
            raise ValueError(f"game {game.seed!r} is not a finished game of {len(stats)} "
                             "seats: tally only finished games of one table size")
        tally_game(game, stats)
    return stats or []


def summarize(players: int, games: int, seed: str, rules: Ruleset, stats: list[SeatStats],
              elapsed: float) -> dict[str, Any]:
    """The run's summary: per seat points per game, exact-bid rate, win share with a 95%
    interval, decision time p50/p95/max in milliseconds."""
    seats = []
    for seat, st in enumerate(stats):
        seats.append({
            "seat": seat,
            "level": st.level,
            **st.figures(games),  # the statistics' own figures (stats.py)
            "decision_ms": {
                "p50": counted_percentile(st.times, 0.50) / 1e6,
                "p95": counted_percentile(st.times, 0.95) / 1e6,
                "max": st.max_ns / 1e6,
                "count": st.decisions,
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


def record_line(game: Game) -> str:
    """``game``'s record as one line of a ``.jsonl`` file (without the newline)."""
    from ..formats.record import to_record

    return json.dumps(to_record(game), separators=(",", ":"))
