"""The JSON facade the web worker calls: one method per request of the worker protocol.

The browser never sees the referee.  Every answer is built from seat 0's
:class:`~jabberwocky.observation.Observation` plus public facts, so no other seat's
hidden card can reach the page.  Requests come from untrusted places (URL fragments,
saved games, imported records): :meth:`WebApi.handle` checks the size and the types of
every payload and answers JSON text, either ``{"result": ...}`` or
``{"error": {"kind": <exception class>, "message": <sentence>}}``.

>>> api = WebApi()
>>> view = json.loads(api.handle("new_game", '{"seed": "hello", "players": 4, "bots": "random"}'))
>>> view["result"]["phase"], len(view["result"]["hand"])
('bidding', 3)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .bots import Bot, available_levels, make_bot
from .cards import Card, card_name, cards_of, parse_card, sort_for_display
from .errors import IllegalMoveError, JabberwockyError, SeedError
from .game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from .levels import HUMAN
from .record import FORMAT, MAX_RECORD_BYTES, dumps, json_too_deep, loads
from .rules import JABBERWOCKY, Ruleset
from .words import new_seed

MAX_REQUEST_CHARS = MAX_RECORD_BYTES + 10_000
"""A request's JSON text may be at most this long (a record plus a little)."""


class RequestError(JabberwockyError):
    """A request the worker cannot serve: unknown type or a malformed payload."""


def _obj(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise RequestError(f"the payload must be a JSON object, not {type(payload).__name__}")
    return payload


def _players(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 3 <= value <= 5:
        raise SeedError(f"{value!r} players cannot play: choose 3, 4 or 5")
    return value


def _seed(value: Any) -> str:
    if value is None or value == "":
        return new_seed()
    if not isinstance(value, str):
        raise SeedError(f"a seed must be text, not {type(value).__name__}")
    return value


def _level(value: Any) -> str:
    levels = available_levels()
    if not isinstance(value, str) or value not in levels:
        shown = repr(value) if isinstance(value, str) and len(value) <= 40 else "given"
        raise SeedError(f"the bot level {shown} is unknown: choose one of {', '.join(levels)}")
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
        }

    # -- the protocol entry point ---------------------------------------------------

    def handle(self, kind: str, payload_json: str) -> str:
        """Serve one request; always returns JSON text (a result or an error)."""
        try:
            result = self.dispatch(kind, payload_json)
            # allow_nan=False: NaN is not JSON, and the page's JSON.parse would refuse it
            return json.dumps({"result": result}, ensure_ascii=False, allow_nan=False)
        except JabberwockyError as exc:
            return json.dumps({"error": {"kind": type(exc).__name__, "message": str(exc)}})
        except RecursionError:
            return json.dumps({"error": {"kind": "RequestError",
                                         "message": "the request is nested too deeply"}})
        except Exception as exc:  # a bug: report it rather than kill the worker
            return json.dumps({"error": {"kind": "InternalError",
                                         "message": f"{type(exc).__name__}: {exc}"}})

    def dispatch(self, kind: str, payload_json: str) -> Any:
        """Decode and check a request, run it and return its result (JSON-ready)."""
        if not isinstance(kind, str) or kind not in self._handlers:
            shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "given"
            raise RequestError(f"unknown request type {shown}: use one of "
                               f"{', '.join(sorted(self._handlers))}")
        if not isinstance(payload_json, str):
            raise RequestError("the payload must be JSON text")
        if len(payload_json) > MAX_REQUEST_CHARS:
            raise RequestError(f"the request is larger than {MAX_REQUEST_CHARS} characters")
        if json_too_deep(payload_json):
            raise RequestError("the request is nested too deeply")
        try:
            payload = json.loads(payload_json) if payload_json.strip() else {}
        except ValueError as exc:
            raise RequestError(f"the payload is not valid JSON: {exc}") from None
        if payload is None:
            payload = {}
        return self._handlers[kind](_obj(payload))

    # -- requests ------------------------------------------------------------------

    def new_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Start a game: ``{seed?, players, bots, rules?}``."""
        players = _players(payload.get("players", 4))
        bots = payload.get("bots", default_level())
        if isinstance(bots, str):
            levels = [_level(bots)] * (players - 1)
        elif isinstance(bots, list):
            if len(bots) != players - 1:
                raise SeedError(f"bots names {len(bots)} levels for the {players - 1} "
                                "bot seats: give one per bot seat, or one level for all")
            levels = [_level(b) for b in bots]
        else:
            raise SeedError("bots must be a level name or a list of level names")
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
            raise IllegalMoveError(
                f"there is nothing to decide now: the game is in the {game.phase} phase")
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
            raise RequestError("record must be the text of a jabberwocky-game/1 record")
        game = loads(text)
        fallback = default_level()
        seats = [HUMAN] + [k if k in available_levels() else fallback for k in game.seats[1:]]
        game.seats = tuple(seats)
        self._install(game)
        return self.view()

    def deal(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A seed's deals, the same JSON as ``python -m jabberwocky deal --json``."""
        seed = payload.get("seed")
        if not isinstance(seed, str):
            raise SeedError("deal needs a seed (text)")
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        # A Game checks the seed's length and the table before the deals are listed.
        players = _players(payload.get("players", 4))
        Game(seed, players, rules)
        from .cli import deal_summary  # imported here: the CLI is not needed at start-up

        return deal_summary(seed, players, rules)

    def levels(self) -> dict[str, Any]:
        """The bot levels that can be played, weakest first, and the default one."""
        return {"levels": available_levels(), "default": default_level()}

    # -- helpers -------------------------------------------------------------------

    def _install(self, game: Game) -> None:
        self.game = game
        self.bots = [None if kind == HUMAN else make_bot(kind) for kind in game.seats]
        self.bots[0] = None

    def _game(self) -> Game:
        if self.game is None:
            raise RequestError("no game yet: start one with new_game")
        return self.game

    @staticmethod
    def _check_human_turn(game: Game) -> None:
        if game.phase in (BIDDING, PLAYING) and game.to_act != 0:
            raise IllegalMoveError(f"it is not your turn: seat {game.to_act} is to act")

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
        strict = obs.strict_legal
        reasons: dict[str, str] = {}
        for c in hand:
            if not legal >> c & 1:
                reasons[card_name(c)] = self._card_reason(game, c)
        bid_reasons: dict[str, str] = {}
        if obs.legal_bids:
            for b in range(obs.hand_size + 1):
                if b not in obs.legal_bids:
                    bid_reasons[str(b)] = game.why_illegal_bid(b) or "not allowed now"
        last = obs.tricks[-1] if obs.tricks else None
        over = obs.phase in (ROUND_OVER, GAME_OVER)
        result = obs.history[-1] if over and obs.history else None
        return {
            "seed": game.seed,
            "players": n,
            "rules": obs.rules.to_dict(),
            "seats": list(game.seats),
            "names": ["You"] + [f"Bot {s}" for s in range(1, n)],
            "phase": obs.phase,
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
            "renege_cards": [card_name(c) for c in hand if legal >> c & 1 and not strict >> c & 1],
            "illegal_reasons": reasons,
            "legal_bids": list(obs.legal_bids),
            "bid_reasons": bid_reasons,
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
        }

    @staticmethod
    def _card_reason(game: Game, card: Card) -> str:
        if game.phase == PLAYING and game.to_act != 0:
            return "it is not your turn"
        if game.phase != PLAYING:
            return f"it is not time to play a card: the game is in the {game.phase} phase"
        return game.why_illegal_card(card) or "it may not be played now"

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
