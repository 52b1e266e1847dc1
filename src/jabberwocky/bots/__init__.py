"""The bot ladder: ``random`` < ``easy`` < ``medium`` < ``hard``.

``make_bot(level)`` returns a bot by the level name used everywhere (CLI ``--bots``,
web settings, game records).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import JabberwockyError
from ..levels import BOT_LEVELS
from .base import Bot, Hint
from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def register(level: str, factory: Callable[[], Bot]) -> None:
    """Make ``level`` available to :func:`make_bot`."""
    _FACTORIES[level] = factory


def available_levels() -> list[str]:
    """The levels that can be played now, weakest first."""
    return [lvl for lvl in BOT_LEVELS if lvl in _FACTORIES]


def make_bot(level: str) -> Bot:
    """The bot for ``level``; raises :class:`JabberwockyError` naming the known levels."""
    try:
        return _FACTORIES[level]()
    except KeyError:
        raise JabberwockyError(
            f"unknown bot level {level!r}: choose one of {', '.join(available_levels())}"
        ) from None


__all__ = ["Bot", "Hint", "RandomBot", "available_levels", "make_bot", "register"]
