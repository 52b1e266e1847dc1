"""Jabberwocky: the Oh Hell variant where only an exact bid scores.

The engine is plain data and pure functions over small integers:

- :mod:`~jabberwocky.cards` — cards as ints, hands as 52-bit masks;
- :mod:`~jabberwocky.rules` — the :class:`Ruleset` (Jabberwocky by default);
- :mod:`~jabberwocky.deal` — the versioned seed-to-deal algorithm;
- :mod:`~jabberwocky.game` — the referee, :class:`Game`;
- :mod:`~jabberwocky.observation` — what one seat may see;
- :mod:`~jabberwocky.record` — game records, ``jabberwocky-game/1``;
- :mod:`~jabberwocky.bots` — the bot ladder; :mod:`~jabberwocky.simulate` — bots at play.
"""

from __future__ import annotations

from .cards import card_name, parse_card
from .errors import (
    CardError,
    DataFileError,
    IllegalMoveError,
    JabberwockyError,
    RecordError,
    RulesetError,
    SeedError,
)
from .game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from .observation import Observation
from .phase import Phase
from .record import FORMAT, from_record, to_record
from .rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset, preset

__version__ = "0.1.0"

__all__ = [
    "BIDDING", "FORMAT", "GAME_OVER", "HONOUR", "JABBERWOCKY", "OH_HELL", "PLAYING",
    "ROUND_OVER", "CardError", "DataFileError", "Game", "IllegalMoveError",
    "JabberwockyError", "Observation", "Phase", "RecordError", "Ruleset", "RulesetError",
    "SeedError", "card_name", "from_record", "parse_card", "preset", "to_record",
]
