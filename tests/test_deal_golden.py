"""Golden vectors of the deal algorithm ``jabberwocky-deal/1``.

``tests/golden/deals.json`` pins, for several seeds and 3, 4 and 5 players, the first
dealer and all 13 deals with their trump cards.  The vectors were generated once from
the engine and checked against :func:`reference_deals`, a from-scratch implementation
of the algorithm as the docstring of ``jabberwocky.core.deal`` describes it (it shares no
code with the engine).  If a vector ever changes, shared seeds no longer replay: the
algorithm must get a new version name instead.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from jabberwocky.core.cards import card_name, cards_of
from jabberwocky.core.deal import DEAL_ALGORITHM, deal_round, first_dealer, shuffled_deck
from jabberwocky.core.game import Game
from jabberwocky.core.rules import JABBERWOCKY_SCHEDULE

GOLDEN = Path(__file__).with_name("golden") / "deals.json"
VECTORS: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["vectors"]

RANKS = "23456789TJQKA"
SUITS = "CDHS"


# -- the specification, implemented from the docstring alone ---------------------------


def _block(seed: str, label: str, n: int) -> int:
    s = unicodedata.normalize("NFC", seed).encode("utf-8")
    data = b"jabberwocky-deal/1\x00" + label.encode("ascii") + b"\x00" + s + b"\x00" + \
        str(n).encode("ascii")
    return int(hashlib.sha256(data).hexdigest(), 16)


def _uniform(seed: str, label: str, m: int) -> int:
    n = 0
    while True:
        x = _block(seed, label, n)
        if x < 2**256 - (2**256 % m):
            return x % m
        n += 1


def _factorial(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


def reference_deals(seed: str, players: int) -> dict[str, Any]:
    """First dealer and 13 deals (card names, each hand sorted in deck order)."""
    first = _uniform(seed, "dealer", players)
    rounds = []
    for r, size in enumerate([3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3], start=1):
        dealer = (first + r - 1) % players
        p = _uniform(seed, f"round-{r}", _factorial(52))
        pool = list(range(52))
        deck = []
        for i in range(52):
            k = p % (52 - i)
            p //= 52 - i
            deck.append(pool[k])
            del pool[k]
        hands: list[list[int]] = [[] for _ in range(players)]
        for j in range(players * size):
            hands[(dealer + 1 + j) % players].append(deck[j])
        trump = deck[players * size]
        rounds.append({
            "round": r,
            "dealer": dealer,
            "hand_size": size,
            "hands": [[RANKS[c % 13] + SUITS[c // 13] for c in sorted(h)] for h in hands],
            "trump_card": RANKS[trump % 13] + SUITS[trump // 13],
        })
    return {"seed": seed, "players": players, "first_dealer": first, "rounds": rounds}


def engine_deals(seed: str, players: int) -> dict[str, Any]:
    """The same through the engine's functions."""
    first = first_dealer(seed, players)
    rounds = []
    for i, size in enumerate(JABBERWOCKY_SCHEDULE):
        dealer = (first + i) % players
        d = deal_round(seed, i + 1, players, dealer, size)
        rounds.append({
            "round": i + 1,
            "dealer": dealer,
            "hand_size": size,
            "hands": [[card_name(c) for c in cards_of(h)] for h in d.hands],
            "trump_card": card_name(d.trump_card),
        })
    return {"seed": seed, "players": players, "first_dealer": first, "rounds": rounds}


# -- the tests ------------------------------------------------------------------------


def _id(v: dict[str, Any]) -> str:
    return f"{v['players']}p-{v['seed'][:12]!r}"


def test_golden_file_names_the_algorithm_and_covers_the_cases() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["algorithm"] == DEAL_ALGORITHM == "jabberwocky-deal/1"
    seeds = {v["seed"] for v in VECTORS}
    assert {"", "hello", "Ünïcödé 🃏"} <= seeds
    assert any(len(s) >= 150 for s in seeds)
    assert {v["players"] for v in VECTORS} == {3, 4, 5}
    assert len(VECTORS) >= 12


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_golden_vector_matches_the_specification(vector: dict[str, Any]) -> None:
    assert reference_deals(vector["seed"], vector["players"]) == vector


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_golden_vector_matches_the_engine(vector: dict[str, Any]) -> None:
    assert engine_deals(vector["seed"], vector["players"]) == vector


@pytest.mark.parametrize("vector", VECTORS[:6], ids=_id)
def test_a_game_deals_the_golden_vector(vector: dict[str, Any]) -> None:
    from jabberwocky.bots.fastplay import finish_round_randomly

    g = Game(vector["seed"], vector["players"], seats=["random"] * vector["players"])
    assert g.first_dealer == vector["first_dealer"]
    for expected in vector["rounds"]:
        assert g.dealer == expected["dealer"]
        assert [[card_name(c) for c in cards_of(h)] for h in g.hands] == expected["hands"]
        assert card_name(g.trump_card) == expected["trump_card"]
        finish_round_randomly(g)
        if expected["round"] < 13:
            g.next_round()


def test_spot_values_pinned_in_source() -> None:
    # A few values written out here too, so the JSON file cannot drift unnoticed.
    by_key = {(v["seed"], v["players"]): v for v in VECTORS}
    hello = by_key[("hello", 4)]
    assert hello["first_dealer"] == HELLO_4_FIRST_DEALER
    assert hello["rounds"][0]["hands"] == HELLO_4_ROUND_1
    assert hello["rounds"][0]["trump_card"] == HELLO_4_ROUND_1_TRUMP
    assert [r["trump_card"] for r in hello["rounds"]] == HELLO_4_TRUMPS


def test_seed_is_nfc_normalised() -> None:
    composed = "caf\u00e9"
    decomposed = "cafe\u0301"
    assert composed != decomposed
    for r in range(1, 14):
        assert shuffled_deck(composed, r) == shuffled_deck(decomposed, r)
    assert first_dealer(composed, 5) == first_dealer(decomposed, 5)


def test_same_stock_whatever_the_number_of_players() -> None:
    # the deck order depends on seed and round only
    d3 = deal_round("stock", 2, 3, 0, 4)
    d5 = deal_round("stock", 2, 5, 0, 4)
    deck = shuffled_deck("stock", 2)
    assert d3.trump_card == deck[12] and d5.trump_card == deck[20]


def test_shuffled_deck_is_a_permutation() -> None:
    for r in (1, 7, 13):
        assert sorted(shuffled_deck("perm", r)) == list(range(52))


HELLO_4_FIRST_DEALER = 2
HELLO_4_ROUND_1 = [["3C", "4D", "5H"], ["8C", "KD", "7H"], ["7C", "3S", "9S"], ["TD", "6H", "KS"]]
HELLO_4_ROUND_1_TRUMP = "9H"
HELLO_4_TRUMPS = ["9H", "5S", "TH", "2S", "9D", "9H", "TH", "8D", "QS", "4C", "TD", "KC", "2D"]
