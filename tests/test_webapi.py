"""The JSON facade of the web worker: views, moves, errors, records, deals."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from api_calls import call

import jabberwocky
from jabberwocky.bots import BOTS_VERSION
from jabberwocky.core.cards import card_name, cards_of
from jabberwocky.core.game import Game, trick_winner
from jabberwocky.core.messages import Message
from jabberwocky.drivers.cli import main as cli_main
from jabberwocky.webapi import MAX_REQUEST_CHARS, WebApi, default_level, import_everything

ALL_CARDS = {card_name(c) for c in range(52)}


def sentences(codes: dict[str, Any]) -> dict[str, str]:
    """The English sentences of a view's reason codes (the view sends codes only; the page
    words them from its catalogue, the engine's English is the same catalogue's)."""
    return {k: str(Message(m["code"], **m["params"])) for k, m in codes.items()}


def error(api: WebApi, kind: str, payload: Any = None, raw: str | None = None) -> dict[str, str]:
    """The error of a request that must fail."""
    text = raw if raw is not None else json.dumps(payload if payload is not None else {})
    reply = json.loads(api.handle(kind, text))
    assert "error" in reply, reply
    err: dict[str, str] = reply["error"]
    assert set(err) == {"kind", "message", "code", "params"} and err["message"] and err["code"]
    return err


def card_strings(value: Any) -> set[str]:
    """Every string (value or key) in a JSON structure that names a card."""
    out: set[str] = set()
    if isinstance(value, str):
        if value in ALL_CARDS:
            out.add(value)
    elif isinstance(value, list):
        for v in value:
            out |= card_strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            out |= card_strings(k) | card_strings(v)
    return out


def visible_cards(game: Game) -> set[str]:
    """What seat 0 may see: its hand, this round's played cards, every trump card turned."""
    seen = set(cards_of(game.hands[0])) | {game.trump_card} | set(game.trick)
    for trick in game.tricks:
        seen |= set(trick.cards)
    seen |= {r.trump_card for r in game.results}
    return {card_name(c) for c in seen}


def play_through(api: WebApi, choose_last: bool = False,
                 check: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Play the whole game (seat 0 takes the first or last legal move); every view.

    ``check``, if given, is called on each view before the next move."""
    views = [call(api, "state")]
    for _ in range(2000):
        view = views[-1]
        if check is not None:
            check(view)
        if view["phase"] == "game-over":
            return views
        if view["phase"] == "round-over":
            views.append(call(api, "next_round"))
        elif view["your_turn"]:
            pick = -1 if choose_last else 0
            if view["phase"] == "bidding":
                views.append(call(api, "bid", {"bid": view["legal_bids"][pick]}))
            else:
                views.append(call(api, "play", {"card": view["legal_cards"][pick]}))
        else:
            step = call(api, "bot_step")
            assert step["action"] is not None
            views.append(step["view"])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("seed", "players", "choose_last"),
                         [("hidden-1", 3, False), ("hidden-2", 4, True), ("hidden-3", 5, False)])
def test_views_never_show_a_hidden_card(seed: str, players: int, choose_last: bool) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": seed, "players": players, "bots": "random"})
    assert api.game is not None

    def no_leak(view: dict[str, Any]) -> None:
        assert api.game is not None
        leaked = card_strings(view) - visible_cards(api.game)
        assert not leaked, f"view shows hidden cards {leaked}"

    views = play_through(api, choose_last, check=no_leak)
    assert views[-1]["phase"] == "game-over"


def test_a_full_game_through_the_api() -> None:
    api = WebApi()
    first = call(api, "new_game", {"seed": "full game", "players": 4, "bots": "random"})
    assert first["phase"] == "bidding" and first["round"] == 1 and first["rounds"] == 13
    assert first["seats"] == ["human", "random", "random", "random"]
    # no English names: the page names the viewer "You" and the others in its own words
    assert "names" not in first and first["viewer"] == 0 and first["player_names"] == [None] * 4
    assert len(first["hand"]) == 3 and first["hand_counts"] == [3, 3, 3, 3]
    assert first["trump_suit"] == first["trump_card"][1]
    views = play_through(api)
    last = views[-1]
    assert last["phase"] == "game-over"
    assert len(last["history"]) == 13
    assert last["history"][-1]["totals"] == last["scores"]
    assert sum(sum(h["taken"]) for h in last["history"]) == sum(
        [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3])
    best = max(last["scores"])
    assert last["winners"] == [s for s, v in enumerate(last["scores"]) if v == best]
    assert last["step"] == sum(4 * (1 + h) for h in [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3])
    steps = [v["step"] for v in views]
    assert steps == sorted(steps)
    assert last["round_result"] == {k: last["history"][-1][k] for k in ("bids", "taken", "points")}
    assert call(api, "bot_step")["action"] is None


def test_view_fields_during_play() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "fields", "players": 4, "bots": ["random"] * 3})
    while not (view["phase"] == "playing" and view["your_turn"] and view["trick"]["cards"]):
        if view["your_turn"]:
            if view["phase"] == "bidding":
                view = call(api, "bid", {"bid": view["legal_bids"][0]})
            else:
                view = call(api, "play", {"card": view["legal_cards"][0]})
        elif view["phase"] == "round-over":
            view = call(api, "next_round")
        else:
            view = call(api, "bot_step")["view"]
    assert set(view["legal_cards"]) <= set(view["hand"])
    assert set(view["illegal_reason_codes"]) == set(view["hand"]) - set(view["legal_cards"])
    assert view["renege_cards"] == []  # no honour rule
    led = view["trick"]["cards"][0][1]
    if any(c[1] == led for c in view["hand"]):
        assert all(c[1] == led for c in view["legal_cards"])


def test_illegal_card_gives_the_engine_reason() -> None:
    api = WebApi()
    for i in range(200):
        view = call(api, "new_game", {"seed": f"illegal-{i}", "players": 4, "bots": "random"})
        while view["phase"] in ("bidding", "playing"):
            if view["your_turn"] and view["phase"] == "playing" and view["illegal_reason_codes"]:
                card, reason = next(iter(sentences(view["illegal_reason_codes"]).items()))
                err = error(api, "play", {"card": card})
                assert err["kind"] == "IllegalMoveError"
                assert err["message"] == reason
                assert "follow" in reason or "trump is not broken" in reason
                assert call(api, "state") == view  # nothing lost
                return
            if view["your_turn"]:
                if view["phase"] == "bidding":
                    view = call(api, "bid", {"bid": view["legal_bids"][0]})
                else:
                    view = call(api, "play", {"card": view["legal_cards"][0]})
            else:
                view = call(api, "bot_step")["view"]
    raise AssertionError("no position with an illegal card was found")


def test_hook_rule_reason_for_the_dealer() -> None:
    api = WebApi()
    for i in range(200):
        view = call(api, "new_game", {"seed": f"hook-{i}", "players": 3, "bots": "random"})
        if view["dealer"] != 0:
            continue
        while not view["your_turn"]:
            view = call(api, "bot_step")["view"]
        if not view["bid_reason_codes"]:
            continue
        bid, reason = next(iter(sentences(view["bid_reason_codes"]).items()))
        assert int(bid) not in view["legal_bids"]
        err = error(api, "bid", {"bid": int(bid)})
        assert err["kind"] == "IllegalMoveError" and err["message"] == reason
        assert err["code"] == "move.hook" == view["bid_reason_codes"][bid]["code"]
        assert reason.startswith(f"the dealer may not bid {bid}")
        return
    raise AssertionError("no seed made seat 0 a hooked dealer")


def test_moves_out_of_turn_are_refused() -> None:
    api = WebApi()
    for i in range(50):
        view = call(api, "new_game", {"seed": f"turn-{i}", "players": 4, "bots": "random"})
        if not view["your_turn"]:
            break
    err = error(api, "bid", {"bid": 0})
    assert err["kind"] == "IllegalMoveError" and "not your turn" in err["message"]
    err = error(api, "play", {"card": view["hand"][0]})
    assert err["kind"] == "IllegalMoveError"
    assert set(sentences(view["illegal_reason_codes"]).values()) == {
        "it is not time to play a card: the game is in the bidding phase"}
    assert error(api, "next_round")["kind"] == "IllegalMoveError"


def test_hint_is_a_legal_move() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "hint", "players": 4, "bots": "random"})
    while not view["your_turn"]:
        view = call(api, "bot_step")["view"]
    hint = call(api, "hint")
    assert hint["kind"] == "bid" and hint["suggestion"] in view["legal_bids"]
    assert hint["level"] in call(api, "levels")["levels"]
    while not (view["your_turn"] and view["phase"] == "playing"):
        if view["your_turn"]:
            view = call(api, "bid", {"bid": view["legal_bids"][0]})
        else:
            view = call(api, "bot_step")["view"]
    hint = call(api, "hint")
    assert hint["kind"] == "card" and hint["suggestion"] in view["legal_cards"]
    play_through(api)
    err = error(api, "hint")
    assert err["kind"] == "IllegalMoveError" and "nothing to decide" in err["message"]


def test_export_import_round_trip() -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "round trip ♠/x", "players": 5, "bots": "random"})
    views = play_through(api)
    # mid-game: replay the first 40 views' worth of moves in a second table
    api2 = WebApi()
    call(api2, "new_game", {"seed": "round trip ♠/x", "players": 5, "bots": "random"})
    for _ in range(40):
        view = call(api2, "state")
        if view["your_turn"]:
            if view["phase"] == "bidding":
                call(api2, "bid", {"bid": view["legal_bids"][0]})
            else:
                call(api2, "play", {"card": view["legal_cards"][0]})
        elif view["phase"] == "round-over":
            call(api2, "next_round")
        else:
            call(api2, "bot_step")
    exported = call(api2, "export_record")
    assert exported["filename"] == "jabberwocky-round-trip-x.json"
    api3 = WebApi()
    assert call(api3, "import_record", {"record": exported["record"]}) == call(api2, "state")
    assert call(api3, "export_record") == exported
    finished = call(api, "export_record")
    api4 = WebApi()
    assert call(api4, "import_record", {"record": finished["record"]}) == views[-1]


def test_import_of_a_bots_only_record_makes_seat_0_human() -> None:
    game = Game("bots only", 3, seats=["random", "random", "random"])
    game.bid(game.legal_bids()[0])
    from jabberwocky.formats.record import dumps

    api = WebApi()
    view = call(api, "import_record", {"record": dumps(game)})
    assert view["seats"][0] == "human"


def test_import_refuses_a_record_that_holds_no_move() -> None:
    from jabberwocky.formats.record import dumps

    api = WebApi()
    call(api, "new_game", {"seed": "kept", "players": 4, "bots": "random"})
    stub = json.dumps({"format": "jabberwocky-game/1", "seed": "x", "players": 4})
    for text in (stub, dumps(Game("no move yet", 4))):
        err = error(api, "import_record", {"record": text})
        assert err["kind"] == "RecordError" and err["code"] == "record.no_moves"
    assert call(api, "state")["seed"] == "kept"


def test_the_autosave_resumes_a_game_before_its_first_move() -> None:
    """A reload before the first bid: the page's own save (``saved: true``) holds no move
    yet and resumes the very deal; a file without a move is still refused (above)."""
    api = WebApi()
    dealt = call(api, "new_game", {"seed": "reload-first", "players": 4, "bots": "random"})
    record = call(api, "export_record", {})["record"]
    call(api, "new_game", {"seed": "another", "players": 3, "bots": "random"})
    view = call(api, "import_record", {"record": record, "saved": True})
    assert view["seed"] == "reload-first" and view["step"] == 0
    assert view["hand"] == dealt["hand"] and view["trump_card"] == dealt["trump_card"]
    err = error(api, "import_record", {"record": record, "saved": "yes"})
    assert err["code"] == "record.no_moves"  # only the flag itself, not any truthy value


def test_check_record_says_what_import_would_do_and_leaves_the_table() -> None:
    from jabberwocky.formats.record import dumps

    api = WebApi()
    call(api, "new_game", {"seed": "kept", "players": 4, "bots": "random"})
    before = call(api, "state")
    game = Game("checked", 3, seats=["human", "random", "random"])
    game.bid(game.legal_bids()[0])
    assert call(api, "check_record", {"record": dumps(game)}) == {
        "seed": "checked", "players": 3, "step": 1}
    stub = json.dumps({"format": "jabberwocky-game/1", "seed": "x", "players": 4})
    for text, code in ((stub, "record.no_moves"), ("{", "record.not_json"),
                       (json.dumps({"format": "jabberwocky-game/1", "seed": "x"}),
                        "record.missing")):
        err = error(api, "check_record", {"record": text})
        assert err["kind"] == "RecordError" and err["code"] == code, err
    assert call(api, "state") == before  # nothing was replaced


def test_deal_matches_the_cli() -> None:
    api = WebApi()
    for seed, players in (("hello", 4), ("ünïcode ♥", 3), ("", 5)):
        out = io.StringIO()
        assert cli_main(["deal", "--seed", seed, "--players", str(players), "--json"],
                        out=out) == 0
        assert call(api, "deal", {"seed": seed, "players": players}) == json.loads(out.getvalue())


def test_levels_and_default() -> None:
    levels = call(WebApi(), "levels")
    assert levels["levels"][0] == "random"
    assert levels["default"] == default_level() and levels["default"] in levels["levels"]
    if "hard" in levels["levels"] and len(levels["levels"]) > 1:
        assert levels["default"] != "hard"


def test_new_game_without_seed_draws_a_readable_one() -> None:
    view = call(WebApi(), "new_game", {"players": 3, "bots": "random"})
    assert view["seed"] and view["seed"].count("-") == 3


@pytest.mark.parametrize(("kind", "payload", "error_kind", "words"), [
    ("fly", {}, "RequestError", "unknown request type"),
    ("state", {}, "RequestError", "no game yet"),
    ("new_game", {"players": "4"}, "SeedError", "players cannot play"),
    ("new_game", {"players": True}, "SeedError", "players cannot play"),
    ("new_game", {"players": 6}, "SeedError", "choose 3 to 5"),
    ("new_game", {"players": 4, "bots": "grandmaster"}, "SeedError", "unknown"),
    ("new_game", {"players": 4, "bots": ["random"]}, "SeedError", "one per bot seat"),
    ("new_game", {"players": 4, "bots": 3}, "SeedError", "level name"),
    ("new_game", {"players": 4, "bots": "random", "seed": 12}, "SeedError", "text"),
    ("new_game", {"players": 4, "bots": "random", "seed": "x" * 201}, "SeedError", "at most"),
    ("new_game", {"players": 4, "bots": "random", "rules": "bridge"}, "RulesetError",
     "no ruleset"),
    ("new_game", {"players": 4, "bots": "random", "rules": {"hook": "yes"}}, "RulesetError",
     "hook"),
    ("import_record", {"record": 5}, "RequestError", "record must be"),
    ("import_record", {"record": "{}"}, "RecordError", "not a Jabberwocky game record"),
    ("import_record", {"record": "not json"}, "RecordError", "not valid JSON"),
    ("deal", {"players": 4}, "SeedError", "deal code"),
])
def test_bad_input_gets_a_clear_error(kind: str, payload: Any, error_kind: str,
                                      words: str) -> None:
    err = error(WebApi(), kind, payload)
    assert err["kind"] == error_kind
    assert words in err["message"]


def test_bad_moves_and_payloads_keep_the_game() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "keep", "players": 4, "bots": "random"})
    while not view["your_turn"]:
        view = call(api, "bot_step")["view"]
    cases = [
        ("bid", {"bid": "1"}, "IllegalMoveError", "whole number"),
        ("bid", {"bid": 99}, "IllegalMoveError", "whole number"),
        ("bid", {}, "IllegalMoveError", "whole number"),
        ("play", {"card": "ZZ"}, "CardError", "is not a card"),
        ("play", {"card": ["QH"]}, "CardError", "two-character"),
    ]
    for kind, payload, error_kind, words in cases:
        err = error(api, kind, payload)
        assert err["kind"] == error_kind and words in err["message"], err
    for raw in ("[1, 2]", "{", '"text"', "[" * 50_000 + "]" * 50_000,
                " " * (MAX_REQUEST_CHARS + 1)):
        assert error(api, "bid", raw=raw)["kind"] == "RequestError"
    assert call(api, "state") == view


def test_internal_errors_are_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "bug", "players": 4, "bots": "random"})

    def broken() -> dict[str, Any]:
        raise KeyError("oops")

    monkeypatch.setattr(api, "view", broken)
    err = error(api, "state")
    assert err["kind"] == "InternalError" and "oops" in err["message"]


def test_results_that_are_not_json_become_internal_errors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": "nan", "players": 4, "bots": "random"})
    monkeypatch.setattr(api, "view", lambda: {"x": float("nan")})
    err = error(api, "state")
    assert err["kind"] == "InternalError"


def test_import_everything_imports_every_module_but_main() -> None:
    # the worker runs it before a memory snapshot: a restored engine must need no file
    package = Path(jabberwocky.__file__).parent
    expected = {
        ".".join(("jabberwocky", *path.relative_to(package).with_suffix("").parts))
        .removesuffix(".__init__")
        for path in package.rglob("*.py") if path.name != "__main__.py"}
    names = import_everything()
    assert set(names) == expected and names == sorted(names)
    assert "jabberwocky.drivers.cli" in names and "jabberwocky.bots.hard" in names
    assert all(name in sys.modules for name in names)


def test_the_view_names_the_games_bots_version() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "versions", "players": 3, "bots": "random"})
    assert view["bots_version"] == call(api, "levels")["bots_version"] == BOTS_VERSION
    # a record to import holds a move
    if view["your_turn"]:
        call(api, "bid", {"bid": view["legal_bids"][0]})
    else:
        call(api, "bot_step")
    record = json.loads(call(api, "export_record")["record"])
    older = {k: v for k, v in record.items() if k != "bots_version"}
    assert call(api, "import_record", {"record": json.dumps(older)})["bots_version"] is None
    other = dict(record, bots_version="jabberwocky-bots/9")
    view = call(api, "import_record", {"record": json.dumps(other)})
    assert view["bots_version"] == "jabberwocky-bots/9"
    assert json.loads(call(api, "export_record")["record"])["bots_version"] == "jabberwocky-bots/9"


def test_view_names_the_rounds_tricks_and_who_is_winning_the_current_one() -> None:
    api = WebApi()
    view = call(api, "new_game", {"seed": "view-tricks", "players": 4, "bots": "random"})
    seen_winning = False
    while view["phase"] in ("bidding", "playing"):
        game = api.game
        assert game is not None
        assert view["tricks"] == [
            {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner}
            for t in game.tricks]
        if view["trick"]["cards"]:
            expected = trick_winner(game.trick, game.leader, game.players, game.trump_suit)
            assert view["trick"]["winning"] == expected
            seen_winning = True
        else:
            assert view["trick"]["winning"] is None
        if view["your_turn"]:
            if view["phase"] == "bidding":
                view = call(api, "bid", {"bid": view["legal_bids"][0]})
            else:
                view = call(api, "play", {"card": view["legal_cards"][0]})
        else:
            view = call(api, "bot_step")["view"]
    assert seen_winning and len(view["tricks"]) == 3


def test_a_card_hint_says_why_in_words_that_fit_the_position() -> None:
    api = WebApi()
    seen: set[str] = set()
    for i in range(30):
        view = call(api, "new_game", {"seed": f"why-{i}", "players": 4, "bots": "random"})
        while view["phase"] in ("bidding", "playing"):
            if view["your_turn"] and view["phase"] == "playing":
                hint = call(api, "hint")
                reason = hint["reason"]
                assert reason["code"].startswith("hint.reason.")
                assert reason["params"]["card"] == hint["suggestion"]
                message = jabberwocky.core.messages.Message(reason["code"], **reason["params"])
                assert "hint.reason" not in str(message)  # an English sentence exists
                if reason["code"] == "hint.reason.take":
                    assert view["trick"]["cards"], "taking a trick is said of a trick on the table"
                seen.add(reason["code"])
            if view["your_turn"]:
                kind = "bid" if view["phase"] == "bidding" else "play"
                arg = ({"bid": view["legal_bids"][0]} if kind == "bid"
                       else {"card": view["legal_cards"][0]})
                view = call(api, kind, arg)
            else:
                view = call(api, "bot_step")["view"]
            if view["phase"] == "round-over":
                break
    assert len(seen) >= 4, seen


def test_the_last_trick_says_why_its_winner_took_it() -> None:
    """``last_trick.why``: "trump" when the winning card is a trump, else "led" (the
    highest of the suit led); seen for both over a game of random bots."""
    api = WebApi()
    view = call(api, "new_game", {"seed": "why", "players": 4, "bots": ["random"] * 3})
    seen: set[str] = set()
    while view["phase"] != "game-over" and len(seen) < 2:
        last = view["last_trick"]
        if last is not None:
            card = last["cards"][(last["winner"] - last["leader"]) % 4]
            trump = view["trump_suit"]
            assert last["why"] == ("trump" if card[1] == trump else "led"), last
            if last["why"] == "led":
                assert all(c[1] != trump for c in last["cards"]), last
                assert card[1] == last["cards"][0][1]
            seen.add(last["why"])
        if view["your_turn"]:
            if view["phase"] == "bidding":
                view = call(api, "bid", {"bid": view["legal_bids"][0]})
            else:
                view = call(api, "play", {"card": view["legal_cards"][0]})
        elif view["phase"] == "round-over":
            view = call(api, "next_round")
        else:
            view = call(api, "bot_step")["view"]
    assert seen == {"trump", "led"}
