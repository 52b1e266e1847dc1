"""Specific exceptions, each with a sentence a player or a maintainer can act on.

Every error carries a :class:`~jabberwocky.core.messages.Message`: ``str(error)`` is its
English sentence, ``error.code`` and ``error.params`` let the page say it in the
player's language (``error.message.to_json()`` is what crosses to the page).

>>> err = IllegalMoveError("move.must_follow", suit="H")
>>> str(err), err.code
('you must follow hearts', 'move.must_follow')
"""

from __future__ import annotations

from typing import Any

from .messages import Message, quote

MAX_PATH_QUOTE = 200
"""File names are quoted longer than other input (they are the user's own), but clipped."""


class JabberwockyError(ValueError):
    """Base class of every error the engine raises on bad input.

    Made from a code and parameters (``SeedError("seed.too_long", length=250, max=200)``)
    or from a :class:`Message` already made (a refusal reason passed on).
    """

    message: Message

    def __init__(self, code: str | Message, /, **params: Any) -> None:
        message = code if isinstance(code, Message) and not params else Message(code, **params)
        self.message = message
        super().__init__(message)

    @property
    def code(self) -> str:
        """The catalogue code of the message."""
        return self.message.code

    @property
    def params(self) -> dict[str, Any]:
        """The message's parameters."""
        return self.message.params

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message,))


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


class ChallengeError(JabberwockyError):
    """A challenge link could not be read or its games do not replay; the message says
    which check failed.  ``game`` is what the link names (seed, table, rules) when that
    much could be read and is a usable table, so the page can still open a normal game
    of that seed; ``None`` otherwise."""

    game: dict[str, Any] | None = None


class ReviewError(JabberwockyError):
    """A game cannot be reviewed (or a step analysed) as asked."""


class RequestError(JabberwockyError):
    """A request the web worker cannot serve: unknown type or a malformed payload."""


class DataFileError(JabberwockyError):
    """A data file (a record to check, a file to write) could not be read or written."""


def quote_path(path: object) -> str:
    """``path`` quoted for a message (clipped at :data:`MAX_PATH_QUOTE` characters)."""
    return quote(path, MAX_PATH_QUOTE)


def os_reason(exc: OSError) -> str:
    """What the system said when it refused a file (``exc``'s error text, else its class)."""
    return exc.strerror or type(exc).__name__


def file_error(code: str, path: object, exc: OSError) -> DataFileError:
    """The :class:`DataFileError` ``code`` (``file.unreadable``, ``file.unwritable``) for
    ``path``, saying why (``exc``)."""
    return DataFileError(code, path=quote_path(path), reason=os_reason(exc))


class BotError(JabberwockyError):
    """A bot failed: it raised, or answered something that is not a move allowed now, or
    could not be made or loaded.  The message names the bot and the seat (and the move);
    the game is left exactly as it was before the bot was asked."""


class BotNameError(JabberwockyError):
    """A bot level name that cannot be registered: malformed, built-in, taken, or offered
    by more than one installed package."""
