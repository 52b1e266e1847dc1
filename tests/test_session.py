"""The facade's session: seats of every kind through one code path, ``can_challenge``,
and one writer for every JSON of a game."""

from __future__ import annotations

import json
from typing import Any

from api_calls import call

from jabberwocky.analysis import review
from jabberwocky.core.game import Game
from jabberwocky.formats import gamejson
from jabberwocky.formats.challenge import can_challenge
from jabberwocky.formats.record import to_record
from jabberwocky.webapi import REQUESTS, Seat, Session, WebApi


def _finish_round(api: WebApi, view: dict[str, Any]) -> dict[str, Any]:
    while view["phase"] in ("bidding", "playing"):
        if view["handoff"]:
            view = call(api, "reveal")
        elif view["your_turn"]:
            view = (call(api, "bid", {"bid": view["legal_bids"][0]}) if view["phase"] == "bidding"
                    else call(api, "play", {"card": view["legal_cards"][0]}))
        else:
            view = call(api, "bot_step")["view"]
    return view


def test_can_challenge_once_a_round_is_over_with_one_person() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "can-challenge", "players": 3, "bots": "random"})
    assert view["can_challenge"] is False
    view = _finish_round(api, view)
    assert view["can_challenge"] is True and api.game is not None and can_challenge(api.game)
    call(api, "challenge_encode")  # the same rule lets the challenge be made
    two = call(api, "new_game", {"seed": "two", "seats": ["human", "human", "random"]})
    two = _finish_round(api, two)
    assert two["can_challenge"] is False
    answer = json.loads(api.handle("challenge_encode", "{}"))
    assert answer["error"]["code"] == "challenge.humans"


def test_seats_of_every_kind() -> None:
    game = Game("seats", 4, seats=["random", "human", "easy", "human"])
    session = Session(game)
    assert [s.kind for s in session.seats] == ["bot", "here", "bot", "here"]
    assert session.people() == session.here() == [1, 3] and session.shown is None
    assert session.handoff(session.viewer())
    solo = Session(Game("solo", 3, seats=["random", "random", "human"]))
    assert solo.shown == 2 and not solo.handoff(solo.viewer())
    # a person elsewhere is a person (no claim for two) but not this device's to show
    away = Session(Game("away", 3, seats=["human", "human", "random"]),
                   [Seat("here"), Seat("remote"), Seat("bot", "random", None)])
    assert away.people() == [0, 1] and away.here() == [0] and away.shown == 0
    view = away.view_of(1)
    assert view["viewer"] == 1 and len(view["hand"]) == 3 and view["humans"] == [0, 1]


def test_one_writer_for_every_json_of_a_game() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "one-writer", "players": 4, "bots": "random"})
    view = _finish_round(api, call(api, "next_round") if view["phase"] == "round-over" else view)
    game = api.game
    assert game is not None
    record = to_record(game)
    assert record["rounds"] == gamejson.record_rounds(game)
    assert view["history"] == gamejson.history_rows(game.results, game.players)
    assert review.observation_json is gamejson.observation_json
    trick = game.results[0].tricks[0]
    assert record["rounds"][0]["tricks"][0] == gamejson.trick_json(*trick)
    assert view["history"][0]["bids"] == gamejson.result_json(game.results[0])["bids"]


def test_the_request_names_and_no_english_in_a_view() -> None:
    assert "new_game" in REQUESTS and "stats" in REQUESTS and "daily_par" in REQUESTS
    assert len(REQUESTS) == 40
    api = WebApi()
    view = call(api, "new_game", {"seed": "no-english", "players": 4, "bots": "random"})
    for key in ("names", "illegal_reasons", "bid_reasons"):
        assert key not in view
