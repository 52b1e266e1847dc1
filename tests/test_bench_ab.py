"""``bench/bots_ab.py``: the paired runs the bot figures come from.

The figures themselves are the bench's to print; this checks the bookkeeping they rest
on: which deals a run plays and what each game's line records.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bots_ab  # noqa: E402


def _seeds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, hero: str, others: str,
           deals: str = "") -> list[str]:
    """The game seeds a run of two games (5 and 6, seed ``t``, 4 players) uses."""
    seen: list[str] = []
    real = bots_ab.Game

    def recording(seed: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(seed)
        return real(seed, *args, **kwargs)

    monkeypatch.setattr(bots_ab, "Game", recording)
    out = tmp_path / "run.jsonl"
    bots_ab.run(out, 2, 5, 4, "t", hero, {}, others, {}, deals=deals)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["i"] for r in rows[:-1]] == [5, 6]
    assert rows[-1]["kind"] == "times"
    return seen


def test_a_run_names_its_deals_after_its_levels(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    assert _seeds(monkeypatch, tmp_path, hero="easy", others="random") == \
        ["t/easy-vs-3-random/5", "t/easy-vs-3-random/6"]


def test_deals_give_another_hero_the_same_games(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    assert _seeds(monkeypatch, tmp_path, hero="easy", others="random",
                  deals="hard-vs-3-medium") == \
        ["t/hard-vs-3-medium/5", "t/hard-vs-3-medium/6"]
