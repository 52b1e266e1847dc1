"""The bot ladder ``random`` < ``easy`` < ``medium`` < ``learned`` < ``hard``, and third-party bots.

``make_bot(level)`` returns a bot by the level name used everywhere (CLI ``--bots``,
web settings, game records).  Levels come from three places, looked up in this order:

1. :func:`register` (code that runs in this process: a script, a notebook, a test);
2. the built-in ladder (:data:`~jabberwocky.core.levels.BOT_LEVELS`);
3. installed packages that declare an entry point in the group :data:`ENTRY_POINT_GROUP`
   (``jabberwocky.bots``), named by the level: ``acme = "acme_bots:AcmeBot"``.  They are
   listed on first use and imported only when their level is asked for, so a broken
   package never stops the others.  Not in the browser: there the page's engine lists
   no packages (see :func:`_discover`).

A level name follows :func:`~jabberwocky.core.levels.is_level_name`; the built-in names and
``human`` are not available to third parties (``register(..., replace=True)`` may replace
a built-in level in this process, for experiments).  docs/bots.md is the guide.

The package also holds how bots play whole games (:mod:`.play`, :mod:`.fastplay`) and how
the referee asks a bot (:mod:`.referee`).  May import: :mod:`jabberwocky.core` only.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import BotError, BotNameError, JabberwockyError
from ..core.levels import BOT_LEVELS, BOTS_VERSION, MAX_LEVEL_LENGTH, SEAT_KINDS, is_level_name
from ..core.messages import Message, quote
from .base import Bot, Hint
from .random_bot import RandomBot

ENTRY_POINT_GROUP = "jabberwocky.bots"
"""The entry-point group of third-party bots: each entry point's name is a level, its
object a :class:`Bot` subclass or a function of no arguments that returns a bot."""

BotFactory = Callable[[], Bot]


def _lazy(module: str, name: str) -> BotFactory:
    """A factory that imports ``bots.<module>`` on first use (keeps start-up light)."""

    def factory() -> Bot:
        cls: type[Bot] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        return cls()

    return factory


_BUILTIN: dict[str, BotFactory] = {"random": RandomBot}
for _level, _module, _cls in (("easy", "easy", "EasyBot"), ("medium", "medium", "MediumBot"),
                              ("learned", "learned", "LearnedBot"), ("hard", "hard", "HardBot")):
    if importlib.util.find_spec(f"{__name__}.{_module}") is not None:
        _BUILTIN[_level] = _lazy(_module, _cls)

_REGISTERED: dict[str, BotFactory] = {}


@dataclass(frozen=True)
class _Plugin:
    """An entry point of :data:`ENTRY_POINT_GROUP`, not imported yet."""

    name: str
    value: str
    package: str
    entry_point: Any


_plugins: dict[str, _Plugin] | None = None
_plugin_problems: dict[str, Message] = {}
_loaded: dict[str, BotFactory] = {}


def _check_name(level: object, replace: bool) -> str:
    if not is_level_name(level):
        raise BotNameError("bot.name", value=quote(level), max=MAX_LEVEL_LENGTH)
    assert isinstance(level, str)
    if not replace and (level in SEAT_KINDS or level in _BUILTIN):
        raise BotNameError("bot.name_builtin", value=quote(level))
    if not replace and (level in _REGISTERED or level in _installed()):
        raise BotNameError("bot.name_taken", value=quote(level))
    return level


def register(level: str, factory: BotFactory, *, replace: bool = False) -> None:
    """Make ``level`` available to :func:`make_bot` (and so to ``--bots`` and the page).

    ``factory`` is called with no arguments once per seat and game: a :class:`Bot`
    subclass, or a function returning a bot.  Raises :class:`BotNameError` for a name
    that is malformed, built-in or taken (by another :func:`register` or an installed
    package), unless ``replace`` is true: then it replaces that level in this process
    (``human`` and malformed names are refused all the same).
    """
    name = _check_name(level, replace)
    if not callable(factory):
        raise BotNameError("bot.not_callable", bot=quote(name), value=quote(factory))
    _REGISTERED[name] = factory


def unregister(level: str) -> None:
    """Forget a level made by :func:`register` (a built-in level it replaced comes back)."""
    _REGISTERED.pop(level, None)


def rescan() -> None:
    """List the installed packages' bots again on next use (after installing one while
    the process runs, or changing ``sys.path``)."""
    global _plugins
    _plugins = None
    _plugin_problems.clear()
    _loaded.clear()


def _installed() -> dict[str, _Plugin]:
    """The usable entry points of :data:`ENTRY_POINT_GROUP` by level (read once)."""
    global _plugins
    if _plugins is None:
        _plugins = _discover()
    return _plugins


def _discover() -> dict[str, _Plugin]:
    """The entry points by level; none in the browser (Pyodide), where the page offers
    the built-in levels only and importing ``importlib.metadata`` (with ``email``,
    ``zipfile``, ``csv``, …) would slow every start for packages it never has."""
    if sys.platform == "emscripten":
        return {}
    from importlib.metadata import entry_points  # here: only needed once, on first use

    offers: dict[str, dict[str, _Plugin]] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        package = str(getattr(dist, "name", None) or ep.value.partition(":")[0])
        # the same package seen twice on sys.path offers one bot, not two
        offers.setdefault(ep.name, {})[ep.value] = _Plugin(ep.name, ep.value, package, ep)
    found: dict[str, _Plugin] = {}
    for name in sorted(offers):
        plugins = offers[name]
        if not is_level_name(name):
            _plugin_problems[name] = Message("bot.name", value=quote(name), max=MAX_LEVEL_LENGTH)
        elif name in SEAT_KINDS:
            _plugin_problems[name] = Message("bot.name_builtin", value=quote(name))
        elif len(plugins) > 1:
            _plugin_problems[name] = Message(
                "bot.name_ambiguous", value=quote(name),
                packages=sorted({p.package for p in plugins.values()}))
        else:
            found[name] = next(iter(plugins.values()))
    return found


def plugin_problems() -> list[Message]:
    """Why some installed packages' bots are not available (a bad or taken name), sorted."""
    _installed()
    return [_plugin_problems[name] for name in sorted(_plugin_problems)]


def available_levels() -> list[str]:
    """The levels that can be played now: the built-in ladder, weakest first, then the
    other registered and installed levels in name order."""
    builtin = [lvl for lvl in BOT_LEVELS if lvl in _BUILTIN or lvl in _REGISTERED]
    others = (set(_REGISTERED) | set(_installed())) - set(BOT_LEVELS)
    return builtin + sorted(others)


def is_builtin(level: str) -> bool:
    """True for the built-in ladder's levels (their strength order is known)."""
    return level in BOT_LEVELS


def bot_factory(level: str) -> BotFactory:
    """What makes a bot of ``level``: importing its package if it comes from one.

    Raises :class:`BotError` if the package cannot be imported, :class:`BotNameError` if
    its name is refused, :class:`JabberwockyError` naming the known levels if there is no
    such level.
    """
    if level in _REGISTERED:
        return _REGISTERED[level]
    if level in _BUILTIN:
        return _BUILTIN[level]
    if level in _loaded:
        return _loaded[level]
    plugin = _installed().get(level)
    if plugin is None:
        if level in _plugin_problems:
            raise BotNameError(_plugin_problems[level])
        raise JabberwockyError("table.unknown_level", value=quote(level),
                               choices=available_levels())
    try:
        factory = plugin.entry_point.load()
    except Exception as exc:  # an ImportError, or anything the package's import raises
        raise BotError("bot.load_failed", bot=quote(level), package=quote(plugin.package),
                       detail=describe(exc)) from exc
    if not callable(factory):
        raise BotNameError("bot.not_callable", bot=quote(level), value=quote(factory))
    _loaded[level] = factory
    return factory  # type: ignore[no-any-return]


def make_bot(level: str) -> Bot:
    """A new bot for ``level``; raises :class:`JabberwockyError` naming the known levels,
    or :class:`BotError` when the bot cannot be made (its factory raised, or returned
    something that is not a :class:`Bot`)."""
    factory = bot_factory(level)
    try:
        bot = factory()
    except Exception as exc:
        raise BotError("bot.make_failed", bot=quote(level), detail=describe(exc)) from exc
    if not isinstance(bot, Bot):
        raise BotError("bot.not_a_bot", bot=quote(level), value=quote(bot))
    return bot


def describe(exc: BaseException) -> str:
    """An exception in a few words for a message: its class and its text, quoted (one
    line, clipped to 200 characters)."""
    text = str(exc)
    return quote(f"{type(exc).__name__}: {text}" if text else type(exc).__name__, 200)


__all__ = ["BOTS_VERSION", "ENTRY_POINT_GROUP", "Bot", "BotError", "BotFactory", "BotNameError",
           "Hint", "RandomBot", "available_levels", "bot_factory", "describe", "is_builtin",
           "make_bot", "plugin_problems", "register", "rescan", "unregister"]
