"""A game as the list of its moves, and games rebuilt from such a list.

A game is its identity (seed, table, rules) plus every bid and card in the order they
were made: the deals come from the seed, so nothing else is needed to rebuild any
position.  Take-backs (:func:`take_back`), reviews (:mod:`~jabberwocky.analysis.review`) and
challenge links (:mod:`~jabberwocky.formats.challenge`) all start from here.

Within a round every bid comes before every card: the bids in bidding order (from the
dealer's left), then the cards trick by trick in play order.

>>> game = Game("hello", 4, seats=["human", "random", "random", "random"])
>>> game.bid(game.legal_bids()[0])
>>> [(a.seat, a.kind) for a in game_actions(game)]
[(3, 'bid')]
>>> take_back(game, {3}).step, game.step
(0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Literal, NamedTuple

from .cards import Card, cards_of
from .errors import IllegalMoveError
from .game import BIDDING, PLAYING, ROUND_OVER, Game

Kind = Literal["bid", "card"]


class Action(NamedTuple):
    """One move: in round ``round_index`` (0-based), ``seat`` bids or plays ``value``."""

    round_index: int
    seat: int
    kind: Kind
    value: int
    """The bid, or the card (``0..51``)."""


def _round_actions(round_index: int, dealer: int, players: int,
                   bids: Sequence[int | None],
                   plays: Iterable[tuple[int, Sequence[Card]]]) -> Iterator[Action]:
    for k in range(players):
        seat = (dealer + 1 + k) % players
        bid = bids[seat]
        if bid is None:
            return
        yield Action(round_index, seat, "bid", bid)
    for leader, cards in plays:
        for i, card in enumerate(cards):
            yield Action(round_index, (leader + i) % players, "card", card)


def round_actions(game: Game, index: int) -> list[Action]:
    """The moves of round ``index`` of ``game`` so far (finished or the current one)."""
    n = game.players
    if index < len(game.results):
        res = game.results[index]
        return list(_round_actions(index, res.dealer, n, res.bids,
                                   ((t.leader, t.cards) for t in res.tricks)))
    if index != game.round_index or game.phase not in (BIDDING, PLAYING):
        return []
    plays = [(t.leader, t.cards) for t in game.tricks]
    if game.trick:
        plays.append((game.leader, tuple(game.trick)))
    return list(_round_actions(index, game.dealer, n, game.bids, plays))


def game_actions(game: Game) -> list[Action]:
    """Every move of ``game`` so far, in the order they were made."""
    out: list[Action] = []
    for index in range(game.round_index + 1):
        out.extend(round_actions(game, index))
    return out


def last_action(game: Game, seats: Iterable[int]) -> Action | None:
    """The latest move made by one of ``seats``, or ``None`` (looks back round by round,
    so a view that asks costs the current round, not the whole game)."""
    wanted = set(seats)
    for index in range(game.round_index, -1, -1):
        for action in reversed(round_actions(game, index)):
            if action.seat in wanted:
                return action
    return None


def options(game: Game) -> list[int]:
    """The moves allowed to the seat to act, in ascending order: the legal bids while
    bidding, the legal cards (reneges included under the honour rule) while playing,
    nothing otherwise.  A challenge link stores each move as its index in this list."""
    if game.phase == BIDDING:
        return game.legal_bids()
    if game.phase == PLAYING:
        return cards_of(game.legal_mask())
    return []


def deal_for(game: Game, action: Action) -> None:
    """Deal the rounds up to ``action``'s while ``game``'s round is over and ``action``
    belongs to a later one (nothing otherwise)."""
    while game.phase == ROUND_OVER and game.round_index < action.round_index:
        game.next_round()


def apply(game: Game, action: Action) -> None:
    """Make ``action`` in ``game`` (dealing the next round first when the action belongs
    to it); raises :class:`IllegalMoveError` if it is not the seat's move or not allowed."""
    deal_for(game, action)
    if game.round_index != action.round_index or game.to_act != action.seat:
        raise IllegalMoveError("move.not_your_turn", seat=game.to_act)
    if action.kind == "bid":
        game.bid(action.value)
    else:
        game.play(action.value)


def fresh(game: Game) -> Game:
    """A new game with ``game``'s identity and facts (bots version, names, take-backs,
    challenge), at its first position."""
    new = Game(game.seed, game.players, game.rules, game.seats)
    new.bots_version = game.bots_version
    new.names = game.names
    new.takebacks = game.takebacks
    new.challenge = game.challenge
    return new


def replay(game: Game, actions: Iterable[Action]) -> Game:
    """A new game like ``game`` (:func:`fresh`) after ``actions``."""
    new = fresh(game)
    for action in actions:
        apply(new, action)
    return new


def take_back(game: Game, humans: Iterable[int]) -> Game:
    """``game`` as it was just before the latest move of a seat in ``humans``: that move
    and every move after it are gone, and the same seat is to act again.

    The game is rebuilt from its moves, so the bots, which choose from what they see
    alone, answer the same way again unless the human now plays differently.  The new
    game counts one more take-back.  Raises :class:`IllegalMoveError`
    (``move.takeback_none``) when no such move was made yet.
    """
    actions = game_actions(game)
    wanted = set(humans)
    last = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].seat in wanted),
                None)
    if last is None:
        raise IllegalMoveError("move.takeback_none")
    new = replay(game, actions[:last])
    deal_for(new, actions[last])
    new.takebacks = game.takebacks + 1
    return new
