"""Hostile input: a clear message and a safe default, never a crash or a stuck page.

A corpus of malformed link fragments, corrupt saved games and imported records that
break the rules.  For each: a message is shown (visible text), the page ends in a
playable state (a game in ``bidding`` on which the human can act), no uncaught page
error occurs, and nothing the input carried becomes HTML (no element, no handler run).

One browser context per corpus, so the service worker and the engine's memory snapshot
make each reload fast; every case is checked and all failures are reported together.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import SAVE_KEY, act, fast_prefs, message_text, set_storage, view

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.bots import make_bot  # noqa: E402
from jabberwocky.core.errors import RecordError  # noqa: E402
from jabberwocky.core.game import GAME_OVER, ROUND_OVER, Game  # noqa: E402
from jabberwocky.formats import record as records  # noqa: E402

INJECT = "<img src=x onerror=window.__pwned=1>"
BOOT = 90.0

# (name, fragment, a message is expected)
FRAGMENTS: list[tuple[str, str, bool]] = [
    ("99 players", "#players=99", True),
    ("players as words", "#players=three&seed=words", True),
    ("10,000-character seed", "#seed=" + "x" * 10_000, True),
    ("500-character seed", "#seed=" + "y" * 500 + "&players=3", True),
    ("bad percent-encoding", "#seed=%E0%A4%A&players=4", True),
    ("truncated escape", "#seed=abc%&players=4", True),
    ("control characters", "#seed=%00%1B%7F&players=3", True),
    ("unknown keys", "#colour=blue&admin=1&seed=unknown-keys", True),
    ("markup in bots", "#bots=" + INJECT, True),
    ("prototype names", "#rules=__proto__&bots=constructor", True),
    ("markup in the seed (a valid seed)", "#seed=" + INJECT.replace(" ", "%20"), False),
    ("only separators", "#&&&=&=", False),
]


def _play_rounds(game: Game, rounds: int) -> Game:
    bot = make_bot("random")
    while game.round_index < rounds and game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        seat = game.to_act
        assert seat is not None
        action = bot.act(game.observation(seat))
        (game.bid if game.phase == "bidding" else game.play)(action)
    return game


def _refused(data: dict[str, Any]) -> str:
    text = json.dumps(data)
    with pytest.raises(RecordError):
        records.from_record(json.loads(text))
    return text


def broken_records() -> dict[str, str]:
    """Records that break the rules, each checked to be refused by the engine."""
    good = records.to_record(_play_rounds(Game("hostile-record", players=3), 1))
    out: dict[str, str] = {}

    hook = copy.deepcopy(good)
    r1 = hook["rounds"][0]
    # Everyone else bids 0 and the dealer bids the hand size: the bids total the tricks.
    r1["bids"] = [r1["hand_size"] if s == r1["dealer"] else 0 for s in range(3)]
    out["the dealer's bid makes the total (hook rule)"] = _refused(hook)

    not_held = copy.deepcopy(good)
    trick = not_held["rounds"][0]["tricks"][0]
    seat = (trick["leader"] + 1) % 3
    foreign = next(c for s, h in enumerate(not_held["rounds"][0]["hands"]) if s != seat
                   for c in h)
    trick["cards"][1] = foreign
    out["a card played that the player does not hold"] = _refused(not_held)

    swapped = copy.deepcopy(good)
    hands = swapped["rounds"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    out["hands that are not the seed's deal"] = _refused(swapped)

    too_many = copy.deepcopy(good)
    too_many["players"] = 9
    out["nine players"] = _refused(too_many)

    seats = copy.deepcopy(good)
    seats["seats"] = ["human", INJECT, "random"]
    out["markup as a seat"] = _refused(seats)

    out["not a game record"] = _refused({"format": "something-else/9", "seed": INJECT})
    out["not JSON"] = "{\"format\": \"jabberwocky-game/1\", "
    return out


def valid_record(seed: str) -> str:
    return records.dumps(_play_rounds(Game(seed, players=3), 1))


# -- per-case checks --------------------------------------------------------------------


class Cases:
    """Runs cases on one page and collects every failure."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.failures: list[str] = []
        self.current = ""
        self.page_errors: list[str] = []
        page.on("pageerror", lambda exc: self.page_errors.append(f"{self.current}: {exc}"))

    def run(self, name: str, check: Callable[[], None]) -> None:
        self.current = name
        try:
            check()
        except Exception as exc:  # collect every case's failure, then report them all
            self.failures.append(f"{name}: {type(exc).__name__}: {str(exc)[:300]}")

    def finish(self) -> None:
        problems = self.failures + [f"uncaught page error in {e}" for e in self.page_errors]
        if problems:
            pytest.fail(f"{len(problems)} hostile-input problem(s):\n  " +
                        "\n  ".join(problems), pytrace=False)


def no_injection(page: Page) -> None:
    assert page.evaluate("() => document.querySelector('img[src=\"x\"]') === null"), \
        "markup from the input became an element"
    assert page.evaluate("() => window.__pwned === undefined"), "injected code ran"


def playable(page: Page) -> None:
    """A game is on the table in bidding and the human's bid goes through."""
    wait_for_phase(page, "bidding", BOOT)
    start = view(page)["step"]
    for _ in range(200):
        if act(page):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the human never got to bid")
    for _ in range(100):
        if view(page)["step"] > start:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the human's bid did not register")


def fresh_load(page: Page, url: str) -> None:
    page.goto("about:blank")
    page.goto(url)


@pytest.fixture
def hostile_page(new_context: Any, site_server: SiteServer) -> Page:
    context: BrowserContext = new_context()
    page = context.new_page()
    set_storage(page, site_server.url, fast_prefs())
    return page


@pytest.mark.allow_console_errors
def test_malformed_fragments(hostile_page: Page, site_server: SiteServer) -> None:
    page, url = hostile_page, site_server.url
    cases = Cases(page)
    for name, fragment, expect_message in FRAGMENTS:
        def check(fragment: str = fragment, expect_message: bool = expect_message,
                  name: str = name) -> None:
            page.goto(url + "build.json")
            page.evaluate("(k) => localStorage.removeItem(k)", SAVE_KEY)
            fresh_load(page, url + fragment)
            wait_for_phase(page, "bidding", BOOT)
            if expect_message:
                assert message_text(page), "no message"
            no_injection(page)
            v = view(page)
            assert 3 <= v["players"] <= 5 and v["seed"]
            assert len(v["seed"]) <= 120, f"a {len(v['seed'])}-character seed was accepted"
            if name.startswith("markup in the seed"):
                assert v["seed"] == INJECT
            playable(page)
        cases.run(name, check)
    cases.finish()


@pytest.mark.allow_console_errors
def test_corrupt_saves(hostile_page: Page, site_server: SiteServer) -> None:
    page, url = hostile_page, site_server.url
    options = {"seed": "hostile-record", "players": 3, "bots": "random"}
    saves = {
        "not JSON": "{not json",
        "a number": "42",
        "wrong format": json.dumps({"format": "other/1", "record": "{}", "options": options}),
        "record is not a record": json.dumps(
            {"format": "jabberwocky-save/1", "options": options, "record": "{\"format\": 1}"}),
        "record too large": json.dumps(
            {"format": "jabberwocky-save/1", "options": options, "record": "x" * 1_200_000}),
    }
    for name, text in broken_records().items():
        saves[f"record: {name}"] = json.dumps(
            {"format": "jabberwocky-save/1", "options": options, "record": text})
    cases = Cases(page)
    for name, text in saves.items():
        def check(text: str = text) -> None:
            page.goto(url + "build.json")
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, text])
            fresh_load(page, url)
            wait_for_phase(page, ("bidding", "playing"), BOOT)
            assert message_text(page), "no message"
            no_injection(page)
            stored = page.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY)
            assert stored != text, "the corrupt save is still stored"
            playable(page)
        cases.run(name, check)

    def markup_seed() -> None:  # a valid save whose seed is markup: restored, shown as text
        page.goto(url + "build.json")
        saved = {"format": "jabberwocky-save/1", "record": valid_record(INJECT),
                 "options": {"seed": INJECT, "players": 3, "bots": "random"}}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, json.dumps(saved)])
        fresh_load(page, url)
        wait_for_phase(page, ("bidding", "playing"), BOOT)
        assert view(page)["seed"] == INJECT
        no_injection(page)
    cases.run("valid save with a markup seed", markup_seed)
    cases.finish()


@pytest.mark.allow_console_errors
def test_imported_records_that_break_the_rules(hostile_page: Page,
                                               site_server: SiteServer) -> None:
    page, url = hostile_page, site_server.url
    page.goto(url + "build.json")
    page.evaluate("(k) => localStorage.removeItem(k)", SAVE_KEY)
    fresh_load(page, url + "#seed=import-target&players=4&bots=random")
    wait_for_phase(page, "bidding", BOOT)
    wait_for_dataset(page, "yourTurn", "true", BOOT)  # the bots have bid: nothing moves now
    cases = Cases(page)
    corpus = broken_records()
    corpus["over 1 MB"] = " " * 1_100_000
    for name, text in corpus.items():
        def check(text: str = text) -> None:
            before = view(page)
            page.evaluate("() => { const t = document.getElementById('toast');"
                          " if (t) { t.hidden = true; t.textContent = ''; } }")
            page.set_input_files("#import-file", files=[{
                "name": "record.json", "mimeType": "application/json",
                "buffer": text.encode()}])
            message = message_text(page)
            assert message, "no message"
            # the file is checked first: a bad one is refused without "Load this record?"
            assert not page.locator("#dlg-confirm").is_visible(), "asked about a bad file"
            no_injection(page)
            after = view(page)
            assert after["seed"] == before["seed"] == "import-target", \
                "the game in progress was replaced"
            assert after["step"] == before["step"]
            assert page.evaluate("() => document.body.dataset.phase") in ("bidding", "playing")
        cases.run(name, check)
    cases.run("still playable", lambda: playable(page))
    cases.finish()
