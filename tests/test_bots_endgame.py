"""The ``hard`` bot's exact search of the last tricks (``HardBot(endgame=k)``).

The search (:mod:`jabberwocky.bots.endgame`) must give what a plain max-n search over
every legal card gives (no memo, no groups of equal cards, no early stop), on small
positions; with it on, hard must stay legal, replayable and blind to the hidden cards;
with it off, hard is the bot of main (the golden games check that byte for byte).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from test_bots_hard import mid_round_positions, shuffle_hidden

from jabberwocky.bots.endgame import policy_card, solver, utilities
from jabberwocky.bots.hard import HardBot
from jabberwocky.bots.playout import RM_SUITS, mask_to_rm, play_out, to_rm
from jabberwocky.core.cards import parse_card
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL


def legal_cards(hand: int, trick: Sequence[int], trump: int, after: bool, broken: bool) -> int:
    """The rank-major cards of ``hand`` a seat may play into ``trick``: follow suit; lead
    no trump before it is broken (``after``) unless the hand holds nothing else."""
    if trick:
        return hand & RM_SUITS[trick[0] & 3] or hand
    if after and not broken:
        return hand & ~RM_SUITS[trump] or hand
    return hand


def brute_force(hands: list[int], trump: int, leader: int, trick: list[int], broken: bool,
                taken: list[int], util: Sequence[Sequence[float]], after: bool,
                seat: int = -1, goals: Sequence[int] = ()) -> tuple[int, ...]:
    """Max-n over every legal card, in the search's order (suit by suit, trumps last,
    low to high), the first best card kept; with ``seat``, the other seats play the
    playout policy's card for ``goals``."""
    n = len(hands)
    order = [s for s in range(4) if s != trump] + [trump]
    if len(trick) == n:
        best, win = trick[0], leader
        for i, c in enumerate(trick[1:], 1):
            if (c > best) if c & 3 == best & 3 else c & 3 == trump:
                best, win = c, (leader + i) % n
        taken = list(taken)
        taken[win] += 1
        return brute_force(hands, trump, win, [], broken, taken, util, after, seat, goals)
    p = (leader + len(trick)) % n
    h = hands[p]
    if not h:
        return tuple(taken)
    legal = legal_cards(h, trick, trump, after, broken)
    if 0 <= seat != p:
        led = trick[0] & 3 if trick else 0
        best = trick[0] if trick else 0
        for c in trick[1:]:
            if (c > best) if c & 3 == best & 3 else c & 3 == trump:
                best = c
        legal = 1 << policy_card(hands, p, len(trick), led, best, best & 3 == trump,
                                 goals[p] - taken[p], broken, trump, after)
    top: tuple[int, ...] = ()
    for s in order:
        for c in range(52):
            if c & 3 != s or not legal >> c & 1:
                continue
            rest = list(hands)
            rest[p] = h ^ (1 << c)
            got = brute_force(rest, trump, leader, [*trick, c], broken or c & 3 == trump,
                              taken, util, after, seat, goals)
            if not top or util[p][got[p]] > util[p][top[p]]:
                top = got
    return top


def random_position(rng: Rng, players: int, cards: int, trump: int, after: bool
                    ) -> tuple[list[int], int, list[int], bool, list[int], list[int]]:
    """Hands of ``cards`` cards, some seats already in the trick (legal cards), some
    tricks taken before and a bid per seat: hands, leader, trick, trump broken, taken,
    bids."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[p * cards:(p + 1) * cards]) for p in range(players)]
    leader = rng.below(players)
    broken = rng.below(2) == 1
    trick: list[int] = []
    for i in range(rng.below(players)):
        p = (leader + i) % players
        c = rng.pick_bit(legal_cards(hands[p], trick, trump, after, broken))
        hands[p] ^= 1 << c
        trick.append(c)
        broken = broken or c & 3 == trump
    taken = [0] * players
    for _ in range(rng.below(3)):
        taken[rng.below(players)] += 1
    size = cards + sum(taken)
    return hands, leader, trick, broken, taken, [rng.below(size + 1) for _ in range(players)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_search_agrees_with_brute_force(players: int) -> None:
    rng = Rng(2024 + players)
    for i in range(60 if players < 5 else 30):
        cards = 1 + i % 3
        trump = rng.below(4)
        after = rng.below(2) == 1
        hands, leader, trick, broken, taken, bids = random_position(rng, players, cards,
                                                                    trump, after)
        size = cards + sum(taken)
        points = (JABBERWOCKY if i % 2 else OH_HELL).points
        util = utilities(bids, size, points)
        got = solver(util, trump, after)(hands, leader, trick, broken, taken)
        want = brute_force(hands, trump, leader, trick, broken, taken, util, after)
        assert got == want, (i, hands, leader, trick, taken, bids, trump)
        assert sum(got) == size


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_search_against_the_policy_agrees_with_brute_force(players: int) -> None:
    rng = Rng(77 + players)
    for i in range(60):
        cards = 1 + i % 4
        trump = rng.below(4)
        after = rng.below(2) == 1
        hands, leader, trick, broken, taken, bids = random_position(rng, players, cards,
                                                                    trump, after)
        size = cards + sum(taken)
        util = utilities(bids, size, JABBERWOCKY.points)
        seat = rng.below(players)
        got = solver(util, trump, after, seat=seat, goals=bids)(hands, leader, trick, broken,
                                                                taken)
        want = brute_force(hands, trump, leader, trick, broken, taken, util, after, seat, bids)
        assert got == want, (i, hands, leader, trick, taken, bids, trump, seat)
        # The seat can always play as the policy would, so it does at least as well.
        policy = play_out(hands, trump, leader, trick, broken, taken, bids, after)
        assert util[seat][got[seat]] >= util[seat][policy[seat]]


def test_the_policy_card_is_the_playouts_card() -> None:
    """A round played out card by card with :func:`policy_card` is the playout."""
    rng = Rng(11)
    for i in range(80):
        players = 3 + i % 3
        trump = rng.below(4)
        after = i % 2 == 0
        hands, leader, trick, broken, taken, bids = random_position(rng, players, 1 + i % 6,
                                                                    trump, after)
        want: list[int] = []
        play_out(hands, trump, leader, trick, broken, taken, bids, after, want)
        hs, took, got, cur = list(hands), list(taken), [], list(trick)
        lead = leader
        while True:
            if len(cur) == players:
                best, win = cur[0], lead
                for k, c in enumerate(cur[1:], 1):
                    if (c > best) if c & 3 == best & 3 else c & 3 == trump:
                        best, win = c, (lead + k) % players
                took[win] += 1
                lead, cur = win, []
            p = (lead + len(cur)) % players
            if not hs[p]:
                break
            best = cur[0] if cur else 0
            for c in cur[1:]:
                if (c > best) if c & 3 == best & 3 else c & 3 == trump:
                    best = c
            c = policy_card(hs, p, len(cur), cur[0] & 3 if cur else 0, best,
                            best & 3 == trump and bool(cur), bids[p] - took[p], broken,
                            trump, after)
            got.append(c)
            hs[p] ^= 1 << c
            broken = broken or c & 3 == trump
            cur.append(c)
        assert got == want, i


def test_a_shared_memo_gives_what_fresh_searches_give() -> None:
    rng = Rng(5)
    for i in range(40):
        hands, leader, trick, broken, taken, bids = random_position(rng, 4, 3, i % 4, True)
        util = utilities(bids, 3 + sum(taken), JABBERWOCKY.points)
        shared = solver(util, i % 4, True)
        for _ in range(2):
            assert shared(hands, leader, trick, broken, taken) == solver(util, i % 4, True)(
                hands, leader, trick, broken, taken)


def rm(names: str) -> int:
    return sum(1 << to_rm(parse_card(x)) for x in names.split())


def test_a_seat_that_must_take_one_more_trick_gets_it_and_one_that_has_enough_ducks() -> None:
    # Spades trump (suit index of S). Seat 0 leads; seat 0 bid 1 with none taken and
    # holds the ace of hearts: it must lead it or keep it to win; seat 1 bid 0.
    trump = parse_card("2S") // 13
    hands = [rm("AH 3C"), rm("KH 4C"), rm("5C 2D")]
    util = utilities([1, 0, 1], 2, JABBERWOCKY.points)
    got = solver(util, trump, False)(hands, 0, [], False, [0, 0, 0])
    assert got[0] == 1 and got[1] == 0 and got[2] == 1


@pytest.mark.parametrize("policy", [0, 1])
def test_hard_with_the_search_plays_whole_games_legally(policy: int) -> None:
    for rules in (JABBERWOCKY.with_options(schedule=(4, 3, 2, 1)), OH_HELL.with_options(
            schedule=(3, 2, 5)), HONOUR.with_options(schedule=(3, 2))):
        for players in (3, 4):
            g = Game("hard-endgame-legal", players, rules)
            bot = HardBot(bid_work=(400, 400), play_work=300, endgame=3, endgame_bid=3,
                          endgame_policy=policy)
            while g.phase != GAME_OVER:
                if g.phase == ROUND_OVER:
                    g.next_round()
                    continue
                obs = g.observation(g.to_act)  # type: ignore[arg-type]
                choice = bot.act(obs)
                if g.phase == BIDDING:
                    assert choice in obs.legal_bids
                    g.bid(choice)
                else:
                    assert g.phase == PLAYING and obs.honest >> choice & 1
                    g.play(choice)


def late_positions(count: int) -> list[Game]:
    """Positions with at most three cards in the hand of the seat to act."""
    out = []
    for g in mid_round_positions(count * 4) + mid_round_positions(count * 2, HONOUR):
        while g.phase == BIDDING:
            g.bid(g.legal_bids()[0])
        while g.phase == PLAYING and g.hands[g.to_act].bit_count() > 3:  # type: ignore[index]
            g.play((g.honest_mask() & -g.honest_mask()).bit_length() - 1)
        if g.phase == PLAYING and len(HardBot.card_groups(g.observation(g.to_act))) > 1:  # type: ignore[arg-type]
            out.append(g)
    return out[:count]


def test_the_search_replays_and_never_peeks() -> None:
    """Same observation, same choice and same hint, whatever the others really hold."""
    rng = Rng(17)
    games = late_positions(10)
    assert len(games) >= 6
    for g in games:
        seat: int = g.to_act  # type: ignore[assignment]
        obs = g.observation(seat)
        bot = HardBot(play_work=800, endgame=3, endgame_policy=int(g.seed.endswith("1")))
        choice = bot.act(obs)
        hint = bot.hint(obs)
        assert HardBot(play_work=800, endgame=3,
                       endgame_policy=int(g.seed.endswith("1"))).act(obs) == choice
        for _ in range(3):
            shuffle_hidden(g, seat, rng)
            again = g.observation(seat)
            assert again == obs
            assert bot.act(again) == choice
            assert bot.hint(again) == hint


def test_the_search_is_on_by_default_and_only_within_its_cards() -> None:
    """The default searches the last four cards, this seat only (jabberwocky-bots/3);
    endgame=0, and a hand longer than ``endgame``, use the playouts."""
    assert (HardBot().endgame, HardBot().endgame_policy) == (4, 1)
    for g in late_positions(8):
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        left = obs.cards_in_hand(obs.seat)
        plain = HardBot(play_work=800, endgame=0).card_evaluation(obs, obs.rng())
        assert HardBot(play_work=800, endgame=left - 1).card_evaluation(obs, obs.rng()) == plain


def test_masks_in_the_tests_are_rank_major() -> None:
    assert mask_to_rm(1 << parse_card("AS")) == 1 << to_rm(parse_card("AS"))
