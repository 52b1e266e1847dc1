"""Tournaments that scale out: workers, shards and merges give the one-process results.

Timings (``elapsed_s``, ``decision_ms`` apart from its ``count``) are the only figures that
may differ; everything else is compared exactly, and the record files byte for byte.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jabberwocky.bots import Bot, register, unregister
from jabberwocky.core.errors import DataFileError, JabberwockyError
from jabberwocky.core.game import BIDDING, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rules import HONOUR, JABBERWOCKY
from jabberwocky.drivers.cli import main
from jabberwocky.drivers.simulate import (
    SeatStats,
    counted_percentile,
    percentile,
    play_game,
    tally_game,
    tally_records,
    time_bucket,
)
from jabberwocky.drivers.tournament import (
    Tally,
    TallyError,
    merge_files,
    merge_records,
    merge_tallies,
    parse_shard,
    read_tally,
    run,
    shard_indices,
    simulate,
    tally_from_json,
    write_tally,
)
from jabberwocky.formats.record import loads

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ["easy", "random", "medium", "random"]


def untimed(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` without its timings (decision counts kept)."""
    out = json.loads(json.dumps(summary))
    out.pop("elapsed_s")
    for seat in out["seats"]:
        seat["decision_ms"] = {"count": seat["decision_ms"]["count"]}
    return out


def records(tmp: Path, name: str, **kwargs: Any) -> tuple[dict[str, Any], str]:
    path = tmp / name
    with path.open("w", encoding="utf-8") as fh:
        summary = simulate(4, 10, LEVELS, "scale", record=fh, **kwargs)
    return summary, path.read_text("utf-8")


class Flaky(Bot):
    """Gives up at its 7th decision in about one game in three: failures to carry."""

    level = "flaky"

    def __init__(self) -> None:
        self.asked = 0

    def act(self, obs: Observation) -> int:
        self.asked += 1
        if self.asked == 7 and obs.bot_key % 3 == 1:
            raise RuntimeError("gave up")
        return obs.legal_bids[-1] if obs.phase == BIDDING else obs.honest_cards()[0]


@pytest.fixture
def flaky() -> Any:
    register("flaky", Flaky)
    yield
    unregister("flaky")


# -- the tally ------------------------------------------------------------------------


def test_time_buckets_keep_three_significant_digits() -> None:
    assert [time_bucket(ns) for ns in (0, 999, 1000, 1234, 1235, 56_347_000, 999_600)] == \
        [0, 999, 1000, 1230, 1240, 56_300_000, 1_000_000]
    for ns in (1, 17, 1_234, 98_765, 5_555_555, 123_456_789_012):
        assert abs(time_bucket(ns) - ns) <= ns * 0.005 + 0.5


def test_counted_percentiles_match_the_sorted_list() -> None:
    values = [5, 1, 1, 3, 9, 9, 9, 2, 7, 1000]
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    for q in (0.0, 0.1, 0.5, 0.95, 1.0):
        assert counted_percentile(counts, q) == percentile(sorted(values), q)
    assert counted_percentile({}, 0.5) == 0.0


def test_tallies_of_parts_add_up_to_the_tally_of_the_whole() -> None:
    games = []
    for i in range(6):
        g = Game(f"parts/{i}", 4, HONOUR, LEVELS)
        games.append(play_game(g, [make(lvl) for lvl in LEVELS]))
    whole = tally_records(games)
    parts = [tally_records(games[:2], LEVELS), tally_records(games[2:], LEVELS)]
    merged = [SeatStats(lvl) for lvl in LEVELS]
    for part in reversed(parts):  # in any order
        for mine, theirs in zip(merged, part, strict=True):
            mine.merge(theirs)
    assert merged == whole


def make(level: str) -> Bot:
    from jabberwocky.bots import make_bot

    return make_bot(level)


def test_tally_records_refuses_an_unfinished_game() -> None:
    with pytest.raises(ValueError, match="not a finished game"):
        tally_records([Game("unfinished", 4)])


def test_win_shares_count_ties_exactly() -> None:
    stats = [SeatStats("a"), SeatStats("b"), SeatStats("c")]
    g = play_game(Game("ties", 3, JABBERWOCKY, ["random"] * 3), [make("random")] * 3)
    g.scores = [5, 5, 1]  # a shared win
    tally_game(g, stats)
    assert stats[0].wins == {2: 1} and stats[1].win_share == 0.5 and stats[2].wins == {}
    assert stats[0].wins_sq == 0.25


# -- workers --------------------------------------------------------------------------


@pytest.mark.needs_subprocess
@pytest.mark.parametrize("workers", [2, 3])
def test_workers_give_the_one_process_records_and_summary(tmp_path: Path, workers: int) -> None:
    one, one_records = records(tmp_path, "one.jsonl")
    many, many_records = records(tmp_path, f"w{workers}.jsonl", workers=workers)
    assert many_records == one_records
    assert json.dumps(untimed(many)) == json.dumps(untimed(one))


@pytest.mark.needs_subprocess
def test_workers_carry_registered_bots_and_their_failures(flaky: Any) -> None:
    levels = ["flaky", "random", "easy", "random"]
    one = simulate(4, 12, levels, "flaky-workers")
    two = simulate(4, 12, levels, "flaky-workers", workers=2)
    assert one["failed"], "some games fail"
    assert json.dumps(untimed(two)) == json.dumps(untimed(one))


# -- shards and merges ----------------------------------------------------------------


def test_shards_split_the_games_round_robin() -> None:
    assert list(shard_indices(10, (1, 3))) == [1, 4, 7]
    assert sorted(i for s in range(4) for i in shard_indices(10, (s, 4))) == list(range(10))
    assert parse_shard("0/1") == (0, 1) and parse_shard("3/4") == (3, 4)
    for bad in ("4/4", "1", "-1/3", "a/b", "1/0", "1/2/3", " 1/2", "1/99999999"):
        with pytest.raises(JabberwockyError, match="--shard must be I/N"):
            parse_shard(bad)


def _shard_tallies(tmp: Path, n: int, levels: list[str], seed: str, games: int = 10
                   ) -> tuple[list[str], list[str]]:
    tallies, recs = [], []
    for i in range(n):
        rec = tmp / f"{seed}-{i}.jsonl"
        with rec.open("w", encoding="utf-8") as fh:
            tally = run(4, games, levels, seed, JABBERWOCKY, record=fh, shard=(i, n))
        path = tmp / f"{seed}-{i}.tally.json"
        write_tally(tally, str(path))
        tallies.append(str(path))
        recs.append(str(rec))
    return tallies, recs


def test_merged_shard_tallies_equal_the_one_process_summary(tmp_path: Path, flaky: Any) -> None:
    levels = ["flaky", "random", "easy", "random"]
    whole = simulate(4, 10, levels, "shards")
    assert whole["failed"]
    tallies, _ = _shard_tallies(tmp_path, 3, levels, "shards")
    merged = merge_files(list(reversed(tallies))).summary()
    assert json.dumps(untimed(merged)) == json.dumps(untimed(whole))
    # the merged tally merges again, and a part of the shards says which ones
    partial = merge_files(tallies[:2])
    assert partial.summary()["shards"] == {"played": [0, 1], "of": 3}
    write_tally(partial, str(tmp_path / "part.json"))
    again = merge_files([str(tmp_path / "part.json"), tallies[2]]).summary()
    assert json.dumps(untimed(again)) == json.dumps(untimed(whole))


def test_merged_record_files_equal_the_one_process_records_and_summary(tmp_path: Path) -> None:
    whole_records = tmp_path / "whole.jsonl"
    with whole_records.open("w", encoding="utf-8") as fh:
        whole = simulate(4, 10, LEVELS, "recs", record=fh)
    _, recs = _shard_tallies(tmp_path, 4, LEVELS, "recs")
    out = io.StringIO()
    merged = merge_records(list(reversed(recs)), out).summary()
    assert out.getvalue() == whole_records.read_text("utf-8")
    expected = untimed(whole)
    got = untimed(merged)
    for seat in expected["seats"]:
        seat["decision_ms"] = {"count": 0}  # records hold no decision times
    assert json.dumps(got) == json.dumps(expected)


def test_merge_refuses_what_does_not_add_up(tmp_path: Path) -> None:
    tallies, recs = _shard_tallies(tmp_path, 2, LEVELS, "refuse", games=4)
    other, _ = _shard_tallies(tmp_path, 2, LEVELS, "other-seed", games=4)
    with pytest.raises(TallyError, match=r"holds shard 0 of 2, which .* holds already"):
        merge_files([tallies[0], tallies[0]])
    with pytest.raises(TallyError, match=r"is from another run than .*: its seed differs"):
        merge_files([tallies[0], other[1]])
    with pytest.raises(TallyError, match="not both at once"):
        merge_files([tallies[0], recs[1]])
    with pytest.raises(TallyError, match=r"the game 'refuse/0' is in .* already"):
        merge_files([recs[0], recs[0]])
    with pytest.raises(TallyError, match="this game is from another run"):
        merge_files([recs[0], str(tmp_path / "other-seed-1.jsonl")])
    with pytest.raises(TallyError, match="--record needs record files"):
        merge_files(tallies, io.StringIO())
    with pytest.raises(DataFileError, match="cannot read"):
        merge_files([str(tmp_path / "missing.json")])
    bad = tmp_path / "bad.json"
    for text, pattern in [
        ("{not json", "bad.json': the tally is not valid JSON"),
        ('{"format": "jabberwocky-tally/2"}', "is not a tally file"),
        (json.dumps({**json.loads(Path(tallies[0]).read_text()), "completed": -1}),
         "the tally's completed is missing or malformed"),
        (json.dumps({**json.loads(Path(tallies[0]).read_text()), "shards": [5]}),
         "the tally's shards is missing or malformed"),
        (json.dumps({**json.loads(Path(tallies[0]).read_text()), "rules": {"hook": 3}}),
         "hook must be true or false"),
    ]:
        bad.write_text(text, "utf-8")
        with pytest.raises(TallyError, match=pattern):
            read_tally(str(bad))
    unfinished = tmp_path / "unfinished.jsonl"
    from jabberwocky.formats.record import dumps

    unfinished.write_text(dumps(Game("refuse/9", 4, JABBERWOCKY, LEVELS)) + "\n", "utf-8")
    with pytest.raises(TallyError, match="line 1: the game 'refuse/9' is not finished"):
        merge_files([str(unfinished)])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(Path(recs[0]).read_text("utf-8").replace('"scores":[', '"scores":[9', 1),
                      "utf-8")
    with pytest.raises(TallyError, match=r"broken.jsonl', line 1: the record lists scores"):
        merge_files([str(broken)])


def test_a_tally_survives_its_file(tmp_path: Path) -> None:
    tally = run(4, 6, LEVELS, "file", HONOUR)
    write_tally(tally, str(tmp_path / "t.json"))
    back = read_tally(str(tmp_path / "t.json"))
    assert back.to_json() == tally.to_json()
    assert tally_from_json(tally.to_json()).summary() == tally.summary()
    assert isinstance(merge_tallies([back]), Tally)


# -- the command line -----------------------------------------------------------------


def run_main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def test_cli_shards_and_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, whole = run_main("simulate", "--games", "9", "--bots", ",".join(LEVELS), "--seed",
                             "cli", "--json", "--quiet", "--record", str(tmp_path / "all.jsonl"))
    assert status == 0
    for i in range(3):
        status, _ = run_main("simulate", "--games", "9", "--bots", ",".join(LEVELS), "--seed",
                             "cli", "--shard", f"{i}/3", "--tally", str(tmp_path / f"{i}.json"),
                             "--record", str(tmp_path / f"{i}.jsonl"), "--quiet")
        assert status == 0
    status, merged = run_main("merge", *(str(tmp_path / f"{i}.json") for i in range(3)),
                              "--json")
    assert status == 0
    assert json.dumps(untimed(json.loads(merged))) == json.dumps(untimed(json.loads(whole)))
    status, _ = run_main("merge", *(str(tmp_path / f"{i}.jsonl") for i in range(3)),
                         "--record", str(tmp_path / "merged.jsonl"))
    assert status == 0
    assert (tmp_path / "merged.jsonl").read_bytes() == (tmp_path / "all.jsonl").read_bytes()
    status, table = run_main("merge", str(tmp_path / "0.json"), str(tmp_path / "2.json"))
    assert status == 0 and table.startswith("6 games, 4 players, seed 'cli'")
    assert "note: 1 shard of 3 is missing: 1" in capsys.readouterr().err
    status, _ = run_main("merge", str(tmp_path / "0.json"), str(tmp_path / "0.json"))
    assert status == 1
    assert "holds shard 0 of 3" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["--workers", "0"], "--workers must be a whole number from 1 to 256, not '0'"),
    (["--workers", "lots"], "--workers must be a whole number from 1 to 256"),
    (["--shard", "3/3"], "--shard must be I/N"),
])
def test_cli_refuses_bad_scale_options(argv: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.needs_subprocess
def test_cli_workers_write_the_same_records(tmp_path: Path) -> None:
    def sim(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "jabberwocky", "simulate", "--games", "8", "--bots",
             "medium,easy,random,easy", "--seed", "w", "--json", *extra],
            capture_output=True, text=True, check=False, timeout=300,
            env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})

    one = sim("--record", str(tmp_path / "1.jsonl"))
    two = sim("--record", str(tmp_path / "2.jsonl"), "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    assert (tmp_path / "1.jsonl").read_bytes() == (tmp_path / "2.jsonl").read_bytes()
    assert untimed(json.loads(one.stdout)) == untimed(json.loads(two.stdout))
    assert all(loads(line).seed.startswith("w/")
               for line in (tmp_path / "2.jsonl").read_text("utf-8").splitlines())
