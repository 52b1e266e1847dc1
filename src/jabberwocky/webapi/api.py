"""The worker's dispatcher: request names, limits, errors; the handlers live elsewhere.

:meth:`WebApi.handle` takes a request's name and its JSON text, checks the size, the depth
(in linear time, :mod:`~jabberwocky.formats.jsontext`) and the shape of the payload, runs
the request's handler and answers JSON text, either ``{"result": ...}`` or ``{"error":
{"kind": <exception class>, "message": <sentence>, "code": <catalogue code>, "params":
{...}}}``.  A refused request changes nothing: the table's game is exactly what it was (a
refused import never replaces it).

The game's requests go to the table's :class:`~.session.Session`; the challenges' to
:mod:`~jabberwocky.formats.challenge_requests`, the reviews' to
:mod:`~jabberwocky.analysis.review_requests`, the statistics' to
:mod:`~jabberwocky.analysis.stats_requests`.  :data:`REQUESTS` names every request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..analysis import MAX_STATS_CHARS, MAX_STATS_GAMES
from ..bots import BOTS_VERSION, available_levels
from ..core.errors import JabberwockyError, RecordError, RequestError, SeedError
from ..core.game import Game
from ..core.levels import HUMAN
from ..core.messages import Message, quote
from ..core.rules import JABBERWOCKY, Ruleset, rules_info
from ..core.table import (
    DEFAULT_PLAYERS,
    MAX_NAME_LENGTH,
    MAX_SEED_LENGTH,
    check_names,
    check_players,
    check_seed,
)
from ..core.words import new_seed, secret_seed
from ..formats.challenge import MAX_CHALLENGE_CHARS, MAX_RESULTS
from ..formats.deals import deal_summary
from ..formats.jsontext import MAX_JSON_DEPTH, read_json
from ..formats.record import FORMAT, MAX_RECORD_BYTES, dumps, loads
from .session import Session, default_level, seats_of

if TYPE_CHECKING:
    from ..analysis.review_requests import ReviewSources
    from ..formats.challenge_requests import Decoded

# The requests of the challenges, the reviews, the statistics, the public record and the
# deal of the day import their modules when first made (inside their handlers): a first
# table needs none of them, and the worker imports this module before it answers anything
# (``import_everything`` still imports them all before a memory snapshot).

MAX_REQUEST_CHARS = MAX_RECORD_BYTES + 10_000
"""A request's JSON text may be at most this long (a record plus a little)."""
_LIMITS = {"stats": MAX_STATS_CHARS}
# the requests an online host's page makes along with its guests' views (``with_views``):
# each changes the table, and each guest is sent the table as it is after it
WITH_VIEWS = frozenset({"bid", "play", "bot_step", "next_round", "seat_bid", "seat_play",
                        "seat_auto"})

__all__ = ["MAX_REQUEST_CHARS", "MAX_STATS_CHARS", "MAX_STATS_GAMES", "REQUESTS",
           "RequestError", "WebApi", "default_level"]


def _error(kind: str, message: Message) -> str:
    """The JSON text of an error answer: its class, its English sentence, its code."""
    return json.dumps({"error": {"kind": kind, "message": str(message),
                                 "code": message.code, "params": message.to_json()["params"]}},
                      ensure_ascii=False)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        from ..formats.public import PUBLIC_FORMAT

        raise RequestError("request.record_not_text", format=PUBLIC_FORMAT)
    return value


def _obj(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise RequestError("request.payload_not_object", value=quote(payload))
    return payload


def _seed(value: Any, secret: bool = False) -> str:
    """The seed given, checked; none: a new one, ``secret`` (unguessable) where some
    players may not see every hand (an online table's guests), else readable."""
    if value is None or value == "":
        return secret_seed() if secret else new_seed()
    return check_seed(value)


def _level(value: Any) -> str:
    levels = available_levels()
    if not isinstance(value, str) or value not in levels:
        raise SeedError("table.unknown_level", value=quote(value), choices=levels)
    return value


REMOTE = "remote"
"""A ``seats`` entry for a person at another device (an online table's guest): the game
and its record call the seat ``human``; the session knows it is played elsewhere."""


def _seats(value: Any, players: int) -> list[str]:
    """A ``seats`` list: one kind per seat, ``human``, ``remote`` or an available level,
    with at least one human (the person at this device)."""
    if not isinstance(value, list):
        raise SeedError("table.seats_shape")
    if len(value) != players:
        raise SeedError("table.seat_count", count=len(value), players=players)
    kinds = [HUMAN, REMOTE, *available_levels()]
    for kind in value:
        if not isinstance(kind, str) or kind not in kinds:
            raise SeedError("table.unknown_seat", value=quote(kind), choices=kinds)
    if HUMAN not in value:
        raise SeedError("table.no_human")
    return list(value)


def _safe_filename_part(seed: str) -> str:
    part = re.sub(r"[^A-Za-z0-9_-]+", "-", seed).strip("-")[:60]
    return part or "game"


def _challenges() -> ModuleType:
    from ..formats import challenge_requests

    return challenge_requests


def _reviews() -> ModuleType:
    from ..analysis import review_requests

    return review_requests


def _stats() -> ModuleType:
    from ..analysis import stats_requests

    return stats_requests


def _public() -> ModuleType:
    from ..formats import public

    return public


def _daily() -> ModuleType:
    from ..analysis import daily

    return daily


class WebApi:
    """One table: its :class:`~.session.Session` (``None`` before the first game) and the
    challenges decoded lately."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self._decoded: Decoded | None = None
        self._sources: ReviewSources | None = None
        self._handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "new_game": self.new_game,
            "state": lambda p: self.view(),
            "bid": self.bid,
            "play": self.play,
            "bot_step": lambda p: self.bot_step(),
            "next_round": lambda p: self.next_round(),
            "hint": lambda p: self._session().hint(),
            "claim": lambda p: self._move(self._session().claim),
            "export_record": lambda p: self.export_record(),
            "import_record": self.import_record,
            "check_record": self.check_record,
            "deal": self.deal,
            "levels": lambda p: self.levels(),
            "rules": lambda p: self.rules(),
            "reveal": lambda p: self._move(self._session().reveal),
            # an online table (the host's engine referees its guests' seats)
            "seat_view": lambda p: self._session().person_view(p.get("seat")),
            "public_view": lambda p: self._session().public_view(),
            "seat_views": lambda p: self._session().views_of(p.get("seats"),
                                                             p.get("public", False)),
            "with_views": self.with_views,
            "seat_bid": lambda p: self._seat_move(
                p, lambda s: self._session().remote_bid(s, p.get("bid"))),
            "seat_play": lambda p: self._seat_move(
                p, lambda s: self._session().remote_play(s, p.get("card"))),
            "seat_hint": lambda p: self._session().remote_hint(p.get("seat")),
            "seat_stand_in": lambda p: self._seat_move(
                p, lambda s: self._session().set_stand_in(s, p.get("level"))),
            "seat_take": lambda p: self._seat_move(
                p, lambda s: self._session().take_seat(s, p.get("name"))),
            "seat_auto": self.seat_auto,
            # what of the game is public: its finished rounds, no deal code (formats/public.py)
            "public_record": lambda p: _public().public_record(self._game()),
            "public_check": lambda p: _public().read_public(_text(p.get("text"))),
            "take_back": lambda p: self._move(self._session().take_back),
            "challenge_open": lambda p: _challenges().open_challenge(self.decoded, p),
            "challenge_play": lambda p: self._install(
                _challenges().challenge_game(self.decoded, p)),
            "challenge_encode": lambda p: _challenges().encode_challenge(
                self.decoded, self._game(), p),
            "challenge_check": lambda p: _challenges().check_challenge(self.decoded, p),
            "challenge_compare": lambda p: _challenges().compare_challenge(
                self.decoded, self._game()),
            "review": lambda p: _reviews().review_timeline(self.sources, p),
            "review_analyse": lambda p: _reviews().review_analyse(self.sources, p),
            "review_seen": lambda p: _reviews().review_seen(self.sources, p),
            "stats": lambda p: _stats().stats_answer(p),
            # the deal of the day (analysis/daily.py): its table, its par, the game's result
            "daily": lambda p: _daily().daily_table(p.get("date")),
            "daily_par": lambda p: _daily().par_request(p.get("date"), p.get("rounds")),
            "daily_result": lambda p: _daily().result_of(self._game()),
        }

    @property
    def decoded(self) -> Decoded:
        """The challenges decoded lately (made with the first challenge request)."""
        if self._decoded is None:
            from ..formats.challenge_requests import Decoded

            self._decoded = Decoded()
        return self._decoded

    @property
    def sources(self) -> ReviewSources:
        """What a review reads: this table's game, or a challenge's result."""
        if self._sources is None:
            from ..analysis.review_requests import ReviewSources
            from ..formats.challenge_requests import result_game

            self._sources = ReviewSources(self._game, lambda p: result_game(self.decoded, p))
        return self._sources

    @property
    def game(self) -> Game | None:
        """The table's game, or ``None`` before the first."""
        return None if self.session is None else self.session.game

    # -- the protocol entry point ---------------------------------------------------

    def handle(self, kind: str, payload_json: str) -> str:
        """Serve one request; always returns JSON text (a result or an error)."""
        try:
            result = self.dispatch(kind, payload_json)
            # allow_nan=False: NaN is not JSON, and the page's JSON.parse would refuse it
            return json.dumps({"result": result}, ensure_ascii=False, allow_nan=False)
        except JabberwockyError as exc:
            return _error(type(exc).__name__, exc.message)
        except RecursionError:  # pragma: no cover - JSON text deeper than 64 levels is refused
            return _error("RequestError", Message("request.too_deep", max=MAX_JSON_DEPTH))
        except Exception as exc:  # a bug: report it rather than kill the worker
            return _error("InternalError", Message("internal", detail=quote(
                f"{type(exc).__name__}: {exc}", 300)))

    def dispatch(self, kind: str, payload_json: str) -> Any:
        """Decode and check a request, run it and return its result (JSON-ready)."""
        if not isinstance(kind, str) or kind not in self._handlers:
            raise RequestError("request.unknown_type", value=quote(kind),
                               choices=sorted(self._handlers))
        if not isinstance(payload_json, str):
            raise RequestError("request.payload_not_text")
        limit = _LIMITS.get(kind, MAX_REQUEST_CHARS)
        if len(payload_json) > limit:  # before anything else looks at it
            raise RequestError("request.too_large", max=limit)
        payload = read_json(payload_json, error=RequestError, prefix="request",
                            max_size=limit) if payload_json.strip() else {}
        if payload is None:
            payload = {}
        return self._handlers[kind](_obj(payload))

    # -- the table ------------------------------------------------------------------

    def _session(self) -> Session:
        if self.session is None:
            raise RequestError("request.no_game")
        return self.session

    def _game(self) -> Game:
        return self._session().game

    def _install(self, game: Game, remote: list[int] | None = None) -> dict[str, Any]:
        """Make ``game`` the table's, its ``remote`` seats played elsewhere (its bots are
        made first: nothing is replaced unless everything is ready); answers the first
        view."""
        self.session = Session(game, seats_of(game, remote or ()))
        return self.view()

    def _seat_move(self, payload: dict[str, Any],
                   step: Callable[[Any], None]) -> dict[str, Any]:
        """Make a move for the seat ``payload`` names; answer that seat's new view."""
        seat = payload.get("seat")
        step(seat)
        return self._session().person_view(seat)

    def with_views(self, payload: dict[str, Any]) -> dict[str, Any]:
        """An online host's move (``request``, one of :data:`WITH_VIEWS`, with its
        ``payload``) and, once it is made, the views its guests are sent (``seats`` and
        ``public`` as ``seat_views``): ``{result, views}``, one answer instead of two.  A
        refused move is refused as the request alone would be; ``views`` is null when the
        seats asked for are not (or no longer) people's."""
        kind = payload.get("request")
        if kind not in WITH_VIEWS:
            raise RequestError("request.unknown_type", value=quote(kind),
                               choices=sorted(WITH_VIEWS))
        result = self._handlers[kind](_obj(payload.get("payload", {})))
        try:
            views = self._session().views_of(payload.get("seats"), payload.get("public", False))
        except RequestError:
            views = None
        return {"result": result, "views": views}

    def _move(self, step: Callable[[], Any]) -> dict[str, Any]:
        step()
        return self.view()

    def view(self) -> dict[str, Any]:
        """The device's view of the table (see :meth:`.session.Session.view`)."""
        return self._session().view()

    # -- the game's requests --------------------------------------------------------

    def new_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Start a game: ``{seed?, players, bots | seats, names?, rules?}``.

        ``bots`` seats one human at seat 0 and the bots after it; ``seats`` names every
        seat's kind instead (``human`` or a level: several humans play pass-and-play;
        ``remote``: a person at another device, an online table's guest; with one and no
        ``seed``, the seed is 128 random bits, :func:`~jabberwocky.core.words.secret_seed`).
        ``names``: one name or ``null`` per seat."""
        if "seats" in payload:
            if "bots" in payload:
                raise SeedError("table.seats_and_bots")
            given = payload["seats"]
            players = check_players(payload.get(
                "players", len(given) if isinstance(given, list) else DEFAULT_PLAYERS))
            seats = _seats(given, players)
        else:
            players = check_players(payload.get("players", DEFAULT_PLAYERS))
            bots = payload.get("bots", default_level())
            if isinstance(bots, str):
                levels = [_level(bots)] * (players - 1)
            elif isinstance(bots, list):
                if len(bots) != players - 1:
                    raise SeedError("table.bot_count", count=len(bots), seats=players - 1)
                levels = [_level(b) for b in bots]
            else:
                raise SeedError("table.bots_shape")
            seats = [HUMAN, *levels]
        remote = [s for s, kind in enumerate(seats) if kind == REMOTE]
        seats = [HUMAN if kind == REMOTE else kind for kind in seats]
        names = payload.get("names")
        names = (None,) * players if names is None else check_names(names, players)
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        # an online table's deal code is never one a guest could guess from its own hands
        game = Game(_seed(payload.get("seed"), secret=bool(remote)), players, rules, seats)
        game.names = names
        return self._install(game, remote)

    def bid(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The person to act bids ``{bid: int}``; the engine's reason when not allowed."""
        self._session().bid(payload.get("bid"))
        return self.view()

    def play(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The person to act plays ``{card: "QH"}``; the engine's reason when not allowed."""
        self._session().play(payload.get("card"))
        return self.view()

    def bot_step(self) -> dict[str, Any]:
        """One bot action if a bot must act now, else ``action: null``.  A bot that fails
        (it raises, or answers what is not a move allowed now) gets a ``BotError`` answer
        naming the bot, the seat and the move; the game stays as it was."""
        action = self._session().bot_step()
        return {"action": action, "view": self.view()}

    def seat_auto(self, payload: dict[str, Any]) -> dict[str, Any]:
        """``{seat}``: the remote seat's turn clock ran out: one move for it by the
        session's stand-in level (answered like ``bot_step``)."""
        action = self._session().auto_move(payload.get("seat"))
        return {"action": action, "view": self.view()}

    def next_round(self) -> dict[str, Any]:
        """Deal the next round once the current one is over."""
        self._game().next_round()
        return self.view()

    def export_record(self) -> dict[str, Any]:
        """The game record and a file name for it."""
        game = self._game()
        return {"record": dumps(game),
                "filename": f"jabberwocky-{_safe_filename_part(game.seed)}.json"}

    def import_record(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Replace the table with a replayed record ``{record: text, remote?: [seat]}``
        that holds at least one move (a stub naming only a seed is refused: New game plays
        a seed); ``remote`` names the person seats played elsewhere (an online host
        resuming its table).  ``saved: true`` marks the page's own autosave, which may hold
        no move yet (a reload before the first bid resumes the deal as it was dealt)."""
        game = self._record_game(payload, saved=payload.get("saved") is True)
        remote = payload.get("remote", [])
        if not isinstance(remote, list) or len(remote) > game.players:
            raise RequestError("online.remote_shape")
        return self._install(game, remote)

    def check_record(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Whether ``import_record`` would accept ``{record: text}``, the table untouched:
        the page asks "Load this record? It replaces the game in progress." only for a
        file that would load (a bad one is refused at once, with no question first)."""
        game = self._record_game(payload)
        return {"seed": game.seed, "players": game.players, "step": game.step}

    def _record_game(self, payload: dict[str, Any], *, saved: bool = False) -> Game:
        """The game a record's text replays to, refused as ``import_record`` refuses it
        (``saved``: the page's autosave, whose game may not have begun)."""
        text = payload.get("record")
        if not isinstance(text, str):
            raise RequestError("request.record_not_text", format=FORMAT)
        game = loads(text)
        if game.step == 0 and not game.results and not saved:
            # A record that names a game but holds none of it (no bid made): nothing to
            # continue.  The record format allows it; a file the player imports does not
            # (New game plays a deal code); the autosave of a game just dealt does.
            raise RecordError("record.no_moves")
        fallback = default_level()
        levels = available_levels()
        seats = [k if k == HUMAN or k in levels else fallback for k in game.seats]
        if HUMAN not in seats:
            seats[0] = HUMAN
        game.seats = tuple(seats)
        return game

    # -- what the page asks once ----------------------------------------------------

    @staticmethod
    def deal(payload: dict[str, Any]) -> dict[str, Any]:
        """A seed's deals, the same JSON as ``python -m jabberwocky deal --json``."""
        seed = payload.get("seed")
        if seed is None:
            raise SeedError("seed.needed")
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        # deal_summary checks the table and the seed before it deals anything
        return deal_summary(seed, payload.get("players", DEFAULT_PLAYERS), rules)

    @staticmethod
    def levels() -> dict[str, Any]:
        """The bot levels that can be played, weakest first, the default one, and the
        bots version (records and links made with another may play differently)."""
        return {"levels": available_levels(), "default": default_level(),
                "bots_version": BOTS_VERSION}

    @staticmethod
    def rules() -> dict[str, Any]:
        """Everything the page needs to know about rules and table settings: presets,
        options and their values, the table sizes, the honour rule's penalty, the longest
        seed and player name, the longest challenge text and chain (the page holds no
        copy of any of it)."""
        return {**rules_info(), "seed_max_length": MAX_SEED_LENGTH,
                "name_max_length": MAX_NAME_LENGTH, "challenge_max_length": MAX_CHALLENGE_CHARS,
                "challenge_max_results": MAX_RESULTS}


REQUESTS = tuple(sorted(WebApi()._handlers))
"""Every request's name (docs/web-protocol.md describes each)."""
