"""Every rule variant the rule data describes, for the equivalence tests of the fast paths.

Made from :func:`jabberwocky.core.rules.options_info` (the page's source of truth too) and
:data:`jabberwocky.core.rules.PRESETS`, never listed by hand: every preset; the Jabberwocky
preset with each value of each option; and every combination of the options that take
a few values, on a short schedule.  An option added to the rules is therefore in these
variants as soon as ``options_info`` describes it (and ``tests/test_rule_variants.py``
fails while it does not).
"""

from __future__ import annotations

import itertools
from typing import Any

from jabberwocky.core.rules import JABBERWOCKY, PRESETS, Ruleset, options_info, schedule_name

SHORT = (2, 5, 3)
"""The schedule of the combinations (short: there are many of them)."""


def option_values(name: str, info: dict[str, Any]) -> list[Any]:
    """The values of one option worth playing: all of a choice or a bool; for the
    schedule, every named one, the smallest and biggest hands, and a long one."""
    kind = info["kind"]
    if kind == "bool":
        return [False, True]
    if kind == "choice":
        return list(info["values"])
    if kind == "schedule":
        lo, hi = info["min_hand"], info["max_hand"]
        return [tuple(s) for s in info["named"].values()] + [
            (lo, hi, lo), (hi,), tuple(lo + i % 3 for i in range(info["max_rounds"]))]
    raise AssertionError(f"option {name}: kind {kind!r} has no values to test: add them here")


def variants() -> list[Ruleset]:
    """Presets, single-option variants and combinations, each ruleset once."""
    options = options_info()
    out: list[Ruleset] = list(PRESETS.values())
    for name, info in options.items():
        for value in option_values(name, info):
            out.append(JABBERWOCKY.with_options(**{name: value}, name=f"{name}={value}"[:40]))
    few = {name: option_values(name, info) for name, info in options.items()
           if info["kind"] in ("bool", "choice")}
    for combo in itertools.product(*few.values()):
        changes = dict(zip(few, combo, strict=True))
        out.append(JABBERWOCKY.with_options(schedule=SHORT, **changes, name="combination"))
    unique: dict[tuple[Any, ...], Ruleset] = {}
    for rules in out:
        unique.setdefault(tuple(sorted((k, str(v)) for k, v in rules.to_dict().items()
                                       if k != "name")), rules)
    return list(unique.values())


def label(rules: Ruleset) -> str:
    """A short test id: the options that differ from Jabberwocky's."""
    base = JABBERWOCKY.to_dict()
    diff = [f"{k}={v}" for k, v in rules.to_dict().items()
            if k not in ("name", "version") and v != base[k]]
    if rules.schedule != JABBERWOCKY.schedule:
        diff = [d for d in diff if not d.startswith("schedule=")]
        diff.insert(0, "schedule=" + schedule_name(rules.schedule)[:24])
    return ",".join(diff) or "jabberwocky"
