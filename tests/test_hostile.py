"""Hostile input, category by category: refused clearly, in linear time, nothing lost.

The doors are the worker facade (:meth:`WebApi.handle`), the record loader
(:func:`loads`, :func:`from_record`) and the command line.  For each category of the
fuzzing pass of issue 13 there is a test with several examples, and hypothesis
properties over any JSON value and over mutations of valid records:

- text that is not encodable (unpaired surrogates) and control characters in seeds;
- shapes that made a pre-check quadratic, timed against ``json.loads`` of a valid
  document of the same size (a ratio, not a wall-clock limit);
- files that are not UTF-8 text, for ``check`` (exit status 1, never a traceback);
- absurd numbers and sizes, refused before anything is sized by them;
- JSON types: ``true`` is not 1 and ``2.0`` is not 2 where a whole number belongs;
- meaning: a record that loads states nothing its replay contradicts;
- echo: no message quotes a hostile value whole;
- nothing lost: a refused request leaves the table's game exactly as it was.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.core.cards import parse_card
from jabberwocky.core.errors import JabberwockyError, RecordError, SeedError
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.messages import MAX_QUOTE
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.core.table import check_seed
from jabberwocky.drivers.cli import main
from jabberwocky.drivers.simulate import play_game
from jabberwocky.formats.jsontext import json_too_deep
from jabberwocky.formats.record import MAX_RECORD_BYTES, dumps, from_record, loads, to_record
from jabberwocky.webapi import WebApi

SRC = Path(__file__).resolve().parent.parent / "src"
MB = 1 << 20
MAX_MESSAGE = 400
"""No refusal's sentence is longer than this, whatever the input (the longest is the
unknown request type's, which lists the protocol's 22 request types)."""


# -- games and tables to be hostile to ------------------------------------------------


def play_randomly(game: Game, actions: int, rng: Rng, renege: bool = False) -> Game:
    """``actions`` random actions; with ``renege``, a renege whenever the honour rule
    offers one (so records with reneges exist)."""
    for _ in range(actions):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            game.next_round()
        elif game.phase == BIDDING:
            bids = game.legal_bids()
            game.bid(bids[rng.below(len(bids))])
        else:
            reneges = game.legal_mask() & ~game.honest_mask()
            game.play(rng.pick_bit(reneges if renege and reneges else game.honest_mask()))
    return game


def finished(seed: str, players: int, rules: Ruleset = JABBERWOCKY) -> Game:
    return play_game(Game(seed, players, rules, ["random"] * players),
                     [RandomBot() for _ in range(players)])


def sample_games() -> dict[str, Game]:
    """A game in every phase, under every preset, with and without reneges."""
    rng = Rng(2024)
    honour = play_randomly(Game("hostile honour", 3, HONOUR, ["human", "easy", "random"]),
                           10_000, rng, renege=True)
    assert sum(r.reneges[s] for r in honour.results for s in range(3)) > 0
    playing = play_randomly(Game("hostile playing", 5, OH_HELL, ["human"] + ["random"] * 4),
                            53, rng)
    assert playing.phase == PLAYING and playing.trick
    round_over = play_randomly(Game("hostile over", 4), 4 + 12, rng)
    assert round_over.phase == ROUND_OVER
    return {
        "finished": finished("hostile finished", 4),
        "honour": honour,
        "playing": playing,
        "round-over": round_over,
        "bidding": play_randomly(Game("hostile bidding", 4, JABBERWOCKY,
                                      ["human", "medium", "random", "random"]), 2, rng),
    }


GAMES = sample_games()
RECORDS = {name: to_record(g) for name, g in GAMES.items()}


def table(name: str = "playing") -> WebApi:
    """A facade whose game is ``GAMES[name]``'s (replayed from its record)."""
    api = WebApi()
    reply = json.loads(api.handle("import_record", json.dumps({"record": dumps(GAMES[name])})))
    assert "result" in reply, reply
    return api


def ask(api: WebApi, kind: str, payload: Any = None, raw: str | None = None) -> dict[str, Any]:
    """The whole answer to a request (result or error), checked to be well formed."""
    text = api.handle(kind, raw if raw is not None else json.dumps(payload, ensure_ascii=False))
    assert isinstance(text, str)
    reply: dict[str, Any] = json.loads(text)
    assert set(reply) in ({"result"}, {"error"}), reply
    if "error" in reply:
        err = reply["error"]
        assert set(err) == {"kind", "message", "code", "params"}, err
        assert err["kind"] != "InternalError", err
        assert err["message"] and len(err["message"]) <= MAX_MESSAGE, err["message"][:400]
        assert len(json.dumps(err)) < 4 * MAX_MESSAGE
    return reply


def refused(api: WebApi, kind: str, payload: Any = None, raw: str | None = None,
            code: str | None = None) -> dict[str, Any]:
    """The error of a request that must be refused, with the game left as it was."""
    before = None if api.game is None else dumps(api.game)
    view = None if api.game is None else api.view()
    reply = ask(api, kind, payload, raw)
    assert "error" in reply, f"{kind} {str(payload)[:200]} was accepted"
    if code is not None:
        assert reply["error"]["code"] == code, reply["error"]
    after = None if api.game is None else dumps(api.game)
    assert after == before, "a refused request changed the game"
    if view is not None:
        assert api.view() == view
    err: dict[str, Any] = reply["error"]
    return err


def record_error(data: Any, code: str | None = None) -> RecordError:
    """The refusal of a record, by both doors (a dict, and its JSON text)."""
    with pytest.raises(RecordError) as direct:
        from_record(copy.deepcopy(data))
    with pytest.raises(RecordError) as text:
        loads(json.dumps(data, ensure_ascii=False))
    assert str(direct.value) == str(text.value)
    assert len(str(direct.value)) <= MAX_MESSAGE
    if code is not None:
        assert code in codes_of(direct.value.message.to_json()), direct.value.message.to_json()
    return direct.value


def codes_of(message: dict[str, Any]) -> list[str]:
    """A message's code and those of the messages nested in it ('round 2: …')."""
    out = [message["code"]]
    for value in message["params"].values():
        if isinstance(value, dict) and "code" in value:
            out += codes_of(value)
    return out


def edited(name: str, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = copy.deepcopy(RECORDS[name])
    change(data)
    return data


# -- 1. text that is not encodable, and control characters ----------------------------

NOT_ENCODABLE = ["\ud800", "seed\udcff", "\udfff\ud800", "a" * 150 + "\udc80"]
CONTROL = ["\x00", "tab\there", "line\nbreak", "\x1b[31mred", "del\x7f", "c1\x85", "\r"]


@pytest.mark.parametrize("seed", NOT_ENCODABLE + CONTROL, ids=repr)
def test_seeds_that_are_not_text_are_refused_at_every_door(seed: str) -> None:
    code = "seed.not_encodable" if seed in NOT_ENCODABLE else "seed.control"
    with pytest.raises(SeedError) as exc:
        check_seed(seed)
    assert exc.value.code == code
    with pytest.raises(SeedError):
        Game(seed, 4)
    api = table()
    refused(api, "new_game", {"seed": seed, "players": 4, "bots": "random"}, code=code)
    refused(api, "deal", {"seed": seed, "players": 3}, code=code)
    record = dict(RECORDS["bidding"], seed=seed)
    assert code in codes_of(refused(api, "import_record", {"record": json.dumps(record)}))
    record_error(record, code)
    assert "U+" in str(exc.value)  # the character is named by its code point


def test_the_message_shows_no_raw_character() -> None:
    for seed in NOT_ENCODABLE + CONTROL:
        with pytest.raises(SeedError) as exc:
            check_seed(seed)
        text = str(exc.value)
        assert text.isprintable() and text.encode("utf-8")


def test_seeds_that_survive_nfc_and_utf8_are_accepted() -> None:
    for seed in ("", "Ünïcödé 🃏", "e\u0301", "ハンプティ", "a b", "x" * 200, "\u200b"):
        assert check_seed(seed) == seed
        assert Game(seed, 3).seed == seed


# -- 2. linear time: hostile shapes against json.loads of a valid document -------------


def valid_document(size: int) -> str:
    """A valid JSON document of ``size`` characters (at least a few hundred): a list of
    game records, topped up with small numbers."""
    one = json.dumps(RECORDS["finished"])
    text = "[" + ",".join([one] * (size // (len(one) + 1)) + ["0"])
    fill = size - len(text) - 1
    return text + ",0" * (fill // 2) + " " * (fill % 2) + "]"


SHAPES: dict[str, Callable[[int], str]] = {
    "unterminated escaped string": lambda n: "[" * 65 + '"' + '\\"' * (n // 2),
    "unterminated string, shallow": lambda n: "[{}]" * 20 + '["' + '\\"' * (n // 2),
    "open brackets": lambda n: "[" * n,
    "bracket pairs": lambda n: "[]" * (n // 2),
    "deep then shallow": lambda n: "[" * 64 + "]" * 64 + "[{}]" * (n // 4),
    "zigzag at the limit": lambda n: ("[" * 64 + "]" * 64) * (n // 128),
    "quotes and backslashes": lambda n: "[" * 70 + '"\\' * (n // 2),
    "brackets inside a string": lambda n: '["' + "[{" * (n // 2) + '"]',
}


RATIO = 25
"""At most this many times ``json.loads`` of a valid document of the same size."""


def elapsed(f: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def ratio(run: Callable[[], object], base: Callable[[], object], repeat: int = 3) -> float:
    """Best time of ``run`` over best time of ``base``, measured in turns (so that a busy
    moment of a shared machine slows both, and the best of each is a quiet one)."""
    runs, bases = [], []
    for _ in range(repeat):
        bases.append(elapsed(base))
        runs.append(elapsed(run))
    return min(runs) / min(bases)


def swallow(f: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        with contextlib.suppress(JabberwockyError):
            f()
    return run


@pytest.mark.parametrize("shape", SHAPES)
def test_hostile_shapes_cost_about_what_parsing_costs(shape: str) -> None:
    """Every check before parsing is linear: at 16 KB (where the quadratic check this
    replaced took over 7,000 times as long as ``json.loads``) and at 1 MB (the most a
    record or a request may have), each door costs a small multiple of a plain
    ``json.loads`` of a valid document of the same size.  Measured on a quiet machine:
    at most about 4 times in CPython and 6 times in Pyodide, where the depth scan's
    per-character step is slower against the C parser; the bound leaves room for a
    busy shared machine."""
    api = WebApi()
    for size in (16 * 1024, MAX_RECORD_BYTES):
        text = SHAPES[shape](size)[:size]
        valid = valid_document(len(text))
        assert len(valid) == len(text)
        doors: list[tuple[str, Callable[[], object]]] = [
            ("json_too_deep", functools.partial(json_too_deep, text)),
            ("loads", swallow(functools.partial(loads, text))),
            ("handle", functools.partial(api.handle, "bid", text))]
        for door, run in doors:
            times = ratio(run, functools.partial(json.loads, valid))
            assert times < RATIO, f"{door} on {shape} ({len(text)} chars): {times:.1f}x json.loads"


def test_the_depth_check_agrees_with_the_parser_on_valid_json() -> None:
    for depth in (1, 63, 64, 65, 200):
        text = "[" * depth + '"]]}{["' + "]" * depth
        assert json_too_deep(text) == (depth > 64)
        if depth <= 64:
            assert json.loads(text)  # the parser takes what the check lets through
    assert not json_too_deep('{"a": "\\"[[[[" }' * 100)
    assert json_too_deep('"\\\\"' + "[" * 65)  # an escaped backslash ends the string


# -- 3. files that are not UTF-8 text (the CLI's check) --------------------------------

NOT_UTF8: dict[str, bytes] = {
    "latin-1": '{"format": "jabberwocky-game/1", "seed": "café"}'.encode("latin-1"),
    "utf-16 with a BOM": json.dumps(RECORDS["bidding"]).encode("utf-16"),
    "utf-16-le": json.dumps(RECORDS["bidding"]).encode("utf-16-le"),
    "utf-16-be": json.dumps(RECORDS["bidding"]).encode("utf-16-be"),
    "utf-32": json.dumps(RECORDS["bidding"]).encode("utf-32"),
    "random bytes": b"".join(hashlib.sha256(bytes([i])).digest() for i in range(64)),
    "a truncated multi-byte character": '{"seed": "é'.encode()[:-1],
    "binary with a NUL": b"\x00" * 10,
}


@pytest.mark.parametrize("name", NOT_UTF8)
def test_check_refuses_a_file_that_is_not_utf8_text(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(NOT_UTF8[name])
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the record is not UTF-8 text"), err
    with pytest.raises(RecordError, match="not UTF-8 text"):
        loads(NOT_UTF8[name])


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + dumps(GAMES["finished"]).encode())
    out: list[str] = []

    class Out:
        def write(self, text: str) -> None:
            out.append(text)

    assert main(["check", str(path)], out=Out()) == 0  # type: ignore[arg-type]
    assert "".join(out).startswith("valid record: seed 'hostile finished'")


# -- 4. absurd numbers and sizes: refused before anything is sized by them ------------

ABSURD_RECORDS: dict[str, Callable[[dict[str, Any]], object]] = {
    "10**30 players": lambda r: r.update(players=10**30),
    "10**9 players": lambda r: r.update(players=10**9),
    "10**9 players, no seats": lambda r: (r.update(players=10**9), r.pop("seats")),
    "-10**9 players": lambda r: r.update(players=-(10**9)),
    "a 4000-digit number of players": lambda r: r.update(players=10**4000),
    "a million rounds": lambda r: r.update(rounds=[{}] * 10**6),
    "a million seats": lambda r: r.update(seats=["human"] * 10**6),
    "a schedule of a million rounds": lambda r: r.update(rules={"schedule": [3] * 10**6}),
    "a hand size of 10**18": lambda r: r.update(rules={"schedule": [10**18]}),
    "a million cards in a hand": lambda r: r["rounds"][0]["hands"].__setitem__(0, ["2C"] * 10**6),
    "a million bids": lambda r: r["rounds"][0].update(bids=[0] * 10**6),
    "a million tricks": lambda r: r["rounds"][0].update(tricks=[{"cards": []}] * 10**6),
    "a million cards in a trick": lambda r: r["rounds"][0]["tricks"][0].update(
        cards=["2C"] * 10**6),
    "a dealer of 10**30": lambda r: r["rounds"][0].update(dealer=10**30),
    "a round number of -10**30": lambda r: r["rounds"][0].update(round=-(10**30)),
    "a bid of 10**30": lambda r: r["rounds"][0]["bids"].__setitem__(0, 10**30),
    "scores of 10**30": lambda r: r.update(scores=[10**30] * 4),
    "a million winners": lambda r: r.update(winners=[0] * 10**6),
}


@pytest.mark.parametrize("name", ABSURD_RECORDS)
def test_absurd_numbers_are_refused_without_allocating(name: str) -> None:
    data = edited("finished", ABSURD_RECORDS[name])
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as exc:
            from_record(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * MB, f"{peak / MB:.1f} MB allocated to refuse it"
    assert len(str(exc.value)) <= MAX_MESSAGE


def test_a_number_of_more_digits_than_python_converts_is_refused() -> None:
    text = dumps(GAMES["bidding"]).replace('"players":4', '"players":' + "9" * 5000)
    with pytest.raises(RecordError, match="a number of more than 4300 digits") as exc:
        loads(text)
    assert exc.value.code == "record.number_too_long"
    err = refused(table(), "bid", raw='{"bid": ' + "1" * 5000 + "}")
    assert err["code"] == "request.number_too_long"


@pytest.mark.parametrize(("kind", "payload"), [
    ("new_game", {"players": 10**30, "bots": "random"}),
    ("new_game", {"players": 10**9, "bots": "random"}),
    ("new_game", {"players": 4, "bots": ["random"] * 10**5}),
    ("new_game", {"players": 4, "bots": "random", "rules": {"schedule": [9] * 10**5}}),
    ("new_game", {"players": 4, "bots": "random", "rules": {"schedule": [10**40]}}),
    ("deal", {"seed": "x", "players": 10**30}),
    ("deal", {"seed": "x" * 10**5, "players": 4}),
    ("bid", {"bid": 10**30}),
    ("bid", {"bid": -(10**30)}),
    ("play", {"card": "Q" * 10**5}),
])
def test_absurd_numbers_in_requests_are_refused(kind: str, payload: dict[str, Any]) -> None:
    api = table()
    tracemalloc.start()
    try:
        refused(api, kind, payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * MB  # the request text itself is up to 1 MB


# -- 5. JSON types: true is not 1, 2.0 is not 2, strings and booleans where they belong --

WRONG_TYPES: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "round true": (lambda r: r["rounds"][0].update(round=True), "record.not_whole"),
    "dealer as a float": (lambda r: r["rounds"][0].update(
        dealer=float(r["rounds"][0]["dealer"])), "record.not_whole"),
    "hand size as text": (lambda r: r["rounds"][0].update(hand_size="3"), "record.not_whole"),
    "hand size null": (lambda r: r["rounds"][0].update(hand_size=None), "record.not_whole"),
    "taken as floats": (lambda r: r["rounds"][0].update(
        taken=[float(t) for t in r["rounds"][0]["taken"]]), "record.not_whole_list"),
    "points as booleans": (lambda r: r["rounds"][0].update(
        points=[bool(p) for p in r["rounds"][0]["points"]]), "record.not_whole_list"),
    "reneges as booleans": (lambda r: r["rounds"][0].update(reneges=[False] * 4),
                            "record.not_whole_list"),
    "scores as floats": (lambda r: r.update(scores=[float(s) for s in r["scores"]]),
                         "record.not_whole_list"),
    "winners as booleans": (lambda r: r.update(winners=[True for _ in r["winners"]]),
                            "record.not_whole_list"),
    "first dealer true": (lambda r: r.update(first_dealer=True), "record.not_whole"),
    "players 4.0": (lambda r: r.update(players=4.0), "record.not_whole"),
    "players true": (lambda r: r.update(players=True), "record.not_whole"),
    "leader as a float": (lambda r: r["rounds"][0]["tricks"][0].update(
        leader=float(r["rounds"][0]["tricks"][0]["leader"])), "record.not_whole"),
    "winner true": (lambda r: r["rounds"][0]["tricks"][0].update(winner=True),
                    "record.not_whole"),
    "a bid of 1.0": (lambda r: r["rounds"][0]["bids"].__setitem__(
        0, float(r["rounds"][0]["bids"][0])), "move.bid_range"),
    "a bid true": (lambda r: r["rounds"][0]["bids"].__setitem__(0, True), "move.bid_range"),
    "renege penalty 3.0": (lambda r: r["rules"].update(renege_penalty=3.0),
                           "rules.renege_penalty"),
    "renege penalty true": (lambda r: r["rules"].update(renege_penalty=True),
                            "rules.renege_penalty"),
    "hook 1": (lambda r: r["rules"].update(hook=1), "rules.hook"),
    "hook as text": (lambda r: r["rules"].update(hook="true"), "rules.hook"),
    "schedule of floats": (lambda r: r["rules"].update(schedule=[3.0, 4.0]), "rules.hand_size"),
    "rules version true": (lambda r: r["rules"].update(version=True), "rules.version"),
    "rules_version 1.0": (lambda r: r.update(rules_version=1.0), "record.not_whole"),
    "format as a list": (lambda r: r.update(format=["jabberwocky-game/1"]), "record.format"),
    "seed as a number": (lambda r: r.update(seed=42), "seed.not_text"),
    "a seat as a number": (lambda r: r["seats"].__setitem__(1, 3), "table.unknown_seat"),
    "trump card as a number": (lambda r: r["rounds"][0].update(trump_card=12),
                               "card.not_text"),
    "cards as numbers": (lambda r: r["rounds"][0]["tricks"][0]["cards"].__setitem__(0, 12),
                         "card.not_text"),
    "a card as a list": (lambda r: r["rounds"][0]["hands"][0].__setitem__(0, ["2C"]),
                         "card.not_text"),
    "deal algorithm as a number": (lambda r: r.update(deal_algorithm=1),
                                   "record.deal_algorithm"),
    "trump lead true": (lambda r: r["rules"].update(trump_lead=True), "rules.trump_lead"),
    "scoring as a list": (lambda r: r["rules"].update(scoring=["exact-1"]), "rules.scoring"),
    "rules name as a number": (lambda r: r["rules"].update(name=7), "rules.name"),
    "phase as a number": (lambda r: r.update(phase=3), "record.phase"),
}


@pytest.mark.parametrize("name", WRONG_TYPES)
def test_a_value_of_the_wrong_json_type_is_refused(name: str) -> None:
    change, code = WRONG_TYPES[name]
    record_error(edited("finished", change), code)


@pytest.mark.parametrize("rules", [
    {"renege_penalty": 3.0}, {"renege_penalty": True}, {"hook": 0}, {"schedule": [True]},
    {"schedule": [3, 4.0]}, {"version": 1.0}, {"trump_lead": None}, {"name": ["x"]},
    {"name": "tab\tname"}, {"name": "\ud800"}, {"name": "n" * 41},
])
def test_wrong_types_in_rules_are_refused_by_new_game_and_deal(rules: dict[str, Any]) -> None:
    api = table()
    refused(api, "new_game", {"players": 4, "bots": "random", "rules": rules})
    refused(api, "deal", {"seed": "x", "players": 4, "rules": rules})
    with pytest.raises(JabberwockyError):
        Ruleset.from_dict(rules)


@pytest.mark.parametrize(("kind", "payload"), [
    ("new_game", {"players": 4.0, "bots": "random"}),
    ("new_game", {"players": True, "bots": "random"}),
    ("new_game", {"players": "4", "bots": "random"}),
    ("new_game", {"players": 4, "bots": True}),
    ("new_game", {"players": 4, "bots": [1, 2, 3]}),
    ("new_game", {"players": 4, "bots": "random", "seed": ["x"]}),
    ("new_game", {"players": 4, "bots": "random", "rules": 3}),
    ("bid", {"bid": True}),
    ("bid", {"bid": 1.0}),
    ("bid", {"bid": "1"}),
    ("bid", {"bid": None}),
    ("play", {"card": 12}),
    ("play", {"card": None}),
    ("play", {"card": {"rank": "Q", "suit": "H"}}),
    ("import_record", {"record": {"format": "jabberwocky-game/1"}}),
    ("import_record", {"record": None}),
    ("deal", {"seed": 5, "players": 4}),
    ("deal", {"seed": "x", "players": 4.0}),
])
def test_wrong_types_in_requests_are_refused(kind: str, payload: dict[str, Any]) -> None:
    for name in ("bidding", "playing"):
        refused(table(name), kind, payload)


def test_nan_and_infinity_are_not_json() -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        text = dumps(GAMES["bidding"]).replace('"players":4', f'"players":{constant}')
        with pytest.raises(RecordError, match="which JSON does not have") as exc:
            loads(text)
        assert exc.value.code == "record.json_constant"
        refused(table(), "bid", raw=f'{{"bid": {constant}}}', code="request.json_constant")


# -- 6. meaning: a record that loads states nothing its replay contradicts ------------


def _last_trick_incomplete(r: dict[str, Any]) -> None:
    trick = r["rounds"][-1]["tricks"][-1]
    assert trick["winner"] is None
    trick["winner"] = r["rounds"][-1]["tricks"][-1]["leader"]


def _extra_trick(r: dict[str, Any]) -> None:
    r["rounds"][0]["tricks"].append({"cards": ["2C"]})


MEANING: list[tuple[str, str, Callable[[dict[str, Any]], object], str]] = [
    ("finished", "a finished game without winners", lambda r: r.update(winners=[]),
     "record.listed"),
    ("finished", "a finished game with other winners", lambda r: r.update(
        winners=[s for s in range(4) if s not in r["winners"]] or [0]), "record.listed"),
    ("playing", "an unfinished game with winners", lambda r: r.update(winners=[0]),
     "record.listed"),
    ("playing", "an unfinished round listing points",
     lambda r: r["rounds"][-1].update(points=[0] * 5), "record.points_early"),
    ("bidding", "a round in bidding listing points",
     lambda r: r["rounds"][-1].update(points=[1, 0, 0, 0]), "record.points_early"),
    ("finished", "a finished round with points null",
     lambda r: r["rounds"][2].update(points=None), "record.points_missing"),
    ("playing", "a winner for an incomplete trick", _last_trick_incomplete,
     "record.winner_early"),
    ("finished", "a complete trick with winner null",
     lambda r: r["rounds"][0]["tricks"][0].update(winner=None), "record.not_whole"),
    ("finished", "phase playing for a finished game", lambda r: r.update(phase="playing"),
     "record.phase"),
    ("playing", "phase game-over for a game in play", lambda r: r.update(phase="game-over"),
     "record.phase"),
    ("round-over", "phase bidding between rounds", lambda r: r.update(phase="bidding"),
     "record.phase"),
    ("bidding", "an unknown phase", lambda r: r.update(phase="dessert"), "record.phase"),
    ("finished", "reneges where there were none",
     lambda r: r["rounds"][0].update(reneges=[1, 0, 0, 0]), "record.listed"),
    ("honour", "no reneges where there were some",
     lambda r: [rnd.update(reneges=[0, 0, 0]) for rnd in r["rounds"]], "record.listed"),
    ("finished", "reneges for too few seats",
     lambda r: r["rounds"][0].update(reneges=[0, 0]), "record.listed"),
    ("finished", "another rules_version", lambda r: r.update(rules_version=2),
     "record.rules_version"),
    ("finished", "another deal algorithm", lambda r: r.update(deal_algorithm="mine/1"),
     "record.deal_algorithm"),
    ("finished", "a trick after the round's last", _extra_trick, "record.round_complete"),
    ("finished", "taken for too many seats",
     lambda r: r["rounds"][0].update(taken=[*r["rounds"][0]["taken"], 0]), "record.listed"),
    ("finished", "a hand of the wrong size",
     lambda r: r["rounds"][0]["hands"][0].append("2C"), "record.hand_mismatch"),
    ("finished", "a hand with a card twice",
     lambda r: r["rounds"][0]["hands"][0].__setitem__(1, r["rounds"][0]["hands"][0][0]),
     "record.hand_mismatch"),
    ("playing", "scores of a game in play", lambda r: r.update(scores=[99] * 5),
     "record.listed"),
]


@pytest.mark.parametrize(("game", "change", "code"), [(g, c, k) for g, _, c, k in MEANING],
                         ids=[name for _, name, _, _ in MEANING])
def test_a_record_that_contradicts_its_replay_is_refused(
    game: str, change: Callable[[dict[str, Any]], object], code: str
) -> None:
    record_error(edited(game, change), code)


@pytest.mark.parametrize("name", RECORDS)
def test_optional_fields_may_be_left_out(name: str) -> None:
    """Only format, seed and players are required; what is left out is not checked."""
    optional_top = ("deal_algorithm", "rules_version", "rules", "seats", "first_dealer",
                    "phase", "scores", "winners")
    optional_round = ("round", "dealer", "hand_size", "hands", "trump_card", "taken",
                      "reneges", "points")
    full = RECORDS[name]
    bare = {k: v for k, v in full.items() if k not in optional_top}
    bare["rules"] = full["rules"]  # the rules decide the game, so they are kept here
    bare["rounds"] = [{k: v for k, v in rnd.items() if k not in optional_round}
                      for rnd in full["rounds"]]
    for rnd in bare["rounds"]:
        rnd["tricks"] = [{"cards": t["cards"]} for t in rnd["tricks"]]
    game = from_record(bare)
    expected = dict(full, seats=["human"] * full["players"])
    assert to_record(game) == expected
    assert to_record(from_record({"format": "jabberwocky-game/1", "seed": "s",
                                  "players": 3}))["phase"] == "bidding"


# -- 7. echo: no message quotes a hostile value whole ---------------------------------

LONG = "Ω" * 200_000


@pytest.mark.parametrize(("kind", "payload"), [
    ("play", {"card": LONG}),
    ("bid", {"bid": LONG}),
    ("new_game", {"players": 4, "bots": LONG}),
    ("new_game", {"players": LONG, "bots": "random"}),
    ("new_game", {"players": 4, "bots": "random", "seed": LONG}),
    ("new_game", {"players": 4, "bots": "random", "rules": LONG}),
    ("new_game", {"players": 4, "bots": "random", "rules": {LONG: 1}}),
    ("new_game", {"players": 4, "bots": "random", "rules": {"scoring": LONG}}),
    ("new_game", {"players": 4, "bots": "random", "rules": {"schedule": [LONG]}}),
    (LONG, {}),
    ("deal", {"seed": LONG}),
    ("bid", [LONG]),
])
def test_requests_never_echo_a_long_value_whole(kind: str, payload: Any) -> None:
    err = refused(table(), kind, payload)
    assert len(err["message"]) <= MAX_MESSAGE and LONG[: MAX_QUOTE + 1] not in err["message"]


@pytest.mark.parametrize("change", [
    lambda r: r.update(format=LONG),
    lambda r: r.update(deal_algorithm=LONG),
    lambda r: r["seats"].__setitem__(1, LONG),
    lambda r: r["rounds"][0].update(trump_card=LONG),
    lambda r: r["rounds"][0]["tricks"][0]["cards"].__setitem__(0, LONG),
    lambda r: r["rounds"][0]["bids"].__setitem__(0, LONG),
    lambda r: r["rounds"][0].update(taken=[LONG] * 4),
    lambda r: r.update(phase=LONG),
    lambda r: r.update(rules={"name": LONG}),
    lambda r: r.update(scores=list(range(10**5))),
])
def test_records_never_echo_a_long_value_whole(change: Callable[[dict[str, Any]], object]) -> None:
    exc = record_error(edited("finished", change))
    assert LONG[: MAX_QUOTE + 1] not in str(exc)


# -- 8. nothing lost ------------------------------------------------------------------


def hostile_requests() -> Iterator[tuple[str, Any, str | None]]:
    """(kind, payload, raw text) of requests refused whatever the game's state."""
    yield "bid", None, "[" * 10_000
    yield "bid", None, "{"
    yield "bid", None, "x" * (MB + 20_000)
    yield "play", {"card": "1X"}, None
    yield "bid", {"bid": -1}, None
    yield "new_game", {"players": 6, "bots": "random"}, None
    yield "new_game", {"players": 4, "bots": "wizard"}, None
    yield "new_game", {"players": 4, "bots": "random", "seed": "\ud800"}, None
    yield "import_record", {"record": "{}"}, None
    yield "import_record", {"record": json.dumps(edited("finished",
                                                        lambda r: r.update(winners=[])))}, None
    yield "import_record", {"record": "[" * 100 + "]" * 100}, None
    yield "deal", {"seed": "x", "players": 2}, None
    yield "new_game", {"seats": ["easy", "easy", "easy"]}, None
    yield "new_game", {"players": 3, "names": ["a\nb", None, None]}, None
    yield "challenge_play", {"text": "jc1.AAAA"}, None
    yield "challenge_play", {"text": "x" * (MB // 2)}, None
    yield "challenge_check", {"text": "jc1.AAAA", "player": 1, "round": 1}, None
    yield "review", {"record": "{}"}, None
    yield "review_seen", {"record": dumps(GAMES["finished"]), "step": -1}, None
    yield "teleport", {}, None


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_request_leaves_the_game_as_it_was(name: str) -> None:
    api = table(name)
    for kind, payload, raw in hostile_requests():
        refused(api, kind, payload, raw)
    if api.game is not None and api.game.phase in (BIDDING, PLAYING) and api.game.to_act != 0:
        refused(api, "bid", {"bid": 0})  # not seat 0's turn
    if api.game is not None and api.game.phase in (ROUND_OVER, GAME_OVER):
        refused(api, "play", {"card": "2C"})
        refused(api, "hint", {})
    if api.game is not None and api.game.phase != ROUND_OVER:
        refused(api, "next_round", {})


# -- 9. properties: any JSON value, any mutation of a valid record --------------------

SCALARS = (st.none() | st.booleans() | st.integers(-(10**40), 10**40)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["QH", "10h", "random", "hard", "honour", "jabberwocky-game/1",
                              "\ud800x", "\x00", "bidding", "", "2C"]))
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=12)
PAYLOADS = JSON_VALUES | st.fixed_dictionaries({}, optional={
    key: JSON_VALUES for key in ("seed", "players", "bots", "rules", "bid", "card", "record",
                                 "seats", "names", "name", "text", "challenge", "player",
                                 "round", "step")})
KINDS = ["import_record", "new_game", "bid", "play", "deal", "state", "bot_step",
         "next_round", "hint", "export_record", "reveal", "take_back", "challenge_open",
         "challenge_play", "challenge_encode", "challenge_check", "challenge_compare",
         "review", "review_analyse", "review_seen"]


@given(st.sampled_from(sorted(GAMES)), st.sampled_from(KINDS), PAYLOADS)
def test_any_payload_gets_a_result_or_a_clear_refusal(name: str, kind: str,
                                                      payload: Any) -> None:
    api = table(name)
    before = dumps(api.game)  # type: ignore[arg-type]
    reply = ask(api, kind, payload)
    if "error" in reply:
        assert dumps(api.game) == before  # type: ignore[arg-type]


def node_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from node_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from node_paths(item, (*path, i))


def twins(value: Any) -> list[Any]:
    """Values a careless writer might put in place of ``value``."""
    if isinstance(value, bool):
        return [int(value), not value, str(value).lower()]
    if isinstance(value, int):
        return [float(value), value + 1, value - 1, value == 1, str(value), -value, 10**30]
    if isinstance(value, str):
        return [value.lower(), value + " ", "", value * 2, value[:1]]
    if isinstance(value, list):
        return [value[:-1], [*value, value[-1]] if value else [None], list(reversed(value))]
    if value is None:
        return [0, False, [], ""]
    return [None]


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(RECORDS[draw(st.sampled_from(sorted(RECORDS)))])
    for _ in range(draw(st.integers(1, 3))):
        paths = list(node_paths(data))
        path = draw(st.sampled_from(paths[1:]))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = draw(st.sampled_from(["twin", "value", "delete", "extra"]))
        if action == "twin":
            parent[key] = draw(st.sampled_from(twins(parent[key])))
        elif action == "value":
            parent[key] = draw(JSON_VALUES)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent["x-" + str(key)] = draw(JSON_VALUES)
        else:
            parent.insert(key, draw(JSON_VALUES))
    return data


def same(a: Any, b: Any) -> bool:
    """The same JSON value, types included (``true`` is not ``1``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def card_list(value: Any) -> list[int]:
    return [parse_card(c) for c in value]


def assert_states_the_same_facts(stated: dict[str, Any], game: Game) -> None:
    """Every known field ``stated`` has is what the loaded game's own record says."""
    full = to_record(game)
    for key, value in stated.items():
        if key == "rules":
            assert Ruleset.from_dict(value).to_dict() == full["rules"]
        elif key == "rounds":
            assert len(full["rounds"]) == max(1, len(value))
            for rnd, mine in zip(value, full["rounds"], strict=False):
                assert_round_facts(rnd, mine)
        elif key in full:
            assert same(value, full[key]), key
    if "seats" not in stated:
        assert full["seats"] == ["human"] * game.players


def assert_round_facts(rnd: dict[str, Any], mine: dict[str, Any]) -> None:
    for key, value in rnd.items():
        if key == "hands":
            assert [sorted(card_list(h)) for h in value] == [card_list(h) for h in mine[key]]
        elif key == "trump_card":
            assert parse_card(value) == parse_card(mine[key])
        elif key == "tricks":
            listed = [t for t in value if t["cards"]]
            assert len(listed) == len(mine["tricks"])
            for trick, own in zip(listed, mine["tricks"], strict=True):
                assert card_list(trick["cards"]) == card_list(own["cards"])
                for field in ("leader", "winner"):
                    if field in trick:
                        assert same(trick[field], own[field]), field
        elif key in mine:
            assert same(value, mine[key]), key


@given(mutated_records())
def test_a_mutated_record_loads_to_the_same_facts_or_is_refused(data: dict[str, Any]) -> None:
    try:
        game = from_record(copy.deepcopy(data))
    except RecordError as exc:
        assert len(str(exc)) <= MAX_MESSAGE
        with pytest.raises(RecordError):
            loads(json.dumps(data))
        return
    assert_states_the_same_facts(data, game)
    assert to_record(loads(json.dumps(data))) == to_record(game)


@given(mutated_records())
def test_a_mutated_record_sent_to_the_facade_replaces_the_game_or_nothing(
    data: dict[str, Any],
) -> None:
    api = table("round-over")
    before = dumps(api.game)  # type: ignore[arg-type]
    reply = ask(api, "import_record", {"record": json.dumps(data)})
    if "error" in reply:
        assert reply["error"]["kind"] == "RecordError"
        assert dumps(api.game) == before  # type: ignore[arg-type]
    else:
        assert api.game is not None and api.game.seed == data["seed"]


def test_the_mutations_reach_both_outcomes() -> None:
    """The generator makes records that load and records that are refused (else the
    properties above would test only one side)."""
    loaded = refused_count = 0

    @given(mutated_records())
    def run(data: dict[str, Any]) -> None:
        nonlocal loaded, refused_count
        try:
            from_record(data)
            loaded += 1
        except RecordError:
            refused_count += 1

    run()
    assert loaded > 0 and refused_count > 0


# -- the command line: exit status 1 or 2, a message, never a traceback ----------------


def run_cli(*argv: str | bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(SRC), LC_ALL="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "jabberwocky", *argv], input=stdin,
                          capture_output=True, env=env, timeout=120, check=False)


@pytest.mark.needs_subprocess
def test_hostile_command_lines_exit_1_or_2_without_a_traceback(tmp_path: Path) -> None:
    files = {name: tmp_path / f"{i}.json" for i, name in enumerate(NOT_UTF8)}
    for name, path in files.items():
        path.write_bytes(NOT_UTF8[name])
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (MB + 10))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(edited("finished", lambda r: r.update(winners=[]))))
    cases: list[tuple[list[str | bytes], int]] = [
        (["deal", "--seed", b"\xff"], 2),
        (["deal", "--seed", b"caf\xe9", "--players", "3"], 2),
        (["deal", "--seed", "tab\there"], 2),
        (["deal", "--seed", "x", "--players", "7"], 2),
        (["deal", "--seed", "x", "--players", "1" + "0" * 30], 2),
        (["deal", "--seed", "x" * 100_000], 2),
        (["simulate", "--games", "10" + "0" * 30], 2),
        (["simulate", "--bots", b"\xff"], 2),
        (["play", "--bots", "wizard"], 2),
        ([b"\xff"], 2),
        (["check", "/nonexistent/record.json"], 1),
        (["check", str(tmp_path)], 1),
        (["check", str(deep)], 1),
        (["check", str(huge)], 1),
        (["check", str(bad)], 1),
        (["check", b"/tmp/\xff.json"], 1),
        *[(["check", str(path)], 1) for path in files.values()],  # type: ignore[list-item]
    ]
    for argv, status in cases:
        proc = run_cli(*argv)
        err = proc.stderr.decode("utf-8", "replace")
        assert proc.returncode == status, (argv, err)
        assert "Traceback" not in err and "error" in err, (argv, err)
        assert len(err) < 2000, argv
    # standard input that is not a record, or not UTF-8
    for stdin in (b"\xff\xfe{", b"", b"[" * 1000, NOT_UTF8["utf-16 with a BOM"]):
        proc = run_cli("check", "-", stdin=stdin)
        assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    # play reading bytes that are not UTF-8 asks again, then quits
    proc = run_cli("play", "--seed", "bytes", "--players", "3", "--bots", "random",
                   stdin=b"\xff\xfe\n0\n\xc3\n q\n")
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
