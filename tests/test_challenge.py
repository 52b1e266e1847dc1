"""Challenge links (``jabberwocky-challenge/1``; version 2, of online games, in
``test_challenge_online.py``): round trips, sizes, chains, the bots'
moves, and hostile text refused with a specific code, never an exception."""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import time
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jabberwocky.bots import BOTS_VERSION, make_bot
from jabberwocky.core.actions import game_actions, options
from jabberwocky.core.errors import ChallengeError
from jabberwocky.core.game import BIDDING, GAME_OVER, ROUND_OVER, Game
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.formats.challenge import (
    FORMAT,
    MAX_CHALLENGE_CHARS,
    MAX_RESULTS,
    PREFIX,
    Challenge,
    Table,
    check_bots,
    decode,
    max_moves,
    result_of,
    rounds_played,
)
from jabberwocky.formats.packing import Writer, b64url_decode, b64url_encode

SEATS4 = ["human", "medium", "medium", "medium"]


def bot_game(seed: str, players: int = 4, rules: Ruleset = JABBERWOCKY,
             level: str = "medium", human: str = "medium", moves: int = 10**6,
             seats: list[str] | None = None) -> Game:
    """A game whose bots play their own moves and whose human seat plays ``human``'s."""
    seats = seats or ["human"] + [level] * (players - 1)
    game = Game(seed, players, rules, seats)
    bots = [make_bot(human if kind == "human" else kind) for kind in seats]
    for _ in range(moves):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        seat = game.to_act
        assert seat is not None
        choice = bots[seat].act(game.observation(seat))
        (game.bid if game.phase == BIDDING else game.play)(choice)
    return game


def any_moves_game(seed: str, players: int, rules: Ruleset, moves: int, salt: int) -> Game:
    """Any allowed moves for every seat (reneges included): what a link can hold."""
    game = Game(seed, players, rules, ["human"] + ["random"] * (players - 1))
    rng = Rng(salt)
    for _ in range(moves):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            game.next_round()
        allowed = options(game)
        choice = allowed[rng.below(len(allowed))]
        (game.bid if game.phase == BIDDING else game.play)(choice)
    return game


@pytest.fixture(scope="module")
def full() -> Game:
    return bot_game("brave-otter-lamp-42")


@pytest.fixture(scope="module")
def link(full: Game) -> str:
    return Challenge.of_game(full, "Alex").text


# -- round trips and sizes -----------------------------------------------------------------

SEED_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30)
NAMES = st.none() | st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                            min_size=1, max_size=24).filter(lambda s: s.strip() != "").filter(
    lambda s: not any(c in s for c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                      "\u2066\u2067\u2068\u2069"))
RULESETS = st.sampled_from([JABBERWOCKY, OH_HELL, HONOUR]) | st.builds(
    lambda sched, hook, lead, scoring, pen, name: Ruleset(
        tuple(sched), hook, lead, scoring, pen, name),
    st.lists(st.integers(1, 10), min_size=1, max_size=6), st.booleans(),
    st.sampled_from(["after-broken", "any-time"]),
    st.sampled_from(["exact-1", "exact-10-plus-bid"]), st.sampled_from([0, 3]),
    st.sampled_from(["custom", "jabberwocky", "x y", "\u00e9t\u00e9"]))


@st.composite
def games(draw: st.DrawFn) -> Game:
    rules = draw(RULESETS)
    players = draw(st.integers(3, 5).filter(lambda n: n * max(rules.schedule) <= 51))
    game = any_moves_game(draw(SEED_TEXT), players, rules, draw(st.integers(0, 600)),
                          draw(st.integers(0, 2**32)))
    game.takebacks = draw(st.sampled_from([0, 0, 1, 7]))
    return game


@given(games(), NAMES)
def test_encode_then_decode_gives_the_game_back(game: Game, name: str | None) -> None:
    text = Challenge.of_game(game, name).text
    assert text.startswith(PREFIX) and len(text) <= MAX_CHALLENGE_CHARS
    decoded = decode(text)
    assert decoded.text == text
    assert decoded.table == Table.of_game(game)
    (result,) = decoded.results
    assert (result.name, result.total, result.takebacks) == (name, game.scores[0], game.takebacks)
    assert list(result.actions) == game_actions(game)
    assert result.game.scores == game.scores and result.game.results == game.results
    assert result.bots_version == BOTS_VERSION


DOC_EXAMPLE = ("jc1.WU6v-2MTYnJhdmUtb3R0ZXItbGFtcC00MgQAAwMDAAEBAARBbGV44AIWMwyocTu5aymXl9JUX"
               "OhJ9BMG0FMJaDZeiie7q3R3EklzZvFypKRESbgMyKS7DukIHmuLRg")
"""The example of docs/challenge-links.md."""


def test_the_documented_example_decodes() -> None:
    challenge = decode(DOC_EXAMPLE)
    assert len(DOC_EXAMPLE) == 130
    assert challenge.table == Table("brave-otter-lamp-42", 4, tuple(SEATS4), JABBERWOCKY)
    (alex,) = challenge.results
    assert alex.name == "Alex" and alex.game.phase == GAME_OVER and alex.total == 11


def test_names_round_trip_exactly() -> None:
    game = bot_game("names", moves=20)
    for name in ("Alex", "  Maria  ", "Jiří", "김민준", "\U0001f468\u200d\U0001f469"):
        assert decode(Challenge.of_game(game, name).text).results[0].name == name


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("rules", [JABBERWOCKY, OH_HELL, HONOUR], ids=lambda r: r.name)
def test_a_full_game_fits_in_a_short_link(players: int, rules: Ruleset) -> None:
    """Measured with medium bots: a 4-player Jabberwocky game with a name is about 130
    characters, the longest here (5 players, honour rule) about 190; five results about
    450 and 750."""
    game = bot_game(f"size {players} {rules.name}", players, rules)
    one = Challenge.of_game(game, "Alex")
    chain = one
    for k in range(MAX_RESULTS - 1):
        chain = Challenge.of_game(bot_game(f"size {players} {rules.name}", players, rules,
                                           human="easy" if k % 2 else "random"),
                                  f"Player {k}", chain)
    assert len(chain.results) == MAX_RESULTS
    assert len(one.text) < 250
    assert len(chain.text) < 1000
    assert decode(chain.text) == chain


def test_the_largest_table_with_five_results_fits() -> None:
    """Five players, 30 rounds of 10 cards, the longest seed, names and rules name of
    four-byte characters: under the limit the decoder reads."""
    rules = Ruleset(schedule=(10,) * 30, name="\U0001f0a1" * 40)
    seed = "\U0001f0a1" * 200
    chain = None
    for k in range(MAX_RESULTS):
        game = any_moves_game(seed, 5, rules, 10**6, k)
        assert game.phase == GAME_OVER
        chain = Challenge.of_game(game, "\U0001f0a1" * 24, chain)
    assert chain is not None and len(chain.text) <= MAX_CHALLENGE_CHARS
    assert decode(chain.text) == chain


def test_a_chain_keeps_the_five_latest_results(full: Game) -> None:
    chain = None
    for k in range(7):
        chain = Challenge.of_game(full, f"P{k}", chain)
    assert chain is not None
    assert [r.name for r in decode(chain.text).results] == ["P2", "P3", "P4", "P5", "P6"]
    other = bot_game("another seed", moves=10)
    with pytest.raises(ChallengeError) as err:
        Challenge.of_game(other, None, chain)
    assert err.value.code == "challenge.other_table"


def test_the_summary_gives_each_round_of_the_challenger(full: Game, link: str) -> None:
    data = decode(link).to_json()
    assert data["format"] == FORMAT and data["seat"] == 0 and data["text"] == link
    (alex,) = data["results"]
    assert alex["name"] == "Alex" and alex["finished"] and alex["bots"] == "same"
    assert len(alex["rounds"]) == 13
    for row, res in zip(alex["rounds"], full.results, strict=True):
        assert (row["bid"], row["made"], row["points"]) == (res.bids[0], res.taken[0],
                                                            res.points[0])
    assert alex["rounds"][-1]["total"] == alex["total"] == full.scores[0]
    assert alex["winners"] == full.winners()


def test_only_a_table_with_one_human_makes_a_challenge() -> None:
    game = Game("two humans", 4, seats=["human", "human", "medium", "medium"])
    with pytest.raises(ChallengeError) as err:
        result_of(game)
    assert err.value.code == "challenge.humans"


def test_an_unfinished_game_is_a_result_so_far() -> None:
    game = bot_game("half", moves=77)
    result = decode(Challenge.of_game(game).text).results[0]
    assert result.game.phase != GAME_OVER
    assert list(result.actions) == game_actions(game)


def test_the_human_may_sit_anywhere() -> None:
    game = bot_game("seat 2", seats=["medium", "easy", "human", "random"], moves=50)
    decoded = decode(Challenge.of_game(game, "Bo").text)
    assert decoded.table.human == 2 and decoded.results[0].total == game.scores[2]


# -- the bots' own moves ------------------------------------------------------------------


def test_every_bot_move_checks_out_round_by_round() -> None:
    rules = JABBERWOCKY.with_options(schedule=(3, 4, 2))
    game = bot_game("check me", rules=rules, seats=["human", "medium", "easy", "random"])
    challenge = decode(Challenge.of_game(game).text)
    assert rounds_played(challenge.results[0]) == 3
    for r in range(3):
        assert check_bots(challenge, 1, r) is None
    with pytest.raises(ChallengeError) as err:
        check_bots(challenge, 1, 3)
    assert err.value.code == "challenge.no_round"
    with pytest.raises(ChallengeError) as err:
        check_bots(challenge, 2, 0)
    assert err.value.code == "challenge.no_result"


def test_a_bot_move_the_bot_would_not_make_is_found() -> None:
    """A link whose bots' moves were made up (here: a random policy in seats that say
    medium) replays and states the right total, but the bots' check names the round."""
    rules = JABBERWOCKY.with_options(schedule=(4, 5))
    faked = any_moves_game("faked", 4, rules, 10**6, 3)
    faked.seats = tuple(SEATS4)
    challenge = decode(Challenge.of_game(faked, "Cheat").text)
    found = [check_bots(challenge, 1, r) for r in range(2)]
    assert any(m is not None and m.code == "challenge.bots_moved" for m in found)


def test_other_bots_cannot_be_checked_and_say_so(full: Game) -> None:
    full_copy = bot_game("brave-otter-lamp-42", moves=40)
    full_copy.bots_version = "jabberwocky-bots/99"
    challenge = decode(Challenge.of_game(full_copy, "Old").text)
    assert challenge.results[0].bots_version == "jabberwocky-bots/99"
    assert challenge.to_json()["results"][0]["bots"] == "differ"
    with pytest.raises(ChallengeError) as err:
        check_bots(challenge, 1, 0)
    assert err.value.code == "challenge.bots_differ"
    full_copy.bots_version = None
    assert decode(Challenge.of_game(full_copy).text).results[0].bots_version is None


# -- hostile text ----------------------------------------------------------------------------


def packet(body: bytes) -> str:
    """A challenge text around ``body`` with a correct length and checksum."""
    w = Writer()
    w.varint(len(body))
    checksum = hashlib.sha256(FORMAT.encode() + b"\0" + body).digest()[:4]
    return PREFIX + b64url_encode(bytes(w.data) + checksum + body)


def body_of(text: str) -> bytes:
    data = b64url_decode(text[len(PREFIX):])
    size = data[0] | (data[1] & 0x7F) << 7 if data[0] & 0x80 else data[0]
    start = 2 if data[0] & 0x80 else 1
    assert len(data) == start + 4 + size
    return data[start + 4:]


def table_bytes(seed: str = "s", players: int = 4, seats: bytes = b"\0\3\3\3",
                rules: bytes = b"\0") -> bytes:
    w = Writer()
    w.text(seed)
    w.u8(players)
    return bytes(w.data) + seats + rules


def result_bytes(name: str = "", moves: int = 0, total: int = 0, number: int = 0,
                 bots: int = 1, takebacks: int = 0) -> bytes:
    w = Writer()
    w.varint(bots)
    w.varint(takebacks)
    w.text(name)
    w.varint(moves)
    w.signed(total)
    w.number(number)
    return bytes(w.data)


def restated(text: str, change: int, negate: bool = False) -> str:
    """``text`` with its first result's stated total changed (a well-made link)."""
    challenge = decode(text)
    first = challenge.results[0]
    total = -first.total - 1 if negate else first.total + change
    return Challenge(challenge.table, (dataclasses.replace(first, total=total),)).text


def flip(text: str, i: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    c = text[i]
    return text[:i] + alphabet[(alphabet.index(c) + 1) % 64] + text[i + 1:]


HOSTILE: dict[str, tuple[Callable[[str], object], str]] = {
    "not text": (lambda t: 42, "challenge.not_text"),
    "a list": (lambda t: [t], "challenge.not_text"),
    "empty": (lambda t: "", "challenge.foreign"),
    "a seed link": (lambda t: "seed=brave-otter&players=4", "challenge.foreign"),
    "a record": (lambda t: '{"format": "jabberwocky-game/1"}', "challenge.foreign"),
    "a whole URL": (lambda t: "https://example.org/#c=" + t, "challenge.foreign"),
    "oversized": (lambda t: t + "A" * MAX_CHALLENGE_CHARS, "challenge.too_long"),
    "a million characters": (lambda t: "jc1." + "A" * 10**6, "challenge.too_long"),
    "version 3": (lambda t: "jc3." + t[4:], "challenge.version"),
    "a version-1 packet called version 2": (lambda t: "jc2." + t[4:], "challenge.tampered"),
    "version 0": (lambda t: "jc0." + t[4:], "challenge.version"),
    "bad base64 character": (lambda t: t[:20] + "!" + t[21:], "challenge.base64"),
    "standard base64 with +": (lambda t: t[:20] + "+" + t[21:], "challenge.base64"),
    "padding": (lambda t: t + "==", "challenge.base64"),
    "a space": (lambda t: t[:30] + " " + t[30:], "challenge.base64"),
    "a dangling character": (lambda t: t + "A" * ((1 - (len(t) - 4)) % 4 or 4),
                             "challenge.base64"),
    "unused bits set": (lambda t: t + "AB" if (len(t) - 4) % 4 == 0 else t[:-1] + "B",
                        "challenge.base64"),
    "truncated by half": (lambda t: t[: 4 + (len(t) - 4) // 2 // 4 * 4], "challenge.truncated"),
    "truncated by 4": (lambda t: t[:-4], "challenge.truncated"),
    "only the prefix": (lambda t: "jc1.", "challenge.truncated"),
    "extra bytes": (lambda t: PREFIX + b64url_encode(b64url_decode(t[4:]) + b"\0\0\0"),
                    "challenge.trailing"),
    "one character changed": (lambda t: flip(t, len(t) // 2), "challenge.tampered"),
    "checksum changed": (lambda t: flip(t, 6), "challenge.tampered"),
    "total changed, checksum made good": (lambda t: restated(t, 1), "challenge.total"),
    "total negated, checksum made good": (lambda t: restated(t, -1, negate=True),
                                          "challenge.total"),
    "six results": (lambda t: packet(table_bytes() + b"\6" + result_bytes() * 6),
                    "challenge.chain_long"),
    "no result": (lambda t: packet(table_bytes() + b"\0"), "challenge.empty"),
    "a name with a newline": (lambda t: packet(table_bytes() + b"\1" + result_bytes("Al\nex")),
                              "challenge.name"),
    "a name with a bidi override": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes("Al\u202eex")), "challenge.name"),
    "a name of 25 characters": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes("x" * 25)), "challenge.name"),
    "a blank name": (lambda t: packet(table_bytes() + b"\1" + result_bytes("   ")),
                     "challenge.name"),
    "a name that is not UTF-8": (
        lambda t: packet(table_bytes() + b"\1" + b"\1\0\2\xff\xfe\0\0\0"), "challenge.malformed"),
    "a seed with a tab": (lambda t: packet(table_bytes("a\tb") + b"\1" + result_bytes()),
                          "challenge.seed"),
    "two players": (lambda t: packet(table_bytes(players=2, seats=b"\0\3") + b"\1"
                                     + result_bytes()), "challenge.table"),
    "a seat kind unknown": (lambda t: packet(table_bytes(seats=b"\0\3\3\7") + b"\1"
                                             + result_bytes()), "challenge.malformed"),
    # (a well-formed level name the engine does not have is a table it can verify)
    "a seat kind named in a way no level is": (
        lambda t: packet(table_bytes(seats=b"\0\3\3\xff\4WOLF") + b"\1" + result_bytes()),
        "challenge.table"),
    "no human": (lambda t: packet(table_bytes(seats=b"\3\3\3\3") + b"\1" + result_bytes()),
                 "challenge.humans"),
    "two humans": (lambda t: packet(table_bytes(seats=b"\0\0\3\3") + b"\1" + result_bytes()),
                   "challenge.humans"),
    "hand size 15": (lambda t: packet(table_bytes(rules=b"\xff\0\1\1\xf0") + b"\1"
                                      + result_bytes()), "challenge.table"),
    "a preset spelled out": (
        lambda t: packet(table_bytes(rules=b"\xff\x0bjabberwocky\1\x0d\x34\x56\x78\x98\x76\x54"
                                     b"\x30") + b"\1" + result_bytes()), "challenge.malformed"),
    "more moves than a game has": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes(moves=10**6)), "challenge.moves"),
    "a number left over": (lambda t: packet(table_bytes() + b"\1"
                                            + result_bytes(moves=1, number=4 * 3 + 1)),
                           "challenge.moves"),
    "a number too long": (lambda t: packet(table_bytes() + b"\1"
                                           + result_bytes(moves=2, number=1 << 64)),
                          "challenge.malformed"),
    "a varint with a redundant byte": (
        lambda t: packet(table_bytes() + b"\1" + b"\x81\0" + result_bytes()[1:]),
        "challenge.malformed"),
    "a number with a leading zero": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes()[:-1] + b"\1\0"),
        "challenge.malformed"),
    "bytes after the last result": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes() + b"\0"), "challenge.malformed"),
    "a body cut short, checksum made good": (lambda t: packet(body_of(t)[:-5]),
                                             "challenge.malformed"),
    "a bots version beyond reason": (
        lambda t: packet(table_bytes() + b"\1" + result_bytes(bots=2**34)), "challenge.malformed"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_text_is_refused_with_its_own_code(name: str, link: str) -> None:
    make, code = HOSTILE[name]
    with pytest.raises(ChallengeError) as err:
        decode(make(link))
    assert err.value.code == code, str(err.value)
    assert len(str(err.value)) < 300


def test_there_are_many_kinds_of_hostile_text() -> None:
    assert len(HOSTILE) >= 40
    assert len({code for _, code in HOSTILE.values()}) >= 17  # every code decode has


@pytest.mark.parametrize("name", ["truncated by half", "one character changed", "total changed,"
                                  " checksum made good", "a name with a newline", "no human"])
def test_a_refused_link_still_names_its_table_when_it_can(name: str, link: str) -> None:
    with pytest.raises(ChallengeError) as err:
        decode(HOSTILE[name][0](link))
    game = err.value.game
    if name == "no human":
        assert game is None  # a table no one can play is not offered
    elif name == "a name with a newline":
        assert game is not None and game["seed"] == "s"
    else:
        assert game == {"seed": "brave-otter-lamp-42", "players": 4, "seats": SEATS4,
                        "rules": JABBERWOCKY.to_dict()}


def test_a_foreign_or_oversized_text_names_no_table() -> None:
    for text in ("hello", "jc1.!!!!", "x" * 10**5):
        with pytest.raises(ChallengeError) as err:
            decode(text)
        assert err.value.game is None


# -- properties: any text, any change of a valid one ----------------------------------------

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def decodes_or_refuses(text: object) -> None:
    try:
        challenge = decode(text)
    except ChallengeError as exc:
        assert exc.code.startswith("challenge.") and str(exc)
        return
    assert challenge.text == text  # what decodes is exactly the one text of its challenge


@given(st.text(max_size=300) | st.text(ALPHABET, max_size=400).map(lambda t: "jc1." + t)
       | st.binary(max_size=300).map(lambda b: PREFIX + b64url_encode(b)))
def test_any_text_is_a_verified_challenge_or_a_clear_refusal(text: str) -> None:
    decodes_or_refuses(text)


@given(st.binary(max_size=200))
def test_any_body_with_a_good_checksum_is_verified_or_refused(body: bytes) -> None:
    decodes_or_refuses(packet(body))


@given(st.integers(0, 2**31), st.sampled_from(["flip", "cut", "insert", "delete", "swap"]),
       st.integers(1, 3))
def test_any_change_of_a_valid_link_is_verified_or_refused(salt: int, how: str,
                                                          times: int) -> None:
    text = LINKS[salt % len(LINKS)]
    rng = Rng(salt)
    for _ in range(times):
        i = 4 + rng.below(len(text) - 4)
        if how == "flip":
            text = flip(text, i)
        elif how == "cut":
            text = text[:i]
        elif how == "insert":
            text = text[:i] + ALPHABET[rng.below(64)] + text[i:]
        elif how == "delete":
            text = text[:i] + text[i + 1:]
        else:
            j = 4 + rng.below(len(text) - 4)
            chars = list(text)
            chars[i], chars[j] = chars[j], chars[i]
            text = "".join(chars)
    decodes_or_refuses(text)


@given(st.integers(0, 2**31), st.integers(0, 7))
def test_a_changed_body_with_its_checksum_made_good_is_verified_or_refused(
        salt: int, bit: int) -> None:
    body = bytearray(body_of(LINKS[salt % len(LINKS)]))
    body[salt % len(body)] ^= 1 << bit
    decodes_or_refuses(packet(bytes(body)))


LINKS = [Challenge.of_game(any_moves_game(f"link {k}", 3 + k % 3, r, 10**6, k), n).text
         for k, (r, n) in enumerate([(JABBERWOCKY, "Alex"), (OH_HELL, None), (HONOUR, "Bo"),
                                     (JABBERWOCKY.with_options(schedule=(2, 3)), "Cy")])]


# -- linear time -----------------------------------------------------------------------------


def best_of(f: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.suppress(ChallengeError):
            f()
        times.append(time.perf_counter() - t0)
    return min(times)


def test_the_costliest_hostile_link_costs_about_a_valid_one() -> None:
    """The worst a crafted link can ask (the most moves of the largest table, each with
    the largest number it may hold, five times over) is refused in about the time a valid
    link of that table takes: the moves are bounded by the rules and the number by the
    moves before anything is unpacked."""
    rules = Ruleset(schedule=(10,) * 30)
    moves = max_moves(rules, 5)
    w = Writer()
    w.text("s")
    w.u8(5)
    w.data += b"\0\3\3\3\3\xff"
    w.text("big")
    w.u8(1)
    w.u8(30)
    w.data += b"\xaa" * 15
    w.u8(5)
    for _ in range(5):
        w.varint(1)
        w.varint(0)
        w.text("")
        w.varint(moves)
        w.signed(0)
        w.number((1 << (4 * moves)) - 1)
    hostile = packet(bytes(w.data))
    assert len(hostile) <= MAX_CHALLENGE_CHARS
    chain = None
    for k in range(5):
        chain = Challenge.of_game(any_moves_game("s", 5, rules, 10**6, k), None, chain)
    assert chain is not None
    ratio = best_of(lambda: decode(hostile)) / best_of(lambda: decode(chain.text))
    assert ratio < 5, f"{ratio:.1f}x a valid link"
    with pytest.raises(ChallengeError) as err:
        decode(hostile)
    assert err.value.code == "challenge.moves"


def test_base64url_is_canonical() -> None:
    assert b64url_decode(b64url_encode(b"\xff\xee")) == b"\xff\xee"
    assert base64.urlsafe_b64encode(b"\xff\xee") == b"_-4="
    for bad in ("_-5", "_-4=", "A", "AAAAA", "a b"):
        with pytest.raises(ValueError):
            b64url_decode(bad)
