"""The worker's challenge requests, beside the challenge format they answer from.

Each takes the request's payload (and, where it needs them, the table's game and the
challenge that game answers) and gives the answer's JSON, or the game to start; the
facade (:mod:`jabberwocky.webapi`) only routes.  Challenges are decoded through a small
cache, :class:`Decoded`: a page asks about the same link several times in a row (open,
then play, then compare), and verifying one replays every result.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ChallengeError
from ..core.game import Game
from ..core.messages import quote
from ..core.rules import is_whole
from ..core.table import check_name
from .challenge import (
    MAX_RESULTS,
    Challenge,
    challenger,
    check_bots,
    decode,
    person_seat,
    result_json,
    result_of,
    rounds_played,
)

DECODED_KEPT = 4
"""How many decoded challenges :class:`Decoded` keeps."""


class Decoded:
    """The last few challenges decoded and verified, by their text."""

    def __init__(self) -> None:
        self._kept: dict[str, Challenge] = {}

    def __call__(self, text: Any) -> Challenge:
        """The challenge ``text`` names, verified (:func:`~.challenge.decode`)."""
        if isinstance(text, str) and text in self._kept:
            return self._kept[text]
        challenge = decode(text)
        if len(self._kept) >= DECODED_KEPT:
            self._kept.pop(next(iter(self._kept)))
        self._kept[challenge.text] = challenge
        return challenge

    def incoming(self, game: Game) -> Challenge | None:
        """The challenge ``game`` answers, or ``None`` for a game of its own."""
        return None if game.challenge is None else self(game.challenge)


def open_challenge(decoded: Decoded, payload: dict[str, Any]) -> dict[str, Any]:
    """``challenge_open {text}``: ``{ok: true, …the challenge…}``, or ``{ok: false,
    refusal: {code, params, message}, game: the table it names | null}``."""
    try:
        challenge = decoded(payload.get("text"))
    except ChallengeError as exc:
        return {"ok": False, "refusal": {**exc.message.to_json(), "message": str(exc)},
                "game": exc.game}
    return {"ok": True, **challenge.to_json()}


def challenge_game(decoded: Decoded, payload: dict[str, Any]) -> Game:
    """``challenge_play {text, name?}``: the game a challenge was played on, as a challenge
    game (no take-backs; its result joins the chain when it is passed on)."""
    challenge = decoded(payload.get("text"))
    table = challenge.table
    names: list[str | None] = [None] * table.players
    if payload.get("name") not in (None, ""):
        names[table.human] = check_name(payload["name"])
    game = table.new_game()
    game.names = tuple(names)
    game.challenge = challenge.text
    return game


def encode_challenge(decoded: Decoded, game: Game, payload: dict[str, Any]) -> dict[str, Any]:
    """``challenge_encode {name?, seat?}``: ``game`` as played so far as a challenge
    (``name`` absent: the game's name for the challenger; ``null`` or ``""``: none), after
    the chain the game answers (the oldest result dropped beyond
    :data:`~.challenge.MAX_RESULTS`).  ``seat``: the challenger's seat in a game several
    people played (an online game, ``jabberwocky-challenge/2``); absent, the game's one
    human seat is."""
    seat = payload.get("seat")
    human = challenger(game.seats) if seat is None else person_seat(game, seat)
    name = payload.get("name", game.names[human])
    previous = decoded.incoming(game)
    challenge = Challenge.of_game(game, name or None, previous, seat)
    earlier = 0 if previous is None else len(previous.results)
    return {"text": challenge.text, "length": len(challenge.text),
            "dropped": max(0, earlier + 1 - MAX_RESULTS), **challenge.to_json()}


def check_challenge(decoded: Decoded, payload: dict[str, Any]) -> dict[str, Any]:
    """``challenge_check {text, player, round}`` (both 1-based): one round of a result's
    bots' moves against the bots' own choices: ``{ok, refusal, …}``."""
    challenge = decoded(payload.get("text"))
    player, rnd = payload.get("player"), payload.get("round")
    if not is_whole(player):
        raise ChallengeError("challenge.no_result", player=quote(player),
                             count=len(challenge.results))
    if not is_whole(rnd):
        raise ChallengeError("challenge.no_round", player=player, round=quote(rnd), rounds=0)
    mismatch = check_bots(challenge, player, rnd - 1)
    result = challenge.results[player - 1]
    return {"ok": mismatch is None, "player": player, "round": rnd,
            "rounds": rounds_played(result),
            "refusal": None if mismatch is None else {**mismatch.to_json(),
                                                       "message": str(mismatch)}}


def compare_challenge(decoded: Decoded, game: Game) -> dict[str, Any]:
    """``challenge_compare``: ``game`` beside the results it answers: each result's rounds
    and total, the game last (``current``), the leaders, the text of the challenge
    answered (a resumed game's page learns it here) and its table (``game``)."""
    previous = decoded.incoming(game)
    if previous is None:
        raise ChallengeError("challenge.not_challenge")
    human = previous.table.human
    rows = [result_json(r, human) for r in previous.results]
    rows.append({**result_json(result_of(game, game.names[human]), human), "current": True})
    best = max(r["total"] for r in rows)
    return {"seat": human, "text": previous.text, "results": rows,
            "game": previous.table.to_json(),
            "leaders": [i for i, r in enumerate(rows) if r["total"] == best]}


def result_game(decoded: Decoded, payload: dict[str, Any]) -> Game:
    """The game of result ``{challenge, player}`` (1-based) of a challenge: what a review
    of it shows (the reviews only read it)."""
    challenge = decoded(payload["challenge"])
    player = payload.get("player")
    if not is_whole(player) or not 1 <= player <= len(challenge.results):
        raise ChallengeError("challenge.no_result", player=quote(player),
                             count=len(challenge.results))
    return challenge.results[player - 1].game
