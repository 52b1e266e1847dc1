"""The ``easy`` and ``medium`` bots: fair (hidden cards never matter), deterministic,
always legal, sensible under the hook rule, and goal-driven in hand-built positions."""

from __future__ import annotations

import dataclasses
import math

import pytest
from positions import cards, position

from jabberwocky.bots import Bot, make_bot
from jabberwocky.bots.knowledge import Knowledge, beats, poisson_binomial, trick_best
from jabberwocky.bots.medium import best_bid, bid_distribution
from jabberwocky.core.cards import FULL_DECK, SUIT_MASKS, Card, cards_of, parse_card
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset

LEVELS = ("easy", "medium")


def _advance(game: Game, bots: list[Bot]) -> None:
    """One action of the seat to act (or the next deal; nothing once the game is over)."""
    if game.phase == GAME_OVER:
        return
    if game.phase == BIDDING or game.phase == PLAYING:
        seat = game.to_act
        assert seat is not None
        choice = bots[seat].act(game.observation(seat))
        if game.phase == BIDDING:
            game.bid(choice)
        else:
            game.play(choice)
    else:
        game.next_round()


def _reshuffled(game: Game, seat: int, rng: Rng) -> Game | None:
    """A copy of ``game`` in which the cards ``seat`` cannot see (other hands and the
    stock) are dealt again at random, keeping every hand's size and every void a seat
    has shown; ``None`` if no such deal turned up in a few tries."""
    obs = game.observation(seat)
    unseen = cards_of(obs.unseen_mask())
    others = [s for s in range(game.players) if s != seat]
    voids = obs.void_suits()
    for _ in range(200):
        rng.shuffle(unseen)
        hands = list(game.hands)
        i = 0
        ok = True
        for s in others:
            n = game.hands[s].bit_count()
            dealt = unseen[i:i + n]
            i += n
            if any(voids[s] >> (c // 13) & 1 for c in dealt):
                ok = False
                break
            hands[s] = sum(1 << c for c in dealt)
        if not ok:
            continue
        if hands == game.hands:
            continue
        twin = Game(game.seed, game.players, game.rules, list(game.seats))
        for name, value in vars(game).items():
            setattr(twin, name, list(value) if isinstance(value, list) else value)
        twin.hands = hands
        return twin
    return None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_choice_ignores_the_hidden_cards(level: str, players: int) -> None:
    bots = [make_bot(level) for _ in range(players)]
    rng = Rng(players * 1000 + len(level))
    checked = 0
    for g in range(2):
        game = Game(f"fair/{level}/{g}", players, JABBERWOCKY, [level] * players)
        while game.phase != GAME_OVER:
            if game.phase in (BIDDING, PLAYING) and game.step % 3 == 1:
                seat = game.to_act
                assert seat is not None
                twin = _reshuffled(game, seat, rng)
                if twin is not None:
                    assert twin.hands != game.hands
                    assert twin.observation(seat) == game.observation(seat)
                    fresh = make_bot(level)
                    assert fresh.act(twin.observation(seat)) == bots[seat].act(
                        game.observation(seat))
                    checked += 1
            _advance(game, bots)
    assert checked > 50


@pytest.mark.parametrize("level", LEVELS)
def test_same_observation_same_choice(level: str) -> None:
    bots = [make_bot(level) for _ in range(4)]
    game = Game("determinism", 4, JABBERWOCKY, [level] * 4)
    for _ in range(150):
        if game.phase in (BIDDING, PLAYING):
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            first = bots[seat].act(obs)
            assert all(make_bot(level).act(obs) == first for _ in range(3))
            assert bots[seat].act(obs) == first
        _advance(game, bots)


@pytest.mark.parametrize("rules", [JABBERWOCKY, OH_HELL, HONOUR], ids=lambda r: r.name)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_bots_play_legal_moves_and_never_renege(rules: Ruleset, players: int) -> None:
    levels = [LEVELS[i % 2] for i in range(players)]
    bots = [make_bot(lvl) for lvl in levels]
    for g in range(2):
        game = Game(f"legal/{g}", players, rules, levels)
        while game.phase != GAME_OVER:
            if game.phase == BIDDING:
                seat = game.to_act
                assert seat is not None
                bid = bots[seat].act(game.observation(seat))
                assert bid in game.legal_bids()
                game.bid(bid)
            elif game.phase == PLAYING:
                seat = game.to_act
                assert seat is not None
                card = bots[seat].act(game.observation(seat))
                assert game.honest_mask() >> card & 1, "a bot played an illegal or renege card"
                game.play(card)
            else:
                game.next_round()
        assert not any(r for res in game.results for r in res.reneges)
        assert len(game.results) == rules.rounds


def test_hooked_dealer_bids_next_to_its_estimate() -> None:
    # Dealer 0 holds two top trumps; the last bid is set so that the hook rule
    # forbids exactly the count the dealer would bid if it were free.
    hooked = 0
    for last in range(4):
        game = position(["AS KS 2C", "3C 4C 5C", "6C 7C 8C", "9C TC JC"], "2S",
                        dealer=0, bids=[None, 0, 0, last])
        obs = game.observation(0)
        free = dataclasses.replace(obs, legal_bids=tuple(range(obs.hand_size + 1)))
        want = best_bid(free, bid_distribution(obs))
        assert want >= 2
        if want in obs.legal_bids:
            assert make_bot("medium").act(obs) == want
            continue
        hooked += 1
        bid = make_bot("medium").act(obs)
        assert bid in obs.legal_bids and abs(bid - want) == 1
        assert make_bot("easy").act(obs) in obs.legal_bids
    assert hooked >= 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hooked_dealer_never_bids_far_from_its_free_choice(players: int) -> None:
    bots = [make_bot("medium") for _ in range(players)]
    hooked = 0
    for g in range(3):
        game = Game(f"hook/{g}", players, JABBERWOCKY, ["medium"] * players)
        while game.phase != GAME_OVER:
            if game.phase == BIDDING and game.to_act == game.dealer:
                obs = game.observation(game.dealer)
                if len(obs.legal_bids) == obs.hand_size:
                    hooked += 1
                    free = dataclasses.replace(obs, legal_bids=tuple(range(obs.hand_size + 1)))
                    want = bots[0].act(free)
                    got = bots[0].act(obs)
                    assert got in obs.legal_bids
                    assert got == want or abs(got - want) == 1
            _advance(game, bots)
    assert hooked > 5


def _obs_to_act(game: Game) -> Observation:
    seat = game.to_act
    assert seat is not None
    return game.observation(seat)


def test_medium_with_enough_tricks_ducks_with_the_highest_losing_card() -> None:
    # Seat 1 bid 0; spades are trump. KH leads; QH is the highest heart that loses.
    game = position(["3D 4D", "QH 9H 2H AD", "5C 6C 7C 8C", "9C TC JC QC"], "2S",
                    dealer=3, bids=[1, 0, 1, 0], trick="KH", leader=0, hand_size=4)
    assert make_bot("medium").act(_obs_to_act(game)) == parse_card("QH")


def test_medium_with_enough_tricks_discards_its_most_dangerous_card() -> None:
    # Seat 1 bid 0 and cannot follow clubs: it throws the ace of diamonds.
    game = position(["3D 4D", "AD 9H 2H 3H", "6C 7C 8C 9C", "TC JC QC KC"], "2S",
                    dealer=3, bids=[1, 0, 1, 1], trick="5C", leader=0, hand_size=4)
    assert make_bot("medium").act(_obs_to_act(game)) == parse_card("AD")


def test_medium_needing_every_trick_wins_as_cheaply_as_possible() -> None:
    # Seat 3 plays last and needs both remaining tricks: the ten of hearts is enough.
    game = position(["2C", "3C", "4C", "AH TH"], "2S",
                    dealer=2, bids=[0, 0, 0, 2], trick="9H 5H 7H", leader=0)
    assert make_bot("medium").act(_obs_to_act(game)) == parse_card("TH")


def test_medium_needing_tricks_leads_a_certain_winner() -> None:
    # Seat 0 needs 2 of 2, holds the top trump and a low club: it cashes the trump.
    game = position(["AS 2C", "3C 4C", "5C 6C", "7C 8C"], "2S",
                    dealer=3, bids=[2, 0, 0, 1], broken=True)
    assert make_bot("medium").act(_obs_to_act(game)) == parse_card("AS")


def test_medium_without_need_leads_its_safest_card() -> None:
    # Seat 0 bid 0 and leads: the two of clubs, which every other seat can beat.
    game = position(["2C AD", "3C 4C", "5C 6C", "7C 8C"], "2S",
                    dealer=3, bids=[0, 1, 0, 0])
    assert make_bot("medium").act(_obs_to_act(game)) == parse_card("2C")


def test_medium_bids_its_sure_tricks() -> None:
    game = position(["AS KS QS", "3C 4C 5C", "6C 7C 8C", "9C TC JC"], "2S", dealer=3)
    assert make_bot("medium").act(_obs_to_act(game)) == 3
    game = position(["2C 3D 4H", "3C 4C 5C", "6C 7C 8C", "9C TC JC"], "AS", dealer=3)
    assert make_bot("medium").act(_obs_to_act(game)) == 0


@pytest.mark.parametrize("level", LEVELS)
def test_hints_are_legal_and_their_probabilities_sum_to_one(level: str) -> None:
    bot = make_bot(level)
    bots = [make_bot(level) for _ in range(4)]
    game = Game(f"hint/{level}", 4, OH_HELL, [level] * 4)
    bid_hints = card_hints = 0
    for _ in range(300):
        if game.phase in (BIDDING, PLAYING):
            obs = _obs_to_act(game)
            hint = bot.hint(obs)
            assert hint.level == level
            if game.phase == BIDDING:
                bid_hints += 1
                assert hint.kind == "bid"
                assert hint.suggestion in obs.legal_bids
                assert len(hint.probabilities) == obs.hand_size + 1
                assert all(0.0 <= p <= 1.0 for p in hint.probabilities)
                assert math.isclose(sum(hint.probabilities), 1.0, abs_tol=1e-9)
            else:
                card_hints += 1
                assert hint.kind == "card"
                assert obs.honest >> hint.suggestion & 1
                assert sorted(c for c, _ in hint.card_scores) == obs.honest_cards()
                assert all(0.0 <= s <= 1.0 for _, s in hint.card_scores)
            assert bot.hint(obs) == hint
            # asking for a hint does not change the move
            assert bots[obs.seat].act(obs) == bots[obs.seat].act(obs)
        _advance(game, bots)
    assert bid_hints >= 4 and card_hints >= 20


def test_medium_hint_for_a_card_is_its_move() -> None:
    bot = make_bot("medium")
    bots = [make_bot("medium") for _ in range(4)]
    game = Game("hint-move", 4, JABBERWOCKY, ["medium"] * 4)
    for _ in range(200):
        if game.phase in (BIDDING, PLAYING):
            obs = _obs_to_act(game)
            assert bot.hint(obs).suggestion == bot.act(obs)
        _advance(game, bots)


def test_knowledge_tracks_played_cards_voids_and_certain_winners() -> None:
    # Trick 1: seat 0 led AH, seat 1 threw a club (void in hearts), 2 and 3 followed.
    game = position(["AH KH 2S", "3C 4C 5C", "2H 6C 7C", "3H 8C 9C"], "2D",
                    dealer=3, bids=[2, 0, 0, 1])
    for c in cards("AH 3C 2H 3H"):
        game.play(c)
    assert game.to_act == 0
    k = Knowledge(game.observation(0))
    assert k.played == sum(1 << c for c in cards("AH 3C 2H 3H"))
    assert k.is_void(1, 2) and not k.is_void(2, 2)
    assert k.need == [1, 0, 0, 1]
    assert k.held == [2, 2, 2, 2]
    assert k.is_certain_winner(parse_card("KH")) is False  # the queen is still out
    assert k.unseen & (1 << parse_card("QH"))
    assert k.p_win_now(parse_card("KH")) > k.p_win_now(parse_card("2S"))
    assert k.remaining == 2
    trump_only = Knowledge(dataclasses.replace(game.observation(0), hand=1 << parse_card("AD")))
    assert trump_only.is_certain_winner(parse_card("AD"))
    assert FULL_DECK & ~k.unseen & SUIT_MASKS[1] == 1 << parse_card("2D")


def test_knowledge_helpers() -> None:
    ah, kh, two_s, three_c = (parse_card(t) for t in ("AH", "KH", "2S", "3C"))
    assert beats(ah, kh, trump=3) and not beats(kh, ah, trump=3)
    assert beats(two_s, ah, trump=3) and not beats(three_c, kh, trump=3)
    trick: list[Card] = [kh, ah, two_s, three_c]
    assert trick_best(trick, trump=3) == 2
    assert trick_best([], trump=3) == -1
    dist = poisson_binomial([0.5, 0.2, 1.0])
    assert math.isclose(sum(dist), 1.0) and dist[0] == 0.0
    assert math.isclose(dist[1], 0.4) and math.isclose(dist[3], 0.1)
