"""The review: every step with every hand face up, the hard bot's view of each human
decision (deterministic, keyed by a digest), and exactly what each bot saw."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jabberwocky.analysis.review import analyse, digest, observation_json, seen, timeline
from jabberwocky.bots import make_bot
from jabberwocky.core.actions import game_actions, replay
from jabberwocky.core.cards import card_name, cards_of, parse_card
from jabberwocky.core.errors import ReviewError
from jabberwocky.core.game import BIDDING, GAME_OVER, ROUND_OVER, Game
from jabberwocky.core.rules import HONOUR, JABBERWOCKY
from jabberwocky.formats.record import dumps, loads, to_record

SHORT = JABBERWOCKY.with_options(schedule=(3, 2))
"""Two short rounds: a hard decision costs tens of milliseconds."""


def bot_game(seed: str, rules: Any = JABBERWOCKY, human: str = "easy",
             seats: tuple[str, ...] = ("human", "medium", "easy", "random")) -> Game:
    game = Game(seed, len(seats), rules, seats)
    bots = [make_bot(human if k == "human" else k) for k in seats]
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        seat = game.to_act
        assert seat is not None
        choice = bots[seat].act(game.observation(seat))
        (game.bid if game.phase == BIDDING else game.play)(choice)
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return bot_game("review me")


@pytest.fixture(scope="module")
def short() -> Game:
    return bot_game("short review", SHORT)


def test_the_timeline_has_every_step_with_every_hand(game: Game) -> None:
    data = timeline(game)
    json.dumps(data, allow_nan=False)
    actions = game_actions(game)
    steps = data["steps"]
    assert len(steps) == len(actions) == sum(4 * (1 + h) for h in JABBERWOCKY.schedule)
    record = to_record(game)
    for step, action in zip(steps, actions, strict=True):
        rnd = record["rounds"][action.round_index]
        assert (step["round"], step["seat"], step["kind"]) == (
            action.round_index + 1, action.seat, action.kind)
        hands = step["hands"]
        dealt = [set(h) for h in rnd["hands"]]
        assert all(set(h) <= d for h, d in zip(hands, dealt, strict=True))
        if action.kind == "card":
            assert step["value"] in hands[action.seat]  # the card came from that hand
            trick = step["trick"]
            listed = rnd["tricks"][trick["number"] - 1]
            assert trick["leader"] == listed["leader"]
            assert trick["cards"] == listed["cards"][:len(trick["cards"])]
            complete = len(trick["cards"]) == 4
            assert trick["winner"] == (listed["winner"] if complete else None)
        else:
            assert step["trick"] is None and step["bids"][action.seat] == step["value"]
        assert step["choices"] >= 1
    assert data["decisions"] == [i for i, a in enumerate(actions) if a.seat == 0]
    assert data["digest"] == digest(game) and data["winners"] == game.winners()


def test_the_rounds_index_every_trick(game: Game) -> None:
    data = timeline(game)
    assert len(data["rounds"]) == 13
    for rnd, res in zip(data["rounds"], game.results, strict=True):
        first = data["steps"][rnd["first_step"]]
        assert first["round"] == rnd["round"] and first["kind"] == "bid"
        assert len(rnd["tricks"]) == res.hand_size
        for number, at in enumerate(rnd["tricks"], 1):
            step = data["steps"][at]
            assert step["trick"]["number"] == number and len(step["trick"]["cards"]) == 1
        assert rnd["result"]["points"] == list(res.points)
        assert rnd["hands"] == data["steps"][rnd["first_step"]]["hands"]
    assert data["rounds"][-1]["result"]["totals"] == game.scores


def test_an_unfinished_record_is_reviewed_to_where_it_stops() -> None:
    game = bot_game("cut short")
    half = replay(game, game_actions(game)[:57])
    data = timeline(loads(dumps(half)))
    assert len(data["steps"]) == 57 and data["phase"] == half.phase.value


def test_the_analysis_of_a_decision_is_the_hard_bots_hint(short: Game) -> None:
    data = timeline(short)
    card_answers = 0
    for step in data["decisions"]:
        answer = analyse(short, step)
        assert answer["step"] == step and answer["level"] == "hard"
        assert answer["digest"] == data["digest"]
        chosen = data["steps"][step]["value"]
        assert answer["chosen"] == chosen
        assert answer["differs"] == (answer["suggestion"] != chosen)
        json.dumps(answer, allow_nan=False)
        if answer["forced"]:
            assert data["steps"][step]["choices"] == 1 and not answer["differs"]
        elif answer["kind"] == "bid":
            probs = answer["probabilities"]
            assert abs(sum(probs) - 1) < 1e-9
            assert len(probs) == len(data["steps"][step]["hands"][0]) + 1
            assert answer["chosen_odds"] == probs[chosen]
            assert answer["suggested_odds"] == probs[answer["suggestion"]]
        else:
            assert answer["suggestion"] in answer["card_scores"]
            assert answer["chosen_score"] == answer["card_scores"].get(chosen)
            chances = answer["card_chances"]
            assert set(chances) in (set(), set(answer["card_scores"]))
            assert all(0.0 <= p <= 1.0 for p in chances.values())
            assert answer["chosen_chance"] == chances.get(chosen)
            assert answer["suggested_chance"] == chances.get(answer["suggestion"])
            # the hard bot plays its cards for the game: each card's chance of winning it
            wins = answer["card_wins"]
            assert set(wins) == set(chances)
            assert all(0.0 <= p <= 1.0 for p in wins.values())
            assert answer["chosen_win"] == wins.get(chosen)
            assert answer["suggested_win"] == wins.get(answer["suggestion"])
            card_answers += bool(chances)
    assert card_answers > 0  # some card decision was worked out, with its chances


def test_the_analysis_is_deterministic(short: Game) -> None:
    step = timeline(short)["decisions"][0]
    first = analyse(short, step)
    assert analyse(loads(dumps(short)), step) == first  # the same from the record's text
    obs = replay(short, game_actions(short)[:step]).observation(0)
    hint = make_bot("hard").hint(obs)
    assert first["suggestion"] == hint.suggestion  # the hint the table would give


def test_a_renege_has_no_score_but_is_marked() -> None:
    """Under the honour rule the human may renege; the hard bot never does, so the
    renege has no score of its own and always differs."""
    for k in range(50):
        game = Game(f"renege {k}", 4, HONOUR.with_options(schedule=(5,)),
                    ["human"] + ["random"] * 3)
        bot = make_bot("random")
        while game.phase != GAME_OVER and not game.reneges[0]:
            seat = game.to_act
            assert seat is not None
            reneges = game.legal_mask() & ~game.honest_mask()
            if seat == 0 and reneges:
                game.play(cards_of(reneges)[0])
                continue
            choice = bot.act(game.observation(seat))
            (game.bid if game.phase == BIDDING else game.play)(choice)
        if game.reneges[0]:
            break
    assert game.reneges[0] == 1
    step = len(game_actions(game)) - 1
    answer = analyse(game, step)
    assert answer["seat"] == 0 and answer["kind"] == "card"
    assert answer["chosen_score"] is None and answer["differs"]
    assert answer["chosen"] not in answer["card_scores"]


def test_a_bot_saw_its_own_hand_and_the_public_table_only(game: Game) -> None:
    actions = game_actions(game)
    for step in (0, 5, 17, 100, len(actions) - 1):
        action = actions[step]
        data = seen(game, step)
        before = replay(game, actions[:step])
        while before.phase == ROUND_OVER and before.round_index < action.round_index:
            before.next_round()
        obs = before.observation(action.seat)
        assert data["observation"] == observation_json(obs)
        assert data["seat"] == action.seat and data["kind"] == game.seats[action.seat]
        # no card of another hand still held this round
        hidden = {card_name(c) for s in range(4) if s != action.seat
                  for c in cards_of(before.hands[s])}
        shown = set(data["observation"]["hand"]) | set(data["observation"]["trick"])
        for trick in data["observation"]["tricks"]:
            shown |= set(trick["cards"])
        assert not shown & hidden
        assert parse_card(data["chosen"]) if action.kind == "card" else True


def test_steps_out_of_the_game_are_refused(short: Game) -> None:
    for step in (-1, len(game_actions(short)), 10**9):
        with pytest.raises(ReviewError) as err:
            analyse(short, step)
        assert err.value.code == "review.no_step"
        with pytest.raises(ReviewError):
            seen(short, step)


def test_the_digest_names_the_game() -> None:
    a, b = bot_game("digest a", SHORT), bot_game("digest b", SHORT)
    assert digest(a) != digest(b) and digest(a) == digest(loads(dumps(a)))
    assert len(digest(a)) == 32
