"""Golden bot games: a shared link replays the same game, release after release.

The deals are pinned by ``tests/golden/deals.json``; the bots by ``tests/golden/bots.json``:
for every level at 3, 4 and 5 players (all seats that level), the SHA-256 of the whole
record of a game (see ``tests/golden/make_bots.py`` for the plan and why ``hard`` plays a
short schedule).  A changed digest means the bots decide differently: a record or link
made before would replay other bot moves, so :data:`BOTS_VERSION` must change with it.

Every game also runs under Pyodide (the whole set costs about 5 s there, the ``hard``
games most of it): the page's bots run in WebAssembly, so that is where a replay must
hold.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import pytest

from jabberwocky.bots import BOTS_VERSION
from jabberwocky.core.rules import Ruleset
from jabberwocky.formats.record import to_record

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import make_bots

GOLDEN = make_bots.load()
REGENERATE = (f"bump BOTS_VERSION in src/jabberwocky/core/levels.py and regenerate with "
              f"`{make_bots.COMMAND}`")
GAMES: list[dict[str, Any]] = GOLDEN["games"]


def test_the_golden_games_were_made_with_this_bots_version() -> None:
    assert GOLDEN["bots_version"] == BOTS_VERSION, (
        f"tests/golden/bots.json was made with {GOLDEN['bots_version']} but BOTS_VERSION is "
        f"{BOTS_VERSION}: regenerate it with `{make_bots.COMMAND}`")


def test_the_file_holds_the_whole_plan() -> None:
    """Every level at 3, 4 and 5 players, and nothing dropped from the plan."""
    listed = [{k: v for k, v in g.items() if k != "sha256"} for g in GOLDEN["games"]]
    assert listed == make_bots.plan(), f"the plan changed: regenerate with `{make_bots.COMMAND}`"
    assert {(g["level"], g["players"]) for g in listed} == {
        (level, n) for level in ("random", "easy", "medium", "learned", "hard")
        for n in (3, 4, 5)}


@pytest.mark.parametrize("entry", GAMES, ids=[g["seed"] for g in GAMES])
def test_a_golden_bot_game_replays_to_the_same_record(entry: dict[str, Any]) -> None:
    assert make_bots.digest(entry) == entry["sha256"], (
        f"bot behaviour changed ({entry['level']}, {entry['players']} players, seed "
        f"{entry['seed']!r}): records and links made before no longer replay; "
        f"if the change is intended, {REGENERATE}")


def test_a_changed_decision_changes_the_digest() -> None:
    """The check can fail: one bid different gives another digest."""
    entry = GOLDEN["games"][0]
    game = make_bots.play(entry["level"], entry["players"], Ruleset.from_dict(entry["rules"]),
                          entry["seed"])
    record = to_record(game)
    assert hashlib.sha256(make_bots.canonical(record)).hexdigest() == entry["sha256"]
    record["rounds"][0]["bids"][0] ^= 1
    assert hashlib.sha256(make_bots.canonical(record)).hexdigest() != entry["sha256"]
