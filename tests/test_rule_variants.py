"""The fast paths follow every rule variant exactly as the referee does.

The rules are applied in three places: the referee (:class:`Game`), the all-random loop
(:mod:`jabberwocky.bots.fastplay`, behind ``simulate``; ``simulate.play_game`` also plays
``random`` seats on its own fast path among slow ones) and the ``hard`` bot's playouts
(:mod:`jabberwocky.bots.playout`).  The fast paths earn their keep (simulations, and the
thousands of tricks of each ``hard`` decision), so they stay; these tests keep them
honest.  The variants come from the rule data (``tests/rule_variants.py``), and the
first test fails if a ruleset field has no entry there, so a new option cannot escape.
"""

from __future__ import annotations

import dataclasses

import pytest
from rule_variants import label, option_values, variants
from test_bots_hard import mid_round_positions, small_bot
from test_fastplay import ObservingRandom, fast_game, slow_game

from jabberwocky.bots.base import Bot
from jabberwocky.bots.fastplay import finish_round_randomly
from jabberwocky.bots.playout import from_rm, mask_to_rm, play_out, to_rm
from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.core.game import BIDDING, PLAYING, Game
from jabberwocky.core.rules import PRESETS, Ruleset, options_info
from jabberwocky.drivers.simulate import play_game
from jabberwocky.formats.record import to_record

VARIANTS = variants()
IDS = [label(r) for r in VARIANTS]
TABLES = [(r, n) for r in VARIANTS for n in (3, 4, 5)]
TABLE_IDS = [f"{label(r)}/{n}p" for r, n in TABLES]


def test_every_ruleset_field_is_described_by_the_rule_data() -> None:
    fields = {f.name for f in dataclasses.fields(Ruleset)} - {"name"}
    described = set(options_info())
    assert fields <= described, f"options_info() does not describe {sorted(fields - described)}"
    assert described <= fields, f"options_info() describes no field {sorted(described - fields)}"


def test_the_variants_cover_every_preset_and_every_option_value() -> None:
    assert len(set(IDS)) == len(IDS)
    dicts = [r.to_dict() for r in VARIANTS]
    for preset in PRESETS.values():
        assert any({**d, "name": ""} == {**preset.to_dict(), "name": ""} for d in dicts)
    for name, info in options_info().items():
        for value in option_values(name, info):
            want = list(value) if isinstance(value, tuple) else value
            assert any(d[name] == want for d in dicts), (name, value)


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
def test_the_all_random_loop_plays_the_referees_games(rules: Ruleset, players: int) -> None:
    seeds = 3 if len(rules.schedule) > 3 else 10
    for i in range(seeds):
        seed = f"variant {i}"
        assert to_record(fast_game(seed, players, rules)) == to_record(
            slow_game(seed, players, rules))


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_random_seats_among_slow_ones_play_the_referees_games(rules: Ruleset) -> None:
    bots: list[Bot] = [ObservingRandom(), RandomBot(), ObservingRandom(), RandomBot()]
    game = play_game(Game("variant mixed", 4, rules, ["random"] * 4), bots)
    assert to_record(game) == to_record(slow_game("variant mixed", 4, rules))


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
def test_playouts_follow_the_referee(rules: Ruleset, players: int) -> None:
    """Every card of a playout is an honest card for the referee, the tricks agree."""
    for g in mid_round_positions(3, rules, players):
        while g.phase == BIDDING:
            g.bid(g.legal_bids()[0])
        played: list[int] = []
        taken = play_out([mask_to_rm(h) for h in g.hands], g.trump_suit, g.leader,
                         [to_rm(c) for c in g.trick], g.broken, list(g.taken),
                         [b or 0 for b in g.bids], rules.trump_lead == "after-broken", played)
        for c in played:
            card = from_rm(c)
            assert g.honest_mask() >> card & 1, (label(rules), g.seed)
            g.play(card)
        assert g.phase != PLAYING and taken == g.taken


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_hard_decides_within_the_rules(rules: Ruleset) -> None:
    """A bid and cards from ``hard`` (small budgets) at a few positions: legal bids,
    honest cards, under every variant."""
    bot = small_bot()
    for g in mid_round_positions(2, rules, 4):
        for _ in range(3):
            if g.phase not in (BIDDING, PLAYING):
                break
            obs = g.observation(g.to_act)  # type: ignore[arg-type]
            choice = bot.act(obs)
            if g.phase == BIDDING:
                assert choice in g.legal_bids()
                g.bid(choice)
            else:
                assert g.honest_mask() >> choice & 1
                g.play(choice)


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.honour_rule],
                         ids=[label(r) for r in VARIANTS if r.honour_rule])
def test_the_all_random_loop_scores_a_renege_made_before_it_took_over(rules: Ruleset) -> None:
    """Under the honour rule a human may renege; the fast loop then finishes the round
    and must score the penalty as the referee does."""
    found = 0
    for i in range(20):
        slow = Game(f"renege {i}", 4, rules, ["random"] * 4)
        fast = Game(f"renege {i}", 4, rules, ["random"] * 4)
        for g in (slow, fast):
            while g.phase == BIDDING:
                g.bid(g.legal_bids()[0])
            while g.phase == PLAYING and not g.legal_mask() & ~g.honest_mask():
                g.play(g.honest_cards()[0])
        if slow.phase != PLAYING:
            continue
        renege = (slow.legal_mask() & ~slow.honest_mask()).bit_length() - 1
        for g in (slow, fast):
            g.play(renege)
        found += 1
        bot = RandomBot()
        while slow.phase == PLAYING:
            slow.play(bot.act(slow.observation(slow.to_act)))  # type: ignore[arg-type]
        finish_round_randomly(fast)
        assert to_record(fast) == to_record(slow)
        assert sum(slow.results[-1].reneges) >= 1
    assert found >= 5


def test_the_comparison_sees_a_rule_change() -> None:
    """The records compared above differ as soon as one option does (the check can
    fail): the same seeds under another trump-lead rule or scoring give other games."""
    base = PRESETS["jabberwocky"]
    for other in (base.with_options(trump_lead="any-time"),
                  base.with_options(scoring="exact-10-plus-bid"), base.with_options(hook=False)):
        assert any(to_record(fast_game(f"variant {i}", 4, other))["rounds"]
                   != to_record(slow_game(f"variant {i}", 4, base))["rounds"] for i in range(5))
