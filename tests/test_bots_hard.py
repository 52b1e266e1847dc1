"""The ``hard`` bot: playouts follow the rules, sampled deals fit what the seat knows,
decisions are legal, replayable and blind to the hidden cards, hints add up.

Strength is measured by ``bench/bots.py``, not here: these tests check correctness
with small budgets so they stay quick (also under Pyodide).
"""

from __future__ import annotations

import pytest

from jabberwocky.bots import make_bot
from jabberwocky.bots.base import HINT_PURPOSE
from jabberwocky.bots.hard import HardBot, at_a_real_table
from jabberwocky.bots.playout import (
    RM_SUITS,
    from_rm,
    mask_to_rm,
    play_out,
    play_out_goals,
    rm_to_mask,
    to_rm,
)
from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.bots.sampling import DealSampler
from jabberwocky.core.cards import cards_of, parse_card
from jabberwocky.core.errors import JabberwockyError
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset

SMALL = {"bid_work": (400, 400), "play_work": 300}
"""Budgets small enough for quick tests (the defaults are for real play)."""


def small_bot() -> HardBot:
    return HardBot(**SMALL)  # type: ignore[arg-type]


def advance_randomly(game: Game, actions: int, rng: Rng) -> None:
    """Play ``actions`` random legal actions (bids or cards) in the current round."""
    for _ in range(actions):
        if game.phase == BIDDING:
            bids = game.legal_bids()
            game.bid(bids[rng.below(len(bids))])
        elif game.phase == PLAYING:
            game.play(rng.pick_bit(game.honest_mask()))
        else:
            return


def mid_round_positions(count: int, rules: Ruleset = JABBERWOCKY,
                        players: int = 4) -> list[Game]:
    """Games stopped at varied points of varied rounds, a seat to act."""
    games = []
    rng = Rng(12345 + players)
    for i in range(count):
        g = Game(f"hard-pos/{i}", players, rules)
        g._start_round(rng.below(rules.rounds))
        advance_randomly(g, rng.below(players + g.hand_size * players - 1), rng)
        assert g.phase in (BIDDING, PLAYING)
        games.append(g)
    return games


# -- rank-major cards and playouts ----------------------------------------------------------


def test_rank_major_conversions_round_trip() -> None:
    assert sorted(to_rm(c) for c in range(52)) == list(range(52))
    assert all(from_rm(to_rm(c)) == c for c in range(52))
    m = (1 << 52) - 1
    assert mask_to_rm(m) == m and rm_to_mask(mask_to_rm(0b1011 << 20)) == 0b1011 << 20
    for s in range(4):
        assert rm_to_mask(RM_SUITS[s]) == 0x1FFF << (13 * s)


@pytest.mark.parametrize("honest", [False, True])
def test_playouts_play_legal_cards_and_count_tricks_like_the_referee(honest: bool) -> None:
    """Every card a playout plays is accepted by the referee and the tricks agree, with
    seats that look at the others' hands and with seats that decide from their own
    information (``stock`` and ``voids`` given)."""
    rng = Rng(7)
    for rules in (JABBERWOCKY, OH_HELL):
        for g in mid_round_positions(25, rules) + mid_round_positions(10, rules, 5):
            while g.phase == BIDDING:
                g.bid(g.legal_bids()[0])
            goals = [b if b is not None else 0 for b in g.bids]
            goals = [rng.below(g.hand_size + 1) if rng.below(2) else b for b in goals]
            played: list[int] = []
            obs = g.observation(g.to_act)  # type: ignore[arg-type]
            held = 0
            for h in g.hands:
                held |= h
            stock = mask_to_rm(obs.unseen_mask() & ~held) if honest else -1
            taken = play_out(
                [mask_to_rm(h) for h in g.hands], g.trump_suit, g.leader,
                [to_rm(c) for c in g.trick], g.broken, list(g.taken), goals,
                rules.trump_lead == "after-broken", played, stock=stock,
                voids=obs.void_suits() if honest else None,
            )
            for c in played:
                card = from_rm(c)
                assert g.why_illegal_card(card) is None, (g.seed, played)
                assert not g.is_renege(card)
                g.play(card)
            assert g.phase in (ROUND_OVER, GAME_OVER)
            assert taken == g.taken


@pytest.mark.parametrize("honest", [False, True])
def test_playouts_for_several_goals_match_one_playout_per_goal(honest: bool) -> None:
    rng = Rng(31)
    for players in (3, 4, 5):
        for i in range(30):
            g = Game(f"goals/{players}/{i}", players)
            g._start_round(rng.below(13))
            hands = [mask_to_rm(h) for h in g.hands]
            held = 0
            for h in g.hands:
                held |= h
            stock = mask_to_rm(((1 << 52) - 1) & ~held & ~(1 << g.trump_card)) if honest else -1
            goals = [rng.below(g.hand_size + 1) for _ in range(players)]
            seat = rng.below(players)
            targets = sorted({rng.below(g.hand_size + 1) for _ in range(4)})
            after = rng.below(2) == 1
            got = play_out_goals(hands, g.trump_suit, g.leader, goals, seat, targets, after,
                                 stock)
            want = {}
            for t in targets:
                goals[seat] = t
                want[t] = play_out(hands, g.trump_suit, g.leader, (), False, [0] * players,
                                   goals, after, stock=stock)[seat]
            assert got == want


def test_a_playout_with_a_complete_trick_scores_it_first() -> None:
    g = Game("full-trick", 3)
    while g.phase == BIDDING:
        g.bid(0)
    for _ in range(2):
        g.play(cards_of(g.honest_mask())[0])
    last = cards_of(g.honest_mask())[0]
    hands = [mask_to_rm(h) for h in g.hands]
    seat = g.to_act
    assert seat is not None
    hands[seat] ^= 1 << to_rm(last)
    trick = [to_rm(c) for c in g.trick] + [to_rm(last)]
    taken = play_out(hands, g.trump_suit, g.leader, trick, g.broken, [0, 0, 0], [0, 0, 0], True)
    assert sum(taken) == g.hand_size


def test_a_seat_playing_for_zero_ducks_when_it_can() -> None:
    """Holding the king and the two of the suit led, a seat that wants no trick plays
    the two; one that wants a trick plays the king."""
    # Seat 0 holds 3S 5S (leads the 3S), seat 1 KS 2S, seat 2 4C 5C; hearts are trump.
    hands = [mask_to_rm(1 << 40 | 1 << 42), mask_to_rm(1 << 50 | 1 << 39),
             mask_to_rm(1 << 2 | 1 << 3)]
    for goal, second in ((0, 39), (1, 50)):
        played: list[int] = []
        play_out(hands, 2, 0, [], False, [0, 0, 0], [0, goal, 0], True, played)
        assert from_rm(played[0]) == 40
        assert from_rm(played[1]) == second


def test_an_honest_seat_does_not_count_on_cards_it_cannot_see() -> None:
    """Needing a trick, second to play on a low heart with the queen and ace: a seat that
    looks at the last hand sees that the queen is enough; one that decides from its own
    information plays the ace, since the king (really in the stock) may be behind it."""
    c = [to_rm(parse_card(x)) for x in ("2H", "5D", "QH", "AH", "3H", "4H", "KH")]
    hands = [1 << c[0] | 1 << c[1], 1 << c[2] | 1 << c[3], 1 << c[4] | 1 << c[5]]
    for stock, second in ((-1, "QH"), (1 << c[6], "AH")):
        played: list[int] = []
        play_out(hands, 0, 0, [], False, [0, 0, 0], [0, 1, 0], True, played, stock=stock)
        assert from_rm(played[0]) == parse_card("2H")
        assert from_rm(played[1]) == parse_card(second)


# -- the deal sampler ---------------------------------------------------------------------


def check_deal(obs: Observation, deal: list[int], strict_voids: bool) -> None:
    seen = obs.hand | obs.played_mask() | 1 << obs.trump_card
    union = 0
    voids = obs.void_suits()
    assert rm_to_mask(deal[obs.seat]) == obs.hand
    for p in range(obs.players):
        if p == obs.seat:
            continue
        hand = rm_to_mask(deal[p])
        assert hand & seen == 0, "a sampled hand holds a card this seat has seen"
        assert hand & union == 0, "two sampled hands share a card"
        union |= hand
        assert hand.bit_count() == obs.cards_in_hand(p)
        if strict_voids:
            for s in range(4):
                if voids[p] >> s & 1:
                    assert hand & (0x1FFF << (13 * s)) == 0, "a sampled hand breaks a void"
    assert union & ~obs.unseen_mask() == 0


def test_sampled_deals_fit_everything_the_seat_knows() -> None:
    voids_seen = 0
    for g in mid_round_positions(40) + mid_round_positions(10, players=3):
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        voids_seen += any(obs.void_suits())
        deals, weights = DealSampler(obs).sample(obs.rng(), 20)
        assert len(deals) == 20 and len(weights) == 20
        assert all(w >= 0.0 for w in weights) and sum(weights) > 0.0
        for deal in deals:
            check_deal(obs, deal, strict_voids=True)
    assert voids_seen >= 5, "the positions should include shown voids"


def test_under_the_honour_rule_voids_are_soft_but_counts_hold() -> None:
    broken_voids = 0
    for g in mid_round_positions(30, HONOUR):
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        voids = obs.void_suits()
        deals, _ = DealSampler(obs).sample(obs.rng(), 30)
        for deal in deals:
            check_deal(obs, deal, strict_voids=False)
            for p in range(obs.players):
                for s in range(4):
                    if p != obs.seat and voids[p] >> s & 1 and deal[p] & RM_SUITS[s]:
                        broken_voids += 1
    assert broken_voids > 0, "a shown void should sometimes be ignored under the honour rule"


def test_bids_weight_the_deals_towards_hands_that_fit() -> None:
    """After a bid of 0, deals giving that seat the top trumps weigh less."""
    g = Game("weights", 4)
    g._start_round(6)
    g.bid(0)
    g.bid(2)
    obs = g.observation(g.to_act)  # type: ignore[arg-type]
    sampler = DealSampler(obs)
    deals, weights = sampler.sample(obs.rng(), 200)
    zero = obs.leader
    trumps = RM_SUITS[obs.trump_suit]
    strong = [w for d, w in zip(deals, weights, strict=True) if (d[zero] & trumps).bit_count() >= 3]
    weak = [w for d, w in zip(deals, weights, strict=True) if (d[zero] & trumps).bit_count() == 0]
    assert strong and weak
    assert sum(strong) / len(strong) < sum(weak) / len(weak)


# -- decisions ---------------------------------------------------------------------------


def test_the_registry_makes_a_hard_bot() -> None:
    bot = make_bot("hard")
    assert isinstance(bot, HardBot) and bot.level == "hard"


def test_hard_plays_whole_games_legally() -> None:
    """Two hard seats and two random ones through a short game (every rule checked by
    the referee, which raises on an illegal bid or card)."""
    for rules in (JABBERWOCKY.with_options(schedule=(4, 6, 3)), OH_HELL.with_options(
            schedule=(5, 2, 1))):
        g = Game("hard-legal", 4, rules, ["hard", "random", "hard", "random"])
        bots = [small_bot(), RandomBot(), small_bot(), RandomBot()]
        while g.phase != GAME_OVER:
            if g.phase == ROUND_OVER:
                g.next_round()
                continue
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            choice = bots[seat].act(obs)
            if g.phase == BIDDING:
                assert choice in obs.legal_bids
                g.bid(choice)
            else:
                assert obs.honest >> choice & 1
                g.play(choice)


def test_the_dealer_never_bids_the_hooked_number() -> None:
    for i in range(6):
        g = Game(f"hook/{i}", 4)
        g._start_round(2 + i)
        while g.to_act != g.dealer:
            g.bid(g.hand_size // 4)
        forbidden = g.forbidden_bid()
        assert forbidden is not None
        assert small_bot().choose_bid(g.observation(g.dealer)) != forbidden


def test_same_observation_same_choice() -> None:
    for g in mid_round_positions(6):
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        assert small_bot().act(obs) == small_bot().act(obs)


def shuffle_hidden(game: Game, seat: int, rng: Rng) -> None:
    """Redeal every card ``seat`` cannot see (other hands and the stock) at random."""
    others = [p for p in range(game.players) if p != seat]
    hidden = (((1 << 52) - 1) & ~game.hands[seat] & ~(1 << game.trump_card))
    for t in game.tricks:
        for c in t.cards:
            hidden &= ~(1 << c)
    for c in game.trick:
        hidden &= ~(1 << c)
    pool = cards_of(hidden)
    rng.shuffle(pool)
    for p in others:
        k = game.hands[p].bit_count()
        game.hands[p] = sum(1 << c for c in pool[:k])
        del pool[:k]


def test_choices_do_not_depend_on_the_hidden_cards() -> None:
    """Same observation, same seed: the same choice whatever the others really hold."""
    rng = Rng(99)
    for g in mid_round_positions(8) + mid_round_positions(4, HONOUR):
        seat: int = g.to_act  # type: ignore[assignment]
        obs = g.observation(seat)
        bot = small_bot()
        choice = bot.act(obs)
        hint = bot.hint(obs)
        before = [g.hands[p] for p in range(g.players)]
        for _ in range(3):
            shuffle_hidden(g, seat, rng)
            again = g.observation(seat)
            assert again == obs
            assert bot.act(again) == choice
            assert bot.hint(again) == hint
        assert any(g.hands[p] != before[p] for p in range(g.players) if p != seat)


def test_bid_hints_give_a_distribution_over_trick_counts() -> None:
    for i in range(5):
        g = Game(f"hint-bid/{i}", 4)
        g._start_round(i * 3)
        advance_randomly(g, i % 4, Rng(i))
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        h = small_bot().hint(obs)
        assert h.kind == "bid" and h.level == "hard"
        assert h.suggestion in obs.legal_bids
        assert len(h.probabilities) == obs.hand_size + 1
        assert all(p >= 0.0 for p in h.probabilities)
        assert abs(sum(h.probabilities) - 1.0) < 1e-9


def test_card_hints_score_every_playable_card() -> None:
    for g in mid_round_positions(12):
        if g.phase != PLAYING:
            continue
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        h = small_bot().hint(obs)
        assert h.kind == "card"
        scored = {c for c, _ in h.card_scores}
        assert scored == set(obs.honest_cards())
        assert h.suggestion in scored
        best = max(s for _, s in h.card_scores)
        assert dict(h.card_scores)[h.suggestion] == best


def test_hints_use_their_own_random_stream() -> None:
    g = mid_round_positions(1)[0]
    obs = g.observation(g.to_act)  # type: ignore[arg-type]
    assert obs.rng().next64() != obs.rng(HINT_PURPOSE).next64()


def test_asking_out_of_turn_says_so() -> None:
    g = Game("out-of-turn", 4)
    other = (g.to_act + 1) % 4  # type: ignore[operator]
    with pytest.raises(JabberwockyError, match="nothing to decide"):
        small_bot().hint(g.observation(other))
    with pytest.raises(JabberwockyError, match="nothing to decide"):
        small_bot().act(g.observation(other))


def test_a_real_table_moves_weight_one_trick_up_and_down_and_keeps_the_total() -> None:
    row = [1.0, 3.0, 0.0, 6.0]  # h = 3
    out = at_a_real_table(row, more=0.3, fewer=0.6)
    # t=0: up 0.3; t=1: up 0.2, down 0.2; t=3: down 0.6 (nothing above the hand's size)
    expected = [1.0 * 0.7 + 3.0 * 0.2, 1.0 * 0.3 + 3.0 * 0.6, 3.0 * 0.2 + 6.0 * 0.6, 6.0 * 0.4]
    assert out == pytest.approx(expected)
    assert sum(out) == pytest.approx(sum(row))
    assert at_a_real_table(row, 0.0, 0.0) == row
    assert at_a_real_table([2.0]) == [2.0]  # a hand of no cards: nothing to move


def test_the_more_tricks_a_seat_must_lose_the_likelier_one_is_forced_on_it() -> None:
    h = 6
    ups, downs = [], []
    for t in range(h + 1):
        row = [0.0] * (h + 1)
        row[t] = 1.0
        out = at_a_real_table(row)
        ups.append(out[t + 1] if t < h else 0.0)
        downs.append(out[t - 1] if t > 0 else 0.0)
    assert ups == sorted(ups, reverse=True) and ups[0] > ups[h - 1] > 0 == ups[h]
    assert downs == sorted(downs) and downs[0] == 0 < downs[1] < downs[h]


def test_card_chances_are_tallied_from_the_same_playouts_as_the_scores() -> None:
    """A card's chance of making the bid, and of winning the game, come beside its score
    and change no choice: each is a share of samples (0..1), cards of one group share it,
    and the card chosen with the chances is the card chosen without them.  Played for
    the game (the default), a card's score is its chance of winning the game but for the
    tie-breaker of a hundredth of a trick missed; played for the bid (``game=0``), there
    are no chances of winning the game."""
    bot = HardBot()
    seen = 0
    for k in range(12):
        g = Game(f"chances/{k}", 4)
        while g.phase == BIDDING:
            g.bid(g.observation(g.to_act).legal_bids[0])
        obs = g.observation(g.to_act)
        card, scores, chances, wins = bot.card_evaluation(obs, obs.rng())
        assert (card, scores) == bot.card_scores(obs, obs.rng())
        assert card == bot.choose_card(obs)
        assert HardBot(game=0).card_evaluation(obs, obs.rng())[3] == {}
        if chances:
            seen += 1
            assert set(chances) == set(scores) == set(wins)
            assert all(0.0 <= p <= 1.0 for p in [*chances.values(), *wins.values()])
            assert all(wins[c] - 0.1 <= scores[c] <= wins[c] for c in scores)
            for group in bot.card_groups(obs):
                assert len({chances[from_rm(c)] for c in group}) == 1
                assert len({wins[from_rm(c)] for c in group}) == 1
    assert seen > 0


def test_hook_switch_changes_only_bids_made_before_the_dealers() -> None:
    """``hook=1`` (an experiment, off by default) re-plays one candidate bid with the
    dealer's goal moved; for the dealer itself, or under rules without the hook, it
    changes nothing."""
    before_dealer = after = 0
    for n in range(6):
        game = Game(f"hook-switch/{n}", 4, seats=["medium"] * 4)
        while game.phase == BIDDING:
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            plain = HardBot(bid_work=(1200, 1200)).bid_distribution(obs, obs.rng())
            hooked = HardBot(bid_work=(1200, 1200), hook=1).bid_distribution(obs, obs.rng())
            if seat == game.dealer:
                assert hooked == plain
            else:
                before_dealer += 1
                after += hooked != plain
            game.bid(make_bot("medium").act(obs))
    assert before_dealer == 18 and after > 0
    oh_hell = Game("hook-switch/off", 4, seats=["medium"] * 4,
                   rules=Ruleset.from_dict({**JABBERWOCKY.to_dict(), "hook": False}))
    obs = oh_hell.observation(oh_hell.to_act)  # type: ignore[arg-type]
    assert (HardBot(bid_work=(1200, 1200), hook=1).bid_distribution(obs, obs.rng())
            == HardBot(bid_work=(1200, 1200)).bid_distribution(obs, obs.rng()))
