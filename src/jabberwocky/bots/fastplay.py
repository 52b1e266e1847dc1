"""Random play at full speed: the whole-round loop behind ``simulate`` with random bots.

When every seat is the ``random`` bot, a round can be played in one tight loop over
local variables instead of one method call per card; that is what lets the engine
benchmark (and random playouts) run in pure Python, and in WebAssembly, at speed.
The loop makes exactly the choices :class:`~jabberwocky.bots.random_bot.RandomBot`
makes and applies exactly the rules of :class:`~jabberwocky.core.game.Game`; the test
suite checks that both paths give identical game records.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Sequence

from ..core.cards import SUIT_MASKS
from ..core.game import BIDDING, PLAYING, Game
from ..core.history import Trick
from ..core.rng import round_stream
from .random_bot import RandomBot

_U16S = struct.Struct(">64H")
"""A round stream read as its 64 big-endian 16-bit values, one per action."""

TIMING_STRIDE = 7
"""In the tight loop one card decision in seven is timed.

A random card costs well under a microsecond; reading the clock twice for every one
would add about a tenth to the run and measure mostly the clock.  Every seventh action
(a stride prime to 3, 4 and 5, so every seat and trick position is sampled) still gives
thousands of samples per seat for the p50/p95 figures; the summary reports the count.
"""
_new_tuple = tuple.__new__


def finish_round_randomly(game: Game, times: Sequence[list[int]] | None = None) -> None:
    """Play the rest of the current round with every seat choosing as ``random`` does.

    ``times``, if given, receives one decision time (ns) per action, per seat.
    """
    stream = round_stream(game.bot_key, game.round_index)
    u16 = _U16S.unpack(stream)
    clock = time.perf_counter_ns
    while game.phase == BIDDING:
        seat: int = game.to_act  # type: ignore[assignment]
        t0 = clock()
        # RandomBot.pick over legal_bids without building the list: the dealer's
        # forbidden bid (if any) is skipped by shifting the indices above it.
        forbidden = game.forbidden_bid()
        choices = game.hand_size + (1 if forbidden is None else 0)
        bid = u16[game.step] * choices >> 16
        if forbidden is not None and bid >= forbidden:
            bid += 1
        t1 = clock()
        if times is not None:
            times[seat].append(t1 - t0)
        game.apply_bid(bid)
    while game.phase == PLAYING and game.trick:
        _random_step(game, stream, times)
    if game.phase != PLAYING:
        return
    n = game.players
    hands = game.hands
    trump = game.trump_suit
    no_trump = ~SUIT_MASKS[trump]
    suit_masks = SUIT_MASKS
    lead_rule = game.rules.trump_lead == "after-broken"
    broken = game.broken
    step = game.step
    p: int = game.to_act  # type: ignore[assignment]
    tricks = game.tricks
    taken = game.taken
    record = times is not None
    log = [t.append for t in times] if times is not None else []
    led_mask = best = best_p = 0
    best_trump = False
    for _ in range(game.hand_size - len(tricks)):
        leader = p
        cards = []
        for i in range(n):
            timed = record and not step % TIMING_STRIDE
            if timed:
                t0 = clock()
            hand = hands[p]
            if i:
                legal = hand & led_mask or hand
            elif lead_rule and not broken:
                legal = hand & no_trump or hand
            else:
                legal = hand
            k = u16[step] * legal.bit_count() >> 16
            while k:
                legal &= legal - 1
                k -= 1
            card = (legal & -legal).bit_length() - 1
            if timed:
                log[p](clock() - t0)
            hands[p] = hand ^ (1 << card)
            step += 1
            cards.append(card)
            suit = card // 13
            if not i:
                led_mask = suit_masks[suit]
                best, best_p, best_trump = card, p, suit == trump
                broken = broken or best_trump
            elif suit == trump:
                broken = True
                if not best_trump or card > best:
                    best, best_p, best_trump = card, p, True
            elif card > best and not best_trump and led_mask >> card & 1:
                best, best_p = card, p
            p = p + 1 if p + 1 < n else 0
        tricks.append(_new_tuple(Trick, (leader, tuple(cards), best_p)))
        taken[best_p] += 1
        p = best_p
    game.broken = broken
    game.step = step
    game.leader = game.to_act = p
    game.score_round()


def _random_step(game: Game, stream: bytes, times: Sequence[list[int]] | None) -> None:
    """One random card through the referee's own path (finishes a trick begun elsewhere)."""
    seat: int = game.to_act  # type: ignore[assignment]
    t0 = time.perf_counter_ns()
    i = 2 * game.step
    card = RandomBot.pick((), game.honest_mask(), stream[i] << 8 | stream[i + 1])
    if times is not None:
        times[seat].append(time.perf_counter_ns() - t0)
    game.apply_card(card)
