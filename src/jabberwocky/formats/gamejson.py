"""The one writer of a game's JSON: tricks, rounds, a seat's observation, a seat's view.

Every JSON form of a game the engine hands out is put together here, from the same
pieces: the game record's rounds (:mod:`~jabberwocky.formats.record`), the review's
observation and round results (:mod:`~jabberwocky.analysis.review`) and the page's view
(:mod:`jabberwocky.webapi`).  A trick is written by :func:`trick_json` wherever it
appears; a round's result by :func:`result_json`; a finished round's row by
:func:`round_row`.  The record's round (:func:`record_round`) keeps its own key order,
the one ``jabberwocky-game/1`` has always had (a record's text is its identity: the
page's statistics key a game by its hash).

Cards are written by name (``"QH"``), hands sorted for display where a person reads them
(the view, the observation) and in card order in records.  Nothing here is English: a
reason is a catalogue code and its parameters (:meth:`Message.to_json`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.cards import Card, card_name, card_names, cards_of, sort_for_display
from ..core.game import (
    BIDDING,
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    Game,
    not_allowed,
    trick_winner,
    winners_of,
)
from ..core.history import RoundResult
from ..core.messages import Message
from ..core.observation import Observation


def trick_json(leader: int, cards: Sequence[Card], winner: int | None) -> dict[str, Any]:
    """A trick: who led, the cards in play order, who won it (``None`` while in play)."""
    return {"leader": leader, "cards": card_names(cards), "winner": winner}


def trick_why(leader: int, cards: Sequence[Card], winner: int | None,
              trump_suit: int) -> str | None:
    """Why a finished trick's winner took it: ``"trump"`` (its card is the highest trump
    played) or ``"led"`` (the highest card of the suit led, no trump played); ``None``
    while the trick is in play.  Read from the open cards alone."""
    if winner is None or not cards:
        return None
    card = cards[(winner - leader) % len(cards)]
    return "trump" if card // 13 == trump_suit else "led"


def result_json(res: RoundResult) -> dict[str, Any]:
    """A finished round's outcome: bids, tricks taken, reneges and points per seat."""
    return {"bids": list(res.bids), "taken": list(res.taken), "reneges": list(res.reneges),
            "points": list(res.points)}


def round_row(res: RoundResult, cards: bool = False) -> dict[str, Any]:
    """A finished round as a row of a history: its number, dealer, hand size, trump card,
    with ``cards`` every hand dealt and every trick, then its :func:`result_json`."""
    row: dict[str, Any] = {"round": res.round_index + 1, "dealer": res.dealer,
                           "hand_size": res.hand_size, "trump_card": card_name(res.trump_card)}
    if cards:
        row["hands"] = [card_names(cards_of(h)) for h in res.hands]
        row["tricks"] = [trick_json(*t) for t in res.tricks]
    row.update(result_json(res))
    return row


def record_round(index: int, dealer: int, hand_size: int, hands: Sequence[int],
                 trump_card: Card, bids: Sequence[int | None], tricks: list[dict[str, Any]],
                 taken: Sequence[int], reneges: Sequence[int],
                 points: Sequence[int] | None) -> dict[str, Any]:
    """A round as a game record holds it (finished, or in play: ``points`` is ``None``)."""
    return {
        "round": index + 1,
        "dealer": dealer,
        "hand_size": hand_size,
        "hands": [card_names(cards_of(h)) for h in hands],
        "trump_card": card_name(trump_card),
        "bids": list(bids),
        "tricks": tricks,
        "taken": list(taken),
        "reneges": list(reneges),
        "points": None if points is None else list(points),
    }


def record_rounds(game: Game) -> list[dict[str, Any]]:
    """Every round of ``game`` as its record holds them: the finished ones, then the one
    in play (its trick in play last, with no winner)."""
    rounds = [record_round(res.round_index, res.dealer, res.hand_size, res.hands,
                           res.trump_card, res.bids, [trick_json(*t) for t in res.tricks],
                           res.taken, res.reneges, res.points)
              for res in game.results]
    if game.phase in (BIDDING, PLAYING):
        tricks = [trick_json(*t) for t in game.tricks]
        if game.trick:
            tricks.append(trick_json(game.leader, game.trick, None))
        rounds.append(record_round(game.round_index, game.dealer, game.hand_size, game.dealt,
                                   game.trump_card, game.bids, tricks, game.taken,
                                   game.reneges, None))
    return rounds


def observation_json(obs: Observation) -> dict[str, Any]:
    """Every field of ``obs`` as JSON (cards by name, ``bot_key`` in hexadecimal): what a
    bot was given, shown by the review."""
    return {
        "seat": obs.seat, "players": obs.players, "rules": obs.rules.to_dict(),
        "round": obs.round_index + 1, "hand_size": obs.hand_size, "dealer": obs.dealer,
        "trump_card": card_name(obs.trump_card),
        "hand": card_names(sort_for_display(cards_of(obs.hand), obs.trump_suit)),
        "bids": list(obs.bids), "leader": obs.leader, "trick": card_names(obs.trick),
        "tricks": [trick_json(*t) for t in obs.tricks], "taken": list(obs.taken),
        "broken": obs.broken, "scores": list(obs.scores), "phase": obs.phase.value,
        "to_act": obs.to_act, "legal_bids": list(obs.legal_bids),
        "legal_cards": card_names(cards_of(obs.legal)),
        "honest_cards": card_names(cards_of(obs.honest)),
        "history": [round_row(r, cards=True) for r in obs.history],
        "step": obs.step, "bot_key": f"{obs.bot_key:016x}",
    }


def history_rows(results: Iterable[RoundResult], players: int) -> list[dict[str, Any]]:
    """The score sheet: one :func:`round_row` per finished round, with running totals."""
    totals = [0] * players
    out = []
    for res in results:
        totals = [t + p for t, p in zip(totals, res.points, strict=True)]
        out.append({**round_row(res), "totals": list(totals)})
    return out


def steps_seen(obs: Observation) -> int:
    """Every move made so far in the whole game, counted from what any seat sees: the
    finished rounds' moves and this round's (the view's ``step``)."""
    done = sum(obs.players * (1 + r.hand_size) for r in obs.history)
    return done + (obs.step if obs.phase in (BIDDING, PLAYING) else 0)


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What everyone at the table knows that an :class:`Observation` does not hold, and
    that no card decides: the seats' kinds, the names people gave, the bots' version,
    whether the game answers a challenge, how many moves were taken back.  With a seat's
    observation it is *everything* a view for that seat is built from
    (:func:`seat_view`): nothing of the game itself reaches the view any other way."""

    seats: tuple[str, ...]
    names: tuple[str | None, ...]
    bots_version: str | None
    challenge: bool
    takebacks: int


def table_facts(game: Game) -> TableFacts:
    """The :class:`TableFacts` of ``game``."""
    return TableFacts(tuple(game.seats), tuple(game.names), game.bots_version,
                      game.challenge is not None, game.takebacks)


def public_observation(obs: Observation) -> Observation:
    """``obs`` with nothing of its seat's hand in it: no cards, no legal moves and no
    random key (what a friend who watches may know: the open table)."""
    return replace(obs, hand=0, legal=0, honest=0, legal_bids=(), bot_key=0)


def card_reason(obs: Observation, card: Card) -> Message:
    """Why the card ``card`` of the viewer's hand may not be played now, from the
    viewer's own observation (the referee's words: :meth:`Game.why_illegal_card`)."""
    if obs.phase == PLAYING and not obs.my_turn:
        return Message("move.wait_turn")
    if obs.phase != PLAYING:
        return Message("move.not_playing", phase=obs.phase.value)
    return not_allowed(obs.trick, obs.trump_suit)


def bid_reason(obs: Observation, bid: int) -> Message:
    """Why ``bid`` (0 to the hand size, not among the viewer's legal bids) is not
    allowed: the hook rule is the only one that bars a bid in range."""
    return Message("move.hook", bid=bid, tricks=obs.hand_size)


def seat_view(obs: Observation, table: TableFacts, *, deal_code: str | None, handoff: bool,
              humans: Sequence[int], can_claim: bool, can_challenge: bool,
              can_take_back: bool, record_version: str, remote: Sequence[int] = (),
              stand_ins: Mapping[int, str] | None = None,
              take_back_rule: str | None = None) -> dict[str, Any]:
    """What the page renders for the seat of ``obs``, built from that observation and the
    public :class:`TableFacts` only (during a ``handoff``, from no hand at all): a pure
    function of what the seat may know, so a view for another person's device cannot
    carry a card they may not see.  ``deal_code`` is the game's seed for the host's own
    device, which holds every hand anyway; ``None`` in every view for someone else (the
    seed gives every deal of the game).  The flags are the session's to decide (claims,
    challenges and take-backs are worked out above this layer); docs/web-protocol.md
    describes every field."""
    viewer = obs.seat
    n = obs.players
    hand = [] if handoff else sort_for_display(cards_of(obs.hand), obs.trump_suit)
    legal = obs.legal
    honest = obs.honest
    reasons = {card_name(c): card_reason(obs, c).to_json()
               for c in hand if not legal >> c & 1}
    bid_reasons: dict[str, Any] = {}
    if obs.legal_bids and not handoff:
        for b in range(obs.hand_size + 1):
            if b not in obs.legal_bids:
                bid_reasons[str(b)] = bid_reason(obs, b).to_json()
    last = obs.tricks[-1] if obs.tricks else None
    over = obs.phase in (ROUND_OVER, GAME_OVER)
    result = obs.history[-1] if over and obs.history else None
    return {
        "seed": deal_code,
        "players": n,
        "rules": obs.rules.to_dict(),
        "seats": list(table.seats),
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
        "illegal_reason_codes": reasons,
        "legal_bids": [] if handoff else list(obs.legal_bids),
        "bid_reason_codes": bid_reasons,
        "hand_counts": [obs.cards_in_hand(s) for s in range(n)],
        "bids": list(obs.bids),
        "taken": list(obs.taken),
        "scores": list(obs.scores),
        "trick": {"leader": obs.leader, "cards": card_names(obs.trick),
                  "winning": trick_winner(obs.trick, obs.leader, n, obs.trump_suit)
                  if obs.trick else None},
        "tricks": [trick_json(*t) for t in obs.tricks],
        "last_trick": None if last is None else {
            **trick_json(*last), "why": trick_why(*last, obs.trump_suit)},
        "trump_broken": obs.broken,
        "can_claim": can_claim,
        "history": history_rows(obs.history, n),
        "round_result": None if result is None else {
            "bids": list(result.bids), "taken": list(result.taken),
            "points": list(result.points)},
        "winners": winners_of(obs.phase, obs.scores),
        "step": steps_seen(obs),
        "record_version": record_version,
        "bots_version": table.bots_version,
        "viewer": viewer,
        "handoff": handoff,
        "humans": list(humans),
        "remote": list(remote),
        "stand_ins": {str(s): level for s, level in sorted((stand_ins or {}).items())},
        "player_names": list(table.names),
        "challenge": table.challenge,
        "takebacks": table.takebacks,
        "can_take_back": can_take_back,
        "take_back_rule": take_back_rule,
        "can_challenge": can_challenge,
    }
