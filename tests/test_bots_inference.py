"""Inference from play (:mod:`jabberwocky.bots.inference`): the facts a trick gives about
the hands of the seats that played to it, and how the deal sampler weighs them."""

from __future__ import annotations

from positions import hand, position

from jabberwocky.bots.inference import play_facts
from jabberwocky.bots.playout import rm_to_mask
from jabberwocky.bots.sampling import DealSampler
from jabberwocky.core.cards import SUIT_MASKS, parse_card
from jabberwocky.core.game import Game
from jabberwocky.core.observation import Observation

HEARTS = SUIT_MASKS[2]
SPADES = SUIT_MASKS[3]


def _facts_after(game: Game, plays: str, seat: int) -> tuple[Observation, dict[int, int]]:
    for name in plays.split():
        game.play(parse_card(name))
    obs = game.observation(seat)
    facts: dict[int, int] = {}
    for s, mask in play_facts(obs):
        facts[s] = facts.get(s, 0) | mask
    return obs, facts


def test_a_seat_that_needs_a_trick_and_lets_a_king_win_lacks_the_ace() -> None:
    # Spades trump.  Seat 0 leads KH; seat 1 (bid 1) follows with 3H under it.
    game = position(["KH 2C", "3H 4C", "5H 6C", "7H 8C"], "2S", dealer=3, bids=[1, 1, 1, 0])
    _, facts = _facts_after(game, "KH 3H", 3)
    assert facts[1] == 1 << parse_card("AH")  # the only heart above the king seat 3 lacks
    assert 0 not in facts  # the leader tells nothing


def test_a_seat_that_wants_no_trick_and_wins_one_has_nothing_lower() -> None:
    # Seat 1 bid 0 and overtook the nine of hearts with the queen: it had no lower heart.
    game = position(["9H 2C", "QH 4C", "5H 6C", "7H 8C"], "2S", dealer=3, bids=[1, 0, 1, 1])
    obs, facts = _facts_after(game, "9H QH", 0)
    lower = HEARTS & ((1 << parse_card("9H")) - 1) & obs.unseen_mask()
    assert facts[1] == lower and lower & (1 << parse_card("2H"))


def test_a_seat_that_ducks_does_so_with_its_highest_loser() -> None:
    # Seat 1 bid 0 and played the five under the king: it holds no heart from 6 to Q.
    game = position(["KH 2C", "5H 4C", "3H 6C", "7H 8C"], "2S", dealer=3, bids=[1, 0, 1, 1])
    obs, facts = _facts_after(game, "KH 5H", 0)
    assert facts[1] == hand("6H 7H 8H 9H TH JH QH") & obs.unseen_mask()


def test_a_void_seat_that_needs_tricks_and_does_not_ruff_has_no_trump() -> None:
    game = position(["KH 2C", "4C 5C", "5H 6C", "7H 8C"], "2S", dealer=3, bids=[1, 1, 1, 0])
    obs, facts = _facts_after(game, "KH 4C", 0)
    assert facts[1] == SPADES & obs.unseen_mask()


def test_a_void_seat_that_wants_no_trick_and_ruffs_holds_only_trumps() -> None:
    game = position(["KH 2C", "3S 5S", "5H 6C", "7H 8C"], "2S", dealer=3, bids=[1, 0, 1, 1])
    obs, facts = _facts_after(game, "KH 3S", 0)
    assert facts[1] == (SUIT_MASKS[0] | SUIT_MASKS[1]) & obs.unseen_mask()


def test_a_fact_the_seat_later_breaks_is_dropped() -> None:
    # Seat 1 (bid 1) lets the king of hearts win with the three; on the next trick it
    # follows with the ace of hearts, which the first fact said it lacked.
    game = position(["KH QH 2C", "3H AH 4C", "5H 6H 6C", "7H 8H 8C"], "2S", dealer=3,
                    bids=[2, 1, 1, 0])
    _, facts = _facts_after(game, "KH 3H 5H 7H QH AH", 2)
    assert 1 not in facts


def test_the_sampler_weighs_deals_that_break_a_fact_down() -> None:
    game = position(["KH 2C 3C", "3H 4C 5C", "5H 6C 7C", "7H 8C 9C"], "2S", dealer=3,
                    bids=[1, 1, 0, 0])
    for name in ("KH", "3H"):
        game.play(parse_card(name))
    obs = game.observation(2)
    ace = 1 << parse_card("AH")
    on, off = DealSampler(obs, infer=0.25), DealSampler(obs)
    deals, weights = on.sample(obs.rng(), 300)
    with_ace = [w for d, w in zip(deals, weights, strict=True) if rm_to_mask(d[1]) & ace]
    without = [w for d, w in zip(deals, weights, strict=True) if not rm_to_mask(d[1]) & ace]
    assert with_ace and without
    assert sum(with_ace) / len(with_ace) < 0.5 * sum(without) / len(without)
    assert on.facts and not off.facts
