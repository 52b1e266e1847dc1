"""``bench/ohhell_peer.py``: OpenSpiel's IS-MCTS as a peer, searching ``oh_hell``.

A peer measured against ``hard`` is only worth its figures if the round it searches is
ours, and if it never learns a card it could not see.  So:

* ``oh_hell`` set up from an observation replays our engine's rounds move for move: the
  same player to act, the same bids allowed (hook rule), the same cards allowed (but for
  the trump leads before trumps are broken that ``oh_hell`` allows and we do not), and
  returns of 10 for each exact bid (needs ``open_spiel``; skipped, saying so, without it);
* the fillings of the hidden hands never hold a card the seat has seen elsewhere (its own,
  one played, the turned trump card), give each seat its count of cards, and keep every
  void a seat has shown (runs everywhere).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ohhell_peer import (  # noqa: E402
    NUM_CARDS,
    filling,
    from_oh,
    oh_hell_state,
    round_actions,
    to_oh,
)

from jabberwocky.bots import make_bot  # noqa: E402
from jabberwocky.core.cards import SUIT_MASKS  # noqa: E402
from jabberwocky.core.game import BIDDING, GAME_OVER, ROUND_OVER, Game  # noqa: E402
from jabberwocky.core.rng import Rng  # noqa: E402
from jabberwocky.core.rules import JABBERWOCKY  # noqa: E402

HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
needs_openspiel = pytest.mark.skipif(
    not HAVE_OPENSPIEL,
    reason="open_spiel is not installed here (pip install open_spiel: the optional bench "
           "extra); the oh_hell set-up cannot be replayed")


def _rounds(seed: str, players: int, rounds: int) -> Iterator[tuple[Game, int | None]]:
    """A game of ``medium`` bots: each decision's game before the move, and the move."""
    rules = dataclasses.replace(JABBERWOCKY, schedule=JABBERWOCKY.schedule[:rounds])
    game = Game(seed, players, rules, ["medium"] * players)
    bots = [make_bot("medium") for _ in range(players)]
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            yield game, None
            game.next_round()
            continue
        seat = game.to_act
        assert seat is not None
        move = bots[seat].act(game.observation(seat))
        yield game, move
        if game.phase == BIDDING:
            game.bid(move)
        else:
            game.play(move)
    yield game, None


def test_cards_map_one_to_one() -> None:
    assert sorted(to_oh(c) for c in range(52)) == list(range(52))
    assert all(from_oh(to_oh(c)) == c for c in range(52))
    assert to_oh(12) == 48 and to_oh(51) == 50  # the aces of clubs and spades (C D S H)


@needs_openspiel
@pytest.mark.parametrize("players", [3, 4, 5])
def test_oh_hell_replays_our_rounds_move_for_move(players: int) -> None:
    state = None
    rounds = 0
    for game, move in _rounds(f"peer-replay/{players}", players, 4):
        if move is None:
            if game.results and state is not None and state.is_terminal():
                assert [r / 10 for r in state.returns()] == list(game.results[-1].points)
                rounds += 1
                state = None
            continue
        seat = game.to_act
        assert seat is not None
        obs = game.observation(seat)
        hands = list(game.hands)
        rebuilt = oh_hell_state(obs, hands)  # set up from this decision's view
        if state is None:
            assert obs.phase == BIDDING and all(b is None for b in obs.bids)
            state = rebuilt
        assert rebuilt.history() == state.history()
        assert state.current_player() == seat
        legal = sorted(state.legal_actions())
        if obs.phase == BIDDING:
            assert legal == [NUM_CARDS + b for b in obs.legal_bids]
            state.apply_action(NUM_CARDS + move)
        else:
            ours = sorted(to_oh(c) for c in obs.legal_cards())
            extra = {from_oh(a) for a in legal} - set(obs.legal_cards())
            assert set(ours) <= set(legal)
            # the only difference: oh_hell lets a trump be led before trumps are broken
            assert all(not obs.trick and not obs.broken and c // 13 == obs.trump_suit
                       for c in extra)
            state.apply_action(to_oh(move))
    assert rounds == 4


def _decisions(players: int, games: int) -> Iterator[Game]:
    for g in range(games):
        for game, move in _rounds(f"peer-fill/{players}/{g}", players, 13):
            if move is not None:
                yield game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fillings_hold_no_card_the_seat_has_seen_and_keep_shown_voids(players: int) -> None:
    rng = Rng(players)
    checked = voided = 0
    for k, game in enumerate(_decisions(players, 2)):
        if k % 3:
            continue
        seat = game.to_act
        obs = game.observation(seat)
        seen = obs.hand | obs.played_mask() | 1 << obs.trump_card
        voids = obs.shown_voids()
        for p in range(players):  # the true hands keep the shown voids too
            for s in range(4):
                if voids[p] >> s & 1:
                    assert not game.hands[p] & SUIT_MASKS[s]
        for _ in range(3):
            hands = filling(obs, rng)
            assert hands[seat] == obs.hand
            together = 0
            for p in range(players):
                assert hands[p].bit_count() == obs.cards_in_hand(p)
                assert not together & hands[p]
                together |= hands[p]
                if p == seat:
                    continue
                assert not hands[p] & seen
                for s in range(4):
                    if voids[p] >> s & 1:
                        voided += 1
                        assert not hands[p] & SUIT_MASKS[s]
            assert len(round_actions(obs, hands)) == (
                2 + players * obs.hand_size + 1 + sum(b is not None for b in obs.bids)
                + len(obs.tricks) * players + len(obs.trick))
            checked += 1
    assert checked > 100 and voided > 50


def test_a_trump_led_before_trumps_are_broken_shows_a_hand_of_trumps() -> None:
    from positions import position

    # seat 1 leads the four of spades (trumps) unbroken: it holds only spades
    game = position(["2C 3C 4C", "4S 5S 6S", "7C 8C 9C", "TC JC QC"], "2S",
                    dealer=0, bids=[0, 3, 0, 0])
    game.play(game.legal_cards()[0])
    obs = game.observation(game.to_act)  # type: ignore[arg-type]
    assert obs.shown_voids()[1] == 0b0111
