"""Specific exceptions, each with a sentence a player or a maintainer can act on."""

from __future__ import annotations


class JabberwockyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardError(JabberwockyError):
    """A card name could not be read."""


class RulesetError(JabberwockyError):
    """A ruleset option is unknown or out of range."""


class IllegalMoveError(JabberwockyError):
    """A bid or a card that the rules do not allow now; the message says why."""


class RecordError(JabberwockyError):
    """A game record is malformed or breaks the rules; the message names the first problem."""


class SeedError(JabberwockyError):
    """A seed or a table setting (such as the number of players) is unusable."""
