"""The deal of the day (``jabberwocky-daily/1``): the date-to-seed derivation against a
from-scratch implementation of ``docs/daily.md`` and its golden vectors (dates -> seeds ->
first deals), the par's determinism (and its figures under the bots version they were
made with), the result of a daily game, and the facade's ``daily*`` requests.

This file also runs inside Pyodide (``tests/pyodide/run.py``): the same vectors and the
same par there are what "the same deal and the same par on every device" rests on.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from api_calls import call, refused

from jabberwocky.analysis.daily import (
    DAILY_LEVEL,
    DAILY_PLAYERS,
    DAILY_VERSION,
    MADE,
    MISSED,
    DailyError,
    check_date,
    daily_game,
    daily_seed,
    daily_table,
    date_of_seed,
    is_daily_table,
    par,
    result_of,
)
from jabberwocky.bots import BOTS_VERSION, make_bot
from jabberwocky.bots.referee import bot_move
from jabberwocky.cards import card_name, cards_of
from jabberwocky.core.actions import take_back
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.formats.challenge import decode
from jabberwocky.rules import JABBERWOCKY, Ruleset
from jabberwocky.webapi import WebApi

GOLDEN = json.loads((Path(__file__).with_name("golden") / "daily.json").read_text("utf-8"))
DOCS = Path(__file__).resolve().parent.parent / "docs" / "daily.md"


def reference_seed(date: str) -> str:
    """The derivation as docs/daily.md states it (no engine code)."""
    digest = hashlib.sha256(b"jabberwocky-daily/1\x00" + date.encode("ascii")).hexdigest()
    return "daily-" + date + "-" + digest[:8]


def play_with_bots(game: Game, level: str = "easy") -> Game:
    """Play ``game`` to its end, a ``level`` bot making seat 0's moves too."""
    bots = [make_bot(level if kind == "human" else kind) for kind in game.seats]
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        assert game.phase in (BIDDING, PLAYING)
        seat: int = game.to_act  # type: ignore[assignment]
        bot_move(game, bots[seat])  # it applies the move
    return game


# -- the derivation and its golden vectors ---------------------------------------------


def test_the_golden_file_is_this_version() -> None:
    assert GOLDEN["version"] == DAILY_VERSION == "jabberwocky-daily/1"
    assert GOLDEN["players"] == DAILY_PLAYERS == 4


@pytest.mark.parametrize("vector", GOLDEN["vectors"], ids=lambda v: v["date"])
def test_golden_vectors_date_to_seed_to_first_deal(vector: dict[str, Any]) -> None:
    date = vector["date"]
    assert reference_seed(date) == vector["seed"] == daily_seed(date)
    game = daily_game(date)
    assert game.seed == vector["seed"]
    assert game.first_dealer == vector["first_dealer"]
    hands = [" ".join(card_name(c) for c in cards_of(game.observation(s).hand))
             for s in range(DAILY_PLAYERS)]
    assert hands == vector["round_1"]["hands"]
    assert card_name(game.observation(0).trump_card) == vector["round_1"]["trump_card"]


def test_the_docs_state_the_derivation_and_every_vector() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert 'b"jabberwocky-daily/1" 0x00 D' in text
    for vector in GOLDEN["vectors"]:
        assert f"| {vector['date']} | `{vector['seed']}` |" in text, vector["date"]
        assert vector["round_1"]["hands"][0] in text


def test_every_day_has_its_own_seed_and_the_seed_names_its_day() -> None:
    days = [f"2026-{m:02d}-{d:02d}" for m in range(1, 13) for d in range(1, 29)]
    seeds = [daily_seed(d) for d in days]
    assert len(set(seeds)) == len(days)
    assert all(date_of_seed(s) == d for s, d in zip(seeds, days, strict=True))
    assert all(re.fullmatch(r"daily-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}", s) for s in seeds)


@pytest.mark.parametrize("seed", ["daily-2026-12-02-00000000", "daily-2026-12-02",
                                  "daily-2026-02-30-6c064693", "brave-otter-lamp-42",
                                  "DAILY-2026-12-02-6c064693", " daily-2026-12-02-6c064693"])
def test_a_seed_that_only_looks_daily_names_no_day(seed: str) -> None:
    assert date_of_seed(seed) is None


@pytest.mark.parametrize("value", ["2026-2-3", "02-12-2026", "2026/12/02", "", "today",
                                   "2026-12-02 ", "２０２６-12-02", 20261202, None, ["2026-12-02"]])
def test_a_date_not_written_yyyy_mm_dd_is_refused_with_its_code(value: object) -> None:
    with pytest.raises(DailyError) as err:
        check_date(value)
    assert err.value.message.code == "daily.date_shape"


@pytest.mark.parametrize("value", ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
                                   "0000-01-01", "1900-02-29", "2026-12-00"])
def test_a_day_the_calendar_lacks_is_refused(value: str) -> None:
    with pytest.raises(DailyError) as err:
        check_date(value)
    assert err.value.message.code == "daily.date_none"
    assert value in str(err.value)


@pytest.mark.parametrize("value", ["2028-02-29", "2000-02-29", "0001-01-01", "9999-12-31",
                                   "2026-12-31"])
def test_real_days_are_accepted(value: str) -> None:
    assert check_date(value) == value


# -- the table -------------------------------------------------------------------------


def test_the_days_table_is_four_players_jabberwocky_rules_and_medium_bots() -> None:
    table = daily_table("2026-12-02")
    assert table["seed"] == daily_seed("2026-12-02")
    assert (table["players"], table["bots"], table["seats"]) == (
        4, DAILY_LEVEL, ["human", "medium", "medium", "medium"])
    assert Ruleset.from_dict(table["rules"]) == JABBERWOCKY
    assert table["version"] == DAILY_VERSION and table["bots_version"] == BOTS_VERSION
    # new_game takes it as it is, and the game is the day's table
    api = WebApi()
    view = call(api, "new_game", {k: table[k] for k in ("seed", "players", "bots", "rules")})
    assert view["seed"] == table["seed"]
    assert api.game is not None and is_daily_table(api.game) == "2026-12-02"


def test_a_game_at_another_table_with_the_days_seed_is_not_the_days_game() -> None:
    seed = daily_seed("2026-12-02")
    assert is_daily_table(Game(seed, 4, seats=["human", "hard", "medium", "medium"])) is None
    assert is_daily_table(Game(seed, 3, seats=["human", "medium", "medium"])) is None
    oh_hell = Ruleset.from_dict("oh-hell")
    assert is_daily_table(Game(seed, 4, oh_hell, ["human", *["medium"] * 3])) is None


# -- the par ----------------------------------------------------------------------------


def test_the_par_is_the_same_every_time_and_in_every_engine() -> None:
    first = par("2026-12-02").to_json()
    api = WebApi()
    again = call(api, "daily_par", {"date": "2026-12-02"})  # another table, same answer
    assert again == {**first, "done": True}
    # a round at a time (what the page asks, so that the worker answers in between): the
    # same par, however it is cut
    steps = [call(api, "daily_par", {"date": "2026-12-02", "rounds": n}) for n in (1, 5, 2)]
    assert [s["rounds"] for s in steps] == [1, 6, 8] and not any(s["done"] for s in steps)
    last = call(api, "daily_par", {"date": "2026-12-02", "rounds": 13})
    assert last == again
    assert first["level"] == "hard" and first["bids"] == 13 == len(first["rounds"])
    assert first["exact"] == sum(r["mark"] == MADE for r in first["rounds"])
    assert first["points"] == sum(r["points"] for r in first["rounds"])
    golden = GOLDEN["par"]
    # the par is pinned with the bots version it was made with: a change to the bots
    # changes it, and then the golden file is made again (tests/golden/make_daily.py)
    assert golden["bots_version"] == BOTS_VERSION, "bots changed: run tests/golden/make_daily.py"
    assert (first["points"], first["exact"]) == (golden["points"], golden["exact"])
    assert " ".join(str(r["bid"]) for r in first["rounds"]) == golden["bids"]
    assert " ".join(str(r["taken"]) for r in first["rounds"]) == golden["taken"]


def test_a_par_request_with_a_bad_date_is_refused() -> None:
    api = WebApi()
    assert refused(api, "daily_par", {"date": "2026-02-30"})["code"] == "daily.date_none"
    assert refused(api, "daily_par", {})["code"] == "daily.date_shape"
    assert refused(api, "daily", {"date": "1.12.2026"})["code"] == "daily.date_shape"
    for rounds in (0, 14, 1.5, True, "3"):
        err = refused(api, "daily_par", {"date": "2026-12-02", "rounds": rounds})
        assert err["code"] == "daily.par_rounds"


# -- a day's result ------------------------------------------------------------------------


def test_a_finished_daily_game_is_a_result_with_one_mark_per_round() -> None:
    game = play_with_bots(daily_game("2026-12-03"))
    result = result_of(game)
    assert result["eligible"] is True and result["reason"] is None
    assert result["date"] == "2026-12-03"
    assert result["points"] == game.scores[0]
    assert result["marks"] == [MADE if r.bids[0] == r.taken[0] else MISSED
                               for r in game.results]
    assert result["exact"] == result["marks"].count(MADE)
    assert [r["bid"] for r in result["rounds"]] == [r.bids[0] for r in game.results]
    # the day's challenge link carries this very game
    challenge = decode(result["challenge"])
    assert challenge.table.seed == game.seed and len(challenge.results) == 1
    assert challenge.results[0].game.scores == game.scores


def test_an_unfinished_or_taken_back_game_is_no_result() -> None:
    game = daily_game("2026-12-03")
    assert result_of(game)["reason"] == "daily.unfinished"
    assert result_of(game)["challenge"] is None
    game.bid(game.legal_bids()[0])
    again = take_back(game, [0])
    assert again.takebacks == 1
    finished = play_with_bots(again)
    assert finished.phase == GAME_OVER
    verdict = result_of(finished)
    assert verdict["eligible"] is False and verdict["reason"] == "daily.takebacks"


def test_the_result_of_a_game_that_is_no_daily_is_refused() -> None:
    api = WebApi()
    assert refused(api, "daily_result")["code"] == "request.no_game"
    call(api, "new_game", {"seed": "brave-otter-lamp-42", "players": 4, "bots": "medium"})
    err = refused(api, "daily_result")
    assert err["code"] == "daily.not_daily" and err["kind"] == "DailyError"


def test_the_result_request_answers_the_tables_game() -> None:
    api = WebApi()
    table = call(api, "daily", {"date": "2027-01-01"})
    call(api, "new_game", {k: table[k] for k in ("seed", "players", "bots", "rules")})
    assert api.game is not None
    play_with_bots(api.game)
    result = call(api, "daily_result")
    assert result["eligible"] is True and len(result["marks"]) == 13
    assert result["bots_version"] == BOTS_VERSION
