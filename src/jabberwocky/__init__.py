"""Jabberwocky: the Oh Hell variant where only an exact bid scores.

The engine is plain data and pure functions over small integers, in layers (each folder's
docstring says what it holds and what it may import; docs/architecture.md is the map):

- :mod:`~jabberwocky.core` — the referee: cards, seeded deals, rules, :class:`Game`, what
  one seat may see;
- :mod:`~jabberwocky.bots` — the bot ladder, and bots playing whole games;
- :mod:`~jabberwocky.formats` — game records (``jabberwocky-game/1``), challenge links,
  the JSON of a game;
- :mod:`~jabberwocky.analysis` — statistics, reviews, claims, hints' reasons;
- :mod:`~jabberwocky.drivers` — the command line, the terminal game, simulations and
  tournaments; :mod:`~jabberwocky.webapi` — the page's facade; :mod:`~jabberwocky.adapters`
  — OpenSpiel.

This module and the few beside it (``cards``, ``observation``, ``errors``, ``rules``,
``record``, ``simulate``, ``tournament``, ``openspiel``) are the documented names:
re-exports of the layers, imported by nothing inside the package.
"""

from __future__ import annotations

from .core.cards import card_name, parse_card
from .core.errors import (
    CardError,
    DataFileError,
    IllegalMoveError,
    JabberwockyError,
    RecordError,
    RulesetError,
    SeedError,
)
from .core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from .core.observation import Observation
from .core.phase import Phase
from .core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset, preset
from .formats.record import FORMAT, from_record, to_record

__version__ = "0.1.0"

__all__ = [
    "BIDDING", "FORMAT", "GAME_OVER", "HONOUR", "JABBERWOCKY", "OH_HELL", "PLAYING",
    "ROUND_OVER", "CardError", "DataFileError", "Game", "IllegalMoveError",
    "JabberwockyError", "Observation", "Phase", "RecordError", "Ruleset", "RulesetError",
    "SeedError", "card_name", "from_record", "parse_card", "preset", "to_record",
]
