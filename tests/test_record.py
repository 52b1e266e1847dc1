"""Game records, format ``jabberwocky-game/1``: the fields, and a corpus of bad records.

Every bad record must be refused with a :class:`RecordError` whose message names the
problem (and, inside a round, where it is).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from jabberwocky.bots import BOTS_VERSION
from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.core.cards import card_name, cards_of, parse_card
from jabberwocky.core.errors import JabberwockyError, RecordError
from jabberwocky.core.game import BIDDING, GAME_OVER, Game
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.drivers.simulate import play_game
from jabberwocky.formats.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    dumps,
    from_record,
    loads,
    to_record,
)

CARD = re.compile(r"^[23456789TJQKA][CDHS]$")
ISSUE_TOP = {"format", "seed", "players", "rules", "seats", "rounds", "scores", "winners"}
ISSUE_ROUND = {"round", "dealer", "hand_size", "hands", "trump_card", "bids", "tricks", "taken",
               "points"}
TOP = ISSUE_TOP | {"deal_algorithm", "rules_version", "bots_version", "first_dealer", "phase"}
ROUND = ISSUE_ROUND | {"reneges"}


def _last_scoring(record: dict[str, Any]) -> int:
    """The index of the last round in which someone scored: cutting the record there
    always leaves the listed final scores out of reach of the play."""
    return max(i for i, rnd in enumerate(record["rounds"]) if any(rnd["points"]))


def finished(seed: str = "record", players: int = 4, rules: Ruleset = JABBERWOCKY) -> Game:
    g = Game(seed, players, rules, ["random"] * players)
    return play_game(g, [RandomBot() for _ in range(players)])


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    return to_record(finished())


# -- the format -----------------------------------------------------------------------


def test_record_fields_are_exactly_the_listed_ones(good: dict[str, Any]) -> None:
    assert set(good) == TOP
    assert good["format"] == FORMAT == "jabberwocky-game/1"
    assert good["bots_version"] == BOTS_VERSION == "jabberwocky-bots/5"
    assert good["seed"] == "record" and good["players"] == 4
    assert good["rules"] == JABBERWOCKY.to_dict()
    assert good["seats"] == ["random"] * 4
    assert good["phase"] == "game-over"
    assert len(good["rounds"]) == 13
    for i, rnd in enumerate(good["rounds"]):
        assert set(rnd) == ROUND
        assert rnd["round"] == i + 1
        assert rnd["dealer"] == (good["first_dealer"] + i) % 4
        assert rnd["hand_size"] == [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3][i]
        assert len(rnd["hands"]) == 4
        for hand in rnd["hands"]:
            assert len(hand) == rnd["hand_size"]
            assert all(CARD.match(c) for c in hand)
            assert hand == sorted(hand, key=parse_card)
        assert CARD.match(rnd["trump_card"])
        assert all(isinstance(b, int) for b in rnd["bids"]) and len(rnd["bids"]) == 4
        assert len(rnd["tricks"]) == rnd["hand_size"]
        for trick in rnd["tricks"]:
            assert set(trick) == {"leader", "cards", "winner"}
            assert len(trick["cards"]) == 4 and all(CARD.match(c) for c in trick["cards"])
            assert trick["winner"] in range(4)
        assert sum(rnd["taken"]) == rnd["hand_size"]
        assert len(rnd["points"]) == 4
    assert good["scores"] == [sum(r["points"][s] for r in good["rounds"]) for s in range(4)]
    assert good["winners"] and max(good["scores"]) == good["scores"][good["winners"][0]]


def test_record_of_a_game_in_progress() -> None:
    g = Game("in progress", 3)
    g.bid(1)
    rec = to_record(g)
    assert rec["phase"] == BIDDING and rec["winners"] == [] and len(rec["rounds"]) == 1
    rnd = rec["rounds"][0]
    assert rnd["points"] is None
    assert rnd["bids"].count(None) == 2
    while g.phase == BIDDING:
        g.bid(g.legal_bids()[0])
    g.play(g.honest_cards()[0])
    rnd = to_record(g)["rounds"][0]
    assert rnd["tricks"] == [{"leader": g.leader, "cards": [card_name(g.trick[0])],
                              "winner": None}]
    assert to_record(loads(dumps(g))) == to_record(g)


def test_dumps_is_compact_json_and_keeps_unicode() -> None:
    g = Game("Ünïcödé 🃏", 5)
    text = dumps(g)
    assert "🃏" in text and ", " not in text
    assert json.loads(text)["seed"] == "Ünïcödé 🃏"


@pytest.mark.parametrize("rules", [JABBERWOCKY, OH_HELL, HONOUR], ids=lambda r: r.name)
@pytest.mark.parametrize("players", [3, 5])
def test_finished_games_round_trip(rules: Ruleset, players: int) -> None:
    g = finished(f"rt {players}", players, rules)
    again = loads(dumps(g))
    assert again.phase == GAME_OVER
    assert to_record(again) == to_record(g)
    assert again.rules == rules


def test_a_minimal_hand_written_record_is_accepted() -> None:
    g = from_record({"format": FORMAT, "seed": "x", "players": 4})
    assert g.phase == BIDDING and g.round_index == 0 and g.seats == ("human",) * 4
    first = Game("x", 3).first_dealer
    bids: list[int | None] = [None, None, None]
    bids[(first + 1) % 3] = 1
    g = from_record({"format": FORMAT, "seed": "x", "players": 3, "rules": "oh-hell",
                     "rounds": [{"bids": bids}]})
    assert g.rules == OH_HELL
    assert g.bids == bids and g.to_act == (first + 2) % 3


# -- the corpus of bad records --------------------------------------------------------


def edit(good: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    bad = copy.deepcopy(good)
    change(bad)
    return bad


def _swap_hand_cards(r: dict[str, Any]) -> None:
    hands = r["rounds"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _forbidden_dealer_bid(r: dict[str, Any]) -> None:
    for rnd in r["rounds"]:
        others = sum(b for s, b in enumerate(rnd["bids"]) if s != rnd["dealer"])
        if others <= rnd["hand_size"]:
            rnd["bids"][rnd["dealer"]] = rnd["hand_size"] - others
            return
    raise AssertionError("no round where the hook rule binds")  # pragma: no cover


def _truncate_round(r: dict[str, Any]) -> None:
    rnd = r["rounds"][0]
    rnd["tricks"].pop()
    del rnd["taken"], rnd["reneges"]
    rnd["points"] = None


def _wrong_winner(r: dict[str, Any]) -> None:
    t = r["rounds"][1]["tricks"][0]
    t["winner"] = (t["winner"] + 1) % r["players"]


CORPUS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("wrong format", lambda r: r.update(format="jabberwocky-game/2"),
     r"^format must be 'jabberwocky-game/1', not 'jabberwocky-game/2'$"),
    ("no format", lambda r: r.pop("format"),
     r"^it is not a Jabberwocky game record \(those are saved from the game's menu"),
    ("no players", lambda r: r.pop("players"),
     r"^the record does not say its players \(a whole number\)$"),
    ("players null", lambda r: r.update(players=None),
     r"^the record does not say its players \(a whole number\)$"),
    ("other deal algorithm", lambda r: r.update(deal_algorithm="jabberwocky-deal/9"),
     r"deal algorithm 'jabberwocky-deal/9' is not supported"),
    ("wrong hands for the seed", _swap_hand_cards,
     r"^round 1: seat 0's hand does not match the deal of this deal code$"),
    ("wrong trump card", lambda r: r["rounds"][3].update(trump_card="2C" if
                                                         r["rounds"][3]["trump_card"] != "2C"
                                                         else "3C"),
     r"^round 4: the trump card is .., not '[23]C'$"),
    ("wrong dealer", lambda r: r["rounds"][0].update(dealer=(r["rounds"][0]["dealer"] + 1) % 4),
     r"^round 1: the dealer is seat \d, not \d$"),
    ("wrong first dealer", lambda r: r.update(first_dealer=(r["first_dealer"] + 1) % 4),
     r"^first_dealer is \d but the deal code deals first from seat \d$"),
    ("wrong hand size", lambda r: r["rounds"][0].update(hand_size=4),
     r"^round 1: the hand size is 3, not 4$"),
    ("rounds out of order", lambda r: r["rounds"][1].update(round=5),
     r"^round 2: round number 5 is out of order$"),
    ("bid out of range", lambda r: r["rounds"][0]["bids"].__setitem__(0, 99),
     r"^round 1: seat 0's bid 99 is not allowed: a bid must be a whole number from 0 to 3"),
    ("bid not a number", lambda r: r["rounds"][0]["bids"].__setitem__(1, "2"),
     r"^round 1: seat 1's bid '2' is not allowed: a bid must be a whole number"),
    ("illegal dealer bid", _forbidden_dealer_bid,
     r"^round \d+: seat \d's bid \d is not allowed: the dealer may not bid \d: the bids "
     r"would total the \d tricks$"),
    ("wrong winner", _wrong_winner,
     r"^round 2, trick 1: the trick is won by seat \d, not \d$"),
    ("card not held", lambda r: r["rounds"][0]["tricks"][0]["cards"].__setitem__(
        0, r["rounds"][0]["trump_card"]),
     r"^round 1, trick 1: seat \d may not play ..: you do not hold the "),
    ("not a card", lambda r: r["rounds"][0]["tricks"][0]["cards"].__setitem__(0, "1X"),
     r"^round 1, trick 1: '1X' is not a card"),
    ("wrong taken", lambda r: r["rounds"][0].update(taken=[3, 0, 0, 0]),
     r"^round 1: the record lists taken as \[3, 0, 0, 0\] but the play gives \["),
    ("wrong points", lambda r: r["rounds"][0].update(points=[7, 7, 7, 7]),
     r"^round 1: the record lists points as \[7, 7, 7, 7\] but the play gives \["),
    ("wrong scores", lambda r: r.update(scores=[99, 0, 0, 0]),
     r"^the record lists scores as \[99, 0, 0, 0\] but the play gives \["),
    ("wrong winners", lambda r: r.update(winners=[s for s in range(4) if s not in r["winners"]]),
     r"^the record lists winners as \[.*\] but the play gives \["),
    ("unknown rule option", lambda r: r["rules"].update(jokers=True),
     r"^unknown rule option 'jokers'$"),
    ("bad rule value", lambda r: r["rules"].update(scoring="exact-2"),
     r"^scoring 'exact-2' is unknown: use one of exact-1, exact-10-plus-bid$"),
    ("other rules version", lambda r: r["rules"].update(version=2),
     r"^rules version 2 is not supported by this engine"),
    ("unknown preset", lambda r: r.update(rules="poker"), r"^no ruleset called 'poker'"),
    ("too many players", lambda r: r.update(players=6),
     r"^6 players cannot play: choose 3 to 5$"),
    ("too few players", lambda r: r.update(players=2), r"^2 players cannot play"),
    ("players not a number", lambda r: r.update(players="4"),
     r"^players must be a whole number, not '4'$"),
    ("seed not text", lambda r: r.update(seed=12), r"^a deal code must be text, not 12$"),
    ("seats not a list", lambda r: r.update(seats="random"),
     r"^seats must be a list, not 'random'$"),
    ("malformed seat kind", lambda r: r.update(seats=["human", "random", "random", "Wizard!"]),
     r"^'Wizard!' is not a seat kind: use one of human, random, easy, medium, learned, hard or "
     r"a bot name"),
    ("rounds not a list", lambda r: r.update(rounds={"1": {}}),
     r"^rounds must be a list, not \{…\}$"),
    ("round not an object", lambda r: r["rounds"].__setitem__(0, [1, 2]),
     r"^round 1: each round must be a JSON object$"),
    ("hands not a list", lambda r: r["rounds"][0].update(hands="5C 8C"),
     r"^round 1: hands must be a list, not '5C 8C'$"),
    ("a hand not a list", lambda r: r["rounds"][0]["hands"].__setitem__(2, "5C"),
     r"^round 1: a hand must be a list, not '5C'$"),
    ("hands for too few seats", lambda r: r["rounds"][0]["hands"].pop(),
     r"^round 1: hands lists 3 seats for 4 players$"),
    ("hands for one seat", lambda r: r["rounds"][0]["hands"].__delitem__(slice(1, None)),
     r"^round 1: hands lists 1 seat for 4 players$"),
    ("bids not a list", lambda r: r["rounds"][0].update(bids=3),
     r"^round 1: bids must be a list, not 3$"),
    ("bids for too many seats", lambda r: r["rounds"][0]["bids"].append(0),
     r"^round 1: bids lists 5 seats for 4 players$"),
    ("tricks not a list", lambda r: r["rounds"][0].update(tricks="none"),
     r"^round 1: tricks must be a list, not 'none'$"),
    ("trick not an object", lambda r: r["rounds"][0]["tricks"].__setitem__(0, ["5C"]),
     r"^round 1, trick 1: each trick must be a JSON object$"),
    ("cards not a list", lambda r: r["rounds"][0]["tricks"][0].update(cards="5C"),
     r"^round 1, trick 1: cards must be a list, not '5C'$"),
    ("too many cards in a trick", lambda r: r["rounds"][0]["tricks"][0]["cards"].append("2C"),
     r"^round 1, trick 1: a trick holds 1 to 4 cards, not 5$"),
    ("wrong leader", lambda r: r["rounds"][0]["tricks"][0].update(
        leader=(r["rounds"][0]["tricks"][0]["leader"] + 1) % 4),
     r"^round 1, trick 1: seat \d leads, not \d$"),
    ("too many rounds", lambda r: r["rounds"].append(r["rounds"][-1]),
     r"^14 rounds listed but the rules have 13$"),
    ("truncated round then more", _truncate_round,
     r"^round 2: the previous round is not finished$"),
    ("truncated rounds with scores listed",
     lambda r: r.update(rounds=r["rounds"][:_last_scoring(r)]),
     r"^the record lists scores as \[.*\] but the play gives \["),
    ("truncated rounds with winners listed", lambda r: (r.update(rounds=r["rounds"][:12]),
                                                                 r.pop("scores")),
     r"^the record lists winners as \[.*\] but the play gives \[\]$"),
    ("bids with a gap", lambda r: r.update(rounds=[dict(r["rounds"][0], tricks=[], bids=[
        None if s == (r["rounds"][0]["dealer"] + 1) % 4 else 0 for s in range(4)])]),
     r"^round 1: seat \d has a bid although an earlier bidder has none$"),
    ("cards before bidding ends", lambda r: r.update(rounds=[dict(r["rounds"][0], bids=[
        None] * 4)]),
     r"^round 1, trick 1: cards are listed but the bidding is not complete$"),
]


@pytest.mark.parametrize("change,pattern", [(c, p) for _, c, p in CORPUS],
                         ids=[name for name, _, _ in CORPUS])
def test_bad_record_is_refused_naming_the_problem(
    good: dict[str, Any], change: Callable[[dict[str, Any]], object], pattern: str
) -> None:
    bad = edit(good, change)
    with pytest.raises(RecordError, match=pattern):
        from_record(bad)
    with pytest.raises(RecordError, match=pattern):
        loads(json.dumps(bad))


def test_card_that_does_not_follow_suit_is_refused(good: dict[str, Any]) -> None:
    # find a seat that followed suit while holding another suit, and make it renege
    for r, rnd in enumerate(good["rounds"]):
        hands = [set(h) for h in rnd["hands"]]
        for t, trick in enumerate(rnd["tricks"]):
            led = trick["cards"][0][1]
            for i, card in enumerate(trick["cards"][1:], start=1):
                seat = (trick["leader"] + i) % 4
                off = sorted(c for c in hands[seat] if c[1] != led)
                if card[1] == led and off:
                    bad = copy.deepcopy(good)
                    bad["rounds"][r]["tricks"][t]["cards"][i] = off[0]
                    pattern = (rf"^round {r + 1}, trick {t + 1}: seat {seat} may not play "
                               rf"{off[0]}: you must follow ")
                    with pytest.raises(RecordError, match=pattern):
                        from_record(bad)
                    return
            for i, card in enumerate(trick["cards"]):
                hands[(trick["leader"] + i) % 4].discard(card)
    pytest.fail("no follow-suit situation found")


def test_renege_in_a_record_is_accepted_under_the_honour_rule_and_penalised() -> None:
    g = Game("honour record", 4, HONOUR, ["human"] * 4)
    while g.phase == BIDDING:
        g.bid(g.legal_bids()[0])
    for _ in range(3 * 4):
        if g.trick and g.legal_mask() != g.honest_mask():
            g.play(cards_of(g.legal_mask() & ~g.honest_mask())[0])
            break
        g.play(g.honest_cards()[0])
    assert sum(g.reneges) == 1
    again = loads(dumps(g))
    assert again.reneges == g.reneges
    strict = json.loads(dumps(g))
    strict["rules"]["renege_penalty"] = 0
    with pytest.raises(RecordError, match="you must follow"):
        from_record(strict)


@pytest.mark.parametrize("text,pattern", [
    ("{", r"^the record is not valid JSON \(line 1, column 2\)"),
    ("", r"^the record is not valid JSON "),
    ("not json", r"^the record is not valid JSON "),
    (b"\xff\xfe{", r"^the record is not UTF-8 text"),
    ("[]", r"^a game record must be a JSON object$"),
    ("null", r"^a game record must be a JSON object$"),
    ('"jabberwocky-game/1"', r"^a game record must be a JSON object$"),
])
def test_text_that_is_no_record_is_refused(text: str | bytes, pattern: str) -> None:
    with pytest.raises(RecordError, match=pattern):
        loads(text)


def test_truncated_record_text_is_refused(good: dict[str, Any]) -> None:
    text = json.dumps(good)
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        with pytest.raises(RecordError, match="not valid JSON"):
            loads(text[:cut])


def test_oversized_record_is_refused_before_parsing() -> None:
    with pytest.raises(RecordError, match=f"larger than {MAX_RECORD_BYTES} bytes"):
        loads(" " * (MAX_RECORD_BYTES + 1))


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, JabberwockyError) and issubclass(RecordError, ValueError)


@pytest.mark.parametrize("depth", [65, 10_000, 400_000])
def test_deeply_nested_json_is_refused_without_parsing(depth: int) -> None:
    # json.loads recurses per level in C: under Pyodide deep nesting would overflow the
    # WebAssembly stack and kill the interpreter, so it is refused before parsing.
    for text in ("[" * depth + "]" * depth, '{"format": ' + "[" * depth,
                 ("[" * depth).encode()):
        with pytest.raises(RecordError, match=r"nests lists or objects more than 64 levels"):
            loads(text)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    for seed in ("[" * 200, '{"[\\' * 40, "]" * 150 + "[" * 50):
        g = Game(seed, 3)
        g.bid(0)
        again = loads(dumps(g))
        assert again.seed == seed and to_record(again) == to_record(g)


# -- the bots version -------------------------------------------------------------------


def test_a_record_without_a_bots_version_loads_and_keeps_none(good: dict[str, Any]) -> None:
    old = {k: v for k, v in good.items() if k != "bots_version"}
    game = from_record(old)
    assert game.bots_version is None
    assert to_record(game) == old  # not claimed on export either


@pytest.mark.parametrize("version", ["jabberwocky-bots/1", "jabberwocky-bots/1234"])
def test_a_record_made_with_other_bots_loads_and_keeps_its_version(
    good: dict[str, Any], version: str
) -> None:
    game = from_record(dict(good, bots_version=version))
    assert game.bots_version == version
    assert to_record(game)["bots_version"] == version
    assert Game("new", 3).bots_version == BOTS_VERSION


@pytest.mark.parametrize("version", [
    "jabberwocky-bots/0", "jabberwocky-bots/", "bots/1", "jabberwocky-bots/1x",
    "Jabberwocky-bots/1", " jabberwocky-bots/1", "jabberwocky-bots/01",
    "jabberwocky-bots/" + "9" * 50, 1, None, True, ["jabberwocky-bots/1"]])
def test_a_bots_version_of_another_form_is_refused(good: dict[str, Any], version: object) -> None:
    with pytest.raises(RecordError, match=r"is not a bots version: write it like "
                                          r"'jabberwocky-bots/5'$") as exc:
        from_record(dict(good, bots_version=version))
    assert exc.value.code == "record.bots_version"
