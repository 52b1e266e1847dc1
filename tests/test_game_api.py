"""The referee's public steps for fast paths and searches: :meth:`Game.copy`,
:meth:`Game.apply_bid`, :meth:`Game.apply_card`, :meth:`Game.round_deal`."""

from __future__ import annotations

from jabberwocky.core.deal import Deal
from jabberwocky.core.game import BIDDING, PLAYING, Game
from jabberwocky.formats.record import dumps


def _advance(game: Game, moves: int) -> None:
    for _ in range(moves):
        if game.phase == BIDDING:
            game.bid(game.legal_bids()[0])
        elif game.phase == PLAYING:
            game.play(game.legal_cards()[-1])
        else:
            game.next_round()


def test_a_copy_is_equal_and_independent() -> None:
    game = Game("copy-me", 4)
    _advance(game, 30)
    copy = game.copy()
    assert dumps(copy) == dumps(game) and copy.observation(1) == game.observation(1)
    before = dumps(game)
    _advance(copy, 25)
    assert dumps(game) == before, "moves on the copy do not reach the original"
    _advance(game, 25)
    assert dumps(game) == dumps(copy), "the same moves from the same state"


def test_the_unchecked_steps_are_the_checked_ones_without_the_checks() -> None:
    checked, fast = Game("steps", 3), Game("steps", 3)
    while checked.phase in (BIDDING, PLAYING):
        if checked.phase == BIDDING:
            bid = checked.legal_bids()[-1]
            checked.bid(bid)
            fast.apply_bid(bid)
        else:
            card = checked.honest_cards()[0]
            checked.play(card)
            fast.apply_card(card)
    assert dumps(fast) == dumps(checked)


class _Fixed(Game):
    """Dealt from a fixed list, not from the seed (as OpenSpiel's chance nodes deal)."""

    def round_deal(self, index: int) -> Deal:
        hands = tuple(sum(1 << (seat * 13 + k) for k in range(self.hand_size))
                      for seat in range(self.players))
        return Deal(hands, 51)


def test_a_subclass_deals_through_round_deal_and_copies_as_itself() -> None:
    game = _Fixed("fixed", 4, first_dealer=2)
    assert game.dealer == 2 and game.hands[0] == 0b111 and game.trump_card == 51
    copy = game.copy()
    assert type(copy) is _Fixed and copy.hands == game.hands and copy.hands is not game.hands
