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
        "phase": game.phase,
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
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES} bytes")
    if json_too_deep(text):
        raise RecordError(f"the record nests lists or objects more than {MAX_JSON_DEPTH} "
                          "levels deep: it is not a game record")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    return from_record(data)


class _Where:
    """Builds the 'round 3, trick 2: ...' prefix of error messages."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def fail(self, message: str) -> RecordError:
        prefix = ", ".join(self.parts)
        return RecordError(f"{prefix}: {message}" if prefix else message)


def _int(value: Any, what: str, where: _Where) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.fail(f"{what} must be a whole number, not {value!r}")
    return value


def _list(value: Any, what: str, where: _Where) -> list[Any]:
    if not isinstance(value, list):
        raise where.fail(f"{what} must be a list, not {type(value).__name__}")
    return value


def _card(value: Any, where: _Where) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise where.fail(str(exc)) from None


def from_record(data: Any) -> Game:
    """Validate a record (a dict) and replay it into a :class:`Game`.

    Raises :class:`RecordError` whose message names the first problem found.
    """
    where = _Where()
    if not isinstance(data, dict):
        raise where.fail("a game record must be a JSON object")
    if data.get("format") != FORMAT:
        raise where.fail(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    algorithm = data.get("deal_algorithm", DEAL_ALGORITHM)
    if algorithm != DEAL_ALGORITHM:
        raise where.fail(f"deal algorithm {algorithm!r} is not supported (this engine deals "
                         f"with {DEAL_ALGORITHM!r})")
    players = _int(data.get("players"), "players", where)
    seats = data.get("seats")
    if seats is None:
        seats = ["human"] * players
    try:
        rules = Ruleset.from_dict(data.get("rules"))
        game = Game(data.get("seed"), players, rules, _list(seats, "seats", where))  # type: ignore[arg-type]
    except JabberwockyError as exc:
        raise where.fail(str(exc)) from None
    if "first_dealer" in data and data["first_dealer"] != game.first_dealer:
        raise where.fail(f"first_dealer is {data['first_dealer']!r} but the seed deals "
                         f"first from seat {game.first_dealer}")
    rounds = _list(data.get("rounds", []), "rounds", where)
    if len(rounds) > rules.rounds:
        raise where.fail(f"{len(rounds)} rounds listed but the rules have {rules.rounds}")
    for i, rnd in enumerate(rounds):
        where.parts = [f"round {i + 1}"]
        if i > 0:
            if game.phase != ROUND_OVER:
                raise where.fail("the previous round is not finished")
            game.next_round()
        _replay_round(game, rnd, where)
    where.parts = []
    _check_totals(game, data, where)
    return game


def _replay_round(game: Game, rnd: Any, where: _Where) -> None:
    if not isinstance(rnd, dict):
        raise where.fail("each round must be a JSON object")
    n = game.players
    if rnd.get("round", game.round_index + 1) != game.round_index + 1:
        raise where.fail(f"round number {rnd.get('round')!r} is out of order")
    if rnd.get("dealer", game.dealer) != game.dealer:
        raise where.fail(f"the dealer is seat {game.dealer}, not {rnd.get('dealer')!r}")
    if rnd.get("hand_size", game.hand_size) != game.hand_size:
        raise where.fail(f"the hand size is {game.hand_size}, not {rnd.get('hand_size')!r}")
    if "hands" in rnd:
        hands = _list(rnd["hands"], "hands", where)
        if len(hands) != n:
            raise where.fail(f"hands lists {len(hands)} seats for {n} players")
        for seat, hand in enumerate(hands):
            cards = sorted(_card(c, where) for c in _list(hand, "a hand", where))
            if cards != cards_of(game.dealt[seat]):
                raise where.fail(f"seat {seat}'s hand does not match the deal of this seed")
    if "trump_card" in rnd and _card(rnd["trump_card"], where) != game.trump_card:
        raise where.fail(f"the trump card is {card_name(game.trump_card)}, "
                         f"not {rnd['trump_card']!r}")
    _replay_bids(game, _list(rnd.get("bids", [None] * n), "bids", where), where)
    _replay_tricks(game, _list(rnd.get("tricks", []), "tricks", where), where)
    for key in ("taken", "points"):
        listed = rnd.get(key)
        if listed is None:
            continue
        actual = list(game.taken) if key == "taken" else (
            list(game.results[-1].points) if game.phase in (ROUND_OVER, GAME_OVER) else None)
        if actual is not None and listed != actual:
            raise where.fail(f"{key} is listed as {listed!r} but the play gives {actual!r}")


def _replay_bids(game: Game, bids: list[Any], where: _Where) -> None:
    n = game.players
    if len(bids) != n:
        raise where.fail(f"bids lists {len(bids)} seats for {n} players")
    order = [(game.dealer + 1 + k) % n for k in range(n)]
    stopped = False
    for seat in order:
        bid = bids[seat]
        if bid is None:
            stopped = True
            continue
        if stopped:
            raise where.fail(f"seat {seat} has a bid although an earlier bidder has none")
        reason = game.why_illegal_bid(bid)
        if reason is not None:
            raise where.fail(f"seat {seat}'s bid {bid!r} is not allowed: {reason}")
        game._bid(bid)


def _replay_tricks(game: Game, tricks: list[Any], where: _Where) -> None:
    base = list(where.parts)
    for t, trick in enumerate(tricks):
        where.parts = [*base, f"trick {t + 1}"]
        if not isinstance(trick, dict):
            raise where.fail("each trick must be a JSON object")
        if game.phase != PLAYING:
            raise where.fail("cards are listed but the bidding is not complete")
        if trick.get("leader", game.leader) != game.leader:
            raise where.fail(f"seat {game.leader} leads, not {trick.get('leader')!r}")
        cards = _list(trick.get("cards"), "cards", where)
        if len(cards) > game.players or (not cards and t + 1 < len(tricks)):
            raise where.fail(f"a trick holds 1 to {game.players} cards, not {len(cards)}")
        for c in cards:
            card = _card(c, where)
            seat = game.to_act
            reason = game.why_illegal_card(card)
            if reason is not None:
                raise where.fail(f"seat {seat} may not play {card_name(card)}: {reason}")
            game.play(card)
        complete = len(cards) == game.players
        if not complete and t + 1 < len(tricks):
            raise where.fail("only the last trick listed may be incomplete")
        winner = trick.get("winner")
        if complete and winner is not None and winner != game.tricks[-1].winner:
            raise where.fail(f"the trick is won by seat {game.tricks[-1].winner}, "
                             f"not {winner!r}")
    where.parts = base


def _check_totals(game: Game, data: dict[str, Any], where: _Where) -> None:
    if "scores" in data and data["scores"] != game.scores:
        raise where.fail(f"scores are listed as {data['scores']!r} but the play gives "
                         f"{game.scores!r}")
    if data.get("winners") not in (None, [], game.winners()):
        raise where.fail(f"winners are listed as {data['winners']!r} but the play gives "
                         f"{game.winners()!r}")
