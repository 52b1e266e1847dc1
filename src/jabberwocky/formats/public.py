"""What of an online game is public: its finished rounds, with no deal code.

A ``jabberwocky-game/1`` record holds the seed, from which every deal of the game follows
(the rounds still to come too), so an online host sends a guest the record only once the
game is over.  Until then what a guest may keep is what everyone at the table has seen:
every finished round — its dealer, the turned trump card, the bids, every trick card by
card, the tricks taken, the reneges and the points.  A finished round's hands as dealt are
public as well: each seat played every card it was dealt, in the open.  Nothing else is:
not the seed, not a card of the round in play, not the undealt rest of the deck.

That is this module's form, ``jabberwocky-public/1`` (docs/game-records.md)::

    {"format": "jabberwocky-public/1", "players": 3, "rules": {…}, "seats": […],
     "names"?: […], "rounds": [<a finished round, as a record holds it>, …],
     "scores": […]}

:func:`public_record` writes it from a game; :func:`check_public` reads one (untrusted: a
guest checks what its host sent) by replaying every round through the referee, each
dealt the hands its own tricks show, so every bid and card must be legal and every number
what the play gives.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import Card, mask_of
from ..core.deal import Deal
from ..core.errors import JabberwockyError, RecordError
from ..core.game import GAME_OVER, ROUND_OVER, Game
from ..core.messages import quote
from ..core.rules import Ruleset
from ..core.table import check_players
from .gamejson import record_round, trick_json
from .jsontext import read_json

# the record's own readers: a public record's rounds are a record's rounds, checked alike
from .record import (
    MAX_RECORD_BYTES,
    _card,
    _facts,
    _int,
    _list,
    _replay_round,
    _stated_list,
    _Where,
)

PUBLIC_FORMAT = "jabberwocky-public/1"
PLACEHOLDER_SEED = "public"
"""The seed the replay's game is given: never shown or written (the deals are the
rounds' own, :class:`_PublicGame`)."""


def public_record(game: Game) -> dict[str, Any]:
    """The finished rounds of ``game`` and the table, as everyone at it has seen them."""
    out: dict[str, Any] = {
        "format": PUBLIC_FORMAT,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "seats": list(game.seats),
    }
    if any(name is not None for name in game.names):
        out["names"] = list(game.names)
    out["rounds"] = [record_round(res.round_index, res.dealer, res.hand_size, res.hands,
                                  res.trump_card, res.bids,
                                  [trick_json(*t) for t in res.tricks], res.taken,
                                  res.reneges, res.points)
                     for res in game.results]
    totals = [0] * game.players
    for res in game.results:
        totals = [t + p for t, p in zip(totals, res.points, strict=True)]
    out["scores"] = totals
    return out


class _PublicGame(Game):
    """A game dealt the hands its rounds' tricks show (not its seed's)."""

    def __init__(self, deals: list[Deal], players: int, rules: Ruleset, seats: list[Any],
                 first_dealer: int) -> None:
        self.deals = deals  # before the first round is dealt
        super().__init__(PLACEHOLDER_SEED, players, rules, seats, first_dealer=first_dealer)

    def round_deal(self, index: int) -> Deal:
        return self.deals[index]


def _shown_deal(rnd: Any, players: int, where: _Where) -> Deal:
    """A finished round's deal as its tricks show it: each seat's hand is the cards it
    played; the trump card is the one turned (in no hand)."""
    if not isinstance(rnd, dict):
        raise where.fail("record.round_not_object")
    played: list[list[Card]] = [[] for _ in range(players)]
    tricks = _list(rnd.get("tricks"), "tricks", where)
    for trick in tricks:
        if not isinstance(trick, dict):
            raise where.fail("record.trick_not_object")
        leader = _int(trick.get("leader"), "leader", where)
        cards = _list(trick.get("cards"), "cards", where)
        if not 0 <= leader < players or len(cards) != players:
            raise where.fail("public.trick", players=players)
        for k, c in enumerate(cards):
            played[(leader + k) % players].append(_card(c, where))
    if "trump_card" not in rnd:
        raise where.fail("record.missing", field="trump_card")
    trump = _card(rnd["trump_card"], where)
    every = [c for hand in played for c in hand] + [trump]
    if len(set(every)) != len(every):
        raise where.fail("public.card_twice")
    return Deal(tuple(mask_of(hand) for hand in played), trump)


def check_public(data: Any) -> dict[str, Any]:
    """``data`` checked (untrusted: what a host sent) and written again as
    :func:`public_record` writes it; raises :class:`RecordError` naming the first problem.

    Every round must be finished, each seat's tricks show its hand, and the replay of its
    bids and cards (the referee's, on those hands) must give what it lists."""
    where = _Where()
    if not isinstance(data, dict):
        raise where.fail("record.not_object")
    if data.get("format") != PUBLIC_FORMAT:
        raise where.fail("record.format", format=PUBLIC_FORMAT, value=quote(data.get("format")))
    try:
        players = check_players(_int(data.get("players"), "players", where))
        rules = Ruleset.from_dict(data.get("rules"))
    except JabberwockyError as exc:
        raise where.fail(exc.message) from None
    rounds = _list(data.get("rounds", []), "rounds", where)
    if len(rounds) > rules.rounds:
        raise where.fail("record.round_count", count=len(rounds), rounds=rules.rounds)
    deals = []
    for i, rnd in enumerate(rounds):
        where.round = i + 1
        deals.append(_shown_deal(rnd, players, where))
    where.round = None
    first_dealer = _int(rounds[0].get("dealer"), "dealer", where) if rounds else 0
    if not 0 <= first_dealer < players:
        raise where.fail("record.dealer", value=quote(first_dealer), seat=0)
    seats = _list(data["seats"] if "seats" in data else ["human"] * players, "seats", where)
    try:
        # no round finished yet: the table alone (dealt from the placeholder, not shown)
        game = (_PublicGame(deals, players, rules, seats, first_dealer) if deals
                else Game(PLACEHOLDER_SEED, players, rules, seats))
    except JabberwockyError as exc:
        raise where.fail(exc.message) from None
    _facts(game, data, where)
    for i, rnd in enumerate(rounds):
        where.round, where.trick = i + 1, None
        if i > 0:
            game.next_round()  # the next of `deals`
        _replay_round(game, rnd, where)
        if game.phase not in (ROUND_OVER, GAME_OVER):
            raise where.fail("public.unfinished")
    where.round = None
    _stated_list(data, "scores", game.scores, where)
    return public_record(game)  # no round dealt from the placeholder is in it


def read_public(text: str) -> dict[str, Any]:
    """:func:`check_public` of JSON text (read as a record is: its size and depth checked
    before it is parsed; ``RecordError``)."""
    return check_public(read_json(text, error=RecordError, prefix="record",
                                  max_size=MAX_RECORD_BYTES))
