"""Statistics of finished games (``jabberwocky.analysis.stats``) and the facade's ``stats`` request.

The decisive test: 200 games written by ``simulate --record`` and tallied through the
facade give, for every seat, exactly ``simulate``'s own summary of those games; so do
the facts the facade answers with, tallied again as the page tallies its store.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from jabberwocky.analysis.stats import (
    Comparison,
    GameFacts,
    RoundFacts,
    SeatCounts,
    StatsError,
    Tally,
    compare_with_bot,
    facts_from_json,
    facts_to_json,
    game_facts,
    summarize_games,
)
from jabberwocky.bots import make_bot
from jabberwocky.core.game import Game
from jabberwocky.core.rules import JABBERWOCKY, Ruleset
from jabberwocky.drivers.cli import main as cli_main
from jabberwocky.drivers.simulate import SeatStats, play_game, tally_records
from jabberwocky.drivers.tournament import simulate
from jabberwocky.formats.record import dumps, loads
from jabberwocky.webapi import MAX_STATS_GAMES, WebApi

SIMULATE_FIELDS = ("points_per_game", "exact_bid_rate", "exact_by_hand_size", "win_share",
                   "win_share_ci95")
LEVELS = "random,easy,random,easy"


def stats(api: WebApi, payload: Any) -> dict[str, Any]:
    reply = json.loads(api.handle("stats", json.dumps(payload)))
    assert "error" not in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def stats_error(api: WebApi, payload: Any) -> dict[str, Any]:
    reply = json.loads(api.handle("stats", json.dumps(payload)))
    assert "result" not in reply, reply
    err: dict[str, Any] = reply["error"]
    assert set(err) == {"kind", "message", "code", "params"}
    return err


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[str]]:
    """200 games of ``simulate --record`` through the command line: summary and records."""
    path: Path = tmp_path_factory.mktemp("sim") / "games.jsonl"
    out = io.StringIO()
    status = cli_main(["simulate", "--players", "4", "--games", "200", "--bots", LEVELS,
                       "--seed", "stats", "--record", str(path), "--json", "--quiet"], out=out)
    assert status == 0
    return json.loads(out.getvalue()), path.read_text("utf-8").splitlines()


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_200_simulated_games_through_the_facade_equal_simulates_summary(
        run: tuple[dict[str, Any], list[str]], seat: int) -> None:
    summary, lines = run
    assert len(lines) == 200
    api = WebApi()
    answer = stats(api, {"records": lines, "seat": seat})
    assert answer["refused"] == []
    mine = answer["summary"]
    theirs = summary["seats"][seat]
    assert mine["games"] == 200
    for key in SIMULATE_FIELDS:
        assert mine[key] == theirs[key], key  # equal, not approximately: the same code
    # the page keeps the facts and tallies them again without replaying the records
    facts = [g["facts"] for g in answer["games"]]
    again = stats(api, {"facts": facts, "seat": seat})
    assert again["refused"] == [] and again["games"] == []
    assert again["summary"] == mine


def test_the_statistics_count_as_simulates_mergeable_tally(
        run: tuple[dict[str, Any], list[str]]) -> None:
    # one source: the statistics' Tally and simulate's SeatStats are the same whole-number
    # counts (wins by how many shared them), which merge exactly in any split
    _, lines = run
    games = [loads(line) for line in lines]
    seats = tally_records(games)
    for seat, st in enumerate(seats):
        tally = Tally(seat=seat)
        halves = [Tally(seat=seat), Tally(seat=seat)]
        for i, game in enumerate(games):
            tally.add(game_facts(game))
            halves[i % 2].add(game_facts(game))
        assert tally.counts_json() == st.counts_json()
        assert all(type(k) is int and type(n) is int for k, n in tally.wins.items())
        merged = SeatCounts()
        for half in reversed(halves):
            merged.merge_counts(half)
        assert merged.counts_json() == tally.counts_json()
        assert merged.figures(200) == tally.core()
        assert isinstance(st, SeatStats) and isinstance(st, SeatCounts)


def test_the_summary_counts_add_up(run: tuple[dict[str, Any], list[str]]) -> None:
    _, lines = run
    s = stats(WebApi(), {"records": lines[:50], "recent": 10})["summary"]
    assert s["bids"] == 50 * 13
    for part in ("by_hand_size", "by_bid", "by_position"):
        assert sum(v["bids"] for v in s[part].values()) == s["bids"], part
        assert sum(v["exact"] for v in s[part].values()) == s["exact"], part
    assert s["zero_bids"]["bids"] + s["other_bids"]["bids"] == s["bids"]
    assert s["zero_bids"] == s["by_bid"]["0"]
    assert s["as_dealer"] == s["by_position"]["4"] == s["hook_dealer"]  # the hook rule holds
    assert s["wins_by_level"].keys() == {"mixed"}
    assert s["wins_by_players"]["4"]["games"] == 50
    assert s["wins_by_players"]["4"]["wins"] == pytest.approx(s["wins"])
    recent = s["recent"]
    assert recent["games"] == 10 and [g["index"] for g in recent["per_game"]] == list(range(40, 50))
    assert recent["bids"] == 130 and recent["exact"] == sum(g["exact"] for g in recent["per_game"])
    assert s["streaks"]["exact_bids"]["longest"] >= s["streaks"]["exact_bids"]["current"]
    best = s["best_game"]
    assert best["seed"] == f"stats/{best['index']}"
    assert best["points"] == max(loads(line).scores[0] for line in lines[:50])
    assert s["compared"] is None


def test_ids_are_the_digest_of_the_canonical_record(run: tuple[dict[str, Any], list[str]]) -> None:
    _, lines = run
    spaced = json.dumps(json.loads(lines[0]), indent=2)
    answer = stats(WebApi(), {"records": [lines[0], spaced, lines[1]]})
    ids = [g["id"] for g in answer["games"]]
    assert ids[0] == ids[1] != ids[2] and len(ids[0]) == 64


def round_facts(size: int, dealer: int, bids: list[int], taken: list[int]) -> RoundFacts:
    points = tuple(1 if b == t else 0 for b, t in zip(bids, taken, strict=True))
    return RoundFacts(size, dealer, tuple(bids), tuple(taken), points)


def test_a_tally_worked_by_hand() -> None:
    # three players; seat 0 bids first in round 1 (dealer 2), is the dealer in round 2
    g1 = GameFacts(3, ("human", "easy", "easy"), True, (2, 1, 2), (0, 2), [
        round_facts(1, 2, [0, 0, 0], [0, 1, 0]),
        round_facts(2, 0, [2, 0, 1], [2, 0, 0]),
    ], "one")
    g2 = GameFacts(3, ("human", "easy", "hard"), False, (0, 1, 2), (2,), [
        round_facts(1, 0, [1, 0, 1], [0, 0, 1]),
        round_facts(2, 1, [0, 1, 1], [1, 1, 0]),
    ], "two")
    s = summarize_games([g1, g2, g1], seat=0, recent=2)
    assert s["games"] == 3 and s["points"] == 4 and s["bids"] == 6 and s["exact"] == 4
    assert s["win_share"] == pytest.approx(1 / 3)  # two shared wins: half each
    assert s["wins_by_level"] == {"easy": {"games": 2, "wins": 1.0, "share": 0.5},
                                  "mixed": {"games": 1, "wins": 0.0, "share": 0.0}}
    assert s["by_bid"]["0"] == {"exact": 2, "bids": 3, "rate": 2 / 3}
    assert s["by_bid"]["2"]["exact"] == 2 and s["by_bid"]["1"]["exact"] == 0
    assert s["by_position"]["1"] == {"exact": 2, "bids": 2, "rate": 1.0}
    assert s["as_dealer"]["bids"] == 3 and s["as_dealer"]["exact"] == 2
    assert s["hook_dealer"] == {"exact": 2, "bids": 2, "rate": 1.0}  # game 2 has no hook
    assert s["by_hand_size"]["1"]["exact"] == 2 and s["by_hand_size"]["2"]["exact"] == 2
    assert s["streaks"]["wins"] == {"longest": 1, "current": 1}
    assert s["streaks"]["exact_bids"] == {"longest": 2, "current": 2}
    assert s["best_game"] == {"index": 0, "seed": "one", "points": 2, "place": 1,
                              "players": 3, "won": True}
    assert [g["index"] for g in s["recent"]["per_game"]] == [1, 2]
    assert s["recent"]["rate"] == 2 / 4


def test_facts_survive_their_json_form() -> None:
    game = play_game(Game("facts", 5, JABBERWOCKY, ["random"] * 5), [make_bot("random")] * 5)
    facts = game_facts(game, Comparison("hard", 0, 7, 13, 7))
    data = json.loads(json.dumps(facts_to_json(facts)))
    back = facts_from_json(data)
    assert facts_to_json(back) == data
    for seat in range(5):
        assert summarize_games([back], seat) == summarize_games([facts], seat)


def test_an_unfinished_game_is_not_tallied() -> None:
    game = Game("unfinished", 4)
    with pytest.raises(StatsError) as info:
        game_facts(game)
    assert info.value.code == "request.stats_unfinished"
    answer = stats(WebApi(), {"records": [dumps(game)]})
    assert answer["games"] == [None] and answer["summary"]["games"] == 0
    assert answer["refused"][0]["error"]["code"] == "request.stats_unfinished"


def good_facts() -> dict[str, Any]:
    game = play_game(Game("good", 3, JABBERWOCKY, ["random"] * 3), [make_bot("random")] * 3)
    return facts_to_json(game_facts(game))


def tampered() -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []

    def case(field: str, change: Any) -> None:
        data = good_facts()
        change(data)
        cases.append((field, data))

    case("players", lambda d: d.update(players=True))
    case("seats", lambda d: d.update(seats=["human", "wizard", "easy"]))
    case("seats", lambda d: d["seats"].pop())
    case("hook", lambda d: d.update(hook=1))
    case("seed", lambda d: d.update(seed="a\tb"))
    case("rounds", lambda d: d.update(rounds=[]))
    case("rounds", lambda d: d.update(rounds=d["rounds"] * 3))
    case("rounds", lambda d: d["rounds"][0].append(0))
    case("hand_size", lambda d: d["rounds"][0].__setitem__(0, 11))
    case("dealer", lambda d: d["rounds"][0].__setitem__(1, 3))
    case("bids", lambda d: d["rounds"][0].__setitem__(2, [1, 1, 99]))
    case("bids", lambda d: d["rounds"][0].__setitem__(2, [1.0, 1, 1]))
    case("taken", lambda d: d["rounds"][0].__setitem__(3, [3, 3, 3]))
    case("points", lambda d: d["rounds"][0].__setitem__(4, [10**9, 0, 0]))
    case("scores", lambda d: d["scores"].__setitem__(0, d["scores"][0] + 1))
    case("winners", lambda d: d.update(winners=[]))
    case("compared", lambda d: d.update(compared={"level": "hard", "seat": 0, "exact": 14,
                                                  "bids": 13, "points": 1}))
    case("compared", lambda d: d.update(compared="hard"))
    return cases


@pytest.mark.parametrize(("field", "data"), tampered())
def test_tampered_facts_are_refused_alone_naming_the_field(field: str,
                                                           data: dict[str, Any]) -> None:
    good = good_facts()
    answer = stats(WebApi(), {"facts": [good, data, good, "x"]})
    assert answer["summary"]["games"] == 2  # the good ones still count
    refused = answer["refused"]
    assert [r["index"] for r in refused] == [1, 3] and refused[0]["source"] == "facts"
    assert refused[0]["error"]["code"] == "request.stats_facts"
    assert refused[0]["error"]["params"] == {"field": field}
    assert refused[1]["error"]["params"] == {"field": "facts"}
    assert "damaged" in refused[0]["error"]["message"]


def test_bad_records_are_refused_alone_with_the_record_problem(
        run: tuple[dict[str, Any], list[str]]) -> None:
    _, lines = run
    broken = lines[0].replace('"seed":"stats/0"', '"seed":"stats/1"')
    answer = stats(WebApi(), {"records": [lines[0], broken, 7, "{"]})
    assert answer["summary"]["games"] == 1
    assert answer["games"][1:] == [None, None, None]
    codes = [r["error"]["code"] for r in answer["refused"]]
    assert codes[1:] == ["request.record_not_text", "record.not_json"]
    assert codes[0].startswith("record.")


@pytest.mark.parametrize(("payload", "code"), [
    ({"seat": 5}, "request.stats_seat"),
    ({"seat": True}, "request.stats_seat"),
    ({"seat": "0"}, "request.stats_seat"),
    ({"recent": 0}, "request.stats_recent"),
    ({"recent": 10**40}, "request.stats_recent"),
    ({"compare": "yes"}, "request.stats_compare"),
    ({"records": "one"}, "request.stats_not_list"),
    ({"facts": {}}, "request.stats_not_list"),
    ({"facts": [None] * (MAX_STATS_GAMES + 1)}, "request.stats_too_many"),
])
def test_malformed_requests_are_refused_whole(payload: dict[str, Any], code: str) -> None:
    err = stats_error(WebApi(), payload)
    assert err["kind"] == "RequestError" and err["code"] == code
    assert len(err["message"]) < 200


def test_a_seat_the_game_does_not_have() -> None:
    data = good_facts()  # three players
    answer = stats(WebApi(), {"facts": [data], "seat": 3})
    assert answer["refused"][0]["error"]["code"] == "request.stats_seat_absent"


def test_an_empty_request_is_an_empty_summary() -> None:
    s = stats(WebApi(), {})["summary"]
    assert s["games"] == 0 and s["best_game"] is None and s["exact_bid_rate"] == 0.0


def test_the_stats_request_changes_nothing_at_the_table() -> None:
    api = WebApi()
    view = json.loads(api.handle("new_game", '{"seed": "table", "players": 3, "bots": "random"}'))
    stats(api, {"facts": [good_facts()]})
    assert json.loads(api.handle("state", "{}")) == view


SHORT = Ruleset(schedule=(2, 3), name="short")


def test_the_hard_bot_on_the_same_deals() -> None:
    out = io.StringIO()
    simulate(3, 2, ["easy", "random", "easy"], "compare", SHORT, record=out)
    lines = out.getvalue().splitlines()
    answer = stats(WebApi(), {"records": lines, "compare": True})
    compared = answer["summary"]["compared"]
    assert compared["level"] == "hard" and compared["games"] == 2
    # the same as playing the deals again by hand, seat 0 hard, the others as recorded
    exact = bids = points = 0
    for line in lines:
        game = loads(line)
        again = play_game(Game(game.seed, 3, SHORT, ["hard", "random", "easy"]),
                          [make_bot(k) for k in ("hard", "random", "easy")])
        exact += sum(r.bids[0] == r.taken[0] for r in again.results)
        bids += len(again.results)
        points += again.scores[0]
    assert compared["bot_exact_bid_rate"] == exact / bids
    assert compared["bot_points_per_game"] == points / 2
    stored = answer["games"][0]["facts"]["compared"]
    assert stored["level"] == "hard" and stored["seat"] == 0 and stored["bids"] == 2
    # kept with the facts: tallied again without playing anything
    again_answer = stats(WebApi(), {"facts": [g["facts"] for g in answer["games"]]})
    assert again_answer["summary"]["compared"] == compared


def test_no_comparison_when_another_seat_is_a_person() -> None:
    game = Game("people", 3, SHORT, ["human", "human", "random"])
    assert compare_with_bot(game, 0) is None


def test_simulate_keeps_the_tally_of_each_seat() -> None:
    summary = simulate(3, 5, ["random"] * 3, "tally")
    tally = Tally(seat=1)
    for i in range(5):
        g = play_game(Game(f"tally/{i}", 3, JABBERWOCKY, ["random"] * 3),
                      [make_bot("random")] * 3)
        tally.add(game_facts(g))
    for key in SIMULATE_FIELDS:
        assert tally.core()[key] == summary["seats"][1][key]
