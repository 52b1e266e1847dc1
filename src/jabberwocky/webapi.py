"""The JSON facade the web worker calls: one method per request of the worker protocol.

The browser never sees the referee.  Every answer is built from seat 0's
:class:`~jabberwocky.observation.Observation` plus public facts, so no other seat's
hidden card can reach the page.  Requests come from untrusted places (URL fragments,
saved games, imported records): :meth:`WebApi.handle` checks the size, the depth (in
linear time, :mod:`~jabberwocky.jsontext`) and the types of every payload and answers
JSON text, either ``{"result": ...}`` or ``{"error": {"kind": <exception class>,
"message": <sentence>, "code": <catalogue code>, "params": {...}}}``.  A refused request
changes nothing: the table's game is exactly what it was (a refused import never
replaces it).

>>> api = WebApi()
>>> view = json.loads(api.handle("new_game", '{"seed": "hello", "players": 4, "bots": "random"}'))
>>> view["result"]["phase"], len(view["result"]["hand"])
('bidding', 3)
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from .bots import BOTS_VERSION, Bot, available_levels, make_bot
from .cards import Card, card_name, cards_of, parse_card, sort_for_display
from .errors import IllegalMoveError, JabberwockyError, SeedError
from .game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from .jsontext import MAX_JSON_DEPTH, read_json
from .levels import HUMAN
from .messages import Message, quote
from .record import FORMAT, MAX_RECORD_BYTES, dumps, loads
from .rules import JABBERWOCKY, Ruleset, is_whole, rules_info
from .stats import (
    MAX_RECENT,
    RECENT_GAMES,
    StatsError,
    Tally,
    compare_with_bot,
    facts_from_json,
    facts_to_json,
    game_facts,
)
from .table import DEFAULT_PLAYERS, MAX_PLAYERS, MAX_SEED_LENGTH, check_players, check_seed
from .words import new_seed

MAX_REQUEST_CHARS = MAX_RECORD_BYTES + 10_000
"""A request's JSON text may be at most this long (a record plus a little)."""
MAX_STATS_CHARS = 8_000_000
"""A ``stats`` request may be longer: the facts of a few thousand games (under 1 KB each),
or a few hundred records."""
MAX_STATS_GAMES = 5000
"""The most records plus facts one ``stats`` request tallies (the page keeps 3000)."""
_LIMITS = {"stats": MAX_STATS_CHARS}


class RequestError(JabberwockyError):
    """A request the worker cannot serve: unknown type or a malformed payload."""


def _error(kind: str, message: Message) -> str:
    """The JSON text of an error answer: its class, its English sentence, its code."""
    return json.dumps({"error": {"kind": kind, "message": str(message),
                                 "code": message.code, "params": message.to_json()["params"]}},
                      ensure_ascii=False)


def _obj(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise RequestError("request.payload_not_object", value=quote(payload))
    return payload


def _seed(value: Any) -> str:
    if value is None or value == "":
        return new_seed()
    return check_seed(value)


def _level(value: Any) -> str:
    levels = available_levels()
    if not isinstance(value, str) or value not in levels:
        raise SeedError("table.unknown_level", value=quote(value), choices=levels)
    return value


def default_level() -> str:
    """The strongest available level below ``hard``, or the strongest available one."""
    levels = available_levels()
    below_hard = [lvl for lvl in levels if lvl != "hard"]
    return (below_hard or levels)[-1]


def _names(cards: list[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def _safe_filename_part(seed: str) -> str:
    part = re.sub(r"[^A-Za-z0-9_-]+", "-", seed).strip("-")[:60]
    return part or "game"


class WebApi:
    """One table: the current :class:`Game` (seat 0 human) and one bot per other seat."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.bots: list[Bot | None] = []
        self._handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "new_game": self.new_game,
            "state": lambda p: self.state(),
            "bid": self.bid,
            "play": self.play,
            "bot_step": lambda p: self.bot_step(),
            "next_round": lambda p: self.next_round(),
            "hint": lambda p: self.hint(),
            "export_record": lambda p: self.export_record(),
            "import_record": self.import_record,
            "deal": self.deal,
            "levels": lambda p: self.levels(),
            "rules": lambda p: self.rules(),
            "stats": self.stats,
        }

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

    # -- requests ------------------------------------------------------------------

    def new_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Start a game: ``{seed?, players, bots, rules?}``."""
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
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        game = Game(_seed(payload.get("seed")), players, rules, [HUMAN, *levels])
        self._install(game)
        return self.view()

    def state(self) -> dict[str, Any]:
        """The current view."""
        return self.view()

    def bid(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Seat 0 bids ``{bid: int}``; the engine's reason when not allowed."""
        game = self._game()
        self._check_human_turn(game)
        game.bid(payload.get("bid"))  # type: ignore[arg-type]  # bid() checks the type
        return self.view()

    def play(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Seat 0 plays ``{card: "QH"}``; the engine's reason when not allowed."""
        game = self._game()
        card = parse_card(payload.get("card"))  # type: ignore[arg-type]  # it checks
        self._check_human_turn(game)
        game.play(card)
        return self.view()

    def bot_step(self) -> dict[str, Any]:
        """One bot action if a bot must act now, else ``action: null``."""
        game = self._game()
        seat = game.to_act
        bot = self.bots[seat] if seat is not None else None
        if seat is None or bot is None or game.phase not in (BIDDING, PLAYING):
            return {"action": None, "view": self.view()}
        obs = game.observation(seat)
        choice = bot.act(obs)
        if game.phase == BIDDING:
            game.bid(choice)
            action: dict[str, Any] = {"seat": seat, "kind": "bid", "value": choice}
        else:
            game.play(choice)
            action = {"seat": seat, "kind": "card", "value": card_name(choice)}
        return {"action": action, "view": self.view()}

    def next_round(self) -> dict[str, Any]:
        """Deal the next round once the current one is over."""
        self._game().next_round()
        return self.view()

    def hint(self) -> dict[str, Any]:
        """What the table's strongest bot level would do in seat 0's place."""
        game = self._game()
        if game.phase not in (BIDDING, PLAYING):
            raise IllegalMoveError("move.nothing_to_decide", phase=game.phase.value)
        self._check_human_turn(game)
        level = self._hint_level()
        hint = make_bot(level).hint(game.observation(0))
        if hint.kind == "bid":
            return {"kind": "bid", "suggestion": hint.suggestion,
                    "probabilities": list(hint.probabilities), "level": level}
        return {"kind": "card", "suggestion": card_name(hint.suggestion),
                "card_scores": {card_name(c): s for c, s in hint.card_scores},
                "level": level}

    def export_record(self) -> dict[str, Any]:
        """The game record and a file name for it."""
        game = self._game()
        return {"record": dumps(game),
                "filename": f"jabberwocky-{_safe_filename_part(game.seed)}.json"}

    def import_record(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Replace the table with a replayed record ``{record: text}``."""
        text = payload.get("record")
        if not isinstance(text, str):
            raise RequestError("request.record_not_text", format=FORMAT)
        game = loads(text)
        fallback = default_level()
        seats = [HUMAN] + [k if k in available_levels() else fallback for k in game.seats[1:]]
        game.seats = tuple(seats)
        self._install(game)
        return self.view()

    def deal(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A seed's deals, the same JSON as ``python -m jabberwocky deal --json``."""
        seed = payload.get("seed")
        if seed is None:
            raise SeedError("seed.needed")
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        from .cli import deal_summary  # imported here: the CLI is not needed at start-up

        # deal_summary checks the table and the seed before it deals anything
        return deal_summary(seed, payload.get("players", DEFAULT_PLAYERS), rules)

    def levels(self) -> dict[str, Any]:
        """The bot levels that can be played, weakest first, the default one, and the
        bots version (records and links made with another may play differently)."""
        return {"levels": available_levels(), "default": default_level(),
                "bots_version": BOTS_VERSION}

    @staticmethod
    def rules() -> dict[str, Any]:
        """Everything the page needs to know about rules and table settings: presets,
        options and their values, the table sizes, the honour rule's penalty, the longest
        seed (the page holds no copy of any of it)."""
        return {**rules_info(), "seed_max_length": MAX_SEED_LENGTH}

    def stats(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Statistics of finished games for one seat: ``{records?: [text], facts?:
        [object], seat?: 0, recent?: 20, compare?: false}``.

        ``records`` are replayed (each refused alone, naming its problem) and answered with
        their ``id`` (SHA-256 of the record as the engine writes it: the same game however
        it was formatted) and ``facts`` (what the page stores to tally it again without a
        replay); with ``compare`` each is also played again with the hard bot in ``seat``.
        ``facts`` are checked and tallied as they are.  The summary covers the facts first,
        then the records, in the order given (see :mod:`~jabberwocky.stats`).
        """
        seat = payload.get("seat", 0)
        if not is_whole(seat) or not 0 <= seat < MAX_PLAYERS:
            raise RequestError("request.stats_seat", value=quote(seat), max=MAX_PLAYERS - 1)
        recent = payload.get("recent", RECENT_GAMES)
        if not is_whole(recent) or not 1 <= recent <= MAX_RECENT:
            raise RequestError("request.stats_recent", value=quote(recent), max=MAX_RECENT)
        compare = payload.get("compare", False)
        if not isinstance(compare, bool):
            raise RequestError("request.stats_compare", value=quote(compare))
        if compare and "hard" not in available_levels():
            raise RequestError("request.stats_no_bot", level="hard")
        records = payload.get("records", [])
        facts_in = payload.get("facts", [])
        for name, items in (("records", records), ("facts", facts_in)):
            if not isinstance(items, list):
                raise RequestError("request.stats_not_list", field=name)
        if len(records) + len(facts_in) > MAX_STATS_GAMES:
            raise RequestError("request.stats_too_many", max=MAX_STATS_GAMES)
        tally = Tally(seat=seat, recent=recent)
        refused: list[dict[str, Any]] = []

        def refuse(source: str, index: int, exc: JabberwockyError) -> None:
            m = exc.message
            refused.append({"source": source, "index": index, "error": {
                "kind": type(exc).__name__, "message": str(m), "code": m.code,
                "params": m.to_json()["params"]}})

        for i, data in enumerate(facts_in):
            try:
                facts = facts_from_json(data)
                if seat >= facts.players:
                    raise StatsError("request.stats_seat_absent", seat=seat,
                                     players=facts.players)
            except JabberwockyError as exc:
                refuse("facts", i, exc)
                continue
            tally.add(facts)
        games: list[dict[str, Any] | None] = []
        for i, text in enumerate(records):
            try:
                if not isinstance(text, str):
                    raise RequestError("request.record_not_text", format=FORMAT)
                game = loads(text)
                if seat >= game.players:
                    raise StatsError("request.stats_seat_absent", seat=seat,
                                     players=game.players)
                facts = game_facts(game, compare_with_bot(game, seat) if compare else None)
            except JabberwockyError as exc:
                refuse("records", i, exc)
                games.append(None)
                continue
            tally.add(facts)
            digest = hashlib.sha256(dumps(game).encode("utf-8")).hexdigest()
            games.append({"id": digest, "facts": facts_to_json(facts)})
        return {"summary": tally.summary(), "games": games, "refused": refused}

    # -- helpers -------------------------------------------------------------------

    def _install(self, game: Game) -> None:
        """Make ``game`` the table's game (its bots are made first: nothing is replaced
        unless everything is ready)."""
        bots: list[Bot | None] = [None if kind == HUMAN else make_bot(kind)
                                  for kind in game.seats]
        bots[0] = None
        self.game, self.bots = game, bots

    def _game(self) -> Game:
        if self.game is None:
            raise RequestError("request.no_game")
        return self.game

    @staticmethod
    def _check_human_turn(game: Game) -> None:
        if game.phase in (BIDDING, PLAYING) and game.to_act != 0:
            raise IllegalMoveError("move.not_your_turn", seat=game.to_act)

    def _hint_level(self) -> str:
        levels = available_levels()
        table = [b.level for b in self.bots if b is not None and b.level in levels]
        return max(table, key=levels.index) if table else default_level()

    # -- the view ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the UI renders, built from seat 0's observation only."""
        game = self._game()
        obs = game.observation(0)
        n = obs.players
        hand = sort_for_display(cards_of(obs.hand), obs.trump_suit)
        legal = obs.legal
        honest = obs.honest
        reasons: dict[str, Message] = {}
        for c in hand:
            if not legal >> c & 1:
                reasons[card_name(c)] = self._card_reason(game, c)
        bid_reasons: dict[str, Message] = {}
        if obs.legal_bids:
            for b in range(obs.hand_size + 1):
                if b not in obs.legal_bids:
                    bid_reasons[str(b)] = game.why_illegal_bid(b) or Message("move.not_now")
        last = obs.tricks[-1] if obs.tricks else None
        over = obs.phase in (ROUND_OVER, GAME_OVER)
        result = obs.history[-1] if over and obs.history else None
        return {
            "seed": game.seed,
            "players": n,
            "rules": obs.rules.to_dict(),
            "seats": list(game.seats),
            "names": ["You"] + [f"Bot {s}" for s in range(1, n)],
            "phase": obs.phase.value,
            "round": obs.round_index + 1,
            "rounds": obs.rules.rounds,
            "hand_size": obs.hand_size,
            "dealer": obs.dealer,
            "trump_card": card_name(obs.trump_card),
            "trump_suit": "CDHS"[obs.trump_suit],
            "to_act": obs.to_act,
            "your_turn": obs.my_turn,
            "hand": _names(hand),
            "legal_cards": [card_name(c) for c in hand if legal >> c & 1],
            "renege_cards": [card_name(c) for c in hand if legal >> c & 1 and not honest >> c & 1],
            "illegal_reasons": reasons,
            "illegal_reason_codes": {c: m.to_json() for c, m in reasons.items()},
            "legal_bids": list(obs.legal_bids),
            "bid_reasons": bid_reasons,
            "bid_reason_codes": {b: m.to_json() for b, m in bid_reasons.items()},
            "hand_counts": [obs.cards_in_hand(s) for s in range(n)],
            "bids": list(obs.bids),
            "taken": list(obs.taken),
            "scores": list(obs.scores),
            "trick": {"leader": obs.leader, "cards": _names(list(obs.trick))},
            "last_trick": None if last is None else {
                "leader": last.leader, "cards": _names(list(last.cards)), "winner": last.winner},
            "trump_broken": obs.broken,
            "history": self._history(obs.history, n),
            "round_result": None if result is None else {
                "bids": list(result.bids), "taken": list(result.taken),
                "points": list(result.points)},
            "winners": game.winners(),
            "step": self._total_steps(game),
            "record_version": FORMAT,
            "bots_version": game.bots_version,
        }

    @staticmethod
    def _card_reason(game: Game, card: Card) -> Message:
        if game.phase == PLAYING and game.to_act != 0:
            return Message("move.wait_turn")
        return game.why_illegal_card(card) or Message("move.not_now")

    @staticmethod
    def _history(results: tuple[Any, ...], players: int) -> list[dict[str, Any]]:
        totals = [0] * players
        out = []
        for res in results:
            totals = [t + p for t, p in zip(totals, res.points, strict=True)]
            out.append({
                "round": res.round_index + 1,
                "dealer": res.dealer,
                "hand_size": res.hand_size,
                "trump_card": card_name(res.trump_card),
                "bids": list(res.bids),
                "taken": list(res.taken),
                "reneges": list(res.reneges),
                "points": list(res.points),
                "totals": list(totals),
            })
        return out

    @staticmethod
    def _total_steps(game: Game) -> int:
        done = sum(game.players * (1 + r.hand_size) for r in game.results)
        return done + (game.step if game.phase in (BIDDING, PLAYING) else 0)


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
