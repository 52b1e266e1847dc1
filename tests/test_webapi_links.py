"""The facade's challenge and review requests: a challenge made at one table, opened,
played and passed on at another; hostile links answered with a refusal and nothing
lost; records of challenge games; reviews of the table's game, a record, a result."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_calls import call, refused

from jabberwocky.core.table import MAX_NAME_LENGTH
from jabberwocky.formats.challenge import MAX_CHALLENGE_CHARS, MAX_RESULTS
from jabberwocky.formats.record import to_record
from jabberwocky.webapi import WebApi


def play_out(api: WebApi, pick: int = 0,
             rounds: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play the table's game to its end (the human takes the ``pick``-th allowed move);
    ``rounds`` collects the view at the end of each round."""
    view: dict[str, Any] = call(api, "state")
    while view["phase"] != "game-over":
        if view["phase"] == "round-over":
            if rounds is not None:
                rounds.append(view)
            view = call(api, "next_round")
        elif view["your_turn"]:
            if view["phase"] == "bidding":
                bids = view["legal_bids"]
                view = call(api, "bid", {"bid": bids[pick % len(bids)]})
            else:
                cards = view["legal_cards"]
                view = call(api, "play", {"card": cards[pick % len(cards)]})
        else:
            view = call(api, "bot_step")["view"]
    if rounds is not None:
        rounds.append(view)
    return view


SHORT = {"name": "short", "schedule": [3, 4, 2]}


@pytest.fixture(scope="module")
def alex() -> dict[str, Any]:
    """Alex's game (medium and easy bots) and the challenge it makes."""
    api = WebApi()
    call(api, "new_game", {"seed": "friends", "players": 4, "bots": ["medium", "easy", "medium"],
                           "names": ["Alex", None, None, None]})
    final = play_out(api, pick=0)
    made = call(api, "challenge_encode")
    return {"api": api, "final": final, "made": made,
            "record": to_record(api.game)}  # type: ignore[arg-type]


def test_a_challenge_is_made_opened_played_and_passed_on(alex: dict[str, Any]) -> None:
    made = alex["made"]
    assert made["length"] == len(made["text"]) < 250 and made["dropped"] == 0
    assert made["results"][0]["name"] == "Alex"  # the game's name for the human seat
    assert made["results"][0]["total"] == alex["final"]["scores"][0]

    friend = WebApi()  # another browser: nothing shared but the text
    opened = call(friend, "challenge_open", {"text": made["text"]})
    assert opened["ok"] and opened["seat"] == 0
    (first,) = opened["results"]
    assert first["name"] == "Alex" and first["bots"] == "same" and first["finished"]
    assert [r["bid"] for r in first["rounds"]] == [h["bids"][0] for h in alex["final"]["history"]]

    view = call(friend, "challenge_play", {"text": made["text"], "name": "Maria"})
    assert view["challenge"] and not view["can_take_back"]
    assert view["player_names"] == ["Maria", None, None, None]
    assert view["seats"] == ["human", "medium", "easy", "medium"]
    rounds: list[dict[str, Any]] = []
    final = play_out(friend, pick=1, rounds=rounds)
    assert refused(friend, "take_back")["code"] == "move.takeback_challenge"
    # the same deals
    mine, theirs = to_record(friend.game), alex["record"]  # type: ignore[arg-type]
    assert [r["hands"] for r in mine["rounds"]] == [r["hands"] for r in theirs["rounds"]]
    assert [r["trump_card"] for r in mine["rounds"]] == [r["trump_card"] for r in theirs["rounds"]]

    compare = call(friend, "challenge_compare")
    assert compare["text"] == made["text"]
    assert [r.get("current", False) for r in compare["results"]] == [False, True]
    assert compare["results"][1]["total"] == final["scores"][0]
    assert compare["results"][1]["name"] == "Maria"
    best = max(r["total"] for r in compare["results"])
    assert compare["leaders"] == [i for i, r in enumerate(compare["results"]) if r["total"] == best]
    assert len(rounds) == 13

    passed = call(friend, "challenge_encode")
    assert [r["name"] for r in passed["results"]] == ["Alex", "Maria"]
    third = WebApi()
    again = call(third, "challenge_open", {"text": passed["text"]})
    assert again["ok"] and [r["total"] for r in again["results"]] == [
        alex["final"]["scores"][0], final["scores"][0]]


def test_each_round_of_the_bots_checks_out(alex: dict[str, Any]) -> None:
    api = WebApi()
    text = alex["made"]["text"]
    for rnd in range(1, 14):
        answer = call(api, "challenge_check", {"text": text, "player": 1, "round": rnd})
        assert answer["ok"] and answer["refusal"] is None and answer["rounds"] == 13
    assert refused(api, "challenge_check", {"text": text, "player": 1, "round": 14})[
        "code"] == "challenge.no_round"
    assert refused(api, "challenge_check", {"text": text, "player": 2, "round": 1})[
        "code"] == "challenge.no_result"
    assert refused(api, "challenge_check", {"text": text, "player": True, "round": 1})[
        "code"] == "challenge.no_result"
    assert refused(api, "challenge_check", {"text": "nope", "player": 1, "round": 1})[
        "code"] == "challenge.foreign"


def test_a_chain_drops_the_oldest_after_five() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "chain", "players": 3, "bots": "random", "rules": SHORT})
    play_out(api)
    text = call(api, "challenge_encode", {"name": "P0"})["text"]
    for k in range(1, 7):
        view = call(api, "challenge_play", {"text": text, "name": f"P{k}"})
        assert view["challenge"]
        play_out(api, pick=k)
        made = call(api, "challenge_encode")
        text = made["text"]
        assert made["dropped"] == (1 if k >= MAX_RESULTS else 0)
    names = [r["name"] for r in call(api, "challenge_open", {"text": text})["results"]]
    assert names == ["P2", "P3", "P4", "P5", "P6"]


def test_naming_the_result() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "named", "players": 3, "bots": "random", "rules": SHORT,
                           "names": ["Kim", None, None]})
    assert call(api, "challenge_encode")["results"][0]["name"] == "Kim"
    assert call(api, "challenge_encode", {"name": "Lee"})["results"][0]["name"] == "Lee"
    assert call(api, "challenge_encode", {"name": None})["results"][0]["name"] is None
    assert call(api, "challenge_encode", {"name": ""})["results"][0]["name"] is None
    assert refused(api, "challenge_encode", {"name": "a\nb"})["code"] == "name.control"
    assert refused(api, "challenge_encode", {"name": "x" * (MAX_NAME_LENGTH + 1)})[
        "code"] == "name.too_long"
    call(api, "new_game", {"seed": "pp", "seats": ["human", "human", "random"]})
    assert refused(api, "challenge_encode")["code"] == "challenge.humans"
    call(api, "new_game", {"seed": "plain", "players": 3})
    assert refused(api, "challenge_compare")["code"] == "challenge.not_challenge"


def test_a_challenge_game_keeps_its_challenge_through_its_record(alex: dict[str, Any]) -> None:
    api = WebApi()
    text = alex["made"]["text"]
    call(api, "challenge_play", {"text": text})
    call(api, "bot_step")
    record = json.loads(call(api, "export_record")["record"])
    assert record["challenge"] == text
    other = WebApi()
    view = call(other, "import_record", {"record": json.dumps(record)})
    assert view["challenge"] and not view["can_take_back"]
    assert refused(other, "take_back")["code"] == "move.takeback_challenge"
    assert call(other, "challenge_compare")["results"][0]["name"] == "Alex"
    for change, code in (({"challenge": "jc1.AAAA"}, "record.challenge"),
                         ({"challenge": 5}, "record.challenge"),
                         ({"seed": "another", "rounds": []}, "record.challenge_table"),
                         ({"takebacks": 2}, "record.challenge_takebacks")):
        err = refused(other, "import_record", {"record": json.dumps({**record, **change})})
        assert err["code"] == code, err


def hostile_links(text: str) -> dict[str, Any]:
    body = text[4:]
    return {
        "foreign": "hello", "a seed link": "#seed=x&players=4", "wrong version": "jc9." + body,
        "oversized": text + "A" * MAX_CHALLENGE_CHARS, "bad base64": text[:10] + "*" + text[11:],
        "truncated": text[:-8], "tampered": text[:-3] + ("A" if text[-3] != "A" else "B")
        + text[-2:], "extra": text + "AAAA", "not text": ["jc1."], "null": None,
        "empty": "", "only the prefix": "jc1.", "a number": 12,
    }


def test_hostile_links_are_refused_and_the_table_kept(alex: dict[str, Any]) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "mine", "players": 4, "bots": "easy"})
    call(api, "bot_step")
    before = call(api, "export_record")
    links = hostile_links(alex["made"]["text"])
    assert len(links) >= 10
    codes = set()
    for name, text in links.items():
        answer = call(api, "challenge_open", {"text": text})
        assert answer["ok"] is False, name
        refusal = answer["refusal"]
        assert refusal["code"].startswith("challenge.") and refusal["message"], name
        codes.add(refusal["code"])
        if name in ("truncated", "tampered"):
            assert answer["game"]["seed"] == "friends"  # a normal game of the seed can open
        err = refused(api, "challenge_play", {"text": text})
        assert err["kind"] == "ChallengeError" and err["code"] == refusal["code"]
        assert call(api, "export_record") == before
    assert len(codes) >= 8


def test_the_table_is_reviewed_once_it_is_over(alex: dict[str, Any]) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "rv", "players": 3, "bots": "random", "rules": SHORT})
    assert refused(api, "review")["code"] == "review.unfinished"
    assert refused(api, "review_analyse", {"step": 0})["code"] == "review.unfinished"
    play_out(api)
    data = call(api, "review")
    assert len(data["steps"]) == 3 * (3 + 4 + 2 + 3) and data["phase"] == "game-over"
    step = data["decisions"][0]
    answer = call(api, "review_analyse", {"step": step})
    assert answer["digest"] == data["digest"] and answer["step"] == step
    assert call(api, "review_analyse", {"step": step}) == answer
    bot_step = next(s["step"] for s in data["steps"] if not s["human"])
    seen = call(api, "review_seen", {"step": bot_step})
    assert seen["seat"] != 0 and len(seen["observation"]["hand"]) == len(
        data["steps"][bot_step]["hands"][seen["seat"]])
    assert refused(api, "review_seen", {"step": "one"})["code"] == "review.no_step"
    assert refused(api, "review_seen", {"step": 10**6})["code"] == "review.no_step"


def test_a_record_and_a_challenge_result_can_be_reviewed(alex: dict[str, Any]) -> None:
    api = WebApi()
    record = json.dumps(alex["record"])
    by_record = call(api, "review", {"record": record})
    by_link = call(api, "review", {"challenge": alex["made"]["text"], "player": 1})
    assert by_record["steps"] == by_link["steps"]
    assert by_link["player_names"][0] == "Alex"
    assert refused(api, "review", {"challenge": alex["made"]["text"], "player": 2})[
        "code"] == "challenge.no_result"
    assert refused(api, "review", {"record": 5})["code"] == "request.record_not_text"
    assert refused(api, "review", {"record": "{}"})["kind"] == "RecordError"
    step = by_record["decisions"][-1]
    assert call(api, "review_analyse", {"record": record, "step": step})["step"] == step


def test_the_rules_answer_names_the_new_limits() -> None:
    info = call(WebApi(), "rules")
    assert info["name_max_length"] == MAX_NAME_LENGTH
    assert info["challenge_max_length"] == MAX_CHALLENGE_CHARS
    assert info["challenge_max_results"] == MAX_RESULTS
