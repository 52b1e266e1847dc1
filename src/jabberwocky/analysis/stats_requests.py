"""The worker's ``stats`` request, beside the statistics it answers from (:mod:`.stats`).

``{records?: [text | {record, me?, online?}], facts?: [object], seat?, recent?: 20,
compare?: false}``: ``records`` are replayed (each refused alone, naming its problem) and
answered with their ``id`` (SHA-256 of the record as the engine writes it: the same game
however it was formatted) and ``facts`` (what the page stores to tally it again without a
replay); a record given as an object names the keeper's seat ``me`` (default 0: an online
guest's own seat) and whether it was played ``online``; with ``compare`` each is also
played again with the hard bot in that seat.  ``facts`` are checked and tallied as they
are.  With ``seat``, every game is tallied for that seat; without it, each for its own
keeper's seat (``me``; 0 in facts stored before it existed, so the figures of a store of
games against bots are the same either way).  The summary covers the facts first, then
the records, in the order given.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..bots import available_levels
from ..core.errors import JabberwockyError, RequestError
from ..core.messages import quote
from ..core.rules import is_whole
from ..core.table import MAX_PLAYERS
from ..formats.record import FORMAT, dumps, loads
from . import MAX_STATS_GAMES
from .stats import (
    MAX_RECENT,
    RECENT_GAMES,
    StatsError,
    Tally,
    compare_with_bot,
    facts_from_json,
    facts_to_json,
    game_facts,
)


def _refusal(source: str, index: int, exc: JabberwockyError) -> dict[str, Any]:
    m = exc.message
    return {"source": source, "index": index, "error": {
        "kind": type(exc).__name__, "message": str(m), "code": m.code,
        "params": m.to_json()["params"]}}


def _record_item(item: Any) -> tuple[str, int, bool]:
    """A ``records`` entry: its text, the keeper's seat and whether it was online."""
    if isinstance(item, str):
        return item, 0, False
    if not isinstance(item, dict) or not isinstance(item.get("record"), str):
        raise RequestError("request.record_not_text", format=FORMAT)
    me = item.get("me", 0)
    if not is_whole(me) or not 0 <= me < MAX_PLAYERS:
        raise RequestError("request.stats_seat", value=quote(me), max=MAX_PLAYERS - 1)
    online = item.get("online", False)
    if not isinstance(online, bool):
        raise RequestError("request.stats_online", value=quote(online))
    return item["record"], int(me), online


def stats_answer(payload: dict[str, Any]) -> dict[str, Any]:
    """The ``stats`` request's answer: ``{summary, games, refused}``."""
    own_seat = "seat" not in payload
    seat = payload.get("seat", 0)
    if not is_whole(seat) or not 0 <= seat < MAX_PLAYERS:
        raise RequestError("request.stats_seat", value=quote(seat), max=MAX_PLAYERS - 1)
    recent = payload.get("recent", RECENT_GAMES)
    if not is_whole(recent) or not 1 <= recent <= MAX_RECENT:
        raise RequestError("request.stats_recent", value=quote(recent), max=MAX_RECENT)
    compare = payload.get("compare", False)
    if not isinstance(compare, bool):
        raise RequestError("request.stats_compare", value=quote(compare))
    if compare and "hard" not in available_levels():
        raise RequestError("request.stats_no_bot", level="hard")
    records = payload.get("records", [])
    facts_in = payload.get("facts", [])
    for name, items in (("records", records), ("facts", facts_in)):
        if not isinstance(items, list):
            raise RequestError("request.stats_not_list", field=name)
    if len(records) + len(facts_in) > MAX_STATS_GAMES:
        raise RequestError("request.stats_too_many", max=MAX_STATS_GAMES)
    tally = Tally(seat=seat, own_seat=own_seat, recent=recent)
    refused: list[dict[str, Any]] = []
    for i, data in enumerate(facts_in):
        try:
            facts = facts_from_json(data)
            if not own_seat and seat >= facts.players:
                raise StatsError("request.stats_seat_absent", seat=seat, players=facts.players)
        except JabberwockyError as exc:
            refused.append(_refusal("facts", i, exc))
            continue
        tally.add(facts)
    games: list[dict[str, Any] | None] = []
    for i, item in enumerate(records):
        try:
            text, me, online = _record_item(item)
            game = loads(text)
            mine = me if own_seat else seat
            if mine >= game.players:
                raise StatsError("request.stats_seat_absent", seat=mine, players=game.players)
            facts = game_facts(game, compare_with_bot(game, mine) if compare else None,
                               me if own_seat else seat, online)
        except JabberwockyError as exc:
            refused.append(_refusal("records", i, exc))
            games.append(None)
            continue
        tally.add(facts)
        digest = hashlib.sha256(dumps(game).encode("utf-8")).hexdigest()
        games.append({"id": digest, "facts": facts_to_json(facts)})
    return {"summary": tally.summary(), "games": games, "refused": refused}
