"""The JSON facade the web worker calls: one method per request of the worker protocol.

The browser never sees the referee.  Every view is built from one human seat's
:class:`~jabberwocky.observation.Observation` plus public facts (seat 0's in the common
game of one human against bots; in pass-and-play the acting human's, with a hand-off
between humans, during which no hand is shown at all), so no other seat's hidden card
can reach the page.  Only a review shows every hand, and only of a game that is over
(or of a record or challenge the page already holds).

Requests come from untrusted places (URL fragments, challenge links, saved games,
imported records): :meth:`WebApi.handle` checks the size, the depth (in linear time,
:mod:`~jabberwocky.jsontext`) and the types of every payload and answers JSON text,
either ``{"result": ...}`` or ``{"error": {"kind": <exception class>, "message":
<sentence>, "code": <catalogue code>, "params": {...}}}``.  A refused request changes
nothing: the table's game is exactly what it was (a refused import never replaces it).

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

from . import review
from .actions import last_action, take_back
from .bots import BOTS_VERSION, Bot, available_levels, is_builtin, make_bot
from .bots.referee import bot_hint, bot_move
from .cards import Card, card_name, card_names, cards_of, parse_card, sort_for_display
from .challenge import (
    MAX_CHALLENGE_CHARS,
    MAX_RESULTS,
    Challenge,
    check_bots,
    decode,
    result_of,
    rounds_played,
)
from .challenge import result_json as challenge_result_json
from .claim import claim_order, why_claim_fails
from .errors import (
    ChallengeError,
    IllegalMoveError,
    JabberwockyError,
    RecordError,
    ReviewError,
    SeedError,
)
from .game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game, trick_winner
from .hint_reason import card_reason
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
from .table import (
    DEFAULT_PLAYERS,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_SEED_LENGTH,
    check_name,
    check_names,
    check_players,
    check_seed,
)
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


def _seats(value: Any, players: int) -> list[str]:
    """A ``seats`` list: one kind per seat, ``human`` or an available level, with at
    least one human."""
    if not isinstance(value, list):
        raise SeedError("table.seats_shape")
    if len(value) != players:
        raise SeedError("table.seat_count", count=len(value), players=players)
    kinds = [HUMAN, *available_levels()]
    for kind in value:
        if not isinstance(kind, str) or kind not in kinds:
            raise SeedError("table.unknown_seat", value=quote(kind), choices=kinds)
    if HUMAN not in value:
        raise SeedError("table.no_human")
    return list(value)


def _humans(game: Game) -> list[int]:
    return [s for s, kind in enumerate(game.seats) if kind == HUMAN]


DEFAULT_LEVEL = "medium"
"""The level a new game's bots have unless the player picks another: the page has always
started with it (``learned``, between it and ``hard`` on the ladder, is offered, not
imposed)."""


def default_level() -> str:
    """:data:`DEFAULT_LEVEL` when it is available, else the strongest available built-in
    level below ``hard``, or the strongest built-in one (a third-party level is never the
    default: its strength is not known)."""
    levels = [lvl for lvl in available_levels() if is_builtin(lvl)]
    if DEFAULT_LEVEL in levels:
        return DEFAULT_LEVEL
    below_hard = [lvl for lvl in levels if lvl != "hard"]
    return (below_hard or levels)[-1]


def _safe_filename_part(seed: str) -> str:
    part = re.sub(r"[^A-Za-z0-9_-]+", "-", seed).strip("-")[:60]
    return part or "game"


class WebApi:
    """One table: the current :class:`Game`, one bot per bot seat, and which human's
    hand the page was last given (``shown``: the hand-off of pass-and-play)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.bots: list[Bot | None] = []
        self.shown: int | None = None
        self._decoded: dict[str, Challenge] = {}
        self._handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "new_game": self.new_game,
            "state": lambda p: self.state(),
            "bid": self.bid,
            "play": self.play,
            "bot_step": lambda p: self.bot_step(),
            "next_round": lambda p: self.next_round(),
            "hint": lambda p: self.hint(),
            "claim": lambda p: self.claim(),
            "export_record": lambda p: self.export_record(),
            "import_record": self.import_record,
            "deal": self.deal,
            "levels": lambda p: self.levels(),
            "rules": lambda p: self.rules(),
            "reveal": lambda p: self.reveal(),
            "take_back": lambda p: self.take_back(),
            "challenge_open": self.challenge_open,
            "challenge_play": self.challenge_play,
            "challenge_encode": self.challenge_encode,
            "challenge_check": self.challenge_check,
            "challenge_compare": lambda p: self.challenge_compare(),
            "review": self.review,
            "review_analyse": self.review_analyse,
            "review_seen": self.review_seen,
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
        """Start a game: ``{seed?, players, bots | seats, names?, rules?}``.

        ``bots`` seats one human at seat 0 and the bots after it; ``seats`` names every
        seat's kind instead (``human`` or a level: several humans play pass-and-play).
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
        names = payload.get("names")
        names = (None,) * players if names is None else check_names(names, players)
        rules = Ruleset.from_dict(payload.get("rules")) if "rules" in payload else JABBERWOCKY
        game = Game(_seed(payload.get("seed")), players, rules, seats)
        game.names = names
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

    def reveal(self) -> dict[str, Any]:
        """The acting human has the device: the view with their hand (ends a hand-off)."""
        game = self._game()
        self.shown = self._viewer(game)
        return self.view()

    def take_back(self) -> dict[str, Any]:
        """Take back the latest human move and the bots' moves after it (not in a
        challenge game): the game is replayed from its moves without them."""
        game = self._game()
        if game.challenge is not None:
            raise IllegalMoveError("move.takeback_challenge")
        self.game = take_back(game, _humans(game))
        return self.view()

    def bot_step(self) -> dict[str, Any]:
        """One bot action if a bot must act now, else ``action: null``.  A bot that fails
        (it raises, or answers what is not a move allowed now) gets a ``BotError`` answer
        naming the bot, the seat and the move; the game stays as it was."""
        game = self._game()
        seat = game.to_act
        bot = self.bots[seat] if seat is not None else None
        if seat is None or bot is None or game.phase not in (BIDDING, PLAYING):
            return {"action": None, "view": self.view()}
        bidding = game.phase == BIDDING
        choice = bot_move(game, bot)
        if bidding:
            action: dict[str, Any] = {"seat": seat, "kind": "bid", "value": choice}
        else:
            action = {"seat": seat, "kind": "card", "value": card_name(choice)}
        return {"action": action, "view": self.view()}

    def next_round(self) -> dict[str, Any]:
        """Deal the next round once the current one is over."""
        self._game().next_round()
        return self.view()

    def hint(self) -> dict[str, Any]:
        """What the table's strongest bot level would do in the acting human's place."""
        game = self._game()
        if game.phase not in (BIDDING, PLAYING):
            raise IllegalMoveError("move.nothing_to_decide", phase=game.phase.value)
        self._check_human_turn(game)
        level = self._hint_level()
        hint = bot_hint(game, make_bot(level), game.to_act, level)  # type: ignore[arg-type]
        if hint.kind == "bid":
            return {"kind": "bid", "suggestion": hint.suggestion,
                    "probabilities": list(hint.probabilities), "level": level}
        scores = dict(hint.card_scores)
        reason = card_reason(game.observation(game.to_act),  # type: ignore[arg-type]
                             hint.suggestion, scores.get(hint.suggestion))
        return {"kind": "card", "suggestion": card_name(hint.suggestion),
                "card_scores": {card_name(c): s for c, s in hint.card_scores},
                "reason": None if reason is None else reason.to_json(),
                "level": level}

    def claim(self) -> dict[str, Any]:
        """The human to act claims every remaining trick: refused with the reason unless
        certain from that seat's own view (:mod:`.claim`), and at a table with other humans
        (their moves cannot be made for them); if accepted, the round is played out (the
        claimer's cards in the order that wins, the bots as they would)."""
        game = self._game()
        self._check_human_turn(game)
        seat: int = game.to_act  # type: ignore[assignment]
        if len(_humans(game)) > 1:
            raise IllegalMoveError("claim.humans")
        obs = game.observation(seat)
        reason = why_claim_fails(obs)
        if reason is not None:
            raise IllegalMoveError(reason)
        order = claim_order(obs) or []
        round_index = game.round_index
        while game.phase == PLAYING and game.round_index == round_index:
            if game.to_act == seat:
                game.play(order.pop(0))
            else:
                self.bot_step()
        return self.view()

    def export_record(self) -> dict[str, Any]:
        """The game record and a file name for it."""
        game = self._game()
        return {"record": dumps(game),
                "filename": f"jabberwocky-{_safe_filename_part(game.seed)}.json"}

    def import_record(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Replace the table with a replayed record ``{record: text}`` that holds at least
        one move (a stub naming only a seed is refused: New game plays a seed)."""
        text = payload.get("record")
        if not isinstance(text, str):
            raise RequestError("request.record_not_text", format=FORMAT)
        game = loads(text)
        if game.step == 0 and not game.results:
            # A record that names a game but holds none of it (no bid made): nothing to
            # continue.  The record format allows it; the page's import does not.
            raise RecordError("record.no_moves")
        fallback = default_level()
        levels = available_levels()
        seats = [k if k == HUMAN or k in levels else fallback for k in game.seats]
        if HUMAN not in seats:
            seats[0] = HUMAN
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
        seed and player name, the longest challenge text and chain (the page holds no
        copy of any of it)."""
        return {**rules_info(), "seed_max_length": MAX_SEED_LENGTH,
                "name_max_length": MAX_NAME_LENGTH, "challenge_max_length": MAX_CHALLENGE_CHARS,
                "challenge_max_results": MAX_RESULTS}

    # -- challenges ----------------------------------------------------------------

    def _decode(self, text: Any) -> Challenge:
        """The challenge ``text`` names, verified (the last few are kept decoded)."""
        if isinstance(text, str) and text in self._decoded:
            return self._decoded[text]
        challenge = decode(text)
        if len(self._decoded) >= 4:
            self._decoded.pop(next(iter(self._decoded)))
        self._decoded[challenge.text] = challenge
        return challenge

    def challenge_open(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Decode and verify ``{text}``: ``{ok: true, …the challenge…}``, or ``{ok: false,
        refusal: {code, params, message}, game: the table it names | null}``.  The table's
        game is not touched."""
        try:
            challenge = self._decode(payload.get("text"))
        except ChallengeError as exc:
            return {"ok": False, "refusal": {**exc.message.to_json(), "message": str(exc)},
                    "game": exc.game}
        return {"ok": True, **challenge.to_json()}

    def challenge_play(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Start the game a challenge ``{text, name?}`` was played on, as a challenge
        game (no take-backs; ``challenge_encode`` adds its result to the chain)."""
        challenge = self._decode(payload.get("text"))
        table = challenge.table
        names: list[str | None] = [None] * table.players
        if payload.get("name") not in (None, ""):
            names[table.human] = check_name(payload["name"])
        game = table.new_game()
        game.names = tuple(names)
        game.challenge = challenge.text
        self._install(game)
        return self.view()

    def _incoming(self, game: Game) -> Challenge | None:
        return None if game.challenge is None else self._decode(game.challenge)

    def challenge_encode(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The table's game as played so far as a challenge ``{name?}`` (absent: the
        game's name for the human seat; ``null`` or ``""``: none), after the chain the
        game answers (the oldest result dropped beyond five)."""
        game = self._game()
        human = _one_human(game)
        name = payload.get("name", game.names[human])
        previous = self._incoming(game)
        challenge = Challenge.of_game(game, name or None, previous)
        earlier = 0 if previous is None else len(previous.results)
        return {"text": challenge.text, "length": len(challenge.text),
                "dropped": max(0, earlier + 1 - MAX_RESULTS), **challenge.to_json()}

    def challenge_check(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Check one round ``{text, player, round}`` (both 1-based) of a result's bots'
        moves against the bots' own choices: ``{ok, refusal, …}``."""
        challenge = self._decode(payload.get("text"))
        player, rnd = payload.get("player"), payload.get("round")
        if not is_whole(player):
            raise ChallengeError("challenge.no_result", player=quote(player),
                                 count=len(challenge.results))
        if not is_whole(rnd):
            raise ChallengeError("challenge.no_round", player=player, round=quote(rnd),
                                 rounds=0)
        mismatch = check_bots(challenge, player, rnd - 1)
        result = challenge.results[player - 1]
        return {"ok": mismatch is None, "player": player, "round": rnd,
                "rounds": rounds_played(result),
                "refusal": None if mismatch is None else {**mismatch.to_json(),
                                                           "message": str(mismatch)}}

    def challenge_compare(self) -> dict[str, Any]:
        """The table's challenge game beside the results it answers: each result's
        rounds and total, the table's game last (``current``), the leaders, and the
        text of the challenge answered (a resumed game's page learns it here)."""
        game = self._game()
        previous = self._incoming(game)
        if previous is None:
            raise ChallengeError("challenge.not_challenge")
        human = previous.table.human
        rows = [challenge_result_json(r, human) for r in previous.results]
        rows.append({**challenge_result_json(result_of(game, game.names[human]), human),
                     "current": True})
        best = max(r["total"] for r in rows)
        return {"seat": human, "text": previous.text, "results": rows,
                "leaders": [i for i, r in enumerate(rows) if r["total"] == best]}

    # -- reviews ---------------------------------------------------------------------

    def _review_game(self, payload: dict[str, Any]) -> Game:
        """The game a review request names: ``{record}`` (a record's text), ``{challenge,
        player}`` (a result of a challenge, 1-based) or neither (the table's game, once
        it is over: a game in play shows no hidden card)."""
        if "record" in payload:
            text = payload["record"]
            if not isinstance(text, str):
                raise RequestError("request.record_not_text", format=FORMAT)
            return loads(text)
        if "challenge" in payload:
            challenge = self._decode(payload["challenge"])
            player = payload.get("player")
            if not is_whole(player) or not 1 <= player <= len(challenge.results):
                raise ChallengeError("challenge.no_result", player=quote(player),
                                     count=len(challenge.results))
            return challenge.results[player - 1].game  # the reviews only read it
        game = self._game()
        if game.phase != GAME_OVER:
            raise ReviewError("review.unfinished", phase=game.phase.value)
        return game

    def review(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The whole timeline of a game, every hand face up (see :mod:`.review`)."""
        return review.timeline(self._review_game(payload))

    def review_analyse(self, payload: dict[str, Any]) -> dict[str, Any]:
        """What the hard bot would have done at ``{step}`` of a review's game."""
        return review.analyse(self._review_game(payload), _step(payload))

    def review_seen(self, payload: dict[str, Any]) -> dict[str, Any]:
        """What the seat to act saw at ``{step}`` of a review's game."""
        return review.seen(self._review_game(payload), _step(payload))

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
        unless everything is ready).  With one human the page shows that human's hand
        from the start; with several, the first view is a hand-off."""
        bots: list[Bot | None] = [None if kind == HUMAN else make_bot(kind)
                                  for kind in game.seats]
        humans = _humans(game)
        self.game, self.bots = game, bots
        self.shown = humans[0] if len(humans) == 1 else None

    def _viewer(self, game: Game) -> int:
        """The human whose view the page gets: the seat to act if it is human, else the
        last human to act, else the first human to act from here."""
        humans = _humans(game)
        to_act = game.to_act
        if game.phase in (BIDDING, PLAYING) and to_act is not None and to_act in humans:
            return to_act
        last = last_action(game, humans)
        if last is not None:
            return last.seat
        start = game.to_act if game.to_act is not None else game.leader
        return next(s for k in range(game.players)
                    if (s := (start + k) % game.players) in humans)

    def _handoff(self, game: Game, viewer: int) -> bool:
        return len(_humans(game)) > 1 and viewer != self.shown

    def _game(self) -> Game:
        if self.game is None:
            raise RequestError("request.no_game")
        return self.game

    def _check_human_turn(self, game: Game) -> None:
        """A human must be to act, and (in pass-and-play) have been handed the device."""
        if game.phase not in (BIDDING, PLAYING):
            return
        if game.seats[game.to_act] != HUMAN:  # type: ignore[index]
            raise IllegalMoveError("move.not_your_turn", seat=game.to_act)
        if self._handoff(game, game.to_act):  # type: ignore[arg-type]
            raise IllegalMoveError("move.handoff", seat=game.to_act)

    def _hint_level(self) -> str:
        """The strongest built-in level at the table (else a third-party level there, else
        the default): the seats' kinds decide, not what a bot calls itself."""
        levels = available_levels()
        table = [kind for kind in self._game().seats[1:] if kind in levels]
        builtin = [kind for kind in table if is_builtin(kind)]
        if builtin:
            return max(builtin, key=levels.index)
        return table[0] if table else default_level()

    # -- the view ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the UI renders, built from the viewer's observation only (during a
        hand-off, from no hand at all)."""
        game = self._game()
        viewer = self._viewer(game)
        handoff = self._handoff(game, viewer)
        humans = _humans(game)
        obs = game.observation(viewer)
        n = obs.players
        hand = [] if handoff else sort_for_display(cards_of(obs.hand), obs.trump_suit)
        legal = obs.legal
        honest = obs.honest
        reasons: dict[str, Message] = {}
        for c in hand:
            if not legal >> c & 1:
                reasons[card_name(c)] = self._card_reason(game, c, viewer)
        bid_reasons: dict[str, Message] = {}
        if obs.legal_bids and not handoff:
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
            "names": _display_names(game, viewer),
            "phase": obs.phase.value,
            "round": obs.round_index + 1,
            "rounds": obs.rules.rounds,
            "hand_size": obs.hand_size,
            "dealer": obs.dealer,
            "trump_card": card_name(obs.trump_card),
            "trump_suit": "CDHS"[obs.trump_suit],
            "to_act": obs.to_act,
            "your_turn": obs.my_turn and not handoff,
            "hand": card_names(hand),
            "legal_cards": [card_name(c) for c in hand if legal >> c & 1],
            "renege_cards": [card_name(c) for c in hand if legal >> c & 1 and not honest >> c & 1],
            "illegal_reasons": reasons,
            "illegal_reason_codes": {c: m.to_json() for c, m in reasons.items()},
            "legal_bids": [] if handoff else list(obs.legal_bids),
            "bid_reasons": bid_reasons,
            "bid_reason_codes": {b: m.to_json() for b, m in bid_reasons.items()},
            "hand_counts": [obs.cards_in_hand(s) for s in range(n)],
            "bids": list(obs.bids),
            "taken": list(obs.taken),
            "scores": list(obs.scores),
            "trick": {"leader": obs.leader, "cards": card_names(obs.trick),
                      "winning": trick_winner(obs.trick, obs.leader, n, obs.trump_suit)
                      if obs.trick else None},
            "tricks": [{"leader": t.leader, "cards": card_names(t.cards), "winner": t.winner}
                       for t in obs.tricks],
            "last_trick": None if last is None else {
                "leader": last.leader, "cards": card_names(last.cards), "winner": last.winner},
            "trump_broken": obs.broken,
            "can_claim": (obs.my_turn and not handoff and obs.phase == PLAYING
                          and len(humans) == 1 and claim_order(obs) is not None),
            "history": self._history(obs.history, n),
            "round_result": None if result is None else {
                "bids": list(result.bids), "taken": list(result.taken),
                "points": list(result.points)},
            "winners": game.winners(),
            "step": self._total_steps(game),
            "record_version": FORMAT,
            "bots_version": game.bots_version,
            "viewer": viewer,
            "handoff": handoff,
            "humans": humans,
            "player_names": list(game.names),
            "challenge": game.challenge is not None,
            "takebacks": game.takebacks,
            "can_take_back": game.challenge is None and last_action(game, humans) is not None,
        }

    @staticmethod
    def _card_reason(game: Game, card: Card, viewer: int) -> Message:
        if game.phase == PLAYING and game.to_act != viewer:
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


def _display_names(game: Game, viewer: int) -> list[str]:
    """English seat names (the page uses its own words for the unnamed): a player's
    name, else "You" for the viewer, "Player 3" for another human, "Bot 2" for a bot."""
    out = []
    for s, kind in enumerate(game.seats):
        name = game.names[s]
        if name is not None:
            out.append(name)
        elif kind == HUMAN:
            out.append("You" if s == viewer else f"Player {s + 1}")
        else:
            out.append(f"Bot {s}")
    return out


def _one_human(game: Game) -> int:
    humans = _humans(game)
    if len(humans) != 1:
        raise ChallengeError("challenge.humans", count=len(humans))
    return humans[0]


def _step(payload: dict[str, Any]) -> int:
    step = payload.get("step")
    if not is_whole(step):
        raise ReviewError("review.no_step", step=quote(step), steps=0)
    return step


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
