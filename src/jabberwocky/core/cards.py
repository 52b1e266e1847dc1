"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with ranks ``0..12`` for ``2..A`` and suits in the
order clubs, diamonds, hearts, spades (``CDHS``).  Because ranks are consecutive
inside a suit, a higher integer is a higher card of the same suit, and a hand is an
``int`` whose bit ``c`` is set when the hand holds card ``c``.  Bit tricks keep the
engine fast enough for bots that play thousands of simulated rounds per decision.

>>> card_name(parse_card("TD"))
'TD'
>>> cards_of(mask_of([parse_card("AS"), parse_card("2C")]))
[0, 51]
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import CardError
from .messages import quote, render

Card = int
"""A card, ``0..51``."""
Mask = int
"""A set of cards, one bit per card."""
Suit = int
"""A suit, ``0..3`` for clubs, diamonds, hearts, spades."""

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DECK_SIZE = 52
FULL_DECK: Mask = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[Mask, Mask, Mask, Mask] = tuple(  # type: ignore[assignment]
    0x1FFF << (13 * s) for s in range(4)
)

_NAMES = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME = {name: i for i, name in enumerate(_NAMES)}


def suit_of(card: Card) -> Suit:
    """The suit of ``card``."""
    return card // 13


def rank_of(card: Card) -> int:
    """The rank of ``card``, ``0`` for a two up to ``12`` for an ace."""
    return card % 13


def make_card(rank: int, suit: Suit) -> Card:
    """The card of ``rank`` (``0..12``) in ``suit`` (``0..3``)."""
    return suit * 13 + rank


def card_name(card: Card) -> str:
    """Two characters, rank then suit, as used in game records: ``"TD"``."""
    return _NAMES[card]


def card_names(cards: Iterable[Card]) -> list[str]:
    """Each card's :func:`card_name`, in the order given."""
    return [_NAMES[c] for c in cards]


def card_words(card: Card) -> str:
    """A card in English words (the catalogue's ``card.words``): ``"ten of diamonds"``."""
    return render("card.words", {"rank": RANKS[card % 13], "suit": SUITS[card // 13]})


def suit_words(suit: Suit) -> str:
    """A suit's English name from the catalogue: ``"hearts"``."""
    return render("suit.name", {"suit": SUITS[suit]})


def card_symbol(card: Card) -> str:
    """A card with its suit symbol for the terminal: ``"10♦"``."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def parse_card(text: str) -> Card:
    """Parse a record card name such as ``"QH"`` (case-insensitive, ``10`` for ``T``).

    Raises :class:`CardError` with the accepted format when ``text`` is no card.
    """
    if not isinstance(text, str):
        raise CardError("card.not_text", value=quote(text))
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    try:
        return _BY_NAME[key]
    except KeyError:
        raise CardError("card.unknown", value=quote(text), ranks=RANKS, suits=SUITS) from None


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> list[Card]:
    """The cards of ``mask`` in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: Mask) -> int:
    """The number of cards in ``mask``."""
    return mask.bit_count()


def suit_mask(mask: Mask, suit: Suit) -> Mask:
    """The cards of ``mask`` in ``suit``."""
    return mask & SUIT_MASKS[suit]


def highest(mask: Mask) -> Card:
    """The highest-numbered card of a non-empty ``mask`` (the best card of one suit)."""
    return mask.bit_length() - 1


def lowest(mask: Mask) -> Card:
    """The lowest-numbered card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def sort_for_display(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """Cards grouped by suit, alternating colours where possible, trumps last.

    Players read a hand faster when suits are together and colours alternate; the
    trump suit goes to the right end so it is easy to find.
    """
    order = [s for s in (SPADES, HEARTS, CLUBS, DIAMONDS) if s != trump]
    if trump is not None:
        order.append(trump)
    rank = {s: i for i, s in enumerate(order)}
    return sorted(cards, key=lambda c: (rank[c // 13], c % 13))
