"""Challenge links, formats ``jabberwocky-challenge/1`` and ``/2``: a game's deals and up
to five results played on them, in a couple of hundred characters.

A challenge names a table (seed, players, the kind of every seat, rules) and carries a
chain of results, oldest first: each is one player's whole game on that table (every
bid and card of every seat), the player's optional name, the bots version it was played
with, how many take-backs it used and the player's stated total.  Each move is stored as
its index among the moves the rules allowed at that point (:func:`~jabberwocky.core.actions.
options`), and a game's indices make one mixed-radix number (:mod:`~jabberwocky.formats.packing`),
so a forced move costs nothing and a full 4-player game takes about 80 bytes.

Nothing in a link is trusted.  :func:`decode` refuses, with a :class:`ChallengeError`
whose code says which check failed, text that is not a challenge, of another version,
too long, not base64url, cut short, changed (a checksum), not in its one canonical
form, naming an unusable table, name or chain, or whose games do not replay: every
result is replayed from the seed under the rules (the deals are the seed's, every move
is one the rules allowed, by construction), must end within the game and must give the
stated total.  Under the same bots version the bots' stored moves can also be checked to
be the bots' own choices (:func:`check_bots`, a round at a time: a ``hard`` bot costs
tens of milliseconds a decision); under another they cannot, and the result says the
bots differ.  The byte layout is specified in ``docs/challenge-links.md``.

Version 2 (``jc2.``) is written only for a chain that holds a game played online with
friends: such a result also names the seats that were people elsewhere (their moves,
stored as any seat's, are what the people played and are replayed, not checked against
a bot), and whoever answers it plays those seats' deals against :data:`PEOPLE_LEVEL`
bots.  Every other chain is written as version 1, exactly as before.

>>> game = Game("brave-otter-lamp-42", 4, seats=["human", "random", "random", "random"])
>>> link = Challenge.of_game(game, "Alex")
>>> text = link.text
>>> text.startswith(PREFIX), decode(text).results[0].name
(True, 'Alex')
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..bots import BOTS_VERSION, make_bot
from ..core.actions import Action, apply, deal_for, fresh, game_actions, options
from ..core.errors import ChallengeError, JabberwockyError
from ..core.game import BIDDING, GAME_OVER, ROUND_OVER, Game
from ..core.levels import HUMAN
from ..core.messages import Message, quote
from ..core.rules import MAX_NAME_LENGTH as MAX_RULES_NAME
from ..core.rules import PRESETS, RULE_OPTIONS, RuleOption, Ruleset
from ..core.table import MAX_NAME_LENGTH, MAX_SEED_LENGTH, check_name, check_players, check_seed
from .packing import (
    PackingError,
    Reader,
    Writer,
    b64url_decode,
    b64url_decode_lenient,
    b64url_encode,
    is_b64url,
    pack_digits,
)

FORMAT = "jabberwocky-challenge/1"
VERSION = 1
PREFIX = f"jc{VERSION}."
"""Every challenge text of version 1 starts so; base64url follows."""
FORMAT_ONLINE = "jabberwocky-challenge/2"
VERSION_ONLINE = 2
PREFIX_ONLINE = f"jc{VERSION_ONLINE}."
"""A chain that holds a game played online with friends starts so (and only such a one)."""
FORMATS = {VERSION: FORMAT, VERSION_ONLINE: FORMAT_ONLINE}
PEOPLE_LEVEL = "medium"
"""The bots that play, for whoever answers a challenge made of an online game, the seats
that were other people: the level an online table's stand-in plays a friend who left with,
and the page's default level (a friend who opens the link meets the bots a new game has)."""
MAX_RESULTS = 5
"""The longest chain: a sixth result pushes the oldest out."""
MAX_CHALLENGE_CHARS = 8000
"""Longest challenge text read (the largest possible table with five results of its
longest games stays under it; a 4-player Jabberwocky game with one result takes ~150)."""

_VERSIONED = re.compile(r"jc([0-9]{1,6})\.")
_SEAT_CODES = ("human", "random", "easy", "medium", "hard")
"""Seat kinds by their one-byte code (fixed by the format; ``_NAMED_SEAT`` names others)."""
_NAMED_SEAT = 0xFF
_RULE_CODES = ("jabberwocky", "oh-hell", "honour")
"""Presets by their one-byte code; ``_CUSTOM_RULES`` spells the options out."""
_CUSTOM_RULES = 0xFF
_CHECKSUM_BYTES = 4
_SEED_BYTES = 4 * MAX_SEED_LENGTH
_NAME_BYTES = 4 * MAX_NAME_LENGTH
_KIND_BYTES = 40
_RULES_NAME_BYTES = 4 * MAX_RULES_NAME
_MAX_BOTS_VERSION = 10**9


def _checksum(body: bytes, version: int = VERSION) -> bytes:
    return hashlib.sha256(FORMATS[version].encode() + b"\0" + body).digest()[:_CHECKSUM_BYTES]


def _bots_number(version: str | None) -> int:
    """``jabberwocky-bots/3`` as 3; 0 for a game whose record named no bots version."""
    if version is None:
        return 0
    number = version.rpartition("/")[2]
    return int(number) if number.isdigit() and 0 < int(number) <= _MAX_BOTS_VERSION else 0


def _bots_version(number: int) -> str | None:
    return None if number == 0 else f"jabberwocky-bots/{number}"


def max_moves(rules: Ruleset, players: int) -> int:
    """The number of bids and cards in a whole game at this table."""
    return sum(players * (1 + h) for h in rules.schedule)


# -- the table ------------------------------------------------------------------------


def _one_person(seats: Sequence[str]) -> tuple[int, list[int]]:
    humans = [s for s, kind in enumerate(seats) if kind == HUMAN]
    return (humans[0] if len(humans) == 1 else -1), humans


def challenger(seats: Sequence[str]) -> int:
    """The challenger's seat: the one human seat (a challenge is one person's game against
    the bots); :class:`ChallengeError` when there are none or several."""
    seat, humans = _one_person(seats)
    if seat < 0:
        raise ChallengeError("challenge.humans", count=len(humans))
    return seat


def person_seat(game: Game, seat: object) -> int:
    """``seat`` as a seat a person played in ``game`` (an online game: the seat of the one
    who makes the challenge); :class:`ChallengeError` ``challenge.seat`` otherwise."""
    if not (isinstance(seat, int) and not isinstance(seat, bool)
            and 0 <= seat < game.players and game.seats[seat] == HUMAN):
        raise ChallengeError("challenge.seat", value=quote(seat))
    return seat


def can_challenge(game: Game) -> bool:
    """True when a challenge can be made of ``game``: one person plays it (the seat
    :func:`challenger` names) and at least one round is finished.  The one place the rule
    lives: the view's ``can_challenge`` is this (the page adds its own mode)."""
    return bool(game.results) and _one_person(game.seats)[0] >= 0


@dataclass(frozen=True)
class Table:
    """The game every result of a challenge is played on: seed, table, seats, rules."""

    seed: str
    players: int
    seats: tuple[str, ...]
    rules: Ruleset

    @classmethod
    def of_game(cls, game: Game, seat: int | None = None) -> Table:
        """The table of ``game``; it must have exactly one human seat (the challenger's),
        unless ``seat`` names the challenger's among several (an online game): then every
        other person's seat is a :data:`PEOPLE_LEVEL` bot's at this table."""
        seats = tuple(game.seats) if seat is None else tuple(
            HUMAN if s == seat else PEOPLE_LEVEL if kind == HUMAN else kind
            for s, kind in enumerate(game.seats))
        table = cls(game.seed, game.players, seats, game.rules)
        table.human  # noqa: B018 - checks the seats
        return table

    def played_seats(self, people: Sequence[int]) -> tuple[str, ...]:
        """The seats as a result with these ``people`` seats was played: those human."""
        return tuple(HUMAN if s in people else kind for s, kind in enumerate(self.seats))

    @property
    def human(self) -> int:
        """The challenger's seat: the one human seat."""
        return challenger(self.seats)

    def new_game(self) -> Game:
        """A new game at this table (the current bots version)."""
        return Game(self.seed, self.players, self.rules, self.seats)

    def matches(self, game: Game) -> bool:
        """True when ``game`` is played at this table (the rules' names aside)."""
        return (game.seed, game.players, tuple(game.seats), game.rules) == (
            self.seed, self.players, self.seats, self.rules)

    def to_json(self) -> dict[str, Any]:
        """What ``new_game`` takes to start a normal game of this table."""
        return {"seed": self.seed, "players": self.players, "seats": list(self.seats),
                "rules": self.rules.to_dict()}


_FLAGGED = tuple((o, o.bit) for o in RULE_OPTIONS if o.bit is not None)
"""The options a custom ruleset's flags byte holds, one bit each (:data:`RULE_OPTIONS`
says which bit and which value it stands for)."""
_FLAG_BITS = sum(1 << bit for _, bit in _FLAGGED)
assert _FLAG_BITS < 256 and len(_FLAGGED) == len(RULE_OPTIONS) - 1, "one byte, every option"


def _unflagged(option: RuleOption) -> Any:
    """The value of a two-valued option whose bit is clear."""
    (other,) = (v for v in option.values if v != option.flag)
    return other


def _write_table(w: Writer, table: Table) -> None:
    w.text(table.seed)
    w.u8(table.players)
    for kind in table.seats:
        if kind in _SEAT_CODES:
            w.u8(_SEAT_CODES.index(kind))
        else:
            w.u8(_NAMED_SEAT)
            w.text(kind)
    rules = table.rules
    if rules.name in _RULE_CODES and rules == PRESETS[rules.name]:
        w.u8(_RULE_CODES.index(rules.name))
        return
    w.u8(_CUSTOM_RULES)
    w.text(rules.name)
    w.u8(sum((getattr(rules, o.field) == o.flag) << bit for o, bit in _FLAGGED))
    sizes = list(rules.schedule)
    w.u8(len(sizes))
    if len(sizes) % 2:
        sizes.append(0)
    for i in range(0, len(sizes), 2):
        w.u8(sizes[i] << 4 | sizes[i + 1])


def _read_rules(r: Reader) -> Ruleset:
    code = r.u8()
    if code < len(_RULE_CODES):
        return PRESETS[_RULE_CODES[code]]
    if code != _CUSTOM_RULES:
        raise PackingError("rules")
    name = r.text(_RULES_NAME_BYTES)
    flags = r.u8()
    if flags & ~_FLAG_BITS:
        raise PackingError("rules")
    count = r.u8()
    packed = r.take((count + 1) // 2)
    sizes = [nibble for byte in packed for nibble in (byte >> 4, byte & 0xF)][:count]
    try:
        return Ruleset(schedule=tuple(sizes), name=name, **{
            o.field: o.flag if flags >> bit & 1 else _unflagged(o) for o, bit in _FLAGGED})
    except JabberwockyError as exc:
        raise ChallengeError("challenge.table", detail=exc.message) from None


def _read_table(r: Reader) -> Table:
    try:
        seed = check_seed(r.text(_SEED_BYTES))
    except JabberwockyError as exc:
        raise ChallengeError("challenge.seed", detail=exc.message) from None
    try:
        players = check_players(r.u8())
    except JabberwockyError as exc:
        raise ChallengeError("challenge.table", detail=exc.message) from None
    seats = []
    for _ in range(players):
        code = r.u8()
        if code < len(_SEAT_CODES):
            seats.append(_SEAT_CODES[code])
        elif code == _NAMED_SEAT:
            seats.append(r.text(_KIND_BYTES))
        else:
            raise PackingError("seat")
    rules = _read_rules(r)
    table = Table(seed, players, tuple(seats), rules)
    try:
        table.new_game()  # the seat kinds, and a stock to turn trumps from
    except JabberwockyError as exc:
        raise ChallengeError("challenge.table", detail=exc.message) from None
    table.human  # noqa: B018 - exactly one human seat
    return table


# -- results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One player's game on the challenge's table, replayed and checked."""

    name: str | None
    bots_version: str | None
    takebacks: int
    total: int
    """The challenger's total as the link states it (checked against the replay)."""
    digits: tuple[int, ...]
    """Each move's index among the moves allowed then."""
    radices: tuple[int, ...] = field(compare=False)
    """How many moves were allowed at each move."""
    actions: tuple[Action, ...] = field(compare=False)
    game: Game = field(compare=False, repr=False)
    """The game replayed (its ``names`` hold the player's name at the human seat); read
    it, never play on it (reviews read this one, with no copy)."""
    people: tuple[int, ...] = ()
    """The seats other people played (an online game), ascending; empty for a game
    against the table's bots.  Their moves are the people's: replayed, never a bot's."""

    @property
    def bots_same(self) -> bool:
        """True when the result was played with this engine's bots."""
        return self.bots_version == BOTS_VERSION


def result_of(game: Game, name: str | None = None, seat: int | None = None) -> Result:
    """``game`` as played so far as a challenge result (``name`` checked; the game must
    have one human seat, or ``seat`` names the challenger's among the people's)."""
    if seat is not None:
        person_seat(game, seat)
    human = Table.of_game(game, seat).human
    people = tuple(s for s, kind in enumerate(game.seats) if kind == HUMAN and s != human)
    if name is not None:
        name = check_name(name)
    actions = tuple(game_actions(game))
    copy = fresh(game)
    digits, radices = [], []
    for action in actions:
        deal_for(copy, action)
        allowed = options(copy)
        digits.append(allowed.index(action.value))
        radices.append(len(allowed))
        apply(copy, action)
    names: list[str | None] = [None] * game.players
    names[human] = name
    copy.names = tuple(names)
    return Result(name, game.bots_version, game.takebacks, game.scores[human],
                  tuple(digits), tuple(radices), actions, copy, people)


def _write_result(w: Writer, result: Result, version: int) -> None:
    if version == VERSION_ONLINE:
        w.u8(sum(1 << s for s in result.people))
    w.varint(_bots_number(result.bots_version))
    w.varint(result.takebacks)
    w.text(result.name or "")
    w.varint(len(result.digits))
    w.signed(result.total)
    w.number(pack_digits(zip(result.digits, result.radices, strict=True)))


def _read_people(r: Reader, table: Table) -> tuple[int, ...]:
    """A version-2 result's seats played by people: a bit a seat, never the challenger's."""
    mask = r.u8()
    if mask >> table.players or mask >> table.human & 1:
        raise PackingError("people")
    return tuple(s for s in range(table.players) if mask >> s & 1)


def _read_result(r: Reader, table: Table, player: int, version: int) -> Result:
    people = _read_people(r, table) if version == VERSION_ONLINE else ()
    bots = r.varint()
    if bots > _MAX_BOTS_VERSION:
        raise PackingError("bots")
    takebacks = r.varint()
    raw_name = r.text(_NAME_BYTES)
    try:
        name = check_name(raw_name) if raw_name else None
    except JabberwockyError as exc:
        raise ChallengeError("challenge.name", player=player, detail=exc.message) from None
    moves = r.varint()
    if moves > max_moves(table.rules, table.players):
        raise ChallengeError("challenge.moves", player=player)
    total = r.signed()
    number = r.number((4 * moves + 7) // 8)  # every radix is at most 11: under 4 bits
    game = Game(table.seed, table.players, table.rules, table.played_seats(people))
    game.bots_version = _bots_version(bots)
    game.takebacks = takebacks
    names: list[str | None] = [None] * table.players
    names[table.human] = name
    game.names = tuple(names)
    digits, radices, actions = [], [], []
    for _ in range(moves):
        if game.phase == ROUND_OVER:
            game.next_round()
        allowed = options(game)
        if not allowed:  # the game is over: more moves than it has
            raise ChallengeError("challenge.moves", player=player)
        number, digit = divmod(number, len(allowed))
        seat = game.to_act
        assert seat is not None
        action = Action(game.round_index, seat, "bid" if game.phase == BIDDING else "card",
                        allowed[digit])
        apply(game, action)
        digits.append(digit)
        radices.append(len(allowed))
        actions.append(action)
    if number:  # digits beyond the last move: not what an encoder writes
        raise ChallengeError("challenge.moves", player=player)
    actual = game.scores[table.human]
    if actual != total:
        raise ChallengeError("challenge.total", player=player, value=total, actual=actual)
    return Result(name, game.bots_version, takebacks, total, tuple(digits), tuple(radices),
                  tuple(actions), game, people)


# -- the chain ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    """A table and a chain of 1 to :data:`MAX_RESULTS` results on it, oldest first."""

    table: Table
    results: tuple[Result, ...]

    @classmethod
    def of_game(cls, game: Game, name: str | None = None,
                previous: Challenge | None = None, seat: int | None = None) -> Challenge:
        """The challenge ``game`` makes: its result (named ``name``) after ``previous``'s
        (which must be on the same table), the oldest dropped beyond :data:`MAX_RESULTS`.
        ``seat``: the challenger's seat in a game several people played (online): the
        others' seats are :data:`PEOPLE_LEVEL` bots' for whoever answers."""
        result = result_of(game, name, seat)
        table = Table.of_game(game, seat)
        earlier = () if previous is None else previous.results
        if previous is not None and previous.table != table:
            raise ChallengeError("challenge.other_table")
        return cls(table, (*earlier, result)[-MAX_RESULTS:])

    @property
    def version(self) -> int:
        """2 when a result was played online with people, else 1 (each chain has one)."""
        return VERSION_ONLINE if any(r.people for r in self.results) else VERSION

    @cached_property
    def text(self) -> str:
        """The challenge text: ``jc1.`` (``jc2.``) and the packet in base64url."""
        version = self.version
        w = Writer()
        _write_table(w, self.table)
        w.u8(len(self.results))
        for result in self.results:
            _write_result(w, result, version)
        body = bytes(w.data)
        packet = Writer()
        packet.varint(len(body))
        packet.data += _checksum(body, version) + body
        return f"jc{version}." + b64url_encode(bytes(packet.data))

    @property
    def digest(self) -> str:
        """A short digest of the text (for the page's caches)."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        """What the page shows of the challenge: the table and each result's rounds."""
        human = self.table.human
        return {
            "format": FORMATS[self.version],
            "text": self.text,
            "digest": self.digest,
            "game": self.table.to_json(),
            "seat": human,
            "bots_version": BOTS_VERSION,
            "results": [result_json(r, human) for r in self.results],
        }


def result_json(result: Result, human: int) -> dict[str, Any]:
    game = result.game
    rounds, total = [], 0
    for res in game.results:
        total += res.points[human]
        rounds.append({"round": res.round_index + 1, "hand_size": res.hand_size,
                       "bid": res.bids[human], "made": res.taken[human],
                       "points": res.points[human], "total": total})
    return {
        "name": result.name,
        "bots_version": result.bots_version,
        "bots": "same" if result.bots_same else "differ",
        "takebacks": result.takebacks,
        "moves": len(result.digits),
        "finished": game.phase == GAME_OVER,
        "total": result.total,
        "rounds": rounds,
        "scores": list(game.scores),
        "winners": game.winners(),
        "people": list(result.people),
        "online": bool(result.people),
    }


def decode(text: object) -> Challenge:
    """Read and verify a challenge text; raises :class:`ChallengeError` saying which
    check failed (with ``.game`` set to the table the link names when it can be read).

    Linear in the text's length: the text is bounded first, and the moves are checked
    against the game's size before they are unpacked.
    """
    if not isinstance(text, str):
        raise ChallengeError("challenge.not_text", value=quote(text))
    if len(text) > MAX_CHALLENGE_CHARS:
        raise ChallengeError("challenge.too_long", length=len(text), max=MAX_CHALLENGE_CHARS)
    versioned = _VERSIONED.match(text)
    if versioned is None:
        raise ChallengeError("challenge.foreign", format=FORMAT)
    version = next((v for v in FORMATS if versioned.group(1) == str(v)), None)
    if version is None:
        raise ChallengeError("challenge.version", value=quote(versioned.group(1)),
                             known=", ".join(FORMATS.values()))
    payload = text[versioned.end():]
    try:
        return _decode(payload, text, version)
    except ChallengeError as exc:
        if exc.game is None:
            exc.game = _salvage(payload)
        raise


def _decode(payload: str, text: str, version: int) -> Challenge:
    if not is_b64url(payload):
        raise ChallengeError("challenge.base64")
    packet = Reader(b64url_decode_lenient(payload))
    try:
        size = packet.varint()
    except PackingError:
        raise ChallengeError("challenge.truncated") from None
    if packet.left < _CHECKSUM_BYTES + size:  # cut short, maybe mid-character
        raise ChallengeError("challenge.truncated")
    try:
        b64url_decode(payload)
    except PackingError:  # a dangling character, or unused bits set
        raise ChallengeError("challenge.base64") from None
    if packet.left > _CHECKSUM_BYTES + size:
        raise ChallengeError("challenge.trailing")
    checksum = packet.take(_CHECKSUM_BYTES)
    body = packet.take(size)
    if _checksum(body, version) != checksum:
        raise ChallengeError("challenge.tampered")
    r = Reader(body)
    table: Table | None = None
    try:
        table = _read_table(r)
        count = r.u8()
        if count == 0:
            raise ChallengeError("challenge.empty")
        if count > MAX_RESULTS:
            raise ChallengeError("challenge.chain_long", count=count, max=MAX_RESULTS)
        results = tuple(_read_result(r, table, i + 1, version) for i in range(count))
        if r.left:
            raise PackingError("trailing")
    except PackingError:
        raise _with_game(ChallengeError("challenge.malformed"), table) from None
    except ChallengeError as exc:
        raise _with_game(exc, table) from None
    challenge = Challenge(table, results)
    if challenge.text != text:  # one challenge, one text (its version too): nothing else
        raise _with_game(ChallengeError("challenge.malformed"), table)
    return challenge


def _with_game(exc: ChallengeError, table: Table | None) -> ChallengeError:
    if table is not None:
        exc.game = table.to_json()
    return exc


def _salvage(payload: str) -> dict[str, Any] | None:
    """The table a damaged link still names, if its start can be read (never raises)."""
    r = Reader(b64url_decode_lenient(payload))
    try:
        r.varint()
        r.take(_CHECKSUM_BYTES)
        return _read_table(r).to_json()
    except (PackingError, ChallengeError):
        return None


# -- the bots' moves ----------------------------------------------------------------------
def rounds_played(result: Result) -> int:
    """How many rounds of ``result`` have at least one move (what :func:`check_bots`
    can be asked about)."""
    return result.actions[-1].round_index + 1 if result.actions else 0



def check_bots(challenge: Challenge, player: int, round_index: int) -> Message | None:
    """Check that in round ``round_index`` (0-based) of result ``player`` (1-based) every
    bot's stored move is what that bot chooses from what it saw; ``None`` when they all
    are, else the message naming the first that is not.

    Only possible with the bots the result was played with: raises
    :class:`ChallengeError` ``challenge.bots_differ`` otherwise, and
    ``challenge.no_result`` / ``challenge.no_round`` for a result or round not there.
    """
    if not 1 <= player <= len(challenge.results):
        raise ChallengeError("challenge.no_result", player=player,
                             count=len(challenge.results))
    result = challenge.results[player - 1]
    if not result.bots_same:
        raise ChallengeError("challenge.bots_differ", player=player,
                             value=result.bots_version or "", known=BOTS_VERSION)
    rounds = rounds_played(result)
    if not 0 <= round_index < rounds:
        raise ChallengeError("challenge.no_round", player=player, round=round_index + 1,
                             rounds=rounds)
    table = challenge.table
    game = table.new_game()
    bots = {s: make_bot(kind) for s, kind in enumerate(table.seats)
            if kind != HUMAN and s not in result.people}  # a person's moves are theirs
    for action in result.actions:
        if action.round_index > round_index:
            break
        deal_for(game, action)
        bot = bots.get(action.seat)
        if action.round_index == round_index and bot is not None:
            chosen = bot.act(game.observation(action.seat))
            if chosen != action.value:
                return Message("challenge.bots_moved", player=player, round=round_index + 1,
                               seat=action.seat)
        apply(game, action)
    return None
