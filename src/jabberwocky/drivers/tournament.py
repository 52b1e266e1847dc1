"""Tournaments that scale out: many processes, many machines, one exact summary.

A run is ``games`` games, game ``i`` dealt from ``f"{seed}/{i}"`` with new bots, so a
game's result depends on its index alone, never on where or with what else it was played.

- **Workers** (``simulate --workers N``): ``N`` processes on this machine share the
  games in chunks of consecutive indices; the parent writes the records in index order
  and adds up the tallies.  Records and summary are the same, byte for byte, as with one
  process, apart from the timings (``elapsed_s`` and ``decision_ms``).
- **Shards** (``simulate --shard I/N``): this process plays the games whose index ``i``
  has ``i % N == I`` (round robin: every shard gets a like mix of early and late games,
  and the shards of a run take about as long).  ``--tally FILE`` writes the shard's
  tally: its summary in whole numbers (:data:`TALLY_FORMAT`).
- **Merge** (``merge``): tallies of shards of one run add up exactly (the counts are whole
  numbers), or record files are read, replayed through the engine and tallied; the
  merged summary equals the one-process summary on the same games, timings apart.

A game in which a bot fails (:class:`~jabberwocky.core.errors.BotError`) is counted as
failed: it is left out of the tally and of the records, listed with its error in the
tally's and the summary's ``failed`` (sorted by game index), and the run goes on.
docs/tournaments.md shows runs of 100,000 games on Slurm, Kubernetes and a CI matrix.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..bots import make_bot
from ..bots.play import play_game
from ..core.errors import BotError, DataFileError, JabberwockyError, file_error, quote_path
from ..core.game import GAME_OVER, Game
from ..core.messages import quote
from ..core.rules import JABBERWOCKY, Ruleset, is_whole
from ..formats.jsontext import read_json
from ..formats.record import FORMAT, MAX_RECORD_BYTES, loads
from .simulate import SeatStats, game_seed, new_stats, record_line, summarize, tally_game

TALLY_FORMAT = "jabberwocky-tally/1"
"""The format of a tally file (``simulate --tally``, ``merge --tally``)."""
MAX_SHARDS = 1_000_000
"""The most shards a run may be cut into (one game each for the largest run)."""
MAX_WORKERS = 256
"""The most worker processes (more is a typing slip)."""
MAX_TALLY_BYTES = 64 * 1024 * 1024
"""A tally file larger than this is refused unread (a real one is well under a megabyte)."""


class TallyError(DataFileError):
    """A tally or record file cannot be merged: unreadable, malformed, from another run,
    or overlapping another file; the message names the file and the problem."""


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` as ``(I, N)`` with ``0 <= I < N <= MAX_SHARDS``; :class:`JabberwockyError`
    (``cli.shard``) otherwise."""
    index, slash, count = text.partition("/")
    if slash and index.isdigit() and count.isdigit() and len(index) < 8 and len(count) < 8:
        i, n = int(index), int(count)
        if 0 <= i < n <= MAX_SHARDS:
            return i, n
    raise JabberwockyError("cli.shard", value=quote(text), max=MAX_SHARDS)


def shard_indices(games: int, shard: tuple[int, int]) -> range:
    """The game indices of shard ``(I, N)`` of a run of ``games`` games."""
    return range(shard[0], games, shard[1])


def _failure(index: int, seed: str, exc: JabberwockyError) -> dict[str, Any]:
    data = exc.message.to_json()
    return {"game": index, "seed": seed, "code": exc.code, "message": str(exc),
            "params": data["params"]}


@dataclass
class Batch:
    """What playing some games of a run gave: their tally, failures and record lines."""

    stats: list[SeatStats]
    completed: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    played: int = 0


def play_batch(players: int, levels: Sequence[str], seed: str, rules: Ruleset,
               indices: Iterable[int], records: bool = False) -> Batch:
    """Play the games ``indices`` of a run, each with new bots; a game whose bot fails is
    listed in ``failed`` and left out of the rest."""
    batch = Batch(new_stats(levels))
    for i in indices:
        batch.played += 1
        game = Game(game_seed(seed, i), players, rules, list(levels))
        times: list[list[int]] = [[] for _ in levels]
        try:
            bots = [make_bot(lvl) for lvl in levels]
            play_game(game, bots, times)
        except BotError as exc:
            batch.failed.append(_failure(i, game.seed, exc))
            continue
        tally_game(game, batch.stats, times)
        batch.completed += 1
        if records:
            batch.lines.append(record_line(game))
    return batch


def _play_task(task: tuple[int, tuple[str, ...], str, Ruleset, range, bool]) -> Batch:
    return play_batch(*task)


@dataclass
class Tally:
    """A run's tally, or that of some of its shards: everything its summary comes from."""

    players: int
    levels: tuple[str, ...]
    seed: str
    rules: Ruleset
    games: int
    """The run's number of games (all shards together)."""
    of: int = 1
    """How many shards the run is cut into."""
    shards: list[int] = field(default_factory=lambda: [0])
    """The shards this tally covers, sorted."""
    stats: list[SeatStats] = field(default_factory=list)
    completed: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = new_stats(self.levels)

    def add(self, batch: Batch) -> None:
        """Add a batch's games (failures kept in game order)."""
        for mine, theirs in zip(self.stats, batch.stats, strict=True):
            mine.merge(theirs)
        self.completed += batch.completed
        self.failed.extend(batch.failed)
        self.failed.sort(key=lambda f: int(f["game"]))

    @property
    def complete(self) -> bool:
        """True when every shard of the run is in."""
        return self.shards == list(range(self.of))

    def summary(self) -> dict[str, Any]:
        """The summary (:func:`~jabberwocky.drivers.simulate.summarize`), the failed games, and
        for a tally of only some shards, which ones."""
        out = summarize(self.players, self.completed, self.seed, self.rules, self.stats,
                        self.elapsed)
        out["failed"] = list(self.failed)
        if not self.complete:
            out["shards"] = {"played": list(self.shards), "of": self.of}
        return out

    def to_json(self) -> dict[str, Any]:
        """The tally file's content (:data:`TALLY_FORMAT`)."""
        return {
            "format": TALLY_FORMAT, "players": self.players, "levels": list(self.levels),
            "seed": self.seed, "rules": self.rules.to_dict(), "games": self.games,
            "of": self.of, "shards": list(self.shards), "completed": self.completed,
            "elapsed_s": self.elapsed, "failed": list(self.failed),
            "seats": [st.to_json() for st in self.stats],
        }


def _chunks(indices: range, size: int) -> Iterator[range]:
    for start in range(0, len(indices), size):
        yield indices[start:start + size]


def _context() -> Any:
    """Processes made by ``fork`` where there is one (bots registered in this process
    come along), else by ``spawn`` (then only built-in and installed bots)."""
    import multiprocessing  # here: one process (and the browser) never needs it

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def run(players: int, games: int, levels: Sequence[str], seed: str, rules: Ruleset,
        record: IO[str] | None = None, progress: Callable[[int, int], None] | None = None,
        workers: int = 1, shard: tuple[int, int] = (0, 1)) -> Tally:
    """Play shard ``shard`` of a run (all of it by default) in ``workers`` processes.

    Each level's bot is made once before anything is played, so a bot that cannot be
    made stops the run at once (:class:`~jabberwocky.core.errors.BotError`).  Record lines are
    written to ``record`` in game order; ``progress(done, total)`` is called as games end.
    """
    if len(levels) != players:
        raise ValueError(f"{len(levels)} bot levels given for {players} seats: give one per seat")
    for lvl in levels:
        make_bot(lvl)
    levels = tuple(levels)
    indices = shard_indices(games, shard)
    tally = Tally(players, levels, seed, rules, games, of=shard[1], shards=[shard[0]])
    started = time.perf_counter()
    done = 0

    def absorb(batch: Batch) -> None:
        nonlocal done
        tally.add(batch)
        if record is not None:
            for line in batch.lines:
                record.write(line + "\n")
        done += batch.played
        if progress is not None:
            progress(done, len(indices))

    want = record is not None
    if workers <= 1 or len(indices) < 2:
        for chunk in _chunks(indices, 1):
            absorb(play_batch(players, levels, seed, rules, chunk, want))
    else:
        size = max(1, min(50, len(indices) // (workers * 8)))
        tasks = ((players, levels, seed, rules, chunk, want) for chunk in _chunks(indices, size))
        with _context().Pool(min(workers, len(indices))) as pool:
            for batch in pool.imap(_play_task, tasks):
                absorb(batch)
    tally.elapsed = time.perf_counter() - started
    return tally


# -- reading and merging --------------------------------------------------------------


def _fail(path: str, code: str, **params: Any) -> TallyError:
    return TallyError(code, path=quote_path(path), **params)


def _read_text(path: str, limit: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(limit + 1)
    except OSError as exc:
        raise file_error("file.unreadable", path, exc) from None


def _whole(value: Any) -> bool:
    return is_whole(value) and value >= 0


def _counts(value: Any, pairs: bool = False) -> bool:
    if not isinstance(value, dict):
        return False
    for k, v in value.items():
        if not (isinstance(k, str) and k.isdigit() and len(k) < 16):
            return False
        if pairs:
            if not (isinstance(v, list) and len(v) == 2 and all(_whole(x) for x in v)):
                return False
        elif not _whole(v):
            return False
    return True


def _seat_ok(data: Any) -> bool:
    return (isinstance(data, dict) and isinstance(data.get("level"), str)
            and is_whole(data.get("points"))
            and _whole(data.get("exact")) and _whole(data.get("bids"))
            and _whole(data.get("max_ns")) and _counts(data.get("wins"))
            and _counts(data.get("exact_by_size"), pairs=True) and _counts(data.get("times_ns")))


def tally_from_json(data: Any, path: str = "-") -> Tally:
    """A :class:`Tally` from a tally file's JSON, every field checked
    (:class:`TallyError` naming the file and the first wrong field)."""
    if not isinstance(data, dict) or data.get("format") != TALLY_FORMAT:
        raise _fail(path, "tally.format", format=TALLY_FORMAT)

    def field_ok(name: str, ok: bool) -> None:
        if not ok:
            raise _fail(path, "tally.field", field=name)

    for name in ("players", "games", "of", "completed"):
        field_ok(name, _whole(data.get(name)))
    field_ok("seed", isinstance(data.get("seed"), str))
    levels = data.get("levels")
    field_ok("levels", isinstance(levels, list) and len(levels) == data["players"]
             and all(isinstance(lvl, str) for lvl in levels))
    shards = data.get("shards")
    field_ok("shards", isinstance(shards, list) and bool(shards)
             and all(_whole(s) and s < data["of"] for s in shards)
             and shards == sorted(set(shards)))
    elapsed = data.get("elapsed_s")
    field_ok("elapsed_s", isinstance(elapsed, (int, float)) and not isinstance(elapsed, bool))
    failed = data.get("failed")
    field_ok("failed", isinstance(failed, list) and all(
        isinstance(f, dict) and _whole(f.get("game")) for f in failed))
    seats = data.get("seats")
    field_ok("seats", isinstance(seats, list) and len(seats) == data["players"]
             and all(_seat_ok(s) for s in seats))
    try:
        rules = Ruleset.from_dict(data.get("rules"))
    except JabberwockyError as exc:
        raise _fail(path, "tally.in_file", detail=exc.message) from None
    return Tally(data["players"], tuple(data["levels"]), data["seed"], rules, data["games"],
                 of=data["of"], shards=list(data["shards"]),
                 stats=[SeatStats.from_json(s) for s in data["seats"]],
                 completed=data["completed"], failed=list(data["failed"]),
                 elapsed=float(data["elapsed_s"]))


def read_tally(path: str) -> Tally:
    """The tally file at ``path``, checked."""
    raw = _read_text(path, MAX_TALLY_BYTES)
    try:
        data = read_json(raw, error=TallyError, prefix="tally", max_size=MAX_TALLY_BYTES)
    except TallyError as exc:
        raise _fail(path, "tally.in_file", detail=exc.message) from None
    return tally_from_json(data, path)


def merge_tallies(tallies: Sequence[Tally], paths: Sequence[str] | None = None) -> Tally:
    """The tallies of shards of one run added up (exactly: the counts are whole numbers).

    Refuses (:class:`TallyError`) tallies of another run (seed, table, levels, rules,
    number of games or of shards differ) and a shard given twice.
    """
    if not tallies:
        raise TallyError("tally.nothing")
    names = list(paths) if paths is not None else [f"#{i + 1}" for i in range(len(tallies))]
    first = tallies[0]
    merged = Tally(first.players, first.levels, first.seed, first.rules, first.games,
                   of=first.of, shards=[])
    owner: dict[int, str] = {}
    for tally, name in zip(tallies, names, strict=True):
        for what, mine, theirs in (
                ("seed", merged.seed, tally.seed), ("players", merged.players, tally.players),
                ("levels", merged.levels, tally.levels), ("rules", merged.rules, tally.rules),
                ("games", merged.games, tally.games), ("of", merged.of, tally.of)):
            if mine != theirs:
                raise _fail(name, "tally.other_run", field=what, first=quote_path(names[0]))
        for s in tally.shards:
            if s in owner:
                raise _fail(name, "tally.overlap", shard=s, of=tally.of,
                            other=quote_path(owner[s]))
            owner[s] = name
        merged.add(Batch(tally.stats, tally.completed, tally.failed))
        merged.elapsed += tally.elapsed
    merged.shards = sorted(owner)
    return merged


def _game_index(seed: str) -> tuple[str, int] | None:
    run_seed, slash, index = seed.rpartition("/")
    if slash and index.isdigit() and len(index) < 10 and str(int(index)) == index:
        return run_seed, int(index)
    return None


def merge_records(paths: Sequence[str], out: IO[str] | None = None) -> Tally:
    """The tally of the games in record files (``simulate --record``), each replayed and
    checked by the engine; the games are written to ``out`` in game order (the same lines
    as one process's ``--record`` gives).

    Every game must be a finished game of one run (seed ``RUN/i``, same table, seats and
    rules) and appear once.  Records hold no decision times, and a failed game has no
    record: the tally has neither.  The files are read a line at a time (a run of 100,000
    games is a few hundred megabytes of records); only where each game is, is kept.
    """
    if not paths:
        raise TallyError("tally.nothing")
    where: dict[int, tuple[str, int, int]] = {}  # game index -> (file, offset, length)
    head: tuple[str, int, tuple[str, ...], Ruleset] | None = None
    first_path = paths[0]
    tally: Tally | None = None
    for path in paths:
        for number, offset, line in _lines(path):
            try:
                game = loads(line)
            except JabberwockyError as exc:
                raise _fail(path, "tally.in_line", line=number, detail=exc.message) from None
            found = _game_index(game.seed)
            if found is None:
                raise _fail(path, "tally.record_seed", line=number, value=quote(game.seed))
            if game.phase != GAME_OVER:
                raise _fail(path, "tally.unfinished", line=number, value=quote(game.seed))
            run_seed, index = found
            key = (run_seed, game.players, game.seats, game.rules)
            if head is None:
                head, first_path = key, path
                tally = Tally(game.players, game.seats, run_seed, game.rules, games=0)
            elif key != head:
                raise _fail(path, "tally.record_other_run", line=number,
                            first=quote_path(first_path))
            if index in where:
                raise _fail(path, "tally.duplicate_game", line=number, value=quote(game.seed),
                            other=quote_path(where[index][0]))
            where[index] = (path, offset, len(line))
            assert tally is not None
            tally_game(game, tally.stats)  # whole numbers: the order does not matter
            tally.completed += 1
    if tally is None:
        raise TallyError("tally.nothing")
    tally.games = tally.completed
    if out is not None:
        for index in sorted(where):
            path, offset, length = where[index]
            with open(path, "rb") as fh:
                fh.seek(offset)
                out.write(fh.read(length).decode("utf-8") + "\n")
    return tally


def _lines(path: str) -> Iterator[tuple[int, int, bytes]]:
    """The non-blank lines of a record file: (line number, byte offset, the line without
    its end), read a line at a time; a line longer than a record may be is cut there (the
    record reader then refuses it as too large)."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below, after the last line
    except OSError as exc:
        raise file_error("file.unreadable", path, exc) from None
    with fh:
        offset = 0
        number = 0
        while True:
            line = fh.readline(MAX_RECORD_BYTES + 2)
            if not line:
                return
            number += 1
            start = offset
            offset += len(line)
            while not line.endswith(b"\n"):  # an overlong line: skip its rest
                more = fh.readline(1 << 20)
                if not more:
                    break
                offset += len(more)
                if more.endswith(b"\n"):
                    break
            text = line.rstrip(b"\r\n")
            if text.strip():
                yield number, start, text


def merge_files(paths: Sequence[str], records_out: IO[str] | None = None) -> Tally:
    """:func:`merge_tallies` of tally files or :func:`merge_records` of record files
    (one kind per merge: a tally file is one JSON object, a record file has one game per
    line)."""
    if not paths:
        raise TallyError("tally.nothing")
    kinds = {path: _kind(path) for path in paths}
    if len(set(kinds.values())) > 1:
        raise TallyError("tally.mixed")
    if next(iter(kinds.values())) == "records":
        return merge_records(paths, records_out)
    if records_out is not None:
        raise TallyError("tally.records_from_tallies")
    return merge_tallies([read_tally(p) for p in paths], paths)


def _kind(path: str) -> str:
    """``"records"`` when the file's first line is a game record, else ``"tally"``."""
    for _number, _offset, line in _lines(path):
        try:
            first = json.loads(line)
        except ValueError:
            return "tally"  # a pretty-printed tally's "{", or not JSON: read_tally says so
        return "records" if isinstance(first, dict) and first.get("format") == FORMAT \
            else "tally"
    return "tally"


def write_tally(tally: Tally, path: str) -> None:
    """Write ``tally`` to ``path`` as JSON (:data:`TALLY_FORMAT`)."""
    text = json.dumps(tally.to_json(), separators=(",", ":")) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise file_error("file.unwritable", path, exc) from None


def simulate(
    players: int,
    games: int,
    levels: Sequence[str],
    seed: str,
    rules: Ruleset = JABBERWOCKY,
    record: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    shard: tuple[int, int] = (0, 1),
) -> dict[str, Any]:
    """Play ``games`` games of bots and return the summary (see
    :func:`~jabberwocky.drivers.simulate.summarize`).

    ``workers`` processes share the games (the records and the summary are the same as
    with one, timings apart); ``shard=(i, n)`` plays only the games whose index is ``i``
    modulo ``n`` (this module's runs).  A game in which a bot fails is left
    out of the tally and of the records and listed in the summary's ``failed``; the run
    goes on.
    """
    return run(players, games, levels, seed, rules, record=record, progress=progress,
               workers=workers, shard=shard).summary()
