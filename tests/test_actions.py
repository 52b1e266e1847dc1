"""A game as its list of moves: replays give the same game; take-backs restore the
position before the human's move, and the bots then answer as they did."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_calls import call, refused
from hypothesis import given
from hypothesis import strategies as st

from jabberwocky.core.actions import Action, game_actions, last_action, options, replay, take_back
from jabberwocky.core.errors import IllegalMoveError, RecordError
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL
from jabberwocky.formats.record import dumps, loads, to_record
from jabberwocky.webapi import WebApi

RULES = {"jabberwocky": JABBERWOCKY, "oh-hell": OH_HELL, "honour": HONOUR}


def random_game(seed: str, players: int, rules_name: str, moves: int) -> Game:
    """``moves`` moves chosen among every allowed one (reneges included)."""
    game = Game(seed, players, RULES[rules_name], ["human"] + ["random"] * (players - 1))
    rng = Rng(len(seed) * 7919 + moves)
    for _ in range(moves):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            game.next_round()
        allowed = options(game)
        choice = allowed[rng.below(len(allowed))]
        (game.bid if game.phase == BIDDING else game.play)(choice)
    return game


SEEDS = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12)
GAMES = st.builds(random_game, SEEDS,
                  st.integers(3, 5), st.sampled_from(sorted(RULES)), st.integers(0, 400))


@given(GAMES)
def test_replaying_the_moves_gives_the_same_game(game: Game) -> None:
    actions = game_actions(game)
    again = replay(game, actions)
    assert game_actions(again) == actions
    if game.phase != ROUND_OVER or again.phase == ROUND_OVER:
        assert dumps(again) == dumps(game)
    for a in actions:
        assert a.kind in ("bid", "card") and 0 <= a.seat < game.players


@given(GAMES)
def test_a_take_back_is_the_game_just_before_the_move(game: Game) -> None:
    actions = game_actions(game)
    humans = {0}
    last = max((i for i, a in enumerate(actions) if a.seat in humans), default=None)
    if last is None:
        with pytest.raises(IllegalMoveError) as err:
            take_back(game, humans)
        assert err.value.code == "move.takeback_none"
        return
    back = take_back(game, humans)
    assert game_actions(back) == actions[:last]
    assert back.to_act == 0 and back.round_index == actions[last].round_index
    assert back.phase in (BIDDING, PLAYING)
    assert back.takebacks == game.takebacks + 1
    # the move taken back is allowed again, and making it gives the game back
    (back.bid if actions[last].kind == "bid" else back.play)(actions[last].value)
    assert game_actions(back) == actions[: last + 1]


def test_last_action_looks_back_across_rounds() -> None:
    game = random_game("across", 4, "jabberwocky", 60)
    actions = game_actions(game)
    for seats in ({0}, {1, 2}, {3}):
        expected = next((a for a in reversed(actions) if a.seat in seats), None)
        assert last_action(game, seats) == expected
    assert last_action(Game("fresh", 4), {0}) is None


def test_options_are_the_legal_moves_in_order() -> None:
    game = Game("options", 4, HONOUR)
    assert options(game) == game.legal_bids()
    while game.phase == BIDDING:
        game.bid(options(game)[0])
    assert options(game) == sorted(game.legal_cards())
    assert Action(0, 1, "bid", 2).value == 2


# -- take-backs through the facade: the previous position exactly -----------------------


def settle(api: WebApi) -> dict[str, Any]:
    """Let the bots act (and deal) until the human must act or the game is over."""
    view: dict[str, Any] = call(api, "state")
    while True:
        if view["phase"] == "round-over":
            view = call(api, "next_round")
        elif view["phase"] == "game-over" or view["your_turn"]:
            return view
        else:
            view = call(api, "bot_step")["view"]


POSITION = ("takebacks", "can_take_back")
"""The view's fields about take-backs themselves (everything else is the position)."""


def position(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in POSITION}


@pytest.mark.parametrize(("seed", "level"), [("undo-1", "medium"), ("undo-2", "easy")])
def test_a_take_back_restores_the_previous_position_exactly(seed: str, level: str) -> None:
    api = WebApi()
    call(api, "new_game", {"seed": seed, "players": 4, "bots": level})
    view = settle(api)
    assert view["can_take_back"] is False and view["takebacks"] == 0
    assert refused(api, "take_back")["code"] == "move.takeback_none"
    rng = Rng(99)
    taken = 0
    while view["phase"] != "game-over":
        before, record = view, to_record(api.game)  # type: ignore[arg-type]
        if view["phase"] == "bidding":
            move: dict[str, Any] = {"bid": view["legal_bids"][-1]}
            kind = "bid"
        else:
            move, kind = {"card": view["legal_cards"][-1]}, "play"
        call(api, kind, move)
        after = settle(api)
        if rng.below(4) == 0:  # take it back, then make the same move again
            back = call(api, "take_back")
            taken += 1
            assert position(back) == position(before)
            assert back["takebacks"] == taken
            again = to_record(api.game)  # type: ignore[arg-type]
            assert {**again, "takebacks": 0} == {**record, "takebacks": 0}
            call(api, kind, move)
            assert position(settle(api)) == position(after)  # the bots answer the same
        view = settle(api)
    text = call(api, "export_record")["record"]
    assert json.loads(text)["takebacks"] == taken > 0
    assert loads(text).takebacks == taken


def test_records_without_takebacks_say_nothing_and_bad_counts_are_refused() -> None:
    game = random_game("plain", 4, "jabberwocky", 30)
    data = to_record(game)
    assert "takebacks" not in data and "names" not in data and "challenge" not in data
    for bad, code in ((-1, "record.takebacks"), (10**12, "record.takebacks"),
                      (True, "record.not_whole"), (1.0, "record.not_whole")):
        with pytest.raises(RecordError) as err:
            loads(json.dumps({**data, "takebacks": bad}))
        assert err.value.code == code
    assert loads(json.dumps({**data, "takebacks": 3})).takebacks == 3
