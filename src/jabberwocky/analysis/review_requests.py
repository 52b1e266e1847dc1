"""The worker's review requests (``review``, ``review_analyse``, ``review_seen``), beside
the reviews they answer from (:mod:`.review`).

A review request names its game one of three ways: ``{record}`` (a record's text),
``{challenge, player}`` (a result of a challenge, 1-based) or neither (the table's game,
once it is over: a game in play shows no hidden card).  The facade hands over how to
find the last two (:class:`ReviewSources`), so this module needs no session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..core.errors import RequestError, ReviewError
from ..core.game import GAME_OVER, Game
from ..core.messages import quote
from ..core.rules import is_whole
from ..formats.record import FORMAT, loads
from . import review


class ReviewSources(NamedTuple):
    """Where a review's game may come from besides a record's text."""

    table: Callable[[], Game]
    """The table's game (raises when there is none)."""
    challenge_result: Callable[[dict[str, Any]], Game]
    """The game of ``{challenge, player}``."""


def review_game(sources: ReviewSources, payload: dict[str, Any]) -> Game:
    """The game a review request names (see the module's docstring)."""
    if "record" in payload:
        text = payload["record"]
        if not isinstance(text, str):
            raise RequestError("request.record_not_text", format=FORMAT)
        return loads(text)
    if "challenge" in payload:
        return sources.challenge_result(payload)
    game = sources.table()
    if game.phase != GAME_OVER:
        raise ReviewError("review.unfinished", phase=game.phase.value)
    return game


def _step(payload: dict[str, Any]) -> int:
    step = payload.get("step")
    if not is_whole(step):
        raise ReviewError("review.no_step", step=quote(step), steps=0)
    return step


def review_timeline(sources: ReviewSources, payload: dict[str, Any]) -> dict[str, Any]:
    """``review``: the whole timeline of a game, every hand face up."""
    return review.timeline(review_game(sources, payload))


def review_analyse(sources: ReviewSources, payload: dict[str, Any]) -> dict[str, Any]:
    """``review_analyse {step}``: what the hard bot would have done there."""
    return review.analyse(review_game(sources, payload), _step(payload))


def review_seen(sources: ReviewSources, payload: dict[str, Any]) -> dict[str, Any]:
    """``review_seen {step}``: what the seat to act saw there."""
    return review.seen(review_game(sources, payload), _step(payload))
