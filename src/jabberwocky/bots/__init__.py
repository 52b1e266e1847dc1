"""The bot ladder: ``random`` < ``easy`` < ``medium`` < ``hard``.

``make_bot(level)`` returns a bot by the level name used everywhere (CLI ``--bots``,
web settings, game records).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from ..errors import JabberwockyError
from ..levels import BOT_LEVELS
from ..messages import quote
from .base import Bot, Hint
from .random_bot import RandomBot

BOTS_VERSION = "jabberwocky-bots/1"
"""Names the behaviour of every built-in bot.  A record or a link made with another bots
version still plays (same deals, same rules), but its bots may choose differently: the
page says so.  Bumped whenever a golden bot game (``tests/golden/bots.json``) changes."""


def _lazy(module: str, name: str) -> Callable[[], Bot]:
    """A factory that imports ``bots.<module>`` on first use (keeps start-up light)."""

    def factory() -> Bot:
        cls: type[Bot] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        return cls()

    return factory


_FACTORIES: dict[str, Callable[[], Bot]] = {"random": RandomBot}
for _level, _module, _cls in (("easy", "easy", "EasyBot"), ("medium", "medium", "MediumBot"),
                              ("hard", "hard", "HardBot")):
    if importlib.util.find_spec(f"{__name__}.{_module}") is not None:
        _FACTORIES[_level] = _lazy(_module, _cls)


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
        raise JabberwockyError("table.unknown_level", value=quote(level),
                               choices=available_levels()) from None


__all__ = ["BOTS_VERSION", "Bot", "Hint", "RandomBot", "available_levels", "make_bot",
           "register"]
