"""The deal of the day, version ``jabberwocky-daily/1``: one game a day, the same for
everyone, with a par from the hard bot.

A seed is a whole game, so a daily game needs no server: the seed is derived from the
calendar date (UTC, ``YYYY-MM-DD``) and the table is fixed.  The derivation is frozen like
the deal algorithm (``docs/daily.md`` has golden vectors, checked in CPython and Pyodide):

1. ``D`` is the date as ten ASCII characters, ``YYYY-MM-DD`` (a real Gregorian date,
   years 0001 to 9999).
2. ``h`` is SHA-256 of ``b"jabberwocky-daily/1" 0x00 D``, in lowercase hex.
3. The seed is ``"daily-" + D + "-" + h[:8]``: ``daily-2026-12-02-…``.

The date stays readable in the seed (a record or a challenge of a daily game says which
day it was), and the hash part changes with the version: a ``jabberwocky-daily/2`` would
deal other games for the same dates instead of silently changing old ones.

The table: :data:`DAILY_PLAYERS` players, the Jabberwocky rules, the player in seat 0 and
:data:`DAILY_LEVEL` bots in the others.  ``medium`` because it is the page's default level
(the table most players know), it decides at once on any phone (the hard bot's playouts
cost tens of milliseconds a decision in Pyodide), and the par — the hard bot in the
player's seat against those same bots on the same deals — then stands above what the
bots themselves score, a target worth beating rather than a bot's average.

The bots draw their randomness from the seed, so :func:`par` is the same on every device
for a date and a bots version (:data:`~jabberwocky.bots.BOTS_VERSION`): the page caches
it under both.  Which finished game is a day's result, and whether a game is practice, is
the page's to decide (its clock, its store); :func:`result_of` says what the engine can:
whether the game is the day's table played without take-backs, and the facts to compare
and to share — made or missed per round as codes, never a sentence or a card.

>>> daily_seed("2026-12-02")
'daily-2026-12-02-6c064693'
>>> date_of_seed("daily-2026-12-02-6c064693")
'2026-12-02'
>>> date_of_seed("daily-2026-12-02-00000000") is None
True
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from ..bots import BOTS_VERSION, make_bot
from ..bots.referee import bot_move
from ..core.errors import JabberwockyError
from ..core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from ..core.levels import HUMAN
from ..core.messages import quote
from ..core.rules import JABBERWOCKY
from ..formats.challenge import Challenge

DAILY_VERSION = "jabberwocky-daily/1"
"""The name of the date-to-seed derivation and of the table; a change gets a new one."""
DAILY_PLAYERS = 4
DAILY_LEVEL = "medium"
"""The level of the day's bots (see the module's docstring for why)."""
PAR_LEVEL = "hard"
"""The bot whose game in the player's seat is the day's par."""
MADE = "made"
MISSED = "missed"
"""The codes of a round's mark: the player's bid was exact, or not."""

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_SEED = re.compile(r"daily-([0-9]{4}-[0-9]{2}-[0-9]{2})-[0-9a-f]{8}")
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class DailyError(JabberwockyError):
    """A date that names no day, or a game that is not a deal of the day."""


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def check_date(value: object) -> str:
    """``value`` if it is a date ``YYYY-MM-DD`` of the Gregorian calendar, else a
    :class:`DailyError` saying why (no ``datetime``: the first start of the page imports
    nothing it can do without)."""
    if not isinstance(value, str) or (m := _DATE.fullmatch(value)) is None:
        raise DailyError("daily.date_shape", value=quote(value))
    year, month, day = (int(g) for g in m.groups())
    if year < 1 or not 1 <= month <= 12:
        raise DailyError("daily.date_none", value=value)
    days = 29 if month == 2 and _leap(year) else _MONTH_DAYS[month - 1]
    if not 1 <= day <= days:
        raise DailyError("daily.date_none", value=value)
    return value


def daily_seed(date: str) -> str:
    """The seed of ``date``'s deal (the derivation of :data:`DAILY_VERSION`)."""
    day = check_date(date)
    digest = hashlib.sha256(DAILY_VERSION.encode("ascii") + b"\x00" + day.encode("ascii"))
    return f"daily-{day}-{digest.hexdigest()[:8]}"


def date_of_seed(seed: str) -> str | None:
    """The date whose deal ``seed`` is, or ``None`` (a seed that only looks like one)."""
    m = _SEED.fullmatch(seed)
    if m is None:
        return None
    try:
        return m.group(1) if daily_seed(m.group(1)) == seed else None
    except DailyError:
        return None


def daily_seats() -> tuple[str, ...]:
    """The day's seats: the player, then the day's bots."""
    return (HUMAN, *[DAILY_LEVEL] * (DAILY_PLAYERS - 1))


def daily_table(date: object) -> dict[str, Any]:
    """What the page needs to start ``date``'s game (``new_game`` takes ``seed``,
    ``players``, ``bots`` and ``rules`` as they are) and to name it."""
    day = check_date(date)
    return {"date": day, "version": DAILY_VERSION, "seed": daily_seed(day),
            "players": DAILY_PLAYERS, "bots": DAILY_LEVEL, "seats": list(daily_seats()),
            "rules": JABBERWOCKY.to_dict(), "par_level": PAR_LEVEL,
            "bots_version": BOTS_VERSION}


def daily_game(date: str, seats: tuple[str, ...] | None = None) -> Game:
    """A new game of ``date``'s deal (``seats``: the day's unless given)."""
    return Game(daily_seed(date), DAILY_PLAYERS, JABBERWOCKY, seats or daily_seats())


def is_daily_table(game: Game) -> str | None:
    """The date whose table ``game`` is played at (seed, players, seats, rules), else
    ``None``."""
    date = date_of_seed(game.seed)
    if date is None or game.players != DAILY_PLAYERS or game.seats != daily_seats():
        return None
    return date if game.rules == JABBERWOCKY else None


def _rounds(game: Game, seat: int) -> list[dict[str, Any]]:
    return [{"round": r.round_index + 1, "hand_size": r.hand_size, "bid": r.bids[seat],
             "taken": r.taken[seat], "points": r.points[seat],
             "mark": MADE if r.bids[seat] == r.taken[seat] else MISSED}
            for r in game.results]


@dataclass(frozen=True)
class Par:
    """The par of a day: the hard bot's game from the player's seat."""

    date: str
    points: int
    exact: int
    rounds: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"date": self.date, "version": DAILY_VERSION, "bots_version": BOTS_VERSION,
                "level": PAR_LEVEL, "points": self.points, "exact": self.exact,
                "bids": len(self.rounds), "rounds": list(self.rounds)}


class ParRun:
    """The par's game of ``date`` being played, a few rounds at a time: the hard bot in
    seat 0 against the day's bots.  Seeded bots make it the same game however it is cut
    into pieces."""

    def __init__(self, date: str) -> None:
        seats = (PAR_LEVEL, *daily_seats()[1:])
        self.date = check_date(date)
        self.game = daily_game(date, seats)
        self.bots = [make_bot(kind) for kind in seats]

    def play(self, rounds: int | None = None) -> bool:
        """Play ``rounds`` more rounds (all of them: ``None``); True once the game is over."""

        game, left = self.game, rounds
        while game.phase != GAME_OVER and (left is None or left > 0):
            if game.phase == ROUND_OVER:
                game.next_round()
            while game.phase in (BIDDING, PLAYING):
                bot_move(game, self.bots[game.to_act])  # type: ignore[index]
            left = None if left is None else left - 1
        return game.phase == GAME_OVER

    def result(self) -> Par:
        rounds = _rounds(self.game, 0)
        return Par(self.date, self.game.scores[0], sum(r["mark"] == MADE for r in rounds),
                   tuple(rounds))


def par(date: str) -> Par:
    """Play ``date``'s deals with the hard bot in seat 0 against the day's bots.

    Seeded bots make it the same every time; it costs one whole game of the hard bot
    (about 2 s in CPython, 10 s or more in Pyodide), so the page asks once and caches it,
    a round a request (:func:`par_request`), so that the worker answers the player's
    requests in between.
    """
    run = ParRun(date)
    run.play()
    return run.result()


_RUNS: dict[str, ParRun] = {}
"""The pars being played a round at a time (the latest two dates)."""


def par_request(date: object, rounds: object = None) -> dict[str, Any]:
    """The worker's ``daily_par``: the whole par, or with ``rounds`` (1 to 13) only that
    many more rounds of it — ``{date, done: false, rounds: played so far}`` until the
    last, which answers the par as :meth:`Par.to_json` (with ``done: true``)."""
    day = check_date(date)
    if rounds is None:
        return {**par(day).to_json(), "done": True}
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 13:
        raise DailyError("daily.par_rounds", value=quote(rounds))
    run = _RUNS.get(day)
    if run is None:
        run = _RUNS[day] = ParRun(day)
        while len(_RUNS) > 2:
            _RUNS.pop(next(iter(_RUNS)))
    if not run.play(rounds):
        return {"date": day, "done": False, "rounds": len(run.game.results)}
    del _RUNS[day]
    return {**run.result().to_json(), "done": True}


def result_of(game: Game) -> dict[str, Any]:
    """The player's side of a daily game (seat 0): per round the bid, the tricks, the
    points and the mark; the total, the exact bids; ``eligible`` — whether it can be a
    day's result (the day's table, finished, no take-back) — and ``reason`` (a code) when
    not.  Refused with a :class:`DailyError` for a game that is no deal of the day."""
    date = is_daily_table(game)
    if date is None:
        raise DailyError("daily.not_daily", seed=quote(game.seed))
    reason = None
    if game.phase != GAME_OVER:
        reason = "daily.unfinished"
    elif game.takebacks:
        reason = "daily.takebacks"
    elif game.challenge is not None:
        reason = "daily.challenge"
    rounds = _rounds(game, 0)
    # the day's challenge link of this game (a friend compares, or plays the deals first)
    link = Challenge.of_game(game).text if game.results else None
    return {"date": date, "version": DAILY_VERSION, "bots_version": game.bots_version,
            "eligible": reason is None, "reason": reason, "challenge": link,
            "points": game.scores[0],
            "exact": sum(r["mark"] == MADE for r in rounds), "bids": len(rounds),
            "rounds": rounds, "marks": [r["mark"] for r in rounds]}
