"""One focused test per rule of RULES.md, on hand-built positions.

Each test names the rule it checks.  Positions come from :func:`positions.position`,
which sets a game's round state directly (hands, trump, bids, trick, broken).
"""

from __future__ import annotations

import itertools

import pytest
from positions import cards, hand, position

from jabberwocky.bots.fastplay import finish_round_randomly
from jabberwocky.core.cards import card_name, cards_of, mask_of, parse_card
from jabberwocky.core.deal import first_dealer
from jabberwocky.core.errors import IllegalMoveError, SeedError
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game, trick_winner
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset

SCHEDULE = [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3]


def names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def play_all(g: Game, text: str) -> None:
    for c in cards(text):
        g.play(c)


def random_game(seed: str, players: int, rules: Ruleset = JABBERWOCKY) -> Game:
    g = Game(seed, players, rules, ["random"] * players)
    while True:
        finish_round_randomly(g)
        if g.phase == GAME_OVER:
            return g
        g.next_round()


# -- table and deck -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_can_play(players: int) -> None:
    g = Game("table", players)
    assert g.players == players
    assert len(g.hands) == players


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7, "4", 4.0, True, 10**30, -(10**9)])
def test_other_player_counts_are_refused(players: object) -> None:
    with pytest.raises(SeedError, match="players cannot play: choose 3 to 5") as info:
        Game("table", players)  # type: ignore[arg-type]
    assert info.value.code == "table.players"


def test_ranks_run_two_low_to_ace_high() -> None:
    order = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    for low, high in itertools.pairwise(order):
        # the higher of two cards of the suit led wins, whichever is played first
        assert trick_winner([low, high], 0, 2, trump_suit=3) == 1
        assert trick_winner([high, low], 0, 2, trump_suit=3) == 0


# -- the game: 13 rounds --------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_thirteen_rounds_dealt_three_up_to_nine_and_down(players: int) -> None:
    g = random_game("schedule", players)
    assert [r.hand_size for r in g.results] == SCHEDULE
    for r in g.results:
        assert all(len(cards_of(h)) == r.hand_size for h in r.hands)


def test_first_dealer_comes_from_the_seed() -> None:
    seen = set()
    for i in range(40):
        seed = f"dealer test {i}"
        g = Game(seed, 4)
        assert g.first_dealer == first_dealer(seed, 4) == Game(seed, 4).first_dealer
        assert g.dealer == g.first_dealer
        seen.add(g.first_dealer)
    assert seen == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_passes_left_after_every_round(players: int) -> None:
    g = random_game("rotation", players)
    assert [r.dealer for r in g.results] == [
        (g.first_dealer + i) % players for i in range(13)
    ]


def test_each_round_is_a_fresh_shuffle_of_the_full_deck() -> None:
    g = random_game("fresh", 5)
    decks = []
    for r in g.results:
        dealt = 0
        for h in r.hands:
            assert dealt & h == 0
            dealt |= h
        assert not dealt >> r.trump_card & 1
        decks.append((r.hands, r.trump_card))
    assert len(set(decks)) == 13
    # every card of the deck turns up somewhere over a game of 5 players (fresh full deck)
    seen = 0
    for r in g.results:
        for h in r.hands:
            seen |= h
    assert seen == (1 << 52) - 1


def test_trump_card_is_turned_belongs_to_no_hand_and_is_visible_to_all() -> None:
    g = Game("trump card", 5)
    assert g.trump_suit == g.trump_card // 13
    assert all(not h >> g.trump_card & 1 for h in g.hands)
    for seat in range(5):
        obs = g.observation(seat)
        assert obs.trump_card == g.trump_card
        assert obs.trump_suit == g.trump_suit


def test_five_players_with_nine_cards_leave_a_stock() -> None:
    g = Game("stock", 5)
    while g.hand_size != 9:
        finish_round_randomly(g)
        g.next_round()
    dealt = 0
    for h in g.hands:
        dealt |= h
    assert dealt.bit_count() == 45
    assert not dealt >> g.trump_card & 1


# -- bidding --------------------------------------------------------------------------


@pytest.mark.parametrize("players,dealer", [(3, 2), (4, 1), (5, 4), (5, 0)])
def test_bidding_starts_left_of_dealer_goes_left_and_dealer_bids_last(
    players: int, dealer: int
) -> None:
    hands = [card_name(2 * k) for k in range(players)]  # one club each
    g = position(hands, "AS", dealer=dealer)
    order = []
    while g.phase == BIDDING:
        order.append(g.to_act)
        g.bid(g.legal_bids()[0])
    assert order == [(dealer + 1 + k) % players for k in range(players)]
    assert order[-1] == dealer
    assert g.phase == PLAYING


def test_a_bid_is_a_whole_number_from_zero_to_the_hand_size() -> None:
    g = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS")
    assert g.legal_bids() == [0, 1, 2, 3]
    for bad in (-1, 4, 1.0, True, "1", None):
        assert g.why_illegal_bid(bad) == f"a bid must be a whole number from 0 to 3, not {bad!r}"
        with pytest.raises(IllegalMoveError, match="a bid must be a whole number from 0 to 3"):
            g.bid(bad)  # type: ignore[arg-type]
    assert g.bids == [None] * 4  # nothing lost


def test_bids_are_public() -> None:
    g = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS", dealer=3)
    g.bid(2)
    g.bid(1)
    for seat in range(4):
        assert g.observation(seat).bids == (2, 1, None, None)


def test_hook_rule_example_from_the_rules() -> None:
    # 4 players, 6 cards, bids 2, 0, 3: the dealer may not bid 1.
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H", "8C 9C TC JC QC KC"]
    g = position(hands, "AS", dealer=3, bids=[2, 0, 3, None])
    assert g.to_act == 3
    assert g.forbidden_bid() == 1
    assert g.legal_bids() == [0, 2, 3, 4, 5, 6]
    assert g.why_illegal_bid(1) == "the dealer may not bid 1: the bids would total the 6 tricks"
    with pytest.raises(IllegalMoveError, match=r"^the dealer may not bid 1: the bids would total"):
        g.bid(1)
    assert g.bids == [2, 0, 3, None] and g.phase == BIDDING
    g.bid(2)
    assert g.phase == PLAYING


def test_hook_message_names_bid_and_tricks() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H", "8C 9C TC JC QC KC"]
    g = position(hands, "AS", dealer=3, bids=[1, 0, 3, None])
    assert g.why_illegal_bid(2) == "the dealer may not bid 2: the bids would total the 6 tricks"
    one = position(["2C", "3C", "4C"], "AS", dealer=2, bids=[0, 0, None])
    assert one.why_illegal_bid(1) == "the dealer may not bid 1: the bids would total the 1 trick"


def test_hook_forbidden_number_outside_range_leaves_the_dealer_unrestricted() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H", "8C 9C TC JC QC KC"]
    g = position(hands, "AS", dealer=3, bids=[3, 3, 3, None])  # 6 - 9 = -3: no such bid
    assert g.forbidden_bid() is None
    assert g.legal_bids() == [0, 1, 2, 3, 4, 5, 6]
    assert all(g.why_illegal_bid(b) is None for b in range(7))
    g.bid(0)
    assert g.phase == PLAYING


def test_hook_forbids_the_whole_hand_when_everyone_else_bid_zero() -> None:
    g = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS", dealer=0,
                 bids=[None, 0, 0, 0])
    assert g.forbidden_bid() == 3
    assert g.legal_bids() == [0, 1, 2]


def test_hook_binds_only_the_dealer() -> None:
    g = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS", dealer=3,
                 bids=[1, 1, None, None])
    assert g.forbidden_bid() is None
    g.bid(1)  # seat 2 makes the running total 3 = tricks: allowed, it is not the dealer
    assert g.to_act == 3
    assert g.legal_bids() == [1, 2, 3]


def test_hook_off_leaves_the_dealer_unrestricted() -> None:
    rules = JABBERWOCKY.with_options(hook=False)
    g = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "AS", dealer=3,
                 bids=[1, 1, 0, None], rules=rules)
    assert g.forbidden_bid() is None
    assert g.legal_bids() == [0, 1, 2, 3]
    g.bid(1)
    assert g.phase == PLAYING


def test_bidding_out_of_turn_or_phase_is_refused() -> None:
    g = position(["2C", "3C", "4C"], "AS", dealer=2, bids=[0, 0, 0])
    assert g.why_illegal_bid(0) == "it is not time to bid: the game is in the playing phase"
    with pytest.raises(IllegalMoveError, match="not time to bid"):
        g.bid(0)


# -- play -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_player_left_of_dealer_leads_the_first_trick(players: int) -> None:
    for i in range(players):
        g = Game(f"lead {i}", players)
        while g.phase == BIDDING:
            g.bid(g.legal_bids()[0])
        assert g.to_act == g.leader == (g.dealer + 1) % players


def test_follow_suit_when_able() -> None:
    g = position(["2C", "3H KS 4C", "QH 5D", "8H 9C"], "2S", dealer=3, bids=[0, 0, 0, 0],
                 trick="AH", hand_size=3)
    assert g.to_act == 1
    assert names(g.honest_mask()) == ["3H"]
    assert g.legal_mask() == g.honest_mask()
    assert g.why_illegal_card(parse_card("KS")) == "you must follow hearts"
    with pytest.raises(IllegalMoveError, match=r"^you must follow hearts$"):
        g.play(parse_card("4C"))
    assert g.trick == cards("AH") and g.to_act == 1  # nothing lost
    assert not g.is_renege(parse_card("3H"))


def test_a_player_void_in_the_suit_led_may_play_any_card() -> None:
    g = position(["2C", "KS 4C 5D", "QH", "8H"], "2S", dealer=3, bids=[0, 0, 0, 0], trick="AH",
                 hand_size=3)
    assert names(g.honest_mask()) == ["4C", "5D", "KS"]
    assert all(g.why_illegal_card(c) is None for c in cards("4C 5D KS"))


def test_play_goes_left() -> None:
    g = position(["2C", "3C", "4C", "5C", "6C"], "AS", dealer=2, bids=[0] * 5)
    order = []
    while g.phase == PLAYING:
        order.append(g.to_act)
        g.play(g.honest_cards()[0])
    assert order == [3, 4, 0, 1, 2]


def test_trump_may_not_be_led_before_it_is_broken() -> None:
    g = position(["AS 2H", "3H 4H", "5H 6H", "7H 8H"], "2S", dealer=3, bids=[0, 0, 0, 0])
    assert g.to_act == 0
    assert names(g.honest_mask()) == ["2H"]
    assert g.why_illegal_card(parse_card("AS")) == (
        "trump is not broken yet: spades may not be led while you hold another suit")
    with pytest.raises(IllegalMoveError, match=r"^trump is not broken yet"):
        g.play(parse_card("AS"))
    assert not g.broken


def test_leader_holding_only_trumps_may_lead_trump_and_that_breaks_trump() -> None:
    g = position(["AS 3S", "3H 4H", "5H 6H", "7H 8H"], "2S", dealer=3, bids=[0, 0, 0, 0])
    assert names(g.honest_mask()) == ["3S", "AS"]
    assert g.why_illegal_card(parse_card("3S")) is None
    g.play(parse_card("3S"))
    assert g.broken


def test_trump_is_broken_by_a_discard_and_may_then_be_led() -> None:
    # trumps are clubs; seat 0 may not lead its club yet
    g = position(["AD TC", "3C 3H", "5D 6H", "7D 8H"], "2C", dealer=3, bids=[0, 0, 0, 0])
    assert names(g.honest_mask()) == ["AD"]
    g.play(parse_card("AD"))
    assert not g.broken
    g.play(parse_card("3C"))  # seat 1 has no diamond: trumps it
    assert g.broken
    assert g.observation(2).broken
    play_all(g, "5D 7D")
    assert g.tricks[-1].winner == 1 and g.to_act == 1
    play_all(g, "3H 6H 8H TC")
    assert g.tricks[-1].winner == 0
    # once broken, a leader holding trump and other suits may lead trump
    broken = position(["TC 9H", "4H", "6H", "8H"], "2C", dealer=3, bids=[0] * 4, broken=True,
                      hand_size=2)
    assert names(broken.honest_mask()) == ["TC", "9H"]
    unbroken = position(["TC 9H", "4H", "6H", "8H"], "2C", dealer=3, bids=[0] * 4, hand_size=2)
    assert names(unbroken.honest_mask()) == ["9H"]


def test_trump_lead_any_time_variant() -> None:
    rules = JABBERWOCKY.with_options(trump_lead="any-time")
    g = position(["AS 2H", "3H 4H", "5H 6H", "7H 8H"], "2S", dealer=3, bids=[0, 0, 0, 0],
                 rules=rules)
    assert names(g.honest_mask()) == ["2H", "AS"]
    g.play(parse_card("AS"))
    assert g.broken
    assert OH_HELL.trump_lead == "any-time"


def test_broken_resets_every_round() -> None:
    g = Game("reset", 4, JABBERWOCKY, ["random"] * 4)
    for _ in range(12):
        finish_round_randomly(g)
        g.next_round()
        assert g.broken is False
        assert g.observation(0).broken is False


def test_highest_trump_wins_the_trick() -> None:
    g = position(["AH", "2S", "KH", "3S"], "9S", dealer=3, bids=[0, 0, 0, 0])
    play_all(g, "AH 2S KH 3S")
    assert g.tricks[-1].winner == 3
    assert g.taken == [0, 0, 0, 1]


def test_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    g = position(["9H", "AD", "TH", "2H"], "9S", dealer=3, bids=[0, 0, 0, 0])
    play_all(g, "9H AD TH 2H")
    assert g.tricks[-1].winner == 2  # the ace of diamonds is off suit


def test_led_trump_wins_over_other_suits() -> None:
    g = position(["2S", "AH", "AD", "AC"], "9S", dealer=3, bids=[0, 0, 0, 0], broken=True)
    play_all(g, "2S AH AD AC")
    assert g.tricks[-1].winner == 0


def test_trick_winner_function() -> None:
    assert trick_winner(cards("2H AS KH"), 1, 3, trump_suit=3) == 2
    assert trick_winner(cards("2H AD KH"), 1, 3, trump_suit=3) == 0
    assert trick_winner(cards("2H 3S 4S 5C 6H"), 4, 5, trump_suit=3) == 1
    assert trick_winner(cards("2H 3S 4S 5C 6H"), 4, 5, trump_suit=0) == 2


def test_winner_leads_the_next_trick() -> None:
    g = position(["2H 3C", "AH 4C", "KH 5C", "QH 6C"], "9S", dealer=3, bids=[0, 0, 0, 0])
    play_all(g, "2H AH KH QH")
    assert g.leader == g.to_act == 1
    assert g.observation(2).leader == 1
    play_all(g, "4C 5C 6C 3C")
    assert g.tricks[-1] == (1, tuple(cards("4C 5C 6C 3C")), 3)
    assert g.leader == 3


@pytest.mark.parametrize("players,leader", [(3, 2), (5, 3)])
def test_three_and_five_player_tricks_wrap_round_the_table(players: int, leader: int) -> None:
    hands = ["2H", "3H", "4H", "5H", "6H"][:players]
    dealer = (leader - 1) % players
    g = position(hands, "9S", dealer=dealer, bids=[0] * players)
    assert g.to_act == leader
    while g.phase == PLAYING:
        g.play(g.honest_cards()[0])
    assert g.tricks[-1].leader == leader
    assert g.tricks[-1].winner == players - 1  # the highest heart
    assert g.taken[players - 1] == 1
    assert g.phase == ROUND_OVER


def test_round_ends_when_every_card_is_played() -> None:
    g = position(["2H 3C", "AH 4C", "KH 5C", "QH 6C"], "9S", dealer=3, bids=[0, 1, 0, 0])
    play_all(g, "2H AH KH QH")
    assert g.phase == PLAYING
    play_all(g, "4C 5C 6C 3C")
    assert g.phase == ROUND_OVER
    assert g.hands == [0, 0, 0, 0]
    assert g.to_act is None
    assert sum(g.taken) == 2


def test_cards_not_held_and_plays_outside_play_are_refused() -> None:
    g = position(["2H", "AH", "KH", "QH"], "9S", dealer=3, bids=[0, 0, 0, None])
    assert g.why_illegal_card(parse_card("2H")) == (
        "it is not time to play a card: the game is in the bidding phase")
    g.bid(0)
    assert g.why_illegal_card(parse_card("AH")) == "you do not hold the ace of hearts"
    assert g.why_illegal_card(52) == "52 is not a card"
    assert g.why_illegal_card(True) == "True is not a card"
    with pytest.raises(IllegalMoveError, match="you do not hold the ace of hearts"):
        g.play(parse_card("AH"))


# -- scoring and the end --------------------------------------------------------------


def test_exact_bid_scores_one_everyone_else_nothing() -> None:
    g = position(["2H 3C", "AH 4C", "KH 5C", "QH 6C"], "9S", dealer=3, bids=[1, 1, 0, 1])
    play_all(g, "2H AH KH QH 4C 5C 6C 3C")
    # taken: seat 1 one, seat 0 one (3C? no: 4C led by seat 1, 6C by seat 3 wins)
    assert g.taken == [0, 1, 0, 1]
    assert g.results[-1].points == (0, 1, 1, 1)
    assert g.scores == [0, 1, 1, 1]


def test_oh_hell_scoring_ten_plus_bid_for_an_exact_bid() -> None:
    g = position(["2H 3C", "AH 4C", "KH 5C", "QH 6C"], "9S", dealer=3, bids=[1, 1, 0, 1],
                 rules=OH_HELL)
    play_all(g, "2H AH KH QH 4C 5C 6C 3C")
    assert g.results[-1].points == (0, 11, 10, 11)


def test_after_round_thirteen_the_most_points_win() -> None:
    g = random_game("end", 4)
    assert len(g.results) == 13 and g.phase == GAME_OVER
    best = max(g.scores)
    assert g.winners() == [s for s in range(4) if g.scores[s] == best]
    with pytest.raises(IllegalMoveError, match="the next round can start only after"):
        g.next_round()


def test_ties_are_not_broken_all_tied_leaders_win() -> None:
    g = random_game("ties", 4)
    g.scores = [5, 7, 7, 2]
    assert g.winners() == [1, 2]
    g.scores = [4, 4, 4, 4]
    assert g.winners() == [0, 1, 2, 3]


def test_a_real_tie_for_the_win_occurs_and_lists_every_leader() -> None:
    for i in range(300):
        g = random_game(f"tie hunt {i}", 3)
        best = max(g.scores)
        if g.scores.count(best) > 1:
            assert g.winners() == [s for s in range(3) if g.scores[s] == best]
            assert len(g.winners()) >= 2
            return
    pytest.fail("no tied game in 300 random games")


def test_no_winners_before_the_end() -> None:
    g = Game("early", 4)
    assert g.winners() == []


def test_next_round_only_after_a_round() -> None:
    g = Game("early", 4)
    with pytest.raises(IllegalMoveError, match=r"only after a round is over \(now: bidding\)"):
        g.next_round()


# -- the renege variant ---------------------------------------------------------------


def renege_position(rules: Ruleset = HONOUR) -> Game:
    return position(["AH 2C", "3H 4S", "QH 5D", "8H 9C"], "2S", dealer=3, bids=[0, 0, 1, 1],
                    rules=rules)


def test_without_the_honour_rule_reneging_is_impossible() -> None:
    g = renege_position(JABBERWOCKY)
    g.play(parse_card("AH"))
    assert g.legal_mask() == g.honest_mask() == hand("3H")
    assert g.why_illegal_card(parse_card("4S")) == "you must follow hearts"
    assert not g.is_renege(parse_card("4S"))  # not legal, so not a renege either
    obs = g.observation(1)
    assert obs.legal == obs.honest == hand("3H")


def test_honour_rule_allows_a_renege_resolves_the_trick_as_played_and_costs_three() -> None:
    g = renege_position()
    g.play(parse_card("AH"))
    assert g.honest_mask() == hand("3H")
    assert g.legal_mask() == hand("3H 4S")
    obs = g.observation(1)
    assert obs.legal == hand("3H 4S") and obs.honest == hand("3H")
    assert obs.honest_cards() == cards("3H")  # what bots choose from: never a renege
    assert obs.legal_cards() == g.legal_cards() == cards("3H 4S")
    assert g.honest_cards() == cards("3H")
    assert g.why_illegal_card(parse_card("4S")) is None
    assert g.is_renege(parse_card("4S"))
    assert not g.is_renege(parse_card("3H")) and not g.is_renege(parse_card("QH"))
    g.play(parse_card("4S"))  # a trump, though seat 1 holds a heart
    assert g.reneges == [0, 1, 0, 0]
    assert g.broken
    play_all(g, "QH 8H")
    assert g.tricks[-1].winner == 1  # resolved as played: the trump wins
    play_all(g, "3H 5D 9C 2C")  # seat 1 leads the heart it kept
    # bids 0 0 1 1, taken 1 1 0 0 => nobody exact; seat 1 also pays 3
    assert g.taken == [0, 2, 0, 0]
    assert g.results[-1].reneges == (0, 1, 0, 0)
    assert g.results[-1].points == (1, -3, 0, 0)


def test_honour_rule_penalty_is_three_per_renege_card_on_top_of_an_exact_bid() -> None:
    g = position(["AH 2C", "3H 5S", "QH 2D", "8H 3D"], "2S", dealer=3, bids=[0, 2, 1, 0],
                 rules=HONOUR)
    play_all(g, "AH 5S QH 8H")  # seat 1 reneges and wins with the trump
    play_all(g, "3H 2D 3D 2C")  # then leads its heart and wins again
    assert g.taken == [0, 2, 0, 0]
    assert g.results[-1].points == (1, 1 - 3, 0, 1)
    assert g.scores == [1, -2, 0, 1]


def test_honour_rule_never_allows_leading_unbroken_trump() -> None:
    g = position(["AS 2H", "3H 4H", "5H 6H", "7H 8H"], "2S", dealer=3, bids=[0, 0, 0, 0],
                 rules=HONOUR)
    assert g.legal_mask() == hand("2H")
    assert g.why_illegal_card(parse_card("AS")).startswith("trump is not broken yet")  # type: ignore[union-attr]
    assert not g.is_renege(parse_card("2H"))


def test_random_bots_never_renege_under_the_honour_rule() -> None:
    from jabberwocky.bots.random_bot import RandomBot

    bot = RandomBot()
    g = Game("honest bots", 4, HONOUR, ["random"] * 4)
    while g.phase != GAME_OVER:
        if g.phase == ROUND_OVER:
            g.next_round()
            continue
        seat = g.to_act
        assert seat is not None
        choice = bot.act(g.observation(seat))
        if g.phase == PLAYING:
            assert not g.is_renege(choice)
            g.play(choice)
        else:
            g.bid(choice)
    assert all(r.reneges == (0, 0, 0, 0) for r in g.results)


# -- seeds ----------------------------------------------------------------------------


def test_seed_must_be_short_text() -> None:
    with pytest.raises(SeedError, match="a deal code must be text, not 5"):
        Game(5, 4)  # type: ignore[arg-type]
    with pytest.raises(SeedError, match="use at most 200"):
        Game("x" * 201, 4)
    Game("x" * 200, 4)


def test_seat_kinds_are_checked() -> None:
    with pytest.raises(SeedError, match="'Robot' is not a seat kind"):
        Game("seats", 3, JABBERWOCKY, ["human", "Robot", "random"])
    with pytest.raises(SeedError, match="unknown seat kind 3"):
        Game("seats", 3, JABBERWOCKY, ["human", 3, "random"])  # type: ignore[list-item]
    # a well-formed level name is a seat kind even where no such bot is installed
    assert Game("seats", 3, JABBERWOCKY, ["human", "acme.robot-2", "random"]).seats[1] == \
        "acme.robot-2"
    with pytest.raises(SeedError, match="2 seat kinds given for 3 players"):
        Game("seats", 3, JABBERWOCKY, ["human", "random"])


def test_position_helper_sanity() -> None:
    g = position(["2C", "3C", "4C"], "AS", dealer=1, bids=[None, None, 0])
    assert g.to_act == 0 and g.phase == BIDDING
    assert mask_of(cards("2C")) == g.hands[0]
