"""Third-party bots are first-class: registered or installed, they sit at a table, get the
observation and nothing else, and a bot that fails is named, with the game left as it was.

The example bot of docs/bots.md is run from the document itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from jabberwocky import bots
from jabberwocky.bots import (
    Bot,
    BotError,
    BotNameError,
    Hint,
    available_levels,
    make_bot,
    register,
    unregister,
)
from jabberwocky.bots.referee import bot_choice, bot_hint, bot_move
from jabberwocky.core.cards import Card, cards_of
from jabberwocky.core.errors import JabberwockyError, SeedError
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rng import Rng
from jabberwocky.core.rules import HONOUR, JABBERWOCKY
from jabberwocky.drivers.simulate import play_game
from jabberwocky.drivers.tournament import simulate
from jabberwocky.formats.record import loads, to_record
from jabberwocky.webapi import WebApi

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "bots.md"


def example_source() -> str:
    """The example bot's code block of docs/bots.md (the one defining GreedyBot)."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)
    found = [b for b in blocks if "class GreedyBot" in b]
    assert len(found) == 1, "docs/bots.md must hold the example bot in one python block"
    return found[0]


def example_module() -> ModuleType:
    module = ModuleType("greedy_bot")
    exec(compile(example_source(), str(DOC), "exec"), module.__dict__)
    return module


@pytest.fixture
def greedy() -> Iterator[type[Bot]]:
    cls: type[Bot] = example_module().GreedyBot
    register("greedy", cls)
    yield cls
    unregister("greedy")


@pytest.fixture
def registered() -> Iterator[Callable[[str, Callable[[], Bot]], None]]:
    names: list[str] = []

    def add(name: str, factory: Callable[[], Bot]) -> None:
        register(name, factory)
        names.append(name)

    yield add
    for name in names:
        unregister(name)


# -- the example bot ------------------------------------------------------------------


def test_the_documented_example_is_a_few_dozen_lines() -> None:
    lines = [line for line in example_source().splitlines() if line.strip()]
    assert 20 <= len(lines) <= 60


def test_the_example_bot_plays_whole_games_and_beats_random(greedy: type[Bot]) -> None:
    summary = simulate(4, 12, ["greedy", "random", "random", "random"], "docs-example")
    assert summary["failed"] == [] and summary["games"] == 12
    seat = summary["seats"][0]
    assert seat["level"] == "greedy"
    assert seat["exact_bid_rate"] > summary["seats"][1]["exact_bid_rate"]
    assert seat["decision_ms"]["count"] == 12 * (sum(JABBERWOCKY.schedule) + 13)


def test_records_name_the_level_as_given_and_replay_without_the_bot(greedy: type[Bot]) -> None:
    game = Game("named", 4, JABBERWOCKY, ["greedy", "medium", "greedy", "easy"])
    play_game(game, [make_bot(kind) for kind in game.seats])
    text = json.dumps(to_record(game))
    unregister("greedy")
    assert "greedy" not in available_levels()
    again = loads(text)  # the referee needs no bot: every move is in the record
    assert again.seats == ("greedy", "medium", "greedy", "easy")
    assert again.scores == game.scores and again.phase == GAME_OVER
    register("greedy", greedy)


def test_a_seed_replays_a_game_of_the_example_bot(greedy: type[Bot]) -> None:
    def one() -> dict[str, Any]:
        g = Game("replay", 3, HONOUR, ["greedy"] * 3)
        return to_record(play_game(g, [make_bot("greedy") for _ in range(3)]))

    assert one() == one()


def _reshuffled(game: Game, seat: int, rng: Rng) -> Game | None:
    """A copy of ``game`` with the cards ``seat`` cannot see dealt again (hand sizes and
    shown voids kept); ``None`` if no such deal turned up."""
    obs = game.observation(seat)
    unseen = cards_of(obs.unseen_mask())
    voids = obs.void_suits()
    for _ in range(200):
        rng.shuffle(unseen)
        hands = list(game.hands)
        i = 0
        ok = True
        for s in range(game.players):
            if s == seat:
                continue
            n = game.hands[s].bit_count()
            dealt = unseen[i:i + n]
            i += n
            if any(voids[s] >> (c // 13) & 1 for c in dealt):
                ok = False
                break
            hands[s] = sum(1 << c for c in dealt)
        if ok and hands != game.hands:
            twin = Game(game.seed, game.players, game.rules, list(game.seats))
            for name, value in vars(game).items():
                setattr(twin, name, list(value) if isinstance(value, list) else value)
            twin.hands = hands
            return twin
    return None


def test_the_example_bot_never_peeks(greedy: type[Bot]) -> None:
    rng = Rng(17)
    checked = 0
    game = Game("fair-greedy", 4, JABBERWOCKY, ["greedy"] * 4)
    players = [make_bot("greedy") for _ in range(4)]
    while game.phase != GAME_OVER:
        if game.phase in (BIDDING, PLAYING):
            seat: int = game.to_act  # type: ignore[assignment]
            twin = _reshuffled(game, seat, rng) if game.step % 2 else None
            if twin is not None:
                assert twin.observation(seat) == game.observation(seat)
                assert bot_choice(twin, make_bot("greedy")) == bot_choice(game, players[seat])
                checked += 1
            bot_move(game, players[seat])
        else:
            game.next_round()
    assert checked > 30


# -- what a bot is handed -------------------------------------------------------------


class Spy(Bot):
    """Plays like the first honest choice and keeps every argument it was handed."""

    level = "spy"
    seen: ClassVar[list[tuple[tuple[Any, ...], dict[str, Any]]]] = []

    def act(self, *args: Any, **kwargs: Any) -> int:
        Spy.seen.append((args, kwargs))
        obs = args[0]
        return obs.legal_bids[0] if obs.phase == BIDDING else obs.honest_cards()[0]


def _reachable(value: Any, out: list[Any]) -> None:
    """Every value reachable from ``value`` through fields, tuples, lists and dicts."""
    out.append(value)
    if isinstance(value, Observation):
        for name in value.__slots__:  # type: ignore[attr-defined]
            _reachable(getattr(value, name), out)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _reachable(item, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            _reachable(k, out)
            _reachable(v, out)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            _reachable(getattr(value, name), out)


def check_handed_only_the_observation(game: Game, seat: int, expected: Observation,
                                      handed: tuple[tuple[Any, ...], dict[str, Any]]) -> None:
    """``handed`` (what the bot got when ``seat`` was to act in ``game``, which has moved
    on by that move since) is the observation ``expected`` and nothing else, and nothing
    reachable from it is the game or the seed."""
    args, kwargs = handed
    assert kwargs == {} and len(args) == 1
    obs = args[0]
    assert type(obs) is Observation and obs == expected
    values: list[Any] = []
    _reachable(obs, values)
    assert not any(v is game for v in values)
    assert game.seed not in [v for v in values if isinstance(v, str)]


def test_a_registered_bot_is_handed_the_observation_and_nothing_else(registered: Any) -> None:
    registered("spy", Spy)
    Spy.seen.clear()
    game = Game("spy", 4, JABBERWOCKY, ["spy", "random", "spy", "medium"])
    players = [make_bot(kind) for kind in game.seats]
    checked = 0
    while game.phase != GAME_OVER:
        if game.phase in (BIDDING, PLAYING):
            seat: int = game.to_act  # type: ignore[assignment]
            expected = game.observation(seat)
            hidden = {game.hands[s] for s in range(game.players)
                      if s != seat and game.hands[s].bit_count() > 1}
            before = len(Spy.seen)
            bot_move(game, players[seat])
            if len(Spy.seen) > before:
                check_handed_only_the_observation(game, seat, expected, Spy.seen[-1])
                values: list[Any] = []
                _reachable(Spy.seen[-1][0][0], values)
                masks = {v for v in values if type(v) is int and v.bit_count() > 1}
                assert not hidden & masks, "another seat's hand is reachable"
                checked += 1
        else:
            game.next_round()
    assert checked > 100


def test_every_driver_hands_the_observation_only(registered: Any) -> None:
    registered("spy", Spy)
    Spy.seen.clear()
    # simulate's loop
    game = Game("drivers", 3, JABBERWOCKY, ["spy", "random", "random"])
    play_game(game, [make_bot("spy"), make_bot("random"), make_bot("random")])
    assert Spy.seen and all(len(a) == 1 and type(a[0]) is Observation and not k
                            for a, k in Spy.seen)
    # the web facade
    Spy.seen.clear()
    api = WebApi()
    api.new_game({"seed": "drivers", "players": 3, "bots": "spy"})
    game = api.game
    assert game is not None
    checked = 0
    for _ in range(30):
        if game.phase not in (BIDDING, PLAYING):
            api.next_round()
            continue
        if game.to_act == 0:
            if game.phase == BIDDING:
                api.bid({"bid": game.legal_bids()[0]})
            else:
                from jabberwocky.core.cards import card_name

                api.play({"card": card_name(game.honest_cards()[0])})
            continue
        seat: int = game.to_act  # type: ignore[assignment]
        expected = game.observation(seat)
        api.bot_step()
        check_handed_only_the_observation(game, seat, expected, Spy.seen[-1])
        checked += 1
    assert checked > 10
    # the terminal game
    import io

    from jabberwocky.drivers.terminal import TerminalGame

    Spy.seen.clear()
    answers = "".join(f"{i % 10}\n" for i in range(100))
    term = TerminalGame("drivers", 3, "spy", JABBERWOCKY, out=io.StringIO(),
                        inp=io.StringIO(answers))
    term.run()  # the human answers 0..9 in turn, then quits when the answers run out
    assert len(Spy.seen) > 10
    assert all(len(a) == 1 and type(a[0]) is Observation and not k for a, k in Spy.seen)


# -- level names ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Greedy", "greedy bot", "a,b", "", "9lives", "x" * 33,
                                  "trailing-", "double--dash", "human"])
def test_malformed_names_are_refused(name: str) -> None:
    with pytest.raises(BotNameError) as err:
        register(name, Spy)
    assert err.value.code == "bot.name"
    assert name not in available_levels()


@pytest.mark.parametrize("name", ["random", "easy", "medium", "learned", "hard"])
def test_built_in_names_are_refused_unless_replaced(name: str) -> None:
    with pytest.raises(BotNameError, match="names a built-in seat kind") as err:
        register(name, Spy)
    assert err.value.code == "bot.name_builtin"
    register(name, Spy, replace=True)
    try:
        assert type(make_bot(name)) is Spy
        assert available_levels()[:5] == ["random", "easy", "medium", "learned", "hard"]
    finally:
        unregister(name)
    assert type(make_bot(name)) is not Spy


def test_a_taken_name_is_refused_and_the_order_is_kept(registered: Any) -> None:
    registered("zeta", Spy)
    registered("alpha.one", Spy)
    with pytest.raises(BotNameError) as err:
        register("zeta", Spy)
    assert err.value.code == "bot.name_taken"
    assert available_levels() == ["random", "easy", "medium", "learned", "hard", "alpha.one",
                                  "zeta"]


def test_a_factory_must_be_callable_and_make_a_bot(registered: Any) -> None:
    with pytest.raises(BotNameError) as err:
        register("thing", 42)  # type: ignore[arg-type]
    assert err.value.code == "bot.not_callable"
    registered("notabot", lambda: "a string")  # type: ignore[arg-type, return-value]
    with pytest.raises(BotError, match="the bot 'notabot' was made as 'a string'") as made:
        make_bot("notabot")
    assert made.value.code == "bot.not_a_bot"

    def broken() -> Bot:
        raise RuntimeError("no model file")

    registered("broken", broken)
    with pytest.raises(BotError, match="could not be made: 'RuntimeError: no model file'"):
        make_bot("broken")


def test_an_unknown_level_names_the_known_ones(registered: Any) -> None:
    registered("mine", Spy)
    with pytest.raises(JabberwockyError,
                       match="choose one of random, easy, medium, learned, hard, mine"):
        make_bot("yours")


def test_game_seats_take_any_level_name_and_refuse_the_malformed() -> None:
    assert Game("seat-names", 3, JABBERWOCKY, ["human", "not-installed", "easy"]).seats[1] == \
        "not-installed"
    with pytest.raises(SeedError) as err:
        Game("seat-names", 3, JABBERWOCKY, ["human", "Not Installed", "easy"])
    assert err.value.code == "table.seat_name"


# -- bots that fail -------------------------------------------------------------------


class Scripted(Bot):
    """Plays honestly except at one decision (the ``at``-th it is asked), where it answers
    ``answer`` (or raises it, if it is an exception)."""

    level = "scripted"

    def __init__(self, at: int, answer: Any) -> None:
        self.at = at
        self.answer = answer
        self.asked = 0

    def act(self, obs: Observation) -> Any:
        self.asked += 1
        if self.asked == self.at:
            if isinstance(self.answer, BaseException):
                raise self.answer
            return self.answer(obs) if callable(self.answer) else self.answer
        return obs.legal_bids[-1] if obs.phase == BIDDING else obs.honest_cards()[-1]


def _not_following(obs: Observation) -> Card:
    """A card of the hand that does not follow the suit led (there is one when asked)."""
    led = obs.trick[0] // 13
    return next(c for c in cards_of(obs.hand) if c // 13 != led)


def _snapshot(game: Game) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in vars(game).items()}


FAILURES: list[tuple[str, Any, str, str]] = [
    ("raises in bidding", ZeroDivisionError("division by zero"), "bot.raised_bid",
     "at seat {seat} failed while choosing a bid: 'ZeroDivisionError: division by zero'"),
    ("answers None", None, "bot.not_a_bid", "answered None, which is not a bid"),
    ("answers True", True, "bot.not_a_bid", "answered True, which is not a bid"),
    ("bids too many", 7, "bot.illegal_bid",
     "bid 7, which is not allowed: a bid must be a whole number from 0 to 3, not 7"),
]


@pytest.mark.parametrize("name,answer,code,text", FAILURES, ids=[f[0] for f in FAILURES])
def test_a_failing_bid_is_named_and_the_game_is_left_as_it_was(
        name: str, answer: Any, code: str, text: str) -> None:
    game = Game("fail-bid", 4, JABBERWOCKY, ["human", "acme", "acme", "acme"])
    seat: int = game.to_act  # type: ignore[assignment]
    before = _snapshot(game)
    with pytest.raises(BotError) as err:
        bot_move(game, Scripted(1, answer))
    assert err.value.code == code
    assert err.value.params["bot"] == "'acme'" and err.value.params["seat"] == seat
    assert str(err.value).startswith("the bot 'acme' at seat")
    assert text.format(seat=seat) in str(err.value)
    assert _snapshot(game) == before


def _to_first_follow(game: Game, bots_: list[Bot]) -> None:
    """Play on until a seat to act must follow suit and holds another suit too."""
    while True:
        if game.phase == PLAYING and game.trick:
            obs = game.observation(game.to_act)  # type: ignore[arg-type]
            if obs.honest != obs.hand:
                return
        if game.phase not in (BIDDING, PLAYING):
            game.next_round()
            continue
        bot_move(game, bots_[game.to_act])  # type: ignore[index]


@pytest.mark.parametrize("answer,code,text", [
    (_not_following, "bot.illegal_card", "which is not allowed: you must follow"),
    ("QH", "bot.not_a_card", "answered 'QH', which is not a card"),
    (52, "bot.not_a_card", "answered 52, which is not a card"),
    (lambda obs: next(c for c in range(52) if not obs.hand >> c & 1), "bot.illegal_card",
     "which is not allowed: you do not hold the"),
    (KeyError("trump"), "bot.raised_card", "failed while choosing a card: \"KeyError: 'trump'\""),
], ids=["renege", "a name", "53rd card", "not held", "raises"])
def test_a_failing_card_is_named_and_the_game_is_left_as_it_was(
        answer: Any, code: str, text: str) -> None:
    game = Game("fail-card", 4, JABBERWOCKY, ["acme"] * 4)
    honest: list[Bot] = [Scripted(0, None) for _ in range(4)]
    _to_first_follow(game, honest)
    before = _snapshot(game)
    with pytest.raises(BotError) as err:
        bot_move(game, Scripted(1, answer))
    assert err.value.code == code, str(err.value)
    assert text in str(err.value)
    assert err.value.params["seat"] == game.to_act
    assert _snapshot(game) == before
    bot_move(game, honest[0])  # and the game goes on


def test_a_renege_is_a_legal_move_under_the_honour_rule() -> None:
    game = Game("honour-renege", 4, HONOUR, ["acme"] * 4)
    honest: list[Bot] = [Scripted(0, None) for _ in range(4)]
    _to_first_follow(game, honest)
    seat: int = game.to_act  # type: ignore[assignment]
    bot_move(game, Scripted(1, _not_following))
    assert game.reneges[seat] == 1


def test_integers_of_other_types_are_moves() -> None:
    class Index:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    game = Game("index", 4, JABBERWOCKY, ["acme"] * 4)
    assert bot_move(game, Scripted(1, Index(1))) == 1
    assert game.bids.count(1) == 1


def test_hints_are_checked_too() -> None:
    class BadHint(Bot):
        def hint(self, obs: Observation) -> Hint:
            return Hint("card", 0)

    game = Game("hint", 4, JABBERWOCKY, ["human", "acme", "acme", "acme"])
    while game.to_act != 0:
        bot_move(game, Scripted(0, None))
    with pytest.raises(BotError) as err:
        bot_hint(game, BadHint(), 0, "acme")
    assert err.value.code == "bot.bad_hint"


def test_simulate_counts_a_failed_game_and_goes_on(registered: Any) -> None:
    class FailsInOddGames(Bot):
        """Fails at its 5th decision in about one game in three (by the game's bot key)."""

        def __init__(self) -> None:
            self.asked = 0

        def act(self, obs: Observation) -> int:
            self.asked += 1
            if self.asked == 5 and obs.bot_key % 3 == 0:
                raise ValueError("I give up")
            return obs.legal_bids[0] if obs.phase == BIDDING else obs.honest_cards()[0]

    registered("flaky", FailsInOddGames)
    summary = simulate(4, 12, ["flaky", "random", "random", "random"], "flaky-run")
    failed = summary["failed"]
    assert failed, "some games fail"
    assert summary["games"] + len(failed) == 12
    assert [f["game"] for f in failed] == sorted(f["game"] for f in failed)
    for f in failed:
        assert f["seed"] == f"flaky-run/{f['game']}"
        assert f["code"] == "bot.raised_card" or f["code"] == "bot.raised_bid"
        assert f["params"]["bot"] == "'flaky'" and f["params"]["seat"] == 0
        assert "'ValueError: I give up'" in f["message"]
    # the games that did not fail count exactly as in a run of them alone
    assert sum(s["decision_ms"]["count"] for s in summary["seats"]) == \
        summary["games"] * 4 * (sum(JABBERWOCKY.schedule) + 13)


def test_a_bot_that_cannot_be_made_stops_the_run_before_any_game(registered: Any) -> None:
    def broken() -> Bot:
        raise ImportError("needs torch")

    registered("needs-torch", broken)
    with pytest.raises(BotError, match="the bot 'needs-torch' could not be made"):
        simulate(4, 3, ["needs-torch", "random", "random", "random"], "x")


def test_the_web_facade_answers_a_failing_bot_with_its_error(registered: Any) -> None:
    registered("liar", lambda: Scripted(1, 99))
    api = WebApi()
    view = json.loads(api.handle("new_game", '{"seed": "web-liar", "players": 4, "bots": "liar"}'))
    assert "result" in view
    assert api.game is not None
    before = json.dumps(to_record(api.game))
    if api.game.to_act == 0:
        api.handle("bid", json.dumps({"bid": api.game.legal_bids()[0]}))
        before = json.dumps(to_record(api.game))
    answer = json.loads(api.handle("bot_step", "{}"))
    err = answer["error"]
    assert err["kind"] == "BotError" and err["code"] == "bot.illegal_bid"
    assert err["params"]["bot"] == "'liar'" and err["params"]["reason"]["code"] == "move.bid_range"
    assert json.dumps(to_record(api.game)) == before
    assert json.loads(api.handle("levels", "{}"))["result"]["default"] == "medium"


def test_the_web_facade_imports_a_record_of_a_level_it_does_not_have(greedy: type[Bot]) -> None:
    game = Game("import-greedy", 4, JABBERWOCKY, ["human", "greedy", "greedy", "greedy"])
    game.bid(game.legal_bids()[0])  # the page imports records that hold a move
    api = WebApi()
    text = json.dumps(to_record(game))
    unregister("greedy")
    view = json.loads(api.handle("import_record", json.dumps({"record": text})))["result"]
    assert view["seats"] == ["human", "medium", "medium", "medium"]
    register("greedy", greedy)


# -- installed packages (entry points) ------------------------------------------------


def make_package(where: Path, name: str = "greedy_bot", level: str = "greedy",
                 source: str | None = None, dist: str = "greedy-bot") -> None:
    """A package with a ``jabberwocky.bots`` entry point, as pip would install it: the
    module and a ``*.dist-info`` directory with METADATA and entry_points.txt."""
    (where / f"{name}.py").write_text(source if source is not None else example_source(),
                                      "utf-8")
    info = where / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n",
                                   "utf-8")
    (info / "entry_points.txt").write_text(
        f"[jabberwocky.bots]\n{level} = {name}:GreedyBot\n", "utf-8")


@pytest.fixture
def on_path(tmp_path: Path) -> Iterator[Path]:
    sys.path.insert(0, str(tmp_path))
    bots.rescan()
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for mod in [m for m in sys.modules if m.startswith(("greedy_bot", "broken_bot"))]:
        del sys.modules[mod]
    bots.rescan()


@pytest.mark.skipif(sys.platform == "emscripten",
                    reason="the browser's engine lists no installed packages (docs/bots.md)")
def test_an_installed_package_offers_its_level(on_path: Path) -> None:
    make_package(on_path)
    bots.rescan()
    assert "greedy" in available_levels()
    assert type(make_bot("greedy")).__name__ == "GreedyBot"
    summary = simulate(4, 2, ["greedy", "easy", "easy", "easy"], "installed")
    assert summary["seats"][0]["level"] == "greedy" and summary["failed"] == []


@pytest.mark.skipif(sys.platform == "emscripten",
                    reason="the browser's engine lists no installed packages (docs/bots.md)")
def test_installed_packages_with_bad_names_are_not_offered_and_say_why(on_path: Path) -> None:
    make_package(on_path, "greedy_bot", "medium", dist="takes-medium")
    make_package(on_path, "greedy_bot2", "twice", dist="first-twice")
    make_package(on_path, "greedy_bot3", "twice", dist="second-twice")
    make_package(on_path, "greedy_bot4", "Bad Name", dist="bad-name")
    make_package(on_path, "broken_bot", "broken", source="raise ImportError('no numpy')\n",
                 dist="broken-bot")
    bots.rescan()
    levels = available_levels()
    assert "twice" not in levels and "Bad Name" not in levels and "broken" in levels
    assert type(make_bot("medium")).__name__ == "MediumBot"  # the built-in one
    problems = {m.code: str(m) for m in bots.plugin_problems()}
    assert set(problems) == {"bot.name", "bot.name_builtin", "bot.name_ambiguous"}
    assert "(first-twice, second-twice)" in problems["bot.name_ambiguous"]
    with pytest.raises(BotNameError, match="more than one installed package"):
        make_bot("twice")
    with pytest.raises(BotError, match="the bot 'broken' of the package 'broken-bot' could not "
                                       "be loaded: 'ImportError: no numpy'"):
        make_bot("broken")
    with pytest.raises(BotNameError, match="already registered or installed"):
        register("broken", Spy)


def run_cli(*args: str, path: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(ROOT / "src")])}
    return subprocess.run([sys.executable, "-m", "jabberwocky", *args], capture_output=True,
                          text=True, env=env, input=stdin, timeout=300, check=False)


@pytest.mark.needs_subprocess
def test_simulate_and_play_take_an_installed_bot(tmp_path: Path) -> None:
    make_package(tmp_path)
    record = tmp_path / "games.jsonl"
    proc = run_cli("simulate", "--games", "3", "--bots", "greedy,medium,greedy,random", "--json",
                   "--record", str(record), "--seed", "cli-greedy", path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert [s["level"] for s in summary["seats"]] == ["greedy", "medium", "greedy", "random"]
    assert all(json.loads(line)["seats"] == ["greedy", "medium", "greedy", "random"]
               for line in record.read_text("utf-8").splitlines())
    # the record checks where the bot is not installed
    one = tmp_path / "one.json"
    one.write_text(record.read_text("utf-8").splitlines()[0], "utf-8")
    checked = run_cli("check", str(one), path=tmp_path / "nowhere")
    assert checked.returncode == 0, checked.stderr
    # play: the human answers 0..9 in turn (one of them is always allowed), then quits
    answers = "".join(f"{i % 10}\n" for i in range(400))
    played = run_cli("play", "--bots", "greedy", "--seed", "term", path=tmp_path, stdin=answers)
    assert played.returncode == 0, played.stderr
    assert "you against 3 greedy bots" in played.stdout
    assert "Bot 1 bids" in played.stdout and "Bot 2 plays" in played.stdout
    # an unknown level is a usage error naming the installed one
    unknown = run_cli("simulate", "--bots", "greedier", path=tmp_path)
    assert unknown.returncode == 2
    assert "choose one of random, easy, medium, learned, hard, greedy" in unknown.stderr


@pytest.mark.needs_subprocess
def test_the_cli_reports_failed_games_with_status_3(tmp_path: Path) -> None:
    source = textwrap.dedent("""
        from jabberwocky.bots import Bot

        class GreedyBot(Bot):
            def act(self, obs):
                if obs.round_index == 2 and obs.bot_key % 2:
                    return "QH"
                return obs.legal_bids[0] if obs.legal_bids else obs.honest_cards()[0]
    """)
    make_package(tmp_path, source=source, level="quirky")
    proc = run_cli("simulate", "--games", "8", "--bots", "quirky,random,random,random",
                   "--seed", "quirky", path=tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert "games of 8 failed and were left out:" in proc.stdout
    assert re.search(r"\n  game \d+ \(seed 'quirky/\d+'\): the bot 'quirky' at seat 0",
                     proc.stdout)
    assert "answered 'QH', which is not a bid" in proc.stdout
    assert "Traceback" not in proc.stderr
    js = run_cli("simulate", "--games", "8", "--bots", "quirky,random,random,random",
                 "--seed", "quirky", "--json", path=tmp_path)
    assert js.returncode == 3 and "failed and were left out" in js.stderr
    assert json.loads(js.stdout)["failed"]
    # play stops at the failing bot with the message and status 3, the record kept
    out = tmp_path / "stopped.json"
    answers = "".join(f"{i % 10}\n" for i in range(400))
    for seed in ("a", "b", "c", "d"):
        played = run_cli("play", "--bots", "quirky", "--seed", seed, "--record", str(out),
                         path=tmp_path, stdin=answers)
        if played.returncode == 3:
            break
    assert played.returncode == 3, played.stdout[-500:]
    assert "error: the bot 'quirky' at seat" in played.stderr
    assert "Traceback" not in played.stderr
    assert loads(out.read_text("utf-8")).round_index == 2
