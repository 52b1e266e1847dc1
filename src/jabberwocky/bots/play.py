"""A whole game played by bots, as fast as the rules allow.

:func:`play_game` is how every driver plays bots against each other (``simulate``, the
tournaments) and how the statistics replay a game's deals with another bot
(:func:`~jabberwocky.analysis.stats.compare_with_bot`).  It lives with the bots, below
both, so neither has to import the other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..core.game import BIDDING, GAME_OVER, PLAYING, Game
from ..core.rng import round_stream
from .base import Bot
from .fastplay import finish_round_randomly
from .random_bot import RandomBot
from .referee import bot_choice


def play_game(game: Game, bots: Sequence[Bot], times: Sequence[list[int]] | None = None) -> Game:
    """Play ``game`` to the end with one bot per seat; append decision times if asked.

    A built-in :class:`RandomBot` needs nothing but the legal moves, so it is given only
    those (the same choice as through an observation, see ``RandomBot.pick``);
    simulations of random play then cost little more than the rules themselves.  Every
    other bot is asked through :func:`~jabberwocky.bots.referee.bot_choice`: a bot that
    fails raises :class:`~jabberwocky.core.errors.BotError`, and the game stays as it was
    before that move.
    """
    clock = time.perf_counter_ns
    fast = [type(b) is RandomBot for b in bots]  # a subclass may choose otherwise
    if all(fast):
        while game.phase != GAME_OVER:
            if game.phase != BIDDING and game.phase != PLAYING:
                game.next_round()
            finish_round_randomly(game, times)
        return game
    pick = RandomBot.pick
    key = game.bot_key
    stream = b""
    stream_round = -1
    while True:
        phase = game.phase
        if phase in (PLAYING, BIDDING):
            seat: int = game.to_act  # type: ignore[assignment]
            if fast[seat]:
                t0 = clock()
                if stream_round != game.round_index:
                    stream_round = game.round_index
                    stream = round_stream(key, stream_round)
                i = 2 * game.step
                u16 = stream[i] << 8 | stream[i + 1]
                if phase == PLAYING:
                    card = pick((), game.honest_mask(), u16)
                    t1 = clock()
                    game.apply_card(card)
                else:
                    bid = pick(game.legal_bids(), 0, u16)
                    t1 = clock()
                    game.apply_bid(bid)
            else:
                t0 = clock()
                choice = bot_choice(game, bots[seat])
                t1 = clock()
                if phase == PLAYING:
                    game.play(choice)
                else:
                    game.bid(choice)
            if times is not None:
                times[seat].append(t1 - t0)
        elif phase == GAME_OVER:
            return game
        else:
            game.next_round()
