"""After an online game, and a seat changing hands: the engine's side (issue 29).

Each person at an online table keeps the game in their own statistics from their own seat
(the ``stats`` request's ``me``, the facts' ``me`` and ``online``), without changing what
the statistics of a store of games against bots say; and a friend who watched may take a
seat a bot stands in for (``seat_take``): the stand-in steps aside, the seat plays under
the new name, and nothing else changes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from api_calls import call, refused
from test_online_session import move_for, online_table, step_to_person, to_guest

from jabberwocky.analysis.stats import PEOPLE, facts_from_json, facts_to_json, game_facts
from jabberwocky.formats.public import public_record
from jabberwocky.formats.record import loads
from jabberwocky.webapi import WebApi


def finished_online_record(seed: str = "online-after") -> str:
    """A whole online game (the host, two guests, a bot), as the host exports it."""
    api, _ = online_table(seed)
    while True:
        view = step_to_person(api)
        if view["phase"] == "game-over":
            break
        if view["phase"] == "round-over":
            call(api, "next_round")
            continue
        seat = view["to_act"]
        if seat == 0:
            call(api, *move_for(view))
        else:
            kind, payload = move_for(call(api, "seat_view", {"seat": seat}))
            call(api, f"seat_{kind}", {"seat": seat, **payload})
    text: str = call(api, "export_record")["record"]
    return text


@pytest.fixture(scope="module")
def record() -> str:
    return finished_online_record()


def test_each_player_keeps_the_online_game_from_their_own_seat(record: str) -> None:
    api = WebApi()
    game = loads(record)
    for me in (0, 1, 2):
        answer = call(api, "stats", {"records": [{"record": record, "me": me, "online": True}]})
        facts = answer["games"][0]["facts"]
        assert facts.get("me", 0) == me and facts["online"] is True
        summary = answer["summary"]
        assert summary["points"] == game.scores[me], "tallied from the keeper's own seat"
        share = 1 / len(game.winners()) if me in game.winners() else 0.0
        assert summary["wins_by_level"] == {PEOPLE: {"games": 1, "wins": share,
                                                     "share": share}}
        # the stored facts, tallied again without the record, say the same
        again = call(api, "stats", {"facts": [facts]})["summary"]
        assert again["points"] == game.scores[me] and again["exact"] == summary["exact"]
    # the same game is the same id, whoever keeps it (a device never holds it twice)
    ids = {call(api, "stats", {"records": [{"record": record, "me": m}]})["games"][0]["id"]
           for m in (0, 1)}
    assert len(ids) == 1


def test_facts_stored_before_the_keepers_seat_existed_still_read(record: str) -> None:
    """A store written by an earlier page: no ``me``, no ``online`` (seat 0, bots)."""
    game = loads(record)
    old = facts_to_json(game_facts(game))
    assert "me" not in old and "online" not in old  # written as before for seat 0
    facts = facts_from_json(old)
    assert facts.me == 0 and facts.online is False
    api = WebApi()
    mine = call(api, "stats", {"facts": [old]})["summary"]
    fixed = call(api, "stats", {"facts": [old], "seat": 0})["summary"]
    assert mine == fixed, "without a seat, an old store is tallied exactly as before"
    # a given seat still tallies every game from that seat (simulate's way)
    kept = facts_to_json(game_facts(game, me=2, online=True))
    assert call(api, "stats", {"facts": [kept], "seat": 1})["summary"]["points"] == \
        game.scores[1]


@pytest.mark.parametrize("change, field", [
    ({"me": 4}, "me"), ({"me": -1}, "me"), ({"me": "1"}, "me"), ({"me": True}, "me"),
    ({"online": "yes"}, "online"), ({"online": 1}, "online"),
])
def test_damaged_keeper_fields_are_refused(record: str, change: dict[str, Any],
                                           field: str) -> None:
    data = {**facts_to_json(game_facts(loads(record))), **change}
    answer = call(WebApi(), "stats", {"facts": [data]})
    assert answer["summary"]["games"] == 0
    assert answer["refused"][0]["error"]["code"] == "request.stats_facts"
    assert answer["refused"][0]["error"]["params"]["field"] == field


@pytest.mark.parametrize("item, code", [
    ({"me": 0}, "request.record_not_text"),          # no record
    ({"record": 5}, "request.record_not_text"),
    ({"me": 9, "record": None}, "request.stats_seat"),
    ({"online": "no", "record": None}, "request.stats_online"),
    (["not", "an", "entry"], "request.record_not_text"),
])
def test_a_bad_record_entry_is_refused_alone(record: str, item: Any, code: str) -> None:
    entry = {**item, "record": record} if isinstance(item, dict) and "record" in item \
        and item["record"] is None else item
    answer = call(WebApi(), "stats", {"records": [entry, record]})
    assert answer["games"][0] is None and answer["games"][1] is not None
    assert answer["refused"][0]["error"]["code"] == code


def test_a_seat_past_the_table_is_refused(record: str) -> None:
    answer = call(WebApi(), "stats", {"records": [{"record": record, "me": 4}]})
    assert answer["refused"][0]["error"]["code"] == "request.stats_seat_absent"


def test_a_friend_who_watched_takes_a_seat_a_bot_stands_in_for() -> None:
    api, _ = online_table("online-take")
    view = to_guest(api)
    assert view["to_act"] == 1
    before = call(api, "seat_view", {"seat": 1})
    # not while its person plays it: a seat is never taken from a friend who is there
    assert refused(api, "seat_take", {"seat": 1, "name": "Vilém"})["code"] == \
        "online.no_stand_in"
    call(api, "seat_stand_in", {"seat": 1, "level": "easy"})
    taken = call(api, "seat_take", {"seat": 1, "name": "Vilém"})
    assert taken["viewer"] == 1 and taken["your_turn"] is True, "their turn, as it was"
    assert taken["hand"] == before["hand"] and taken["step"] == before["step"]
    assert taken["stand_ins"] == {} and taken["player_names"][1] == "Vilém"
    # the new player moves for the seat; the bot no longer does
    assert call(api, "bot_step")["action"] is None
    kind, payload = move_for(taken)
    call(api, f"seat_{kind}", {"seat": 1, **payload})
    record = json.loads(call(api, "export_record")["record"])
    assert record["names"][:3] == ["Hana", "Vilém", "Eun"]


@pytest.mark.parametrize("payload, code", [
    ({"seat": 3, "name": "X"}, "online.not_a_person"),
    ({"seat": 0, "name": "X"}, "online.not_remote"),
    ({"seat": 2, "name": "X"}, "online.no_stand_in"),
    ({"seat": 9, "name": "X"}, "online.bad_seat"),
])
def test_taking_a_seat_is_refused_where_it_is_not_free(payload: dict[str, Any],
                                                       code: str) -> None:
    api, _ = online_table("online-take-refused")
    to_guest(api)
    before = call(api, "export_record")["record"]
    assert refused(api, "seat_take", payload)["code"] == code
    assert call(api, "export_record")["record"] == before


def test_a_bad_name_is_refused_and_the_stand_in_stays() -> None:
    api, _ = online_table("online-take-name")
    to_guest(api)
    call(api, "seat_stand_in", {"seat": 2, "level": "easy"})
    assert refused(api, "seat_take", {"seat": 2, "name": "x" * 40})["code"] == "name.too_long"
    assert call(api, "seat_view", {"seat": 2})["stand_ins"] == {"2": "easy"}
    assert call(api, "seat_take", {"seat": 2, "name": None})["player_names"][2] is None


# -- what of the game is public (formats/public.py) --------------------------------------


def api_in_round(seed: str, rounds_done: int) -> WebApi:
    """An online table whose first ``rounds_done`` rounds are finished, the next under way."""
    api, _ = online_table(seed)
    while True:
        view = step_to_person(api)
        if len(view["history"]) == rounds_done and view["phase"] in ("bidding", "playing"):
            return api
        if view["phase"] == "round-over":
            call(api, "next_round")
            continue
        seat = view["to_act"]
        if seat == 0:
            call(api, *move_for(view))
        else:
            kind, payload = move_for(call(api, "seat_view", {"seat": seat}))
            call(api, f"seat_{kind}", {"seat": seat, **payload})


def test_the_public_record_holds_the_finished_rounds_and_no_deal_code() -> None:
    api = api_in_round("online-public", 1)
    public = call(api, "public_record")
    assert public["format"] == "jabberwocky-public/1"
    assert "seed" not in public and "first_dealer" not in public
    full = json.loads(call(api, "export_record")["record"])
    assert len(full["rounds"]) == 2 and len(public["rounds"]) == 1, "round 2 is under way"
    assert public["rounds"][0] == full["rounds"][0], "round 1 exactly as the record has it"
    assert public["scores"] == full["rounds"][0]["points"]
    assert public["names"] == ["Hana", "Jonas", "Eun", None]
    # every card it names was played in the open (or turned as trump)
    rnd = public["rounds"][0]
    played = {c for t in rnd["tricks"] for c in t["cards"]}
    named = set(re.findall(r'"([2-9TJQKA][CDHS])"', json.dumps(public)))
    assert named == played | {rnd["trump_card"]}
    assert sorted(c for h in rnd["hands"] for c in h) == sorted(played)
    # the guest's engine checks it and writes it back the same
    again = call(WebApi(), "public_check", {"text": json.dumps(public)})
    assert again == public


def test_a_public_record_with_nothing_finished_and_a_whole_game() -> None:
    api = api_in_round("online-public-0", 0)
    public = call(api, "public_record")
    assert public["rounds"] == [] and public["scores"] == [0, 0, 0, 0]
    assert call(WebApi(), "public_check", {"text": json.dumps(public)}) == public
    record = json.loads(finished_online_record("online-public-all"))
    game = loads(json.dumps(record))
    whole = public_record(game)
    assert [r["points"] for r in whole["rounds"]] == [r["points"] for r in record["rounds"]]
    assert call(WebApi(), "public_check", {"text": json.dumps(whole)}) == whole


def _tamper(public: dict[str, Any], how: str) -> dict[str, Any]:
    bad = json.loads(json.dumps(public))
    rnd = bad["rounds"][0]
    if how == "bid":
        rnd["bids"][0] = (rnd["bids"][0] + 1) % (rnd["hand_size"] + 1)
    elif how == "twice":
        rnd["tricks"][0]["cards"][1] = rnd["tricks"][0]["cards"][0]
    elif how == "trump":
        rnd["trump_card"] = rnd["tricks"][0]["cards"][0]
    elif how == "short":
        rnd["tricks"] = rnd["tricks"][:-1]
        del rnd["hands"]
    elif how == "points":
        rnd["points"][1] += 1
    elif how == "scores":
        bad["scores"][0] += 1
    elif how == "format":
        bad["format"] = "jabberwocky-game/1"
    elif how == "hands":
        rnd["hands"][0], rnd["hands"][1] = rnd["hands"][1], rnd["hands"][0]
    return bad


@pytest.mark.parametrize("how", ["bid", "twice", "trump", "short", "points", "scores",
                                 "format", "hands"])
def test_a_public_record_that_is_not_what_was_played_is_refused(how: str) -> None:
    public = call(api_in_round("online-public-bad", 1), "public_record")
    error = refused(WebApi(), "public_check", {"text": json.dumps(_tamper(public, how))})
    assert error["kind"] == "RecordError", error
