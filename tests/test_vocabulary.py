"""One vocabulary across the engine, the bots and the facade.

"legal" is what the rules allow now (reneges included under the honour rule), a
"renege" is a legal card that fails to follow suit, "honest" is legal and no renege
(what bots choose from).  The old names meant other things in other places, so none
of them may come back; and phases are compared as :class:`Phase` members, not strings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.phase import Phase
from jabberwocky.formats.record import to_record

SRC = Path(__file__).resolve().parent.parent / "src" / "jabberwocky"
RETIRED = re.compile(r"\b(strict_legal|playable_mask)\b")
PHASE_LITERAL = re.compile(
    r"""phase\s*(==|!=|not in|in)\s*[("']+(bidding|playing|round-over|game-over)""")


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_the_sources_are_there() -> None:
    assert len(sources()) > 20


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_retired_name_and_no_phase_compared_as_a_string(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not RETIRED.search(text), "strict_legal / playable_mask are honest / legal now"
    assert not PHASE_LITERAL.search(text), "compare phases with Phase members"


def test_the_checks_can_fail() -> None:
    assert RETIRED.search("obs.strict_legal") and RETIRED.search("g.playable_mask()")
    assert PHASE_LITERAL.search('if obs.phase == "bidding":')
    assert PHASE_LITERAL.search('obs.phase not in ("bidding", "playing")')
    assert not PHASE_LITERAL.search("if obs.phase == Phase.BIDDING:")


def test_phases_are_members_and_json_keeps_the_strings() -> None:
    assert list(Phase) == [BIDDING, PLAYING, ROUND_OVER, GAME_OVER]
    assert [p.value for p in Phase] == ["bidding", "playing", "round-over", "game-over"]
    g = Game("phases", 3)
    assert g.phase is Phase.BIDDING and g.observation(0).phase is Phase.BIDDING
    record = to_record(g)
    assert type(record["phase"]) is str and record["phase"] == "bidding"
