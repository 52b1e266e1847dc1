"""Statistics of finished games for one seat: the one tally behind ``simulate``'s summary
and the page's Statistics screen.

A game is tallied from its *facts*: the table (players, seats, the hook rule), the final
scores and winners, and per round the hand size, the dealer, the bids, the tricks taken
and the points.  A finished :class:`~jabberwocky.core.game.Game` has them (``game.results``
are such rounds), so ``simulate`` tallies the games it plays without writing anything;
the page keeps them next to each stored record (:func:`facts_to_json`, read back with
:func:`facts_from_json`, which checks them as untrusted input), so that its statistics
over a few thousand games cost a few milliseconds instead of replaying every record.

:class:`Tally` adds games one by one, in the order given (streaks, the trend and the best
game depend on it), and :meth:`Tally.summary` is the JSON summary.  Its fields
``points_per_game``, ``exact_bid_rate``, ``exact_by_hand_size``, ``win_share`` and
``win_share_ci95`` are ``simulate``'s, computed by the same code: both tallies are
:class:`SeatCounts` (``simulate.SeatStats`` adds decision times, :class:`Tally` the
breakdowns), whole numbers only, so that the tallies of a run's shards add up exactly (a
tie for first place splits the win: each of two winners gets half, counted as one win
shared by two).

>>> from jabberwocky.core.game import Game
>>> from jabberwocky.drivers.simulate import play_game
>>> from jabberwocky.bots import make_bot
>>> game = play_game(Game("doc", 3, seats=["random"] * 3), [make_bot("random")] * 3)
>>> tally = Tally(seat=0)
>>> tally.add(game_facts(game))
>>> s = tally.summary()
>>> s["games"], s["bids"], 0 <= s["exact_bid_rate"] <= 1
(1, 13, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ..core.errors import JabberwockyError
from ..core.game import GAME_OVER, Game
from ..core.levels import BOT_LEVELS, HUMAN, SEAT_KINDS
from ..core.rules import MAX_HAND, MAX_ROUNDS, is_whole
from ..core.table import check_players, check_seed

RECENT_GAMES = 20
"""How many of the last games the trend covers unless asked otherwise."""
MAX_RECENT = 1000
MIXED = "mixed"
"""The table level of a game whose bots are not all of one level."""
PEOPLE = "people"
"""The table level of a game with other people at the table (an online game)."""


class StatsError(JabberwockyError):
    """Facts of a game (as the page stored them) that are not what the engine writes."""


class RoundLike(Protocol):
    """What a round's facts hold (a :class:`~jabberwocky.core.history.RoundResult` has it)."""

    @property
    def hand_size(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def bids(self) -> Sequence[int]: ...
    @property
    def taken(self) -> Sequence[int]: ...
    @property
    def points(self) -> Sequence[int]: ...


class RoundFacts(NamedTuple):
    """One finished round, as read back from its JSON form."""

    hand_size: int
    dealer: int
    bids: tuple[int, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class Comparison:
    """How a bot did from one seat on the same deals: its exact bids, its bids, its points."""

    level: str
    seat: int
    exact: int
    bids: int
    points: int


@dataclass(frozen=True)
class GameFacts:
    """What the statistics need of one finished game."""

    players: int
    seats: tuple[str, ...]
    hook: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: Sequence[RoundLike]
    seed: str = ""
    compared: Comparison | None = None
    me: int = 0
    """The seat of the one who keeps the game (seat 0 in a game against bots; an online
    guest's own seat)."""
    online: bool = False
    """Played at an online table (with other people, each at their own device)."""


def game_facts(game: Game, compared: Comparison | None = None, me: int = 0,
               online: bool = False) -> GameFacts:
    """The facts of a finished game (its rounds are the game's own results, not copied),
    kept by the player at seat ``me``."""
    if game.phase != GAME_OVER:
        raise StatsError("request.stats_unfinished", phase=game.phase.value)
    if not is_whole(me) or not 0 <= me < game.players:
        raise StatsError("request.stats_seat_absent", seat=me, players=game.players)
    return GameFacts(game.players, tuple(game.seats), game.rules.hook, tuple(game.scores),
                     tuple(game.winners()), game.results, game.seed, compared, me, online)


def table_level(seats: Sequence[str], seat: int) -> str:
    """The level of the bots around ``seat``: theirs if they share one, else ``"mixed"``;
    ``"people"`` when another person sat at the table (an online game)."""
    others = {kind for i, kind in enumerate(seats) if i != seat}
    if HUMAN in others:
        return PEOPLE
    return others.pop() if len(others) == 1 else MIXED


def place_of(scores: Sequence[int], seat: int) -> int:
    """1 + how many seats scored more than ``seat`` (a tie shares the place)."""
    return 1 + sum(1 for p in scores if p > scores[seat])


def share_sum(wins: Mapping[int, int], squared: bool = False) -> float:
    """The sum of the per-game win shares (``squared``: of their squares) of games won,
    counted by how many seats shared the win (``{1: 10, 2: 1}``: 10 alone, 1 shared by two:
    10.5), summed in one order (the fewest sharing first) so that equal counts always give
    the same float."""
    return sum(n / (k * k if squared else k) for k, n in sorted(wins.items()))


def _rate(exact: int, bids: int) -> dict[str, Any]:
    return {"exact": exact, "bids": bids, "rate": exact / bids if bids else 0.0}


@dataclass(kw_only=True)
class SeatCounts:
    """One seat's tally in whole numbers: what ``simulate``'s figures are computed from.

    A win shared by ``k`` seats is counted in ``wins[k]``, not added as the float ``1/k``,
    so the counts of parts of a run (``simulate --workers``, ``--shard`` and ``merge``) add
    up to exactly the counts of the whole run, in any order, and give the same figures to
    the last bit.  ``simulate.SeatStats`` (decision times too) and :class:`Tally` (the
    statistics' breakdowns too) are these counts.
    """

    points: int = 0
    exact: int = 0
    bids: int = 0
    wins: dict[int, int] = field(default_factory=dict)
    """Games won, by how many seats shared the win (``{1: 10, 2: 1}``: 10 alone, 1 shared)."""
    exact_by_size: dict[int, list[int]] = field(default_factory=dict)
    """Per hand size: ``[bids made exactly, bids]``."""

    @property
    def win_share(self) -> float:
        """The sum of the per-game win shares (a tie of ``k`` winners gives each 1/k)."""
        return share_sum(self.wins)

    @property
    def wins_sq(self) -> float:
        """The sum of the squared per-game win shares (for the share's variance)."""
        return share_sum(self.wins, squared=True)

    def count_game(self, rounds: Iterable[RoundLike], scores: Sequence[int],
                   winners: Sequence[int], seat: int) -> tuple[int, int]:
        """Count one finished game for ``seat``; returns its (exact bids, bids)."""
        exact = bids = 0
        by_size = self.exact_by_size
        for res in rounds:
            hit = res.bids[seat] == res.taken[seat]
            exact += hit
            bids += 1
            row = by_size.get(res.hand_size)
            if row is None:
                row = by_size[res.hand_size] = [0, 0]
            row[0] += hit
            row[1] += 1
        self.exact += exact
        self.bids += bids
        self.points += scores[seat]
        if seat in winners:
            k = len(winners)
            self.wins[k] = self.wins.get(k, 0) + 1
        return exact, bids

    def merge_counts(self, other: SeatCounts) -> None:
        """Add ``other``'s counts (the same seat in other games)."""
        self.points += other.points
        self.exact += other.exact
        self.bids += other.bids
        for k, n in other.wins.items():
            self.wins[k] = self.wins.get(k, 0) + n
        for size, (hit, count) in other.exact_by_size.items():
            row = self.exact_by_size.setdefault(size, [0, 0])
            row[0] += hit
            row[1] += count

    def counts_json(self) -> dict[str, Any]:
        """The counts as JSON (keys as text, sorted)."""
        return {
            "points": self.points, "exact": self.exact, "bids": self.bids,
            "wins": {str(k): n for k, n in sorted(self.wins.items())},
            "exact_by_size": {str(k): list(v) for k, v in sorted(self.exact_by_size.items())},
        }

    def figures(self, games: int) -> dict[str, Any]:
        """``simulate``'s fields of a seat over ``games`` games: points per game, exact-bid
        rate (also by hand size), win share with its 95% interval (normal approximation,
        clipped to 0..1)."""
        mean = self.win_share / games if games else 0.0
        var = max(0.0, self.wins_sq / games - mean * mean) if games else 0.0
        half = 1.96 * math.sqrt(var / games) if games else 0.0
        return {
            "points_per_game": self.points / games if games else 0.0,
            "exact_bid_rate": self.exact / self.bids if self.bids else 0.0,
            "exact_by_hand_size": {str(k): v[0] / v[1]
                                   for k, v in sorted(self.exact_by_size.items())},
            "win_share": mean,
            "win_share_ci95": [max(0.0, mean - half), min(1.0, mean + half)],
        }


class _Count:
    """Exact bids out of bids."""

    __slots__ = ("bids", "exact")

    def __init__(self) -> None:
        self.exact = 0
        self.bids = 0

    def add(self, hit: bool) -> None:
        self.exact += hit
        self.bids += 1

    def json(self) -> dict[str, Any]:
        return _rate(self.exact, self.bids)


class _Wins:
    """Games and those won, counted by how many seats shared the win (as
    :attr:`SeatCounts.wins`)."""

    __slots__ = ("games", "wins")

    def __init__(self) -> None:
        self.games = 0
        self.wins: dict[int, int] = {}

    def add(self, sharing: int) -> None:
        """One game, won by ``sharing`` seats including this one (0: not won)."""
        self.games += 1
        if sharing:
            self.wins[sharing] = self.wins.get(sharing, 0) + 1

    def json(self) -> dict[str, Any]:
        wins = share_sum(self.wins)
        return {"games": self.games, "wins": wins,
                "share": wins / self.games if self.games else 0.0}


class _Streak:
    """The longest run and the current run of successes."""

    __slots__ = ("current", "longest")

    def __init__(self) -> None:
        self.current = 0
        self.longest = 0

    def add(self, hit: bool) -> None:
        self.current = self.current + 1 if hit else 0
        self.longest = max(self.longest, self.current)

    def json(self) -> dict[str, int]:
        return {"longest": self.longest, "current": self.current}


def _keyed(counts: dict[Any, Any]) -> dict[str, Any]:
    return {str(k): v.json() for k, v in sorted(counts.items())}


@dataclass
class Tally(SeatCounts):
    """Running statistics of one seat over games added in order: its :class:`SeatCounts`
    (``simulate``'s figures, :meth:`core`) and the breakdowns of :meth:`summary`.

    With ``own_seat`` the seat is each game's own (:attr:`GameFacts.me`: the keeper's
    seat, an online guest's among them) instead of :attr:`seat`."""

    seat: int = 0
    own_seat: bool = False
    recent: int = RECENT_GAMES
    games: int = 0
    by_bid: dict[int, _Count] = field(default_factory=dict)
    by_position: dict[int, _Count] = field(default_factory=dict)
    as_dealer: _Count = field(default_factory=_Count)
    hook_dealer: _Count = field(default_factory=_Count)
    by_level: dict[str, _Wins] = field(default_factory=dict)
    by_players: dict[int, _Wins] = field(default_factory=dict)
    win_streak: _Streak = field(default_factory=_Streak)
    exact_streak: _Streak = field(default_factory=_Streak)
    best: dict[str, Any] | None = None
    per_game: list[tuple[int, int, int]] = field(default_factory=list)
    compared: dict[str, int] = field(default_factory=dict)
    compared_level: str = ""

    def add(self, facts: GameFacts) -> None:
        """Tally one finished game (``facts.players`` must seat :attr:`seat`)."""
        seat = facts.me if self.own_seat else self.seat
        n = facts.players
        winners = facts.winners
        exact, bids = self.count_game(facts.rounds, facts.scores, winners, seat)
        for res in facts.rounds:
            bid = res.bids[seat]
            hit = bid == res.taken[seat]
            self.by_bid.setdefault(bid, _Count()).add(hit)
            position = (seat - res.dealer - 1) % n + 1  # 1: bids first; n: the dealer
            self.by_position.setdefault(position, _Count()).add(hit)
            if position == n:
                self.as_dealer.add(hit)
                if facts.hook:
                    self.hook_dealer.add(hit)
            self.exact_streak.add(hit)
        index = self.games
        self.games += 1
        points = facts.scores[seat]
        won = seat in winners
        sharing = len(winners) if won else 0
        self.by_level.setdefault(table_level(facts.seats, seat), _Wins()).add(sharing)
        self.by_players.setdefault(n, _Wins()).add(sharing)
        self.win_streak.add(won)
        if self.best is None or points > self.best["points"]:
            self.best = {"index": index, "seed": facts.seed, "points": points,
                         "place": place_of(facts.scores, seat), "players": n,
                         "won": won}
        self.per_game.append((index, exact, bids))
        if len(self.per_game) > self.recent:
            del self.per_game[0]
        cmp = facts.compared
        if cmp is not None and cmp.seat == seat:
            c = self.compared
            self.compared_level = cmp.level
            c["games"] = c.get("games", 0) + 1
            c["exact"] = c.get("exact", 0) + exact
            c["bids"] = c.get("bids", 0) + bids
            c["points"] = c.get("points", 0) + points
            c["bot_exact"] = c.get("bot_exact", 0) + cmp.exact
            c["bot_bids"] = c.get("bot_bids", 0) + cmp.bids
            c["bot_points"] = c.get("bot_points", 0) + cmp.points

    def core(self) -> dict[str, Any]:
        """``simulate``'s fields of a seat (:meth:`SeatCounts.figures` over the games
        tallied): points per game, exact-bid rate (also by hand size), win share with its
        95% interval."""
        return self.figures(self.games)

    def summary(self) -> dict[str, Any]:
        """Everything: :meth:`core` plus the counts, the breakdowns, streaks, the best
        game, the trend over the last :attr:`recent` games and the comparison."""
        zero = self.by_bid.get(0, _Count())
        other = _Count()
        for bid, count in self.by_bid.items():
            if bid:
                other.exact += count.exact
                other.bids += count.bids
        recent = [{"index": i, "exact": e, "bids": b, "rate": e / b if b else 0.0}
                  for i, e, b in self.per_game]
        r_exact = sum(e for _, e, _ in self.per_game)
        r_bids = sum(b for _, _, b in self.per_game)
        c = self.compared
        return {
            "seat": self.seat,
            "games": self.games,
            "points": self.points,
            "wins": self.win_share,
            "exact": self.exact,
            "bids": self.bids,
            **self.core(),
            "by_hand_size": {str(k): _rate(*v) for k, v in sorted(self.exact_by_size.items())},
            "by_bid": _keyed(self.by_bid),
            "zero_bids": zero.json(),
            "other_bids": other.json(),
            "by_position": _keyed(self.by_position),
            "as_dealer": self.as_dealer.json(),
            "hook_dealer": self.hook_dealer.json(),
            "wins_by_level": _keyed(self.by_level),
            "wins_by_players": _keyed(self.by_players),
            "streaks": {"wins": self.win_streak.json(), "exact_bids": self.exact_streak.json()},
            "best_game": self.best,
            "recent": {"games": len(recent), "exact": r_exact, "bids": r_bids,
                       "rate": r_exact / r_bids if r_bids else 0.0, "per_game": recent},
            "compared": None if not c else {
                "level": self.compared_level, "games": c["games"],
                "exact_bid_rate": c["exact"] / c["bids"] if c["bids"] else 0.0,
                "bot_exact_bid_rate": c["bot_exact"] / c["bot_bids"] if c["bot_bids"] else 0.0,
                "points_per_game": c["points"] / c["games"],
                "bot_points_per_game": c["bot_points"] / c["games"],
            },
        }


def summarize_games(facts: Sequence[GameFacts], seat: int = 0,
                    recent: int = RECENT_GAMES) -> dict[str, Any]:
    """The summary of ``facts`` (oldest first) for ``seat``."""
    tally = Tally(seat=seat, recent=recent)
    for f in facts:
        tally.add(f)
    return tally.summary()


# -- comparing with a bot on the same deals --------------------------------------------


def compare_with_bot(game: Game, seat: int, level: str = "hard") -> Comparison | None:
    """Play ``game``'s deals again with a ``level`` bot in ``seat`` and the game's bots in
    the other seats; ``None`` when another seat is not a bot (nobody to play it).

    The bots draw their randomness from the seed, so the comparison is the same every
    time.  It costs a whole game of that bot: about a second for ``hard`` in CPython.
    """
    from ..bots import make_bot  # here: the bots are imported only when asked
    from ..bots.play import play_game

    seats = list(game.seats)
    if any(kind == HUMAN for i, kind in enumerate(seats) if i != seat):
        return None
    seats[seat] = level
    again = Game(game.seed, game.players, game.rules, seats)
    play_game(again, [make_bot(kind) for kind in seats])
    exact = sum(r.bids[seat] == r.taken[seat] for r in again.results)
    return Comparison(level, seat, exact, len(again.results), again.scores[seat])


# -- the JSON form the page stores -----------------------------------------------------


def facts_to_json(facts: GameFacts) -> dict[str, Any]:
    """The JSON form of ``facts``: small (a few hundred bytes a game), read back with
    :func:`facts_from_json`."""
    out: dict[str, Any] = {
        "seed": facts.seed,
        "players": facts.players,
        "seats": list(facts.seats),
        "hook": facts.hook,
        "scores": list(facts.scores),
        "winners": list(facts.winners),
        "rounds": [[r.hand_size, r.dealer, list(r.bids), list(r.taken), list(r.points)]
                   for r in facts.rounds],
    }
    if facts.compared is not None:
        c = facts.compared
        out["compared"] = {"level": c.level, "seat": c.seat, "exact": c.exact,
                           "bids": c.bids, "points": c.points}
    # written only when they say something: a game against bots is stored as before
    if facts.me:
        out["me"] = facts.me
    if facts.online:
        out["online"] = True
    return out


def _fail(what: str) -> StatsError:
    return StatsError("request.stats_facts", field=what)


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not is_whole(value) or not low <= value <= high:
        raise _fail(what)
    return int(value)


def _wholes(value: Any, what: str, n: int, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise _fail(what)
    return tuple(_whole(v, what, low, high) for v in value)


_MAX_POINTS = 10 + MAX_HAND
"""The most points a round can give (Oh Hell scoring: 10 + the bid)."""
_MIN_POINTS = -3 * MAX_HAND
"""The fewest: every card a renege under the honour rule."""


def facts_from_json(data: Any) -> GameFacts:
    """Read facts back (from the page's store: untrusted), checking every field's type,
    range and consistency: each round's tricks add up to its hand size, the scores are the
    sum of the points, the winners are the seats with the top score.  Raises
    :class:`StatsError` (``request.stats_facts`` naming the field)."""
    if not isinstance(data, dict):
        raise _fail("facts")
    try:
        n = check_players(data.get("players"))
    except JabberwockyError:
        raise _fail("players") from None
    seats = data.get("seats")
    if (not isinstance(seats, list) or len(seats) != n
            or not all(isinstance(k, str) and k in SEAT_KINDS for k in seats)):
        raise _fail("seats")
    hook = data.get("hook")
    if not isinstance(hook, bool):
        raise _fail("hook")
    seed = data.get("seed", "")
    try:
        seed = check_seed(seed)
    except JabberwockyError:
        raise _fail("seed") from None
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list) or not 1 <= len(rounds_data) <= MAX_ROUNDS:
        raise _fail("rounds")
    rounds = []
    totals = [0] * n
    for r in rounds_data:
        if not isinstance(r, list) or len(r) != 5:
            raise _fail("rounds")
        size = _whole(r[0], "hand_size", 1, MAX_HAND)
        dealer = _whole(r[1], "dealer", 0, n - 1)
        bids = _wholes(r[2], "bids", n, 0, size)
        taken = _wholes(r[3], "taken", n, 0, size)
        if sum(taken) != size:
            raise _fail("taken")
        points = _wholes(r[4], "points", n, _MIN_POINTS, _MAX_POINTS)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        rounds.append(RoundFacts(size, dealer, bids, taken, points))
    scores = _wholes(data.get("scores"), "scores", n, -(2**31), 2**31)
    if list(scores) != totals:
        raise _fail("scores")
    winners = data.get("winners")
    top = max(scores)
    if not isinstance(winners, list) or winners != [s for s in range(n) if scores[s] == top]:
        raise _fail("winners")
    compared = None
    if data.get("compared") is not None:
        c = data["compared"]
        if not isinstance(c, dict) or c.get("level") not in BOT_LEVELS:
            raise _fail("compared")
        cseat = _whole(c.get("seat"), "compared", 0, n - 1)
        cbids = _whole(c.get("bids"), "compared", 0, MAX_ROUNDS)
        compared = Comparison(c["level"], cseat, _whole(c.get("exact"), "compared", 0, cbids),
                              cbids, _whole(c.get("points"), "compared", -(2**31), 2**31))
    # facts stored before these fields existed are a game against bots, kept from seat 0
    me = _whole(data.get("me", 0), "me", 0, n - 1)
    online = data.get("online", False)
    if not isinstance(online, bool):
        raise _fail("online")
    return GameFacts(n, tuple(seats), hook, scores, tuple(winners), rounds, seed, compared,
                     me, online)
