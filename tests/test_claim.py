"""Claiming the rest of a round: never accepted when it could fail, accepted when the cards
are sure winners, judged from the claimer's view only."""

from __future__ import annotations

import copy
import json
import sys

import pytest

from jabberwocky.analysis.claim import claim_order, why_claim_fails
from jabberwocky.bots import make_bot
from jabberwocky.core.game import Game, Phase
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.webapi import WebApi

EMSCRIPTEN = sys.platform == "emscripten"


def _play_out(game: Game, seat: int, order: list[int], k: int) -> None:
    round_index = game.round_index
    while game.phase is Phase.PLAYING and game.round_index == round_index:
        if game.to_act == seat:
            game.play(order.pop(0))
        else:  # the others play any legal card (reneges too, under the honour rule)
            legal = game.legal_cards()
            game.play(legal[k % len(legal)])
            k = k * 7 + 3


@pytest.mark.parametrize("rules", [JABBERWOCKY, OH_HELL, HONOUR], ids=lambda r: r.name)
def test_an_accepted_claim_wins_every_remaining_trick_whatever_the_others_play(
        rules: Ruleset) -> None:
    accepted = 0
    for i in range(40 if EMSCRIPTEN else 120):
        game = Game(f"claim-{rules.name}-{i}", 3 + i % 3, rules)
        bot = make_bot("random")
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.ROUND_OVER:
                game.next_round()
                continue
            seat = game.to_act
            assert seat is not None
            if game.phase is Phase.PLAYING:
                order = claim_order(game.observation(seat))
                if order is not None:
                    accepted += 1
                    for k in range(4):
                        trial = copy.deepcopy(game)
                        before = trial.taken[seat]
                        left = trial.hands[seat].bit_count()
                        _play_out(trial, seat, list(order), k)
                        assert trial.results[-1].taken[seat] == before + left
                else:
                    assert why_claim_fails(game.observation(seat)) is not None
            choice = bot.act(game.observation(seat))
            if game.phase is Phase.BIDDING:
                game.bid(choice)
            else:
                game.play(choice)
    assert accepted > 10, accepted


def test_sure_winners_can_be_claimed_and_the_facade_plays_the_round_out() -> None:
    api = WebApi()
    for i in range(400):
        view = json.loads(api.handle("new_game", json.dumps(
            {"seed": f"claimable-{i}", "players": 3, "bots": "random"})))["result"]
        while view["phase"] in ("bidding", "playing"):
            if view["your_turn"] and view["phase"] == "playing" and view["can_claim"]:
                taken = view["taken"][0]
                left = len(view["hand"])
                answer = json.loads(api.handle("claim", "{}"))
                assert "result" in answer, answer
                done = answer["result"]
                assert done["phase"] in ("round-over", "game-over")
                assert done["round_result"]["taken"][0] == taken + left
                return
            if view["your_turn"]:
                kind = "bid" if view["phase"] == "bidding" else "play"
                arg = {"bid": view["legal_bids"][0]} if kind == "bid" \
                    else {"card": view["legal_cards"][-1]}
                view = json.loads(api.handle(kind, json.dumps(arg)))["result"]
            else:
                view = json.loads(api.handle("bot_step", "{}"))["result"]["view"]
    raise AssertionError("no claimable position came up in 400 games")


def test_a_claim_that_is_not_certain_is_refused_and_nothing_moves() -> None:
    api = WebApi()
    view = json.loads(api.handle("new_game", json.dumps(
        {"seed": "no-claim", "players": 4, "bots": "random"})))["result"]
    while not (view["your_turn"] and view["phase"] == "playing" and not view["can_claim"]):
        if view["your_turn"]:
            bid = json.dumps({"bid": view["legal_bids"][0]})
            view = json.loads(api.handle("bid", bid))["result"]
        else:
            view = json.loads(api.handle("bot_step", "{}"))["result"]["view"]
    before = api.handle("export_record", "{}")
    error = json.loads(api.handle("claim", "{}"))["error"]
    assert error["code"] == "claim.not_certain"
    assert api.handle("export_record", "{}") == before
    bidding = json.loads(WebApi().handle("claim", "{}"))["error"]
    assert bidding["code"] == "request.no_game"
