"""Every sentence the engine can produce has a code with an English template.

The codes are found in the sources (string literals such as ``"record.phase"`` and the
``f"{prefix}.too_deep"`` codes of :mod:`jabberwocky.formats.jsontext`, made for both prefixes).
"""

from __future__ import annotations

import re
from pathlib import Path

from jabberwocky.core.messages import english

SRC = Path(__file__).resolve().parent.parent / "src" / "jabberwocky"
PREFIXES = ("bot", "card", "challenge", "cli", "daily", "file", "move", "name", "openspiel",
            "record", "request", "review", "rules", "seed", "table", "tally")
LITERAL = re.compile(r"\"((?:" + "|".join(PREFIXES) + r")\.[a-z0-9_]+)\"")
PREFIXED = re.compile(r'f"\{prefix\}\.([a-z_]+)"')


def used_codes() -> set[str]:
    codes = {"internal"}
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(LITERAL.findall(text))
        codes |= {f"{p}.{s}" for s in PREFIXED.findall(text)
                  for p in ("record", "request", "tally")}
    return codes


def test_every_code_in_the_sources_has_an_english_template() -> None:
    codes = used_codes()
    assert len(codes) > 60
    missing = sorted(c for c in codes if c not in english())
    assert not missing


def test_the_scan_finds_the_prefixed_codes() -> None:
    assert {"record.too_deep", "request.too_deep", "request.json_constant",
            "seed.not_encodable", "seed.control"} <= used_codes()
