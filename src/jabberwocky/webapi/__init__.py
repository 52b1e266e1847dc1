"""The JSON facade the web worker calls: one request of the worker protocol at a time.

The browser never sees the referee.  Every view is built from one seat's
:class:`~jabberwocky.core.observation.Observation` plus public facts (the person's at
this device; in pass-and-play the acting person's, with a hand-off between people,
during which no hand is shown at all), so no other seat's hidden card can reach the
page.  Only a review shows every hand, and only of a game that is over (or of a record
or challenge the page already holds).  No English sentence is in a view: reasons are
catalogue codes, names are the page's words (an error answer's ``message`` is English
for logs; the page shows its ``code``).

Three parts: :mod:`.api`, the dispatcher (request names, limits, errors); :mod:`.session`,
the table (the game and its seats: bots, people here, people elsewhere; each seat's
view, hint and hand-off); the handlers of challenges, reviews and statistics stand
beside their own modules (:mod:`jabberwocky.formats.challenge_requests`,
:mod:`jabberwocky.analysis.review_requests`, :mod:`jabberwocky.analysis.stats_requests`),
and every JSON of a game is written by :mod:`jabberwocky.formats.gamejson`.

May import: :mod:`jabberwocky.core`, :mod:`jabberwocky.bots`, :mod:`jabberwocky.formats`,
:mod:`jabberwocky.analysis`; not the drivers (the ``deal`` request's JSON is
:mod:`jabberwocky.formats.deals`, not the CLI's).

>>> import json
>>> api = WebApi()
>>> view = json.loads(api.handle("new_game", '{"seed": "hello", "players": 4, "bots": "random"}'))
>>> view["result"]["phase"], len(view["result"]["hand"])
('bidding', 3)
"""

from __future__ import annotations

from .api import (
    MAX_REQUEST_CHARS,
    MAX_STATS_CHARS,
    MAX_STATS_GAMES,
    REQUESTS,
    RequestError,
    WebApi,
    default_level,
)
from .session import Seat, Session

__all__ = ["MAX_REQUEST_CHARS", "MAX_STATS_CHARS", "MAX_STATS_GAMES", "REQUESTS",
           "RequestError", "Seat", "Session", "WebApi", "default_level", "handle",
           "import_everything", "reset"]

_API = WebApi()


def handle(kind: str, payload_json: str) -> str:
    """Serve one request on the module's table (what the worker calls)."""
    return _API.handle(kind, payload_json)


def reset() -> None:
    """Forget the table (after a memory snapshot is restored)."""
    global _API
    _API = WebApi()


def import_everything() -> list[str]:
    """Import every module of the engine (the names, sorted); run before a memory snapshot.

    A restored engine then never needs its files: the worker answers first and unpacks
    the wheel again only when it is idle.  ``__main__`` is left out (importing it runs
    the command line).
    """
    import importlib  # here, not at the top: only snapshots need them
    import pkgutil

    package = __name__.rpartition(".")[0]
    names = [package]
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        if info.name.rpartition(".")[2] != "__main__":
            importlib.import_module(info.name)
            names.append(info.name)
    return sorted(names)
