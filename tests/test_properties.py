"""Properties over thousands of random games (3, 4 and 5 players, every preset).

* every card is dealt once per round and the turned trump card is in no hand;
* every round replays under an independent referee written here (follow suit, trump
  lead, trick winners, hook rule, renege counts), trick counts sum to the hand size;
* scores equal the points of exact bids (1, or 10 + bid) less renege penalties;
* the observation of a seat does not depend on any card hidden from it;
* records round-trip: ``loads(dumps(g))`` replays to the identical record.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import sys

from hypothesis import given
from hypothesis import strategies as st

from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.core.cards import SUIT_MASKS, cards_of
from jabberwocky.core.game import BIDDING, GAME_OVER, ROUND_OVER, Game
from jabberwocky.core.history import RoundResult
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.drivers.simulate import play_game
from jabberwocky.formats.record import dumps, loads, to_record

PRESETS = [JABBERWOCKY, OH_HELL, HONOUR, JABBERWOCKY.with_options(trump_lead="any-time"),
           JABBERWOCKY.with_options(hook=False)]
SMALL_RUN = sys.platform == "emscripten" or os.environ.get("JABBERWOCKY_QUICK") == "1"
LOOP_GAMES = 60 if SMALL_RUN else 2400

seeds = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=24)
"""Any seed the engine accepts (no control character, no unpaired surrogate)."""
player_counts = st.sampled_from([3, 4, 5])
rulesets = st.sampled_from(PRESETS)
policy_seeds = st.integers(min_value=0, max_value=2**64 - 1)


# -- an independent referee for finished rounds ---------------------------------------


def check_round(res: RoundResult, players: int, rules: Ruleset, first_dealer: int) -> None:
    """Replay one finished round from its record under the rules, independently."""
    n, h = players, res.hand_size
    assert h == rules.schedule[res.round_index]
    assert res.dealer == (first_dealer + res.round_index) % n
    # every card dealt once; the trump card in no hand
    union = 0
    for hand in res.hands:
        assert hand.bit_count() == h
        assert union & hand == 0
        union |= hand
    assert not union >> res.trump_card & 1
    trump = res.trump_card // 13
    # bids: 0..h, and the hook rule on the dealer's (last) bid
    assert all(0 <= b <= h for b in res.bids)
    if rules.hook:
        assert sum(res.bids) != h
    hands = list(res.hands)
    leader = (res.dealer + 1) % n
    broken = False
    taken = [0] * n
    reneges = [0] * n
    assert len(res.tricks) == h
    for trick in res.tricks:
        assert trick.leader == leader
        assert len(trick.cards) == n
        led = trick.cards[0] // 13
        for i, card in enumerate(trick.cards):
            seat = (leader + i) % n
            assert hands[seat] >> card & 1, "a card played that the seat does not hold"
            suit = card // 13
            if i == 0:
                if suit == trump and not broken and rules.trump_lead == "after-broken":
                    assert hands[seat] & ~SUIT_MASKS[trump] == 0, "trump led before broken"
            elif suit != led and hands[seat] & SUIT_MASKS[led]:
                assert rules.renege_penalty, "failed to follow suit without the honour rule"
                reneges[seat] += 1
            if suit == trump:
                broken = True
            hands[seat] &= ~(1 << card)
        trumps = [c for c in trick.cards if c // 13 == trump]
        best = max(trumps) if trumps else max(c for c in trick.cards if c // 13 == led)
        winner = (leader + trick.cards.index(best)) % n
        assert trick.winner == winner
        taken[winner] += 1
        leader = winner
    assert hands == [0] * n
    assert list(res.taken) == taken and sum(taken) == h
    assert list(res.reneges) == reneges
    for s in range(n):
        exact = res.bids[s] == taken[s]
        base = (1 if rules.scoring == "exact-1" else 10 + res.bids[s]) if exact else 0
        assert res.points[s] == base - rules.renege_penalty * reneges[s]


def check_game(g: Game) -> None:
    assert g.phase == GAME_OVER and len(g.results) == g.rules.rounds
    for res in g.results:
        check_round(res, g.players, g.rules, g.first_dealer)
    expected = [0] * g.players
    for res in g.results:
        for s in range(g.players):
            if res.bids[s] == res.taken[s]:
                expected[s] += 1 if g.rules.scoring == "exact-1" else 10 + res.bids[s]
            expected[s] -= g.rules.renege_penalty * res.reneges[s]
    assert g.scores == expected
    best = max(expected)
    assert g.winners() == [s for s in range(g.players) if expected[s] == best]


# -- random play through the public API -----------------------------------------------


def act_randomly(g: Game, rng: Rng) -> None:
    """One action through the checked API; under the honour rule, sometimes a renege."""
    if g.phase == ROUND_OVER:
        g.next_round()
    elif g.phase == BIDDING:
        bids = g.legal_bids()
        assert bids, "the player to bid has no legal bid"
        g.bid(bids[rng.below(len(bids))])
    else:
        mask = g.honest_mask()
        if g.rules.honour_rule and rng.below(4) == 0:
            mask = g.legal_mask()
        assert mask and mask & ~g.hands[g.to_act] == 0  # type: ignore[index]
        g.play(rng.pick_bit(mask))


def check_table(g: Game) -> None:
    """Invariants at any moment: dealt cards are conserved, the trump card is in no hand."""
    held = 0
    for hand in g.hands:
        assert held & hand == 0
        held |= hand
    played = 0
    for t in g.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in g.trick:
        played |= 1 << c
    dealt = 0
    for hand in g.dealt:
        dealt |= hand
    assert held & played == 0 and held | played == dealt
    assert dealt.bit_count() == g.players * g.hand_size
    assert not dealt >> g.trump_card & 1


@given(seeds, player_counts, rulesets, policy_seeds)
def test_random_games_through_the_api_keep_every_invariant(
    seed: str, players: int, rules: Ruleset, policy: int
) -> None:
    g = Game(seed, players, rules, ["human"] * players)
    rng = Rng(policy)
    while g.phase != GAME_OVER:
        check_table(g)
        act_randomly(g, rng)
    check_game(g)


def test_thousands_of_random_games_replay_under_an_independent_referee() -> None:
    bots = [RandomBot() for _ in range(5)]
    for i in range(LOOP_GAMES):
        players = 3 + i % 3
        rules = PRESETS[(i // 3) % len(PRESETS)]
        g = Game(f"loop/{i}", players, rules, ["random"] * players)
        play_game(g, bots[:players])
        check_game(g)


def test_hook_leaves_the_dealer_a_legal_bid_in_every_case() -> None:
    for players in (3, 4, 5):
        for h in range(1, 10):
            for total in range(0, players * h + 1):
                g = Game("hook", players)
                g.hand_size = h
                g.bids = [0] * players
                g.bids[g.dealer] = None
                g.bids[(g.dealer + 1) % players] = total
                g.to_act = g.dealer
                assert g.legal_bids()
                assert len(g.legal_bids()) == h + (1 if total > h else 0)


# -- observations never leak a hidden card --------------------------------------------


def reshuffle_hidden(g: Game, seat: int, rng: Rng) -> Game:
    """A copy of ``g`` in which every card hidden from ``seat`` (other hands, stock) is
    dealt afresh among the other seats, each keeping its number of cards."""
    other = copy.deepcopy(g)
    played = 0
    for t in g.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in g.trick:
        played |= 1 << c
    visible = g.hands[seat] | played | 1 << g.trump_card
    hidden = cards_of(((1 << 52) - 1) & ~visible)
    rng.shuffle(hidden)
    for s in range(g.players):
        if s == seat:
            continue
        k = g.hands[s].bit_count()
        new = hidden[:k]
        del hidden[:k]
        mask = 0
        for c in new:
            mask |= 1 << c
        other.hands[s] = mask
    return other


def assert_same_observation(a: Observation, b: Observation) -> None:
    for f in dataclasses.fields(Observation):
        assert getattr(a, f.name) == getattr(b, f.name), f"observation field {f.name} leaks"


@given(seeds, player_counts, rulesets, policy_seeds, st.integers(0, 200), st.integers(0, 4))
def test_observation_does_not_depend_on_hidden_cards(
    seed: str, players: int, rules: Ruleset, policy: int, steps: int, seat: int
) -> None:
    seat %= players
    g = Game(seed, players, rules, ["human"] * players)
    rng = Rng(policy)
    for _ in range(steps):
        if g.phase == GAME_OVER:
            break
        act_randomly(g, rng)
    other = reshuffle_hidden(g, seat, rng)
    assert other.hands[seat] == g.hands[seat]
    assert_same_observation(g.observation(seat), other.observation(seat))


def test_the_leak_check_can_fail() -> None:
    # the reshuffle really changes other hands, and the observation of a seat that
    # holds those cards changes with them
    g = Game("leak", 4)
    other = reshuffle_hidden(g, 0, Rng(7))
    assert other.hands[1:] != g.hands[1:]
    assert other.observation(1) != g.observation(1)
    assert_same_observation(g.observation(0), other.observation(0))


def test_observation_holds_no_seed_and_only_public_fields() -> None:
    names = {f.name for f in dataclasses.fields(Observation)}
    assert "seed" not in names
    assert names == {
        "seat", "players", "rules", "round_index", "hand_size", "dealer", "trump_card",
        "hand", "bids", "leader", "trick", "tricks", "taken", "broken", "scores", "phase",
        "to_act", "legal_bids", "legal", "honest", "history", "step", "bot_key",
    }


# -- records round-trip ---------------------------------------------------------------


@given(seeds, player_counts, rulesets, policy_seeds, st.integers(0, 400))
def test_records_round_trip_mid_game_and_at_the_end(
    seed: str, players: int, rules: Ruleset, policy: int, steps: int
) -> None:
    g = Game(seed, players, rules, ["human"] * players)
    rng = Rng(policy)
    for _ in range(steps):
        if g.phase == GAME_OVER:
            break
        act_randomly(g, rng)
    text = dumps(g)
    again = loads(text)
    assert to_record(again) == to_record(g)
    assert dumps(again) == text
    assert (again.phase, again.to_act, again.hands, again.scores) == (
        g.phase, g.to_act, g.hands, g.scores)
    while g.phase != GAME_OVER:
        act_randomly(g, rng)
    assert to_record(loads(dumps(g))) == to_record(g)


def test_a_played_game_replays_from_its_record_and_continues_identically() -> None:
    g = Game("continue", 4, HONOUR, ["human"] * 4)
    rng = Rng(1)
    for _ in range(150):
        act_randomly(g, rng)
    again = loads(dumps(g))
    rng_a, rng_b = Rng(99), Rng(99)
    while g.phase != GAME_OVER:
        act_randomly(g, rng_a)
        act_randomly(again, rng_b)
    assert to_record(again) == to_record(g)
    assert g.phase == GAME_OVER


def test_the_independent_referee_catches_a_wrong_round() -> None:
    import pytest

    g = Game("referee", 4, JABBERWOCKY, ["random"] * 4)
    play_game(g, [RandomBot() for _ in range(4)])
    res = g.results[5]
    check_round(res, 4, JABBERWOCKY, g.first_dealer)
    t = res.tricks[0]
    wrong_winner = res._replace(tricks=(t._replace(winner=(t.winner + 1) % 4), *res.tricks[1:]))
    swapped = res._replace(tricks=(t._replace(cards=t.cards[::-1]), *res.tricks[1:]))
    wrong_points = res._replace(points=tuple(1 - p for p in res.points))
    for bad in (wrong_winner, swapped, wrong_points):
        with pytest.raises(AssertionError):
            check_round(bad, 4, JABBERWOCKY, g.first_dealer)
