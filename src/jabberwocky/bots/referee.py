"""Asking a bot for its move, and refusing what is not a move, before the game changes.

Every driver of bots (``simulate``, ``play`` in the terminal, the web facade) goes through
:func:`bot_move`: the bot is handed the acting seat's
:class:`~jabberwocky.core.observation.Observation` and nothing else; what it answers is
checked against the rules before anything is applied.  A bot that raises, answers
something that is not a bid or a card, or a move the rules do not allow now gets a
:class:`~jabberwocky.core.errors.BotError` naming the bot (the seat's level, as the game
names it), the seat and the move; the game is then exactly as it was.

>>> from jabberwocky.core.game import Game
>>> class Stubborn(Bot):
...     def choose_bid(self, obs): return 99
>>> game = Game("referee", 4, seats=["stubborn"] * 4)
>>> try:
...     bot_move(game, Stubborn())
... except BotError as exc:
...     print(exc.code, exc.params["seat"], exc.params["reason"].code)
bot.illegal_bid 1 move.bid_range
>>> game.step, game.bids
(0, [None, None, None, None])
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from ..core.cards import card_name
from ..core.errors import BotError, IllegalMoveError
from ..core.messages import quote
from ..core.phase import Phase
from . import describe
from .base import Bot, Hint

if TYPE_CHECKING:
    from ..core.game import Game


def _whole(value: object) -> int | None:
    """``value`` as an int if it is a whole number (numpy's integers too), else ``None``;
    ``True`` is not a bid."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _who(game: Game, seat: int) -> dict[str, object]:
    return {"bot": quote(game.seats[seat]), "seat": seat}


def bot_choice(game: Game, bot: Bot) -> int:
    """The checked move of ``bot`` for the seat to act: a bid allowed now, or a card.

    Raises :class:`BotError` if the bot raises, answers something that is not a move or
    a move the rules refuse now; the game is not changed either way.
    """
    seat = game.to_act
    phase = game.phase
    if seat is None or phase not in (Phase.BIDDING, Phase.PLAYING):
        raise IllegalMoveError("move.nothing_to_decide", phase=phase.value)
    who = _who(game, seat)
    bidding = phase == Phase.BIDDING
    try:
        answer = bot.act(game.observation(seat))
    except Exception as exc:  # whatever a third-party bot raises, said in one sentence
        raise BotError("bot.raised_bid" if bidding else "bot.raised_card", **who,
                       detail=describe(exc)) from exc
    move = _whole(answer)
    if bidding:
        if move is None:
            raise BotError("bot.not_a_bid", **who, value=quote(answer), max=game.hand_size)
        reason = game.why_illegal_bid(move)
        if reason is not None:
            raise BotError("bot.illegal_bid", **who, bid=quote(move), reason=reason)
    else:
        if move is None or not 0 <= move < 52:
            raise BotError("bot.not_a_card", **who, value=quote(answer))
        reason = game.why_illegal_card(move)
        if reason is not None:
            raise BotError("bot.illegal_card", **who, card=card_name(move), reason=reason)
    return move


def bot_move(game: Game, bot: Bot) -> int:
    """Ask ``bot`` (the seat to act's) for its move, check it, and apply it.

    Returns the bid or the card played.  Raises :class:`BotError` as
    :func:`bot_choice` does, with the game unchanged.
    """
    move = bot_choice(game, bot)
    if game.phase == Phase.BIDDING:
        game.bid(move)
    else:
        game.play(move)
    return move


def bot_hint(game: Game, bot: Bot, seat: int, level: str) -> Hint:
    """The hint of ``bot`` (of ``level``) for ``seat``, whose turn it must be, checked like
    a move: a :class:`Hint` of the right kind whose suggestion is allowed now."""
    who = {"bot": quote(level), "seat": seat}
    try:
        hint = bot.hint(game.observation(seat))
    except Exception as exc:
        raise BotError("bot.raised_hint", **who, detail=describe(exc)) from exc
    bidding = game.phase == Phase.BIDDING
    ok = isinstance(hint, Hint) and hint.kind == ("bid" if bidding else "card")
    move = _whole(hint.suggestion) if ok else None
    if move is None or (game.why_illegal_bid(move) if bidding
                        else game.why_illegal_card(move)) is not None:
        raise BotError("bot.bad_hint", **who, value=quote(
            getattr(hint, "suggestion", hint)))
    return hint
