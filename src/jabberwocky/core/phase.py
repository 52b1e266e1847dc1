"""The phases of a game: one name each, the same in the engine, the bots and the JSON.

A :class:`Phase` is a ``str`` (its JSON spelling), so records and views keep writing
``"bidding"`` while the code compares with members instead of string literals.

>>> Phase.ROUND_OVER == "round-over", Phase("game-over") is Phase.GAME_OVER
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a game is: bidding, playing a round, between rounds, or finished."""

    BIDDING = "bidding"
    PLAYING = "playing"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"
