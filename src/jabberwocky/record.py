"""Game records, format ``jabberwocky-game/1``: the project's export, import and replay format.

A record is JSON.  Writing one is a plain walk over the game; reading one replays every
bid and card through the engine, so a record that breaks a rule, or whose deals do not
come from its seed, is refused with a message naming the first problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from .cards import Card, card_name, cards_of, parse_card
from .deal import DEAL_ALGORITHM
from .errors import CardError, JabberwockyError, RecordError
from .game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from .messages import Message, quote
from .rules import RULES_VERSION, Ruleset

FORMAT = "jabberwocky-game/1"
MAX_RECORD_BYTES = 1_000_000
MAX_JSON_DEPTH = 64
"""Deepest nesting of JSON lists and objects read (a record needs 5 levels)."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def json_too_deep(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``text`` nests JSON lists or objects more than ``limit`` levels deep.

    Checked before ``json.loads``: its C parser recurses once per level, and under
    Pyodide a few thousand levels overflow the WebAssembly stack and kill the
    interpreter (no ``RecursionError`` is raised there).
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _names(cards: Sequence[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def _trick(leader: int, cards: Sequence[Card], winner: int | None) -> dict[str, Any]:
    return {"leader": leader, "cards": _names(cards), "winner": winner}


def _round(index: int, dealer: int, hand_size: int, hands: Sequence[int], trump_card: Card,
           bids: Sequence[int | None], tricks: list[dict[str, Any]], taken: Sequence[int],
           reneges: Sequence[int], points: Sequence[int] | None) -> dict[str, Any]:
    return {
        "round": index + 1,
        "dealer": dealer,
        "hand_size": hand_size,
        "hands": [_names(cards_of(h)) for h in hands],
        "trump_card": card_name(trump_card),
        "bids": list(bids),
        "tricks": tricks,
        "taken": list(taken),
        "reneges": list(reneges),
        "points": None if points is None else list(points),
    }


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game``, finished or not, as a JSON-ready dict."""
    rounds = [
        _round(res.round_index, res.dealer, res.hand_size, res.hands, res.trump_card, res.bids,
               [_trick(*t) for t in res.tricks], res.taken, res.reneges, res.points)
        for res in game.results
    ]
    if game.phase in (BIDDING, PLAYING):
        tricks = [_trick(*t) for t in game.tricks]
        if game.trick:
            tricks.append(_trick(game.leader, game.trick, None))
        rounds.append(_round(game.round_index, game.dealer, game.hand_size, game.dealt,
                             game.trump_card, game.bids, tricks, game.taken, game.reneges, None))
    return {
        "format": FORMAT,
        "deal_algorithm": DEAL_ALGORITHM,
        "rules_version": RULES_VERSION,
        "seed": game.seed,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "seats": list(game.seats),
        "first_dealer": game.first_dealer,
        "phase": game.phase.value,
        "rounds": rounds,
        "scores": list(game.scores),
        "winners": game.winners(),
    }


def dumps(game: Game) -> str:
    """The record of ``game`` as compact JSON text."""
    return json.dumps(to_record(game), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes) -> Game:
    """Read a record from JSON text and replay it; raises :class:`RecordError`."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError("record.too_large", max=MAX_RECORD_BYTES)
    if json_too_deep(text):
        raise RecordError("record.too_deep", max=MAX_JSON_DEPTH)
    try:
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError("record.not_utf8") from None
    except ValueError as exc:
        raise RecordError("record.not_json", line=getattr(exc, "lineno", 0),
                          column=getattr(exc, "colno", 0)) from None
    return from_record(data)


class _Where:
    """Where in the record the replay is: the 'round 3, trick 2: …' of error messages."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.trick: int | None = None

    def fail(self, code: str | Message, **params: Any) -> RecordError:
        detail = code if isinstance(code, Message) else Message(code, **params)
        if self.round is None:
            return RecordError(detail)
        if self.trick is None:
            return RecordError("record.in_round", round=self.round, detail=detail)
        return RecordError("record.in_trick", round=self.round, trick=self.trick, detail=detail)


def _int(value: Any, what: str, where: _Where) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.fail("record.not_whole", field=what, value=quote(value))
    return value


def _list(value: Any, what: str, where: _Where) -> list[Any]:
    if not isinstance(value, list):
        raise where.fail("record.not_list", field=what, value=quote(value))
    return value


def _card(value: Any, where: _Where) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise where.fail(exc.message) from None


def from_record(data: Any) -> Game:
    """Validate a record (a dict) and replay it into a :class:`Game`.

    Raises :class:`RecordError` whose message names the first problem found.
    """
    where = _Where()
    if not isinstance(data, dict):
        raise where.fail("record.not_object")
    if data.get("format") != FORMAT:
        raise where.fail("record.format", format=FORMAT, value=quote(data.get("format")))
    algorithm = data.get("deal_algorithm", DEAL_ALGORITHM)
    if algorithm != DEAL_ALGORITHM:
        raise where.fail("record.deal_algorithm", value=quote(algorithm), known=DEAL_ALGORITHM)
    players = _int(data.get("players"), "players", where)
    seats = data.get("seats")
    if seats is None:
        seats = ["human"] * players
    try:
        rules = Ruleset.from_dict(data.get("rules"))
        game = Game(data.get("seed"), players, rules, _list(seats, "seats", where))  # type: ignore[arg-type]
    except JabberwockyError as exc:
        raise where.fail(exc.message) from None
    if "first_dealer" in data and data["first_dealer"] != game.first_dealer:
        raise where.fail("record.first_dealer", value=quote(data["first_dealer"]),
                         seat=game.first_dealer)
    rounds = _list(data.get("rounds", []), "rounds", where)
    if len(rounds) > rules.rounds:
        raise where.fail("record.round_count", count=len(rounds), rounds=rules.rounds)
    for i, rnd in enumerate(rounds):
        where.round, where.trick = i + 1, None
        if i > 0:
            if game.phase != ROUND_OVER:
                raise where.fail("record.previous_unfinished")
            game.next_round()
        _replay_round(game, rnd, where)
    where.round = where.trick = None
    _check_totals(game, data, where)
    return game


def _replay_round(game: Game, rnd: Any, where: _Where) -> None:
    if not isinstance(rnd, dict):
        raise where.fail("record.round_not_object")
    n = game.players
    if rnd.get("round", game.round_index + 1) != game.round_index + 1:
        raise where.fail("record.round_order", value=quote(rnd.get("round")))
    if rnd.get("dealer", game.dealer) != game.dealer:
        raise where.fail("record.dealer", seat=game.dealer, value=quote(rnd.get("dealer")))
    if rnd.get("hand_size", game.hand_size) != game.hand_size:
        raise where.fail("record.hand_size", size=game.hand_size,
                         value=quote(rnd.get("hand_size")))
    if "hands" in rnd:
        hands = _list(rnd["hands"], "hands", where)
        if len(hands) != n:
            raise where.fail("record.seat_count", field="hands", count=len(hands), players=n)
        for seat, hand in enumerate(hands):
            cards = sorted(_card(c, where) for c in _list(hand, "a hand", where))
            if cards != cards_of(game.dealt[seat]):
                raise where.fail("record.hand_mismatch", seat=seat)
    if "trump_card" in rnd and _card(rnd["trump_card"], where) != game.trump_card:
        raise where.fail("record.trump_card", name=card_name(game.trump_card),
                         value=quote(rnd["trump_card"]))
    _replay_bids(game, _list(rnd.get("bids", [None] * n), "bids", where), where)
    _replay_tricks(game, _list(rnd.get("tricks", []), "tricks", where), where)
    for key in ("taken", "points"):
        listed = rnd.get(key)
        if listed is None:
            continue
        actual = list(game.taken) if key == "taken" else (
            list(game.results[-1].points) if game.phase in (ROUND_OVER, GAME_OVER) else None)
        if actual is not None and listed != actual:
            raise where.fail("record.listed", field=key, value=quote(listed), actual=quote(actual))


def _replay_bids(game: Game, bids: list[Any], where: _Where) -> None:
    n = game.players
    if len(bids) != n:
        raise where.fail("record.seat_count", field="bids", count=len(bids), players=n)
    order = [(game.dealer + 1 + k) % n for k in range(n)]
    stopped = False
    for seat in order:
        bid = bids[seat]
        if bid is None:
            stopped = True
            continue
        if stopped:
            raise where.fail("record.bid_gap", seat=seat)
        reason = game.why_illegal_bid(bid)
        if reason is not None:
            raise where.fail("record.bid_refused", seat=seat, value=quote(bid), reason=reason)
        game._bid(bid)


def _replay_tricks(game: Game, tricks: list[Any], where: _Where) -> None:
    for t, trick in enumerate(tricks):
        where.trick = t + 1
        if not isinstance(trick, dict):
            raise where.fail("record.trick_not_object")
        if game.phase != PLAYING:
            raise where.fail("record.bidding_incomplete")
        if trick.get("leader", game.leader) != game.leader:
            raise where.fail("record.leader", seat=game.leader, value=quote(trick.get("leader")))
        cards = _list(trick.get("cards"), "cards", where)
        if len(cards) > game.players or (not cards and t + 1 < len(tricks)):
            raise where.fail("record.trick_size", max=game.players, count=len(cards))
        for c in cards:
            card = _card(c, where)
            seat = game.to_act
            reason = game.why_illegal_card(card)
            if reason is not None:
                raise where.fail("record.card_refused", seat=seat, name=card_name(card),
                                 reason=reason)
            game.play(card)
        complete = len(cards) == game.players
        if not complete and t + 1 < len(tricks):
            raise where.fail("record.trick_incomplete")
        winner = trick.get("winner")
        if complete and winner is not None and winner != game.tricks[-1].winner:
            raise where.fail("record.trick_winner", seat=game.tricks[-1].winner,
                             value=quote(winner))
    where.trick = None


def _check_totals(game: Game, data: dict[str, Any], where: _Where) -> None:
    if "scores" in data and data["scores"] != game.scores:
        raise where.fail("record.listed", field="scores", value=quote(data["scores"]),
                         actual=quote(game.scores))
    if data.get("winners") not in (None, [], game.winners()):
        raise where.fail("record.listed", field="winners", value=quote(data["winners"]),
                         actual=quote(game.winners()))
