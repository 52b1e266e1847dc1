"""Challenge links of online games (``jabberwocky-challenge/2``): a person's seat among
several, the other people's seats played by bots for who answers; round trips, the
requests of the host's and a guest's page, canonical and forged text refused, and
version 1 exactly as before."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest
from api_calls import call, refused
from hypothesis import given
from hypothesis import strategies as st
from test_challenge import DOC_EXAMPLE, any_moves_game, body_of, bot_game, flip

from jabberwocky.core.errors import ChallengeError
from jabberwocky.core.game import GAME_OVER, Game
from jabberwocky.core.rules import JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.formats.challenge import (
    FORMAT,
    FORMAT_ONLINE,
    PEOPLE_LEVEL,
    PREFIX,
    PREFIX_ONLINE,
    Challenge,
    Table,
    check_bots,
    decode,
    result_of,
)
from jabberwocky.formats.packing import Writer, b64url_encode
from jabberwocky.formats.record import dumps
from jabberwocky.webapi import WebApi

SHORT = Ruleset((2, 3, 2), name="short")


def online_game(players: int = 3, seed: str = "friends-online", bots: int = 0,
                rules: Ruleset = JABBERWOCKY) -> Game:
    """A whole game of people (their moves a medium bot's here) and ``bots`` easy bots."""
    seats = ["human"] * (players - bots) + ["easy"] * bots
    return bot_game(seed, players, rules, seats=seats)


def packet2(body: bytes) -> str:
    """A version-2 text around ``body`` with a correct length and checksum."""
    w = Writer()
    w.varint(len(body))
    checksum = hashlib.sha256(FORMAT_ONLINE.encode() + b"\0" + body).digest()[:4]
    return PREFIX_ONLINE + b64url_encode(bytes(w.data) + checksum + body)


@pytest.fixture(scope="module")
def game3() -> Game:
    return online_game(3)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_online_game_round_trips_from_each_persons_seat(players: int) -> None:
    game = online_game(players, rules=OH_HELL)
    for seat in range(players):
        challenge = Challenge.of_game(game, "Ada", seat=seat)
        text = challenge.text
        assert text.startswith(PREFIX_ONLINE) and challenge.version == 2
        back = decode(text)
        assert back == challenge and back.text == text
        seats = tuple("human" if s == seat else PEOPLE_LEVEL for s in range(players))
        assert back.table == Table(game.seed, players, seats, OH_HELL)
        (result,) = back.results
        assert result.people == tuple(s for s in range(players) if s != seat)
        assert result.total == game.scores[seat] and result.name == "Ada"
        assert result.game.scores == game.scores and result.game.seats == game.seats
        summary = back.to_json()
        assert summary["format"] == FORMAT_ONLINE and summary["seat"] == seat
        assert summary["results"][0]["online"] is True
        assert summary["results"][0]["people"] == list(result.people)


@given(st.integers(3, 5), st.integers(0, 2), st.integers(0, 400), st.integers(0, 2**32),
       st.data())
def test_any_online_game_so_far_round_trips(players: int, bots: int, moves: int, salt: int,
                                            data: st.DataObject) -> None:
    game = any_moves_game("any-online", players, SHORT, moves, salt)
    game.seats = tuple(["human"] * (players - bots) + ["random"] * bots)
    seat = data.draw(st.integers(0, players - bots - 1))
    if not game.results:
        return
    challenge = Challenge.of_game(game, None, seat=seat)
    assert challenge.version == (2 if players - bots > 1 else 1)
    back = decode(challenge.text)
    assert back.results[0].total == game.scores[seat]
    assert back.table.seats[players - bots:] == ("random",) * bots  # the bots stay


def test_bots_at_an_online_table_stay_and_are_checked(game3: Game) -> None:
    game = online_game(4, seed="two-and-two", bots=2, rules=SHORT)
    challenge = decode(Challenge.of_game(game, "Ada", seat=1).text)
    assert challenge.table.seats == (PEOPLE_LEVEL, "human", "easy", "easy")
    assert challenge.results[0].people == (0,)
    for rnd in range(3):
        assert check_bots(challenge, 1, rnd) is None  # the easy bots' own moves; not seat 0


def test_a_seat_that_no_person_played_makes_no_challenge() -> None:
    game = online_game(4, seed="two-and-two", bots=2, rules=SHORT)
    for seat in (2, 3, 4, -1, "1", True):
        with pytest.raises(ChallengeError) as caught:
            Challenge.of_game(game, seat=seat)  # type: ignore[arg-type]
        assert caught.value.code == "challenge.seat"
    with pytest.raises(ChallengeError) as several:
        Challenge.of_game(game)  # no seat named: which person's challenge is it?
    assert several.value.code == "challenge.humans"


def test_who_answers_plays_against_bots_and_passes_it_on(game3: Game) -> None:
    made = Challenge.of_game(game3, "Ada", seat=2)
    table = made.table
    answer = bot_game(game3.seed, 3, seats=list(table.seats), human="easy")
    answer.challenge = made.text
    passed = Challenge.of_game(answer, "Bo", made)
    assert passed.text.startswith(PREFIX_ONLINE)
    back = decode(passed.text)
    assert [r.people for r in back.results] == [(0, 1), ()]
    assert [r.name for r in back.results] == ["Ada", "Bo"]
    assert back.results[1].total == answer.scores[2]
    assert check_bots(back, 2, 0) is None  # the answer's bots are the table's bots
    for k in range(4):  # beyond five the online game drops off: version 1 again
        passed = Challenge.of_game(answer, f"C{k}", passed)
    assert passed.text.startswith(PREFIX) and all(not r.people for r in passed.results)
    assert decode(passed.text) == passed


def test_version_1_is_written_and_read_exactly_as_before() -> None:
    assert decode(DOC_EXAMPLE).text == DOC_EXAMPLE
    assert decode(DOC_EXAMPLE).to_json()["format"] == FORMAT
    assert decode(DOC_EXAMPLE).to_json()["results"][0]["online"] is False
    game = bot_game("brave-otter-lamp-42")
    game.bots_version = decode(DOC_EXAMPLE).results[0].bots_version  # made with bots/1
    assert Challenge.of_game(game, "Alex").text == DOC_EXAMPLE  # the same bytes as ever
    assert result_of(game, "Alex").people == ()


def test_a_chain_without_an_online_game_is_refused_as_version_2(game3: Game) -> None:
    v1 = DOC_EXAMPLE
    mask0 = packet2(_as_version_2(body_of(v1), [0]))
    assert _refusal(mask0) == "challenge.malformed"  # its one text is jc1.


def _as_version_2(body: bytes, masks: list[int]) -> bytes:
    """The documented example's body (one result) with a people byte before its result."""
    table_end = len(body) - len(_result_part(body))
    return body[:table_end] + bytes(masks) + _result_part(body)


def _result_part(body: bytes) -> bytes:
    # the documented example: text seed (1 + 19 bytes), u8 players, 4 seats, u8 rules,
    # u8 count; its one result follows
    return body[1 + 19 + 1 + 4 + 1 + 1:]


def _refusal(text: str) -> str:
    with pytest.raises(ChallengeError) as caught:
        decode(text)
    return caught.value.code


def test_people_bits_beyond_the_table_or_on_the_challenger_are_refused() -> None:
    good = body_of(DOC_EXAMPLE)
    seats_as_people = packet2(_as_version_2(good, [0b0010]))  # a bot's seat as a person's
    assert decode(seats_as_people).results[0].people == (1,)  # replays: every move allowed
    for mask in (0b0001, 0b10000, 0b1_0000_0000 - 1):  # the challenger (seat 0); seat 4
        assert _refusal(packet2(_as_version_2(good, [mask]))) == "challenge.malformed"


def test_forged_online_results_are_refused(game3: Game) -> None:
    text = Challenge.of_game(game3, "Ada", seat=1).text
    challenge = decode(text)
    first = challenge.results[0]
    forged = Challenge(challenge.table, (dataclasses.replace(first, total=first.total + 1),))
    assert _refusal(forged.text) == "challenge.total"
    other = dataclasses.replace(first, people=(0,))  # one person fewer: still replays
    assert decode(Challenge(challenge.table, (other,)).text).results[0].people == (0,)
    assert _refusal("jc1." + text[4:]) == "challenge.tampered"  # the other checksum
    assert _refusal(text[:-3]) == "challenge.truncated"
    assert _refusal(flip(text, 20)) in ("challenge.tampered", "challenge.base64")
    assert _refusal("jc3." + text[4:]) == "challenge.version"


def test_the_host_and_a_guest_make_it_from_their_own_seat(game3: Game) -> None:
    record = dumps(game3)
    host = WebApi()  # the host's page: the guests' seats are remote
    call(host, "import_record", {"record": record, "remote": [1, 2]})
    guest = WebApi()  # a guest's page: the record the host sends after the game
    call(guest, "import_record", {"record": record})
    made = {seat: call(api, "challenge_encode", {"seat": seat, "name": f"P{seat}"})
            for api, seat in ((host, 0), (guest, 1), (guest, 2))}
    for seat, answer in made.items():
        assert answer["format"] == FORMAT_ONLINE and answer["seat"] == seat
        assert answer["results"][0]["total"] == game3.scores[seat]
        assert answer["results"][0]["online"] and answer["results"][0]["name"] == f"P{seat}"
    assert refused(guest, "challenge_encode", {"seat": 3})["code"] == "challenge.seat"
    assert refused(guest, "challenge_encode", {"seat": "1"})["code"] == "challenge.seat"
    assert refused(guest, "challenge_encode", {})["code"] == "challenge.humans"

    friend = WebApi()  # a friend who opens it: the others' seats are bots now
    opened = call(friend, "challenge_open", {"text": made[1]["text"]})
    assert opened["ok"] and opened["game"]["seats"] == [PEOPLE_LEVEL, "human", PEOPLE_LEVEL]
    view = call(friend, "challenge_play", {"text": made[1]["text"], "name": "Bo"})
    assert view["challenge"] and view["viewer"] == 1 and view["humans"] == [1]
    review = call(friend, "review", {"challenge": made[1]["text"], "player": 1})
    assert json.dumps(review)  # the online game reviews, every hand face up
    assert game3.phase == GAME_OVER
