"""The ``learned`` bot and its model (:mod:`jabberwocky.bots.learned`, :mod:`.model`).

The shipped weights must be the ones their digest names; the forward pass must be pure
arithmetic (the same bits in CPython and in Pyodide: these tests run in both); the bot
must play whole games at every table size, read only its observation, and make none
of the bidding blunders players call out (bidding below its sure tricks).
"""

from __future__ import annotations

import hashlib
import math
from importlib import resources

import pytest
from positions import position

from jabberwocky.bots import make_bot
from jabberwocky.bots.hard import sure_tricks
from jabberwocky.bots.learned import LearnedBot
from jabberwocky.bots.model import (
    LATER_SIZE,
    MODEL_DIGEST,
    MODEL_NAME,
    NOW_SIZE,
    dumps,
    later_own,
    later_shared,
    load_model,
    loads,
    sigmoid,
)
from jabberwocky.core.game import BIDDING, Game
from jabberwocky.errors import JabberwockyError
from jabberwocky.simulate import simulate


def test_the_shipped_weights_are_the_ones_their_digest_names() -> None:
    data = resources.files("jabberwocky.bots").joinpath("models", f"{MODEL_NAME}.json"
                                                        ).read_bytes()
    assert hashlib.sha256(data).hexdigest() == MODEL_DIGEST
    model = load_model()
    assert model.later.inputs == LATER_SIZE and model.now.inputs == NOW_SIZE
    assert dumps(model).encode() == data, "the file is in the form dumps() writes"


def test_weights_that_do_not_match_the_digest_are_refused() -> None:
    with pytest.raises(JabberwockyError) as err:
        load_model(digest="1" * 64)
    assert err.value.code == "bot.model_digest"
    assert "1" * 64 in str(err.value)


def test_the_sigmoid_is_the_logistic_function() -> None:
    for i in range(-400, 401):
        x = i / 10
        want = 1.0 / (1.0 + math.exp(-x))
        assert sigmoid(x) == pytest.approx(want, rel=1e-14, abs=1e-300), x
    assert sigmoid(50.0) == 1.0 and sigmoid(-800.0) == 0.0


def test_a_shared_part_added_first_gives_the_same_bits() -> None:
    net = load_model().later
    shared = later_shared(4, 5, [None, 2, 0, -1, None], 1, 7)
    own = later_own(12 * 1 + 39, 3, 1 << 51 | 1 << 2, (1 << 50) - 1)
    assert net.prob(own, net.partial(shared)) == net.prob([*shared, *own])


def test_the_model_file_round_trips() -> None:
    model = load_model()
    assert dumps(loads(dumps(model))) == dumps(model)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_plays_whole_games_at_every_table_size(players: int) -> None:
    summary = simulate(players, 2, ["learned"] * players, seed=f"learned {players}")
    assert summary["failed"] == []
    assert summary["games"] == 2


def test_it_never_bids_below_its_sure_tricks() -> None:
    """Over many dealt hands, first bids and dealers' bids alike."""
    bot = LearnedBot()
    checked = 0
    for i in range(150):
        game = Game(f"learned sure {i}", 3 + i % 3)
        while game.phase == BIDDING:
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            bid = bot.choose_bid(obs)
            assert bid in obs.legal_bids
            sure = sure_tricks(obs.hand, obs.trump_card)
            if any(b >= sure for b in obs.legal_bids):
                assert bid >= sure, (i, seat, obs.hand, obs.trump_card, bid)
                checked += sure > 0
            game.bid(bid)
    assert checked > 20


def test_it_does_not_bid_zero_holding_the_trump_ace() -> None:
    game = position(["AS 2C 3D", "4C 5C 6C", "7C 8C 9C", "TC JC QC"], "5S", dealer=3)
    obs = game.observation(0)
    assert make_bot("learned").act(obs) >= 1


def test_it_decides_from_its_observation_alone() -> None:
    """The same seat's view with other hidden hands gives the same bid and card."""
    mine = "AS KH 7D 4C 9C"
    a = position([mine, "2C 3C 5C 6C 8C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"], "TS",
                 dealer=3, bids=[None, 1, 2, 0])
    b = position([mine, "2H 3H 4H 5H 6H", "2C 3C 5C 6C 8C", "2D 3D 4D 5D 6D"], "TS",
                 dealer=3, bids=[None, 1, 2, 0])
    bot = LearnedBot()
    assert bot.choose_bid(a.observation(0)) == bot.choose_bid(b.observation(0))


def test_the_hint_gives_its_numbers() -> None:
    game = Game("learned hint", 4)
    seat = game.to_act
    assert seat is not None
    hint = make_bot("learned").hint(game.observation(seat))
    assert hint.kind == "bid" and hint.level == "learned"
    assert sum(hint.probabilities) == pytest.approx(1.0)
    assert hint.suggestion in game.legal_bids()
    while game.phase == BIDDING:
        game.bid(make_bot("learned").act(game.observation(game.to_act)))  # type: ignore[arg-type]
    seat = game.to_act
    assert seat is not None
    obs = game.observation(seat)
    card_hint = make_bot("learned").hint(obs)
    assert card_hint.kind == "card" and card_hint.suggestion in obs.honest_cards()
    assert {c for c, _ in card_hint.card_scores} == set(obs.honest_cards())
    assert all(0.0 <= p <= 1.0 for _, p in card_hint.card_chances)
