"""Rule options declared once (:data:`jabberwocky.core.rules.RULE_OPTIONS`): the ruleset,
its JSON, the challenge codec and the OpenSpiel parameters all follow the declaration, and
the words it names are in every catalogue."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from jabberwocky.adapters.openspiel import DEFAULTS, params_from
from jabberwocky.core.rules import JABBERWOCKY, OPTIONS, RULE_OPTIONS, Ruleset, rules_info
from jabberwocky.formats.challenge import Challenge, Table, decode

CATALOGUES = sorted((Path(__file__).resolve().parent.parent / "web" / "i18n").glob("*.json"))


def test_every_ruleset_field_is_declared_once_in_order() -> None:
    fields = [f.name for f in dataclasses.fields(Ruleset) if f.name != "name"]
    assert [o.field for o in RULE_OPTIONS] == fields
    assert list(rules_info()["options"]) == fields
    assert list(JABBERWOCKY.to_dict())[2:] == fields
    for key in ("link", "setting"):
        names = [getattr(o, key) for o in RULE_OPTIONS]
        assert len(set(names)) == len(names), key


def test_what_the_page_reads() -> None:
    options = rules_info()["options"]
    for option in RULE_OPTIONS:
        entry = options[option.field]
        assert entry["field"] == option.field and entry["link"] and entry["setting"]
        assert entry["control"] in ("schedule", "checkbox", "select")
        assert "label" in entry["words"]
        if entry["control"] == "schedule":
            continue
        assert entry["default"] in entry["values"]
        assert len(entry["link_values"]) == len(entry["values"])
        assert all(re.fullmatch(r"[a-z0-9-]{1,30}", v) for v in entry["link_values"])
        if entry["control"] == "checkbox":
            assert len(entry["values"]) == 2 and entry["checked"] in entry["values"]
    assert options["hook"]["values"] == [True, False]
    assert options["hook"]["link_values"] == ["on", "off"]
    assert options["renege_penalty"]["link_values"] == ["0", "3"]
    assert options["renege_penalty"]["checked"] == 3


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_the_words_of_every_option_are_in_every_catalogue(path: Path) -> None:
    words = json.loads(path.read_text(encoding="utf-8"))
    for option in RULE_OPTIONS:
        keys = [option.words["label"]]
        for template in (option.words.get("value"), option.words.get("short")):
            if template:
                keys += [template.replace("{value}", v) for v in option.link_values] \
                    if "{value}" in template else [template]
        for key in keys:
            assert key in words, f"{path.name}: {key} ({option.field})"


def test_a_value_must_have_its_own_type() -> None:
    for option in RULE_OPTIONS[1:]:
        for value in option.values:
            assert option.allows(value)
    assert not OPTIONS["hook"].allows(1) and not OPTIONS["renege_penalty"].allows(False)
    assert not OPTIONS["trump_lead"].allows("sometimes")


def _every_custom_ruleset() -> list[Ruleset]:
    out = [JABBERWOCKY.with_options()]
    for option in RULE_OPTIONS[1:]:
        out = [r.with_options(**{option.field: v}) for r in out for v in option.values]
    return out


def test_the_challenge_codec_reads_back_every_combination() -> None:
    bits = [o.bit for o in RULE_OPTIONS[1:]]
    assert sorted(bits) == list(range(len(bits))), "one bit each, never reused"  # type: ignore[type-var]
    for rules in _every_custom_ruleset():
        table = Table("codec", 4, ("human", "random", "random", "random"), rules)
        game = table.new_game()
        game.bid(game.legal_bids()[0])
        text = Challenge.of_game(game, None).text
        assert decode(text).table.rules == rules


def test_openspiel_takes_every_option_by_its_field() -> None:
    assert set(DEFAULTS) == {"players", "deal", "seed", *OPTIONS}
    for rules in _every_custom_ruleset():
        values = {o.field: getattr(rules, o.field) for o in RULE_OPTIONS[1:]}
        assert params_from(values).rules == rules
