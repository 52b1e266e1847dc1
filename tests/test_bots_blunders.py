"""Blunders players report from other Oh Hell apps, which ``hard`` must never make.

* bidding 0 while holding the ace of trumps (or the top live trump: a sure trick);
* leading a low trump when every trick is needed (it hands a trick to any higher trump
  out, when the top trumps could draw them first);
* ruffing with the top trump when a low trump wins the trick just as surely (the top
  trump is a sure trick later; the low one may not be).

Each is checked in hand-built positions with the bot at its real budgets, and the
bidding one also over many dealt hands.
"""

from __future__ import annotations

import pytest
from positions import position

from jabberwocky.bots.hard import HardBot, sure_tricks
from jabberwocky.core.cards import parse_card
from jabberwocky.core.game import BIDDING, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng


def _obs(game: Game) -> Observation:
    seat = game.to_act
    assert seat is not None
    return game.observation(seat)


def test_sure_tricks_count_the_top_trumps_in_a_row() -> None:
    def count(hand: str, trump: str) -> int:
        game = position([hand, "9H", "TH", "JH"], trump, dealer=3, hand_size=len(hand.split()))
        obs = game.observation(0)
        return sure_tricks(obs.hand, obs.trump_card)

    assert count("AS 2C 3D", "5S") == 1
    assert count("AS KS 2C", "5S") == 2
    assert count("AS QS 2C", "5S") == 1  # the king is out
    assert count("KS QS 2C", "AS") == 2  # the ace is turned up: the king is top
    assert count("KS 2C 3D", "5S") == 0
    assert count("AH 2C 3D", "5S") == 0  # a side ace can be ruffed


@pytest.mark.parametrize(("hands", "trump", "dealer", "bids"), [
    # first to bid
    (["AS 2C 3D", "4C 5C 6C", "7C 8C 9C", "TC JC QC"], "5S", 3, [None] * 4),
    # the dealer, barred from 1 by the hook rule
    (["AS 2H 3D", "4C 5C 6C", "7C 8C 9C", "TC JC QC"], "5S", 0, [None, 1, 1, 0]),
    # the ace is turned up, so the king is the top trump; barred from 1
    (["KS 2H 3D", "4C 5C 6C", "7C 8C 9C", "TC JC QC"], "AS", 0, [None, 0, 1, 1]),
    # five cards, barred from 1
    (["AS 7H 8H 9D 4C", "2C 3C 5C 6C 7C", "8C 9C TC JC QC", "2D 3D 4D 5D 6D"], "5S", 0,
     [None, 2, 1, 1]),
])
def test_hard_never_bids_below_its_sure_tricks(hands: list[str], trump: str, dealer: int,
                                               bids: list[int | None]) -> None:
    game = position(hands, trump, dealer=dealer, bids=bids)
    obs = _obs(game)
    assert obs.seat == 0
    assert HardBot().choose_bid(obs) >= 1


def test_hard_never_bids_zero_holding_the_top_trump_in_dealt_hands() -> None:
    rng = Rng(2024)
    bot = HardBot(bid_work=(2000, 2000))
    checked = 0
    for i in range(400):
        game = Game(f"ace-of-trumps/{i}", 4)
        game._start_round(rng.below(13))
        while game.phase == BIDDING and checked < 40:
            obs = _obs(game)
            if sure_tricks(obs.hand, obs.trump_card) >= 1:
                checked += 1
                assert bot.choose_bid(obs) >= 1, (game.seed, game.round_index)
            game.bid(obs.legal_bids[rng.below(len(obs.legal_bids))])
        if checked >= 40:
            break
    assert checked == 40


def test_hard_needing_every_trick_cashes_its_top_trumps_before_a_low_one() -> None:
    # Seat 1 leads, needs all three tricks and holds only trumps: the ace and king of
    # spades draw the others' trumps; the four led first loses to any higher trump.
    game = position(["QS 2C 3C", "AS KS 4S", "JS 5C 6C", "TS 7C 8C"], "2S",
                    dealer=0, bids=[1, 3, 0, 0])
    assert HardBot().act(_obs(game)) != parse_card("4S")
    # The same with a side ace instead of the king, trump broken earlier.
    game = position(["QS 2C 3C", "AS AH 4S", "JS 5C 6C", "TS 7C 8C"], "2S",
                    dealer=0, bids=[1, 3, 0, 0], broken=True)
    assert HardBot().act(_obs(game)) != parse_card("4S")


def test_hard_ruffs_with_a_low_trump_when_that_wins_as_surely() -> None:
    # Seat 3 plays last to a heart trick and has no heart; it needs two of the three
    # tricks: the five of spades wins this one, and the ace of spades a later one.
    game = position(["2C 3C", "4C 5C", "6C 7C", "AS 5S 2D"], "2S",
                    dealer=3, bids=[1, 0, 1, 2], trick="KH QH JH", leader=0, hand_size=3)
    obs = _obs(game)
    assert obs.seat == 3
    assert HardBot().act(obs) == parse_card("5S")
