"""Game records, format ``jabberwocky-game/1``: the project's export, import and replay format.

A record is JSON.  Writing one is a plain walk over the game; reading one replays every
bid and card through the engine, so a record that breaks a rule, or whose deals do not
come from its seed, is refused with a message naming the first problem.

Reading is strict about what a record states and lenient about what it leaves out:
every field it has must have the right JSON type (``true`` is not 1, ``2.0`` is not 2)
and must be what the replay gives (a finished game's winners, an unfinished round's
points, an incomplete trick's winner, the phase, the reneges...), while optional fields
may be absent.  ``docs/game-records.md`` lists which fields are required.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..bots import BOTS_VERSION
from ..core.cards import Card, card_name, cards_of, parse_card
from ..core.deal import DEAL_ALGORITHM
from ..core.errors import CardError, ChallengeError, JabberwockyError, RecordError, SeedError
from ..core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from ..core.messages import Message, quote
from ..core.rules import RULES_VERSION, Ruleset, is_whole
from ..core.table import check_names, check_players, check_seed
from .challenge import decode
from .gamejson import record_rounds
from .jsontext import MAX_JSON_DEPTH, json_too_deep, read_json

FORMAT = "jabberwocky-game/1"
_BOTS_VERSION = re.compile(r"jabberwocky-bots/[1-9][0-9]{0,8}")
"""What a record's ``bots_version`` may be (short, so fullmatch costs nothing)."""
MAX_TAKEBACKS = 1_000_000_000
"""Most take-backs a record may count (a bound for a number read from a file)."""
MAX_RECORD_BYTES = 1_000_000
"""Longest record read: characters of text, or bytes of a file (a finished 5-player game
is about 30 KB)."""

__all__ = ["FORMAT", "MAX_JSON_DEPTH", "MAX_RECORD_BYTES", "dumps", "from_record",
           "json_too_deep", "loads", "to_record"]


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game``, finished or not, as a JSON-ready dict."""
    rounds = record_rounds(game)
    versions = {"deal_algorithm": DEAL_ALGORITHM, "rules_version": RULES_VERSION}
    if game.bots_version is not None:
        versions["bots_version"] = game.bots_version
    facts: dict[str, Any] = {}  # only when they say something: old records stay the same
    if any(name is not None for name in game.names):
        facts["names"] = list(game.names)
    if game.takebacks:
        facts["takebacks"] = game.takebacks
    if game.challenge is not None:
        facts["challenge"] = game.challenge
    return {
        "format": FORMAT,
        **versions,
        "seed": game.seed,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "seats": list(game.seats),
        **facts,
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
    """Read a record from JSON text (or UTF-8 bytes) and replay it; raises
    :class:`RecordError`."""
    data = read_json(text, error=RecordError, prefix="record", max_size=MAX_RECORD_BYTES)
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
    if not is_whole(value):
        raise where.fail("record.not_whole", field=what, value=quote(value))
    return int(value)


def _list(value: Any, what: str, where: _Where) -> list[Any]:
    if not isinstance(value, list):
        raise where.fail("record.not_list", field=what, value=quote(value))
    return value


def _card(value: Any, where: _Where) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise where.fail(exc.message) from None


def _stated(obj: dict[str, Any], key: str, actual: int, where: _Where, code: str,
            **params: Any) -> None:
    """If ``obj`` states ``key``, it must be the whole number the replay gives."""
    if key in obj and _int(obj[key], key, where) != actual:
        raise where.fail(code, value=quote(obj[key]), **params)


def _stated_list(obj: dict[str, Any], key: str, actual: Sequence[int], where: _Where) -> None:
    """If ``obj`` states ``key``, it must be the list of whole numbers the replay gives."""
    if key not in obj:
        return
    listed = _list(obj[key], key, where)
    if not all(is_whole(v) for v in listed):
        raise where.fail("record.not_whole_list", field=key, value=quote(listed))
    if listed != list(actual):
        raise where.fail("record.listed", field=key, value=quote(listed),
                         actual=quote(list(actual)))


def from_record(data: Any) -> Game:
    """Validate a record (a dict) and replay it into a :class:`Game`.

    Raises :class:`RecordError` whose message names the first problem found.  Nothing
    is sized by the record before it is checked (``"players": 10**9`` is refused before
    a list of that length could be made).
    """
    where = _Where()
    if not isinstance(data, dict):
        raise where.fail("record.not_object")
    if data.get("format") is None:
        raise where.fail("record.no_format", format=FORMAT)
    if data.get("format") != FORMAT or not isinstance(data.get("format"), str):
        raise where.fail("record.format", format=FORMAT, value=quote(data.get("format")))
    if "deal_algorithm" in data and data["deal_algorithm"] != DEAL_ALGORITHM:
        raise where.fail("record.deal_algorithm", value=quote(data["deal_algorithm"]),
                         known=DEAL_ALGORITHM)
    _stated(data, "rules_version", RULES_VERSION, where, "record.rules_version",
            known=RULES_VERSION)
    bots_version = _bots_version(data, where)
    if data.get("players") is None:  # absent, or null: said in words, not as Python's None
        raise where.fail("record.missing", field="players")
    try:
        players = check_players(_int(data.get("players"), "players", where))
    except SeedError as exc:
        raise where.fail(exc.message) from None
    seats = data["seats"] if "seats" in data else ["human"] * players
    try:
        rules = Ruleset.from_dict(data.get("rules"))
        game = Game(check_seed(data.get("seed")), players, rules, _list(seats, "seats", where))
    except JabberwockyError as exc:
        raise where.fail(exc.message) from None
    game.bots_version = bots_version
    _facts(game, data, where)
    _stated(data, "first_dealer", game.first_dealer, where, "record.first_dealer",
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


def _bots_version(data: dict[str, Any], where: _Where) -> str | None:
    """The record's bots version: absent (a record made before records named it) or
    ``jabberwocky-bots/<n>``; a record made with other bots still loads and plays."""
    if "bots_version" not in data:
        return None
    value = data["bots_version"]
    if not isinstance(value, str) or not _BOTS_VERSION.fullmatch(value):
        raise where.fail("record.bots_version", value=quote(value), example=BOTS_VERSION)
    return value


def _facts(game: Game, data: dict[str, Any], where: _Where) -> None:
    """The record's player names, take-backs and challenge, checked onto ``game``."""
    if "names" in data:
        try:
            game.names = check_names(data["names"], game.players)
        except JabberwockyError as exc:
            raise where.fail(exc.message) from None
    if "takebacks" in data:
        count = _int(data["takebacks"], "takebacks", where)
        if not 0 <= count <= MAX_TAKEBACKS:
            raise where.fail("record.takebacks", value=quote(count), max=MAX_TAKEBACKS)
        game.takebacks = count
    if "challenge" in data:
        try:
            challenge = decode(data["challenge"])
        except ChallengeError as exc:
            raise where.fail("record.challenge", detail=exc.message) from None
        if not challenge.table.matches(game):
            raise where.fail("record.challenge_table")
        if game.takebacks:
            raise where.fail("record.challenge_takebacks")
        game.challenge = challenge.text


def _replay_round(game: Game, rnd: Any, where: _Where) -> None:
    if not isinstance(rnd, dict):
        raise where.fail("record.round_not_object")
    n = game.players
    _stated(rnd, "round", game.round_index + 1, where, "record.round_order")
    _stated(rnd, "dealer", game.dealer, where, "record.dealer", seat=game.dealer)
    _stated(rnd, "hand_size", game.hand_size, where, "record.hand_size", size=game.hand_size)
    if "hands" in rnd:
        hands = _list(rnd["hands"], "hands", where)
        if len(hands) != n:
            raise where.fail("record.seat_count", field="hands", count=len(hands), players=n)
        for seat, hand in enumerate(hands):
            listed = _list(hand, "a hand", where)
            if len(listed) != game.hand_size:  # before reading the cards: a hand may be huge
                raise where.fail("record.hand_mismatch", seat=seat)
            if sorted(_card(c, where) for c in listed) != cards_of(game.dealt[seat]):
                raise where.fail("record.hand_mismatch", seat=seat)
    if "trump_card" in rnd and _card(rnd["trump_card"], where) != game.trump_card:
        raise where.fail("record.trump_card", name=card_name(game.trump_card),
                         value=quote(rnd["trump_card"]))
    _replay_bids(game, _list(rnd.get("bids", [None] * n), "bids", where), where)
    _replay_tricks(game, _list(rnd.get("tricks", []), "tricks", where), where)
    _stated_list(rnd, "taken", game.taken, where)
    _stated_list(rnd, "reneges", game.reneges, where)
    finished = game.phase in (ROUND_OVER, GAME_OVER)
    if finished:
        if rnd.get("points", ()) is None:
            raise where.fail("record.points_missing")
        _stated_list(rnd, "points", game.results[-1].points, where)
    elif rnd.get("points") is not None:
        raise where.fail("record.points_early", value=quote(rnd["points"]))


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
        game.apply_bid(bid)


def _replay_tricks(game: Game, tricks: list[Any], where: _Where) -> None:
    for t, trick in enumerate(tricks):
        where.trick = t + 1
        if not isinstance(trick, dict):
            raise where.fail("record.trick_not_object")
        if game.phase != PLAYING:
            raise where.fail("record.bidding_incomplete" if game.phase == BIDDING
                             else "record.round_complete")
        _stated(trick, "leader", game.leader, where, "record.leader", seat=game.leader)
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
        if complete:
            _stated(trick, "winner", game.tricks[-1].winner, where, "record.trick_winner",
                    seat=game.tricks[-1].winner)
        elif winner is not None:
            raise where.fail("record.winner_early", value=quote(winner))
    where.trick = None


def _check_totals(game: Game, data: dict[str, Any], where: _Where) -> None:
    _stated_list(data, "scores", game.scores, where)
    _stated_list(data, "winners", game.winners(), where)
    if "phase" in data and data["phase"] != game.phase.value:
        raise where.fail("record.phase", value=quote(data["phase"]), phase=game.phase.value)
