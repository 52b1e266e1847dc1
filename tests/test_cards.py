"""Cards as ints, hands as masks, names as in game records."""

from __future__ import annotations

import pytest

from jabberwocky.core.cards import (
    FULL_DECK,
    SUIT_MASKS,
    card_name,
    card_symbol,
    card_words,
    cards_of,
    count,
    highest,
    lowest,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    sort_for_display,
    suit_mask,
    suit_of,
)
from jabberwocky.core.errors import CardError, JabberwockyError


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("AS") == 51
    assert make_card(8, 1) == parse_card("TD")
    assert (suit_of(parse_card("QH")), rank_of(parse_card("QH"))) == (2, 10)


def test_every_name_is_two_chars_rank_then_suit_and_round_trips() -> None:
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    for c, name in enumerate(names):
        assert len(name) == 2
        assert name[0] in "23456789TJQKA" and name[1] in "CDHS"
        assert parse_card(name) == c
    assert names[:13] == ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC",
                          "KC", "AC"]


@pytest.mark.parametrize("text,expected", [("qh", "QH"), (" 10d ", "TD"), ("10S", "TS"),
                                           ("tc", "TC")])
def test_parse_card_is_forgiving(text: str, expected: str) -> None:
    assert card_name(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["", "1H", "QX", "QHH", "H Q", "ZZ", 5, None, "🃏"])
def test_parse_card_refuses_non_cards_with_the_format(bad: object) -> None:
    with pytest.raises(CardError, match=r"rank then suit|two-character") as exc:
        parse_card(bad)  # type: ignore[arg-type]
    assert isinstance(exc.value, JabberwockyError)
    assert isinstance(exc.value, ValueError)


def test_words_and_symbols() -> None:
    assert card_words(parse_card("TD")) == "ten of diamonds"
    assert card_words(parse_card("AS")) == "ace of spades"
    assert card_symbol(parse_card("TD")) == "10♦"
    assert card_symbol(parse_card("2C")) == "2♣"


def test_masks() -> None:
    cs = [parse_card(t) for t in ("AS", "2C", "KH", "3H")]
    m = mask_of(cs)
    assert cards_of(m) == sorted(cs)
    assert count(m) == 4
    assert suit_mask(m, 2) == mask_of([parse_card("KH"), parse_card("3H")])
    assert highest(suit_mask(m, 2)) == parse_card("KH")
    assert lowest(suit_mask(m, 2)) == parse_card("3H")
    assert FULL_DECK == sum(SUIT_MASKS) == (1 << 52) - 1
    assert all(count(s) == 13 for s in SUIT_MASKS)
    assert cards_of(0) == []


def test_sort_for_display_groups_suits_and_puts_trump_last() -> None:
    cs = [parse_card(t) for t in ("2S", "AH", "3C", "KD", "4S", "5H")]
    shown = [card_name(c) for c in sort_for_display(cs, trump=3)]
    assert shown == ["5H", "AH", "3C", "KD", "2S", "4S"]
    shown = [card_name(c) for c in sort_for_display(cs, trump=None)]
    assert shown == ["2S", "4S", "5H", "AH", "3C", "KD"]
