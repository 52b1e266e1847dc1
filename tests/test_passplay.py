"""Pass-and-play: several human seats, each view built from the acting human's
observation, a hand-off (no hand shown at all) between two humans, names checked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_calls import call, refused

from jabberwocky.core.cards import card_name, cards_of, sort_for_display
from jabberwocky.core.errors import SeedError
from jabberwocky.core.game import Game
from jabberwocky.core.table import MAX_NAME_LENGTH, check_name
from jabberwocky.webapi import WebApi

ALL_CARDS = {card_name(c) for c in range(52)}


def card_strings(value: Any) -> set[str]:
    """Every string (value or key) in a JSON structure that names a card."""
    if isinstance(value, str):
        return {value} & ALL_CARDS
    if isinstance(value, list):
        return set().union(*(card_strings(v) for v in value))
    if isinstance(value, dict):
        return set().union(*(card_strings(k) | card_strings(v) for k, v in value.items()))
    return set()


def visible_to(game: Game, seat: int) -> set[str]:
    """What ``seat`` may see: its hand, this round's played cards, every trump turned."""
    seen = set(cards_of(game.hands[seat])) | {game.trump_card} | set(game.trick)
    for trick in game.tricks:
        seen |= set(trick.cards)
    seen |= {r.trump_card for r in game.results}
    return {card_name(c) for c in seen}


def public(game: Game) -> set[str]:
    seen = {game.trump_card} | set(game.trick) | {r.trump_card for r in game.results}
    for trick in game.tricks:
        seen |= set(trick.cards)
    return {card_name(c) for c in seen}


PRIVATE = ("hand", "legal_cards", "renege_cards", "legal_bids")


def play_pass_and_play(api: WebApi) -> tuple[list[dict[str, Any]], int]:
    """Play to the end as a page would: a hand-off is acknowledged with ``reveal``
    before the human acts.  Returns every view and the number of hand-offs; checks on
    every view that it shows no card its viewer may not see, and none at a hand-off."""
    game = api.game
    assert game is not None
    views = [call(api, "state")]
    handoffs = 0
    for _ in range(3000):
        view = views[-1]
        game = api.game
        assert game is not None
        viewer = view["viewer"]
        assert game.seats[viewer] == "human"
        if view["handoff"]:
            assert all(not view[k] for k in PRIVATE) and not view["illegal_reason_codes"]
            assert not view["your_turn"]
            assert card_strings(view) <= public(game)
            if view["phase"] in ("bidding", "playing"):
                assert refused(api, "bid" if view["phase"] == "bidding" else "play",
                               {"bid": 0} if view["phase"] == "bidding" else {"card": "2C"}
                               )["code"] == "move.handoff"
                assert refused(api, "hint")["code"] == "move.handoff"
            handoffs += 1
            views.append(call(api, "reveal"))
            continue
        assert card_strings(view) <= visible_to(game, viewer)
        assert view["hand"] == [card_name(c) for c in game_sorted(game, viewer)]
        if view["phase"] == "game-over":
            return views, handoffs
        if view["phase"] == "round-over":
            views.append(call(api, "next_round"))
        elif view["to_act"] is not None and game.seats[view["to_act"]] == "human":
            assert view["your_turn"] and view["viewer"] == view["to_act"]
            if view["phase"] == "bidding":
                views.append(call(api, "bid", {"bid": view["legal_bids"][0]}))
            else:
                views.append(call(api, "play", {"card": view["legal_cards"][-1]}))
        else:
            step = call(api, "bot_step")
            assert step["action"] is not None
            views.append(step["view"])
    raise AssertionError("the game did not end")


def game_sorted(game: Game, seat: int) -> list[int]:
    return sort_for_display(cards_of(game.hands[seat]), game.trump_suit)


@pytest.mark.parametrize("seats", [
    ["human", "medium", "human", "easy"],
    ["human", "human", "random"],
    ["random", "human", "human", "human", "human"],
    ["human"] * 5,
])
def test_every_human_sees_only_their_own_hand(seats: list[str]) -> None:
    api = WebApi()
    names = [f"P{s}" if k == "human" else None for s, k in enumerate(seats)]
    first = call(api, "new_game", {"seed": "pass " + "".join(k[0] for k in seats),
                                   "seats": seats, "names": names})
    assert first["handoff"] and first["hand"] == []  # the first human takes the device
    assert first["humans"] == [s for s, k in enumerate(seats) if k == "human"]
    assert first["player_names"] == names
    assert "names" not in first  # the page names the unnamed seats in its own words
    _views, handoffs = play_pass_and_play(api)
    assert handoffs > 13  # at least one a round
    record = json.loads(call(api, "export_record")["record"])
    assert record["seats"] == seats and record["names"] == names
    again = WebApi()
    restored = call(again, "import_record", {"record": json.dumps(record)})
    assert restored["humans"] == first["humans"] and restored["handoff"]


def test_one_human_needs_no_hand_off_and_sits_anywhere() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "solo", "seats": ["medium", "human", "easy", "random"]})
    assert view["viewer"] == 1 and not view["handoff"] and len(view["hand"]) == 3
    assert "names" not in view  # the page calls its viewer "You"
    views, handoffs = play_pass_and_play(api)
    assert handoffs == 0 and all(v["viewer"] == 1 for v in views)


def test_the_usual_game_is_unchanged() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "usual", "players": 4, "bots": "random"})
    assert view["viewer"] == 0 and view["humans"] == [0] and not view["handoff"]
    assert "names" not in view  # "You", "Bot 1", ...: the page's words
    assert view["player_names"] == [None] * 4 and view["challenge"] is False


def test_the_viewer_stays_with_the_last_human_while_bots_act() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "stay", "seats": ["human", "easy", "easy", "human"]})
    game = api.game
    assert game is not None
    seen_bot_turns = 0
    for _ in range(200):
        view = call(api, "state")
        if view["phase"] != "bidding" and view["phase"] != "playing":
            break
        if view["handoff"]:
            call(api, "reveal")
            continue
        if game.seats[game.to_act] == "human":  # type: ignore[index]
            kind, payload = (("bid", {"bid": view["legal_bids"][0]}) if view["phase"] == "bidding"
                             else ("play", {"card": view["legal_cards"][0]}))
            call(api, kind, payload)
        else:
            before = view["viewer"]
            after = call(api, "bot_step")["view"]
            if game.to_act is not None and game.seats[game.to_act] != "human":
                assert after["viewer"] == before
                seen_bot_turns += 1
    assert seen_bot_turns > 0


def test_hints_are_for_the_acting_human() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "hint pp", "seats": ["human", "human", "medium"]})
    view = call(api, "reveal")
    hint = call(api, "hint")
    assert hint["kind"] == "bid" and hint["suggestion"] in view["legal_bids"]


@pytest.mark.parametrize(("payload", "code"), [
    ({"seats": ["medium", "medium", "medium"]}, "table.no_human"),
    ({"seats": ["human", "wizard", "medium"]}, "table.unknown_seat"),
    ({"seats": "human"}, "table.seats_shape"),
    ({"seats": ["human", "medium", "medium"], "players": 4}, "table.seat_count"),
    ({"seats": ["human", "medium", "medium"], "bots": "easy"}, "table.seats_and_bots"),
    ({"players": 3, "names": ["A", "B"]}, "table.name_count"),
    ({"players": 3, "names": "A"}, "table.names_shape"),
    ({"players": 3, "names": ["A\tB", None, None]}, "name.control"),
    ({"players": 3, "names": ["A\u202eB", None, None]}, "name.control"),
    ({"players": 3, "names": ["x" * 25, None, None]}, "name.too_long"),
    ({"players": 3, "names": ["   ", None, None]}, "name.blank"),
    ({"players": 3, "names": [7, None, None]}, "name.not_text"),
    ({"players": 3, "names": ["\ud800", None, None]}, "name.not_encodable"),
])
def test_bad_seats_and_names_are_refused(payload: dict[str, Any], code: str) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "keep", "players": 4})
    before = call(api, "state")
    assert refused(api, "new_game", payload)["code"] == code
    assert call(api, "state") == before


def test_names_are_plain_short_text() -> None:
    assert check_name("Maria") == "Maria"
    assert check_name(" Jiří Novák ") == " Jiří Novák "
    assert check_name("x" * MAX_NAME_LENGTH)
    for bad in ("", "\n", "a\u2028b", "a\x7fb", None, "\u2066x"):
        with pytest.raises(SeedError):
            check_name(bad)


def test_a_record_with_bad_names_is_refused() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "rec", "players": 3, "bots": "random",
                           "names": ["Ann", None, None]})
    record = json.loads(call(api, "export_record")["record"])
    assert record["names"] == ["Ann", None, None]
    for names, code in ((["A\nB", None, None], "name.control"),
                        (["Ann", None], "table.name_count"), ("Ann", "table.names_shape")):
        err = refused(api, "import_record", {"record": json.dumps({**record, "names": names})})
        assert err["code"] == code
