"""Game-level strategy: how much each way a round can end is worth for winning the game.

The winner is whoever scores most after the last round, so an exact bid is worth
more to a seat close to the lead than to one far behind, and an opponent's exact bid
costs most when that opponent is the one to beat.  :func:`win_chances` estimates each
seat's share of the win from the scores and the rounds still to play, with every seat
making each later bid with the same chance (``p``, about what good bots manage), ties
shared as the rules share them.  :func:`round_values` gives, for every pattern of
which seats make this round's bid, this seat's chance of winning the game afterwards:
the ``hard`` bot then plays for the best expected value over its simulated deals
instead of for its own exact bid alone.

Pure arithmetic on public facts (scores, the schedule), no randomness.

>>> [round(x, 3) for x in win_chances([5, 5], 0, 0.6)]
[0.5, 0.5]
>>> win_chances([6, 5, 5], 0, 0.6)
[1.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

P_EXACT = 0.6
"""The chance that a seat makes a later bid, for the game model."""


@lru_cache(maxsize=64)
def _binomial(n: int, p: float) -> tuple[float, ...]:
    """``result[k]``: the chance of ``k`` successes in ``n`` tries of chance ``p``."""
    dist = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * (1.0 - p)
            nxt[k + 1] += v * p
        dist = nxt
    return tuple(dist)


@lru_cache(maxsize=4096)
def _win_chances(scores: tuple[int, ...], rounds: int, p: float) -> tuple[float, ...]:
    n = len(scores)
    dist = _binomial(rounds, p)
    top = max(scores) + rounds
    # below[s][t]: chance that seat s ends below t; at[s][t]: ends on exactly t.
    at = [[0.0] * (top + 2) for _ in range(n)]
    for s, base in enumerate(scores):
        for k, v in enumerate(dist):
            at[s][base + k] = v
    below = []
    for s in range(n):
        acc = 0.0
        row = [0.0] * (top + 2)
        for t in range(top + 2):
            row[t] = acc
            acc += at[s][t]
        below.append(row)
    out = []
    for me in range(n):
        share = 0.0
        for t in range(scores[me], top + 1):
            pt = at[me][t]
            if not pt:
                continue
            # Product over the others of (below + at * x); the coefficient of x^k is the
            # chance that exactly k others tie on t and the rest are below.
            poly = [1.0]
            for s in range(n):
                if s == me:
                    continue
                b, a = below[s][t], at[s][t]
                nxt = [0.0] * (len(poly) + 1)
                for k, v in enumerate(poly):
                    nxt[k] += v * b
                    nxt[k + 1] += v * a
                poly = nxt
            share += pt * sum(v / (k + 1) for k, v in enumerate(poly))
        out.append(share)
    return tuple(out)


def win_chances(scores: Sequence[int], rounds: int, p: float = P_EXACT) -> list[float]:
    """Each seat's expected share of the win with ``rounds`` rounds still to play after
    the scores ``scores`` (ties shared)."""
    low = min(scores)
    return list(_win_chances(tuple(s - low for s in scores), rounds, p))


def round_values(scores: Sequence[int], rounds_after: int, seat: int, points: int = 1,
                 p: float = P_EXACT) -> list[float]:
    """For each pattern of made bids this round (bit ``s`` set: seat ``s`` made its bid,
    worth ``points``), ``seat``'s chance of winning the game afterwards, with
    ``rounds_after`` rounds to play after this one."""
    n = len(scores)
    out = []
    for pattern in range(1 << n):
        after = [sc + (points if pattern >> s & 1 else 0) for s, sc in enumerate(scores)]
        out.append(win_chances(after, rounds_after, p)[seat])
    return out


__all__ = ["P_EXACT", "round_values", "win_chances"]
