"""The engine's side of an online table: the host's session referees its guests' seats.

A guest's seat is ``remote``: the host's page asks for that seat's view (``seat_view``)
and makes that seat's moves (``seat_bid`` / ``seat_play``) when the guest sends them.  The
session must refuse every move that is not the seat's own on its turn, must never put
another hand's card in a guest's view, and must record the game as an ordinary record.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_calls import call, refused

from jabberwocky.analysis.daily import daily_seed
from jabberwocky.core.cards import card_name, card_names, cards_of
from jabberwocky.formats.record import loads
from jabberwocky.webapi import WebApi

SCHEDULE = {"schedule": [2, 3, 2]}
SEATS = ["human", "remote", "remote", "medium"]
NAMES = ["Hana", "Jonas", "Eun", None]


def online_table(seed: str = "online-1") -> tuple[WebApi, dict[str, Any]]:
    api = WebApi()
    view = call(api, "new_game", {"seed": seed, "seats": SEATS, "names": NAMES,
                                  "rules": SCHEDULE})
    return api, view


def step_to_person(api: WebApi) -> dict[str, Any]:
    """Let the bots move until a person is to act (or the round ends): the host's view."""
    view = call(api, "state")
    while view["phase"] in ("bidding", "playing"):
        step = call(api, "bot_step")
        if step["action"] is None:
            return step["view"]
        view = step["view"]
    return view


def to_guest(api: WebApi) -> dict[str, Any]:
    """Play the host's seat and the bot until a guest is to act: the host's view."""
    view = step_to_person(api)
    while view["to_act"] == 0:
        call(api, *move_for(view))
        view = step_to_person(api)
    assert view["to_act"] in (1, 2)
    return view


def move_for(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The first legal move in a seat's own view, as a request's kind and payload."""
    if view["phase"] == "bidding":
        return "bid", {"bid": view["legal_bids"][0]}
    return "play", {"card": view["legal_cards"][0]}


def test_remote_seats_are_people_played_elsewhere() -> None:
    api, view = online_table()
    assert view["remote"] == [1, 2] and view["humans"] == [0, 1, 2]
    assert view["stand_ins"] == {} and view["seats"] == ["human", "human", "human", "medium"]
    assert view["viewer"] == 0 and view["handoff"] is False  # the host's own seat
    guest = call(api, "seat_view", {"seat": 1})
    assert guest["viewer"] == 1 and guest["handoff"] is False and len(guest["hand"]) == 2


def test_a_guest_view_holds_only_its_own_hand_and_the_public_table() -> None:
    api, _ = online_table()
    game = api.game
    assert game is not None
    trump = card_name(game.trump_card)
    for seat in (1, 2):
        view = call(api, "seat_view", {"seat": seat})
        assert set(view["hand"]) == set(card_names(cards_of(game.hands[seat])))
        hidden = {c for s in range(game.players) if s != seat
                  for c in card_names(cards_of(game.hands[s]))} - {trump}
        text = json.dumps(view)
        assert hidden and not any(f'"{c}"' in text for c in hidden)


def test_a_watcher_sees_the_public_table_and_no_hidden_card() -> None:
    api, _ = online_table("online-watch")
    view = to_guest(api)  # the host has bid: public facts to show
    own = call(api, "seat_view", {"seat": view["to_act"]})
    call(api, "seat_bid", {"seat": view["to_act"], "bid": own["legal_bids"][0]})
    game = api.game
    assert game is not None
    watched = call(api, "public_view")
    assert watched["handoff"] is True and watched["your_turn"] is False
    for key in ("hand", "legal_cards", "renege_cards", "legal_bids"):
        assert watched[key] == [], key
    assert watched["illegal_reason_codes"] == {} and watched["bid_reason_codes"] == {}
    assert not watched["can_claim"] and not watched["can_take_back"]
    assert watched["bids"] == list(game.bids) and watched["to_act"] == game.to_act
    assert watched["hand_counts"] == [2, 2, 2, 2]
    trump = card_name(game.trump_card)
    hidden = {c for s in range(game.players)
              for c in card_names(cards_of(game.hands[s]))} - {trump}
    text = json.dumps(watched)
    assert len(hidden) == 8 and not any(f'"{c}"' in text for c in hidden)
    assert refused(api, "bid", {"bid": 0})["code"] == "move.not_your_turn"  # nothing moved


def test_a_whole_game_with_two_guests_and_a_bot_records_an_ordinary_record() -> None:
    api, view = online_table("online-whole")
    moves = 0
    while True:
        view = step_to_person(api)
        if view["phase"] == "game-over":
            break
        if view["phase"] == "round-over":
            call(api, "next_round")
            continue
        seat = view["to_act"]
        if seat == 0:
            kind, payload = move_for(view)
            call(api, kind, payload)
        else:
            own = call(api, "seat_view", {"seat": seat})
            assert own["your_turn"] is True and own["viewer"] == seat
            kind, payload = move_for(own)
            answer = call(api, f"seat_{kind}", {"seat": seat, **payload})
            assert answer["viewer"] == seat  # the guest's own view comes back
        moves += 1
    assert moves == 3 * (3 + 7)  # three people: a bid a round, and 2 + 3 + 2 cards
    record = call(api, "export_record")["record"]
    game = loads(record)
    assert game.seats == ("human", "human", "human", "medium")
    assert game.names[:3] == ("Hana", "Jonas", "Eun")


@pytest.mark.parametrize("payload, code", [
    ({"seat": 2, "bid": 0}, "move.not_your_turn"),        # another guest's turn comes first
    ({"seat": 0, "bid": 0}, "move.not_your_turn"),        # the host's seat is played here
    ({"seat": 3, "bid": 0}, "online.not_a_person"),       # a bot's seat
    ({"seat": 7, "bid": 0}, "online.bad_seat"),
    ({"seat": "1", "bid": 0}, "online.bad_seat"),
    ({"seat": True, "bid": 0}, "online.bad_seat"),
    ({"seat": 1, "bid": 9}, "move.bid_range"),
])
def test_a_move_for_the_wrong_seat_or_out_of_turn_is_refused_and_changes_nothing(
        payload: dict[str, Any], code: str) -> None:
    api, _ = online_table("online-refusals")
    view = to_guest(api)
    # the dealer is the bot at seat 3: the host bids first, then seat 1
    assert view["to_act"] == 1
    before = call(api, "export_record")["record"]
    assert refused(api, "seat_bid", payload)["code"] == code
    assert call(api, "export_record")["record"] == before


def test_the_host_cannot_move_for_a_guest_through_its_own_requests() -> None:
    api, _ = online_table("online-refusals")
    assert to_guest(api)["to_act"] == 1
    assert refused(api, "bid", {"bid": 0})["code"] == "move.not_your_turn"
    assert refused(api, "hint")["code"] == "move.not_your_turn"
    hint = call(api, "seat_hint", {"seat": 1})
    assert hint["kind"] == "bid"
    assert refused(api, "seat_hint", {"seat": 2})["code"] == "move.not_your_turn"


def test_a_card_is_refused_when_it_is_not_in_the_guests_hand() -> None:
    api, _ = online_table("online-cards")
    view = step_to_person(api)
    while view["phase"] == "bidding":
        seat = view["to_act"]
        own = call(api, "seat_view", {"seat": seat}) if seat else view
        kind, payload = move_for(own)
        call(api, kind if seat == 0 else f"seat_{kind}",
             payload if seat == 0 else {"seat": seat, **payload})
        view = step_to_person(api)
    seat = view["to_act"]
    if seat == 0:
        call(api, *move_for(view))
        view = step_to_person(api)
        seat = view["to_act"]
    assert seat in (1, 2)
    someone_else = next(s for s in (1, 2) if s != seat)
    theirs = call(api, "seat_view", {"seat": someone_else})["hand"][0]
    assert refused(api, "seat_play", {"seat": seat, "card": theirs})["code"] == "move.not_held"
    assert refused(api, "seat_play", {"seat": seat, "card": "ZZ"})["code"] == "card.unknown"


def test_a_stand_in_plays_for_an_absent_guest_until_they_are_back() -> None:
    api, _ = online_table("online-stand-in")
    assert to_guest(api)["to_act"] == 1
    standing = call(api, "seat_stand_in", {"seat": 1, "level": "easy"})
    assert standing["stand_ins"] == {"1": "easy"}
    # the guest's own move is refused while the bot plays for them
    assert refused(api, "seat_bid", {"seat": 1, "bid": 0})["code"] == "move.not_your_turn"
    step = call(api, "bot_step")
    assert step["action"]["seat"] == 1 and step["action"]["kind"] == "bid"
    back = call(api, "seat_stand_in", {"seat": 1, "level": None})
    assert back["stand_ins"] == {}
    assert refused(api, "seat_stand_in", {"seat": 3, "level": "easy"})["code"] == \
        "online.not_a_person"
    assert refused(api, "seat_stand_in", {"seat": 0, "level": "easy"})["code"] == \
        "online.not_remote"
    assert refused(api, "seat_stand_in", {"seat": 2, "level": "wizard"})["code"] == \
        "online.unknown_level"


def test_the_turn_clock_moves_for_the_guest_with_the_medium_bot() -> None:
    api, _ = online_table("online-clock")
    seat = to_guest(api)["to_act"]
    auto = call(api, "seat_auto", {"seat": seat})
    assert auto["action"]["seat"] == seat and auto["action"]["kind"] == "bid"
    assert auto["view"]["bids"][seat] == auto["action"]["value"]
    assert refused(api, "seat_auto", {"seat": seat})["code"] == "move.not_your_turn"
    # the same position, the same bot: the choice depends on the deal alone
    again, _ = online_table("online-clock")
    to_guest(again)
    assert call(again, "seat_auto", {"seat": seat})["action"] == auto["action"]


def test_take_backs_are_refused_at_an_online_table_and_at_the_deal_of_the_day() -> None:
    api, _ = online_table("online-takeback")
    call(api, "seat_bid", {"seat": to_guest(api)["to_act"], "bid": 0})
    view = call(api, "state")
    assert view["can_take_back"] is False and view["take_back_rule"] == "move.takeback_online"
    assert refused(api, "take_back")["code"] == "move.takeback_online"
    daily = WebApi()
    table = call(daily, "daily", {"date": "2026-12-03"})
    assert table["seed"] == daily_seed("2026-12-03")
    view = call(daily, "new_game", {"seed": table["seed"], "seats": table["seats"]})
    view = step_to_person(daily)
    call(daily, "bid", {"bid": view["legal_bids"][0]})
    view = call(daily, "state")
    assert view["can_take_back"] is False and view["take_back_rule"] == "move.takeback_daily"
    assert refused(daily, "take_back")["code"] == "move.takeback_daily"
    practice = WebApi()
    view = call(practice, "new_game", {"seed": "not-daily", "players": 4})
    assert view["take_back_rule"] is None


def test_the_host_resumes_its_table_from_the_record_with_its_guests_seats() -> None:
    api, _ = online_table("online-resume")
    assert to_guest(api)["to_act"] == 1
    call(api, "seat_bid", {"seat": 1, "bid": 1})
    record = call(api, "export_record")["record"]
    host = WebApi()
    view = call(host, "import_record", {"record": record, "remote": [1, 2]})
    assert view["remote"] == [1, 2] and view["to_act"] == 2
    assert call(host, "seat_bid", {"seat": 2, "bid": 0})["bids"][2] == 0
    for remote, code in (([3], "online.remote_not_person"), ([0, 1, 2], "online.no_host_seat"),
                         (["x"], "online.remote_not_person"), ("1", "online.remote_shape")):
        assert refused(WebApi(), "import_record", {"record": record, "remote": remote})[
            "code"] == code


def test_new_game_checks_the_remote_seats() -> None:
    err = refused(WebApi(), "new_game", {"seats": ["remote", "remote", "medium"]})
    assert err["code"] == "table.no_human"
    view = call(WebApi(), "new_game", {"seats": ["remote", "human", "easy"]})
    assert view["remote"] == [0] and view["viewer"] == 1


def test_seat_views_answers_several_seats_and_the_public_view_at_once() -> None:
    api, _ = online_table("online-views")
    to_guest(api)
    both = call(api, "seat_views", {"seats": [2, 1], "public": True})
    assert both["views"] == [call(api, "seat_view", {"seat": 2}),
                             call(api, "seat_view", {"seat": 1})]
    assert both["public"] == call(api, "public_view")
    assert call(api, "seat_views", {"seats": [1]})["public"] is None
    assert call(api, "seat_views", {"seats": []}) == {"views": [], "public": None}
    # each seat is checked as seat_view checks it; a bad list is refused whole
    assert refused(api, "seat_views", {"seats": [1, 3]})["code"] == "online.not_a_person"
    assert refused(api, "seat_views", {"seats": [1, 9]})["code"] == "online.bad_seat"
    assert refused(api, "seat_views", {"seats": "1"})["code"] == "online.bad_seat"
    assert refused(api, "seat_views", {"seats": [1] * 5})["code"] == "online.bad_seat"
    assert refused(api, "seat_views", {"seats": [1], "public": 1})["code"] == "online.bad_seat"


def test_with_views_makes_the_move_and_answers_the_guests_views_after_it() -> None:
    api, _ = online_table("online-along")
    twin, _ = online_table("online-along")  # the same table, asked one request at a time
    view = to_guest(api)
    to_guest(twin)
    seat = view["to_act"]
    own = call(api, "seat_view", {"seat": seat})
    kind, payload = move_for(own)
    move = {"seat": seat, **payload}
    both = call(api, "with_views", {"request": f"seat_{kind}", "payload": move,
                                    "seats": [1, 2], "public": True})
    assert both["result"] == call(twin, f"seat_{kind}", move)
    assert both["views"] == call(twin, "seat_views", {"seats": [1, 2], "public": True})
    assert both["views"]["views"][0]["step"] == view["step"] + 1
    # a refused move is refused as alone, and changes nothing
    again = refused(api, "with_views", {"request": f"seat_{kind}", "payload": move,
                                        "seats": [1, 2]})
    assert again["code"] == refused(twin, f"seat_{kind}", move)["code"]
    assert call(api, "state") == call(twin, "state")
    # views for seats that are not people's: the move is made, no views
    step = step_to_person(api)
    while step["to_act"] != 0:
        guest = call(api, "seat_view", {"seat": step["to_act"]})
        kind, payload = move_for(guest)
        call(api, f"seat_{kind}", {"seat": step["to_act"], **payload})
        step = step_to_person(api)
    answer = call(api, "with_views", {"request": move_for(step)[0],
                                      "payload": move_for(step)[1], "seats": [3]})
    assert answer["views"] is None and answer["result"]["step"] == step["step"] + 1
    # only the table's moves travel this way
    for request in ("new_game", "export_record", "with_views", None):
        assert refused(api, "with_views", {"request": request})["code"] == "request.unknown_type"
    assert refused(api, "with_views", {"request": "bot_step", "payload": []})["code"] == \
        "request.payload_not_object"
