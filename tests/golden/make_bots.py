"""Golden bot games: the games that pin the bots' behaviour, and the script that makes them.

``python tests/golden/make_bots.py`` plays every game of :data:`PLAN` and writes
``tests/golden/bots.json``: for each, the level, the table size, the rules, the seed and
the SHA-256 of the game's whole canonical record, with the bots version they were made
with.  ``tests/test_bots_golden.py`` replays them: a shared link replays the same game
only while every bot decides as it did, so any change of a digest means the bots'
behaviour changed and :data:`~jabberwocky.bots.BOTS_VERSION` must be bumped.  The script
refuses to write digests that differ from the file's under the same bots version.

Every seat of a game is the game's level, and each game is played as the page plays it
(:func:`play`: an observation, the bot's ``act``, the referee's checked move).  ``random``,
``easy`` and ``medium`` play the whole Jabberwocky schedule under each preset, and
``learned`` too (a network's forward passes: milliseconds per decision, and the same
bits in CPython and Pyodide, which these games check); ``hard`` (a Monte Carlo bot:
seconds per game) plays all seats on a short schedule of
two rounds, 3 and 5 cards, one preset per table size, which still has every seat bid
(the dealer under the hook rule), lead and follow, and the deal pass to the next round.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILE = HERE / "bots.json"
SRC = HERE.parent.parent / "src"
if SRC.is_dir() and str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from jabberwocky.bots import BOTS_VERSION, make_bot  # noqa: E402
from jabberwocky.core.game import BIDDING, GAME_OVER, ROUND_OVER, Game  # noqa: E402
from jabberwocky.core.rules import PRESETS, Ruleset  # noqa: E402
from jabberwocky.formats.record import to_record  # noqa: E402

COMMAND = "python tests/golden/make_bots.py"
HARD_SCHEDULE = (3, 5)
HARD_PRESETS = {3: "jabberwocky", 4: "oh-hell", 5: "honour"}


def plan() -> list[dict[str, Any]]:
    """Every golden game: level, players, rules (in full) and seed."""
    games = []
    for level in ("random", "easy", "medium", "learned", "hard"):
        for players in (3, 4, 5):
            names = [HARD_PRESETS[players]] if level == "hard" else list(PRESETS)
            for name in names:
                rules = PRESETS[name]
                if level == "hard":
                    rules = rules.with_options(schedule=HARD_SCHEDULE, name=f"{name}-short")
                games.append({"level": level, "players": players, "rules": rules.to_dict(),
                              "seed": f"golden {level} {players} {name}"})
    return games


def play(level: str, players: int, rules: Ruleset, seed: str) -> Game:
    """A whole game with every seat ``level``, played as the facade's ``bot_step`` does."""
    game = Game(seed, players, rules, [level] * players)
    bots = [make_bot(level) for _ in range(players)]
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        seat = game.to_act
        assert seat is not None
        choice = bots[seat].act(game.observation(seat))
        if game.phase == BIDDING:
            game.bid(choice)
        else:
            game.play(choice)
    return game


def canonical(record: dict[str, Any]) -> bytes:
    """A record's canonical bytes: sorted keys, no spaces, UTF-8."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def digest(entry: dict[str, Any]) -> str:
    """The SHA-256 (hex) of the canonical record of ``entry``'s game."""
    game = play(entry["level"], entry["players"], Ruleset.from_dict(entry["rules"]),
                entry["seed"])
    return hashlib.sha256(canonical(to_record(game))).hexdigest()


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FILE.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    games = [dict(entry, sha256=digest(entry)) for entry in plan()]
    if FILE.exists():
        old = load()
        before = {g["seed"]: g["sha256"] for g in old["games"]}
        changed = [g["seed"] for g in games if before.get(g["seed"], g["sha256"]) != g["sha256"]]
        if changed and old["bots_version"] == BOTS_VERSION:
            sys.stderr.write(
                f"{len(changed)} golden games changed (first: {changed[0]!r}) but BOTS_VERSION "
                f"is still {BOTS_VERSION!r}: bump it in src/jabberwocky/core/levels.py "
                "first, so records and links made before say that their bots have changed.\n")
            return 1
    about = ("Golden bot games: every seat the level, played as the page plays it; sha256 "
             "of the canonical record (json.dumps(sort_keys=True, separators=(',', ':'), "
             f"ensure_ascii=False), UTF-8). Made by {COMMAND}; checked by "
             "tests/test_bots_golden.py.")
    lines = ",\n  ".join(json.dumps(g, ensure_ascii=False) for g in games)
    FILE.write_text(f'{{\n "about": {json.dumps(about)},\n "bots_version": '
                    f'{json.dumps(BOTS_VERSION)},\n "games": [\n  {lines}\n ]\n}}\n',
                    encoding="utf-8")
    print(f"wrote {len(games)} golden games for {BOTS_VERSION} to {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
